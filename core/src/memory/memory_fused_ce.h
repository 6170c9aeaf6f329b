// Liger's fused linear cross-entropy: the loss path's buffers (memory_fused_ce.cpp).
#pragma once

#include "scenario/scenario.h"

namespace gpusizer {

// Rows of one chunk of LigerFusedLinearCrossEntropy: next_power_of_2(ceil(BT / ceil(V / H))),
// at most BT (liger_kernel/ops/fused_linear_cross_entropy.py fused_linear_cross_entropy_forward).
double fused_ce_chunk_rows(double bt, double vocab, double hidden);
// Bytes alive at the peak of its forward (engine_options.cross_entropy = "fused").
double fused_ce_bytes(const Scenario& s);

}  // namespace gpusizer
