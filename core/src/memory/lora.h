// Which linear modules LoRA adapts, and the adapters' trainable parameters.
#pragma once

#include <cstdint>

#include "model/architecture.h"
#include "scenario/scenario.h"

namespace gpusizer {

// Whether LoRA's `targets` include linear module `m` (all-linear: every block linear but the
// router; attention: q, k, v, o and the MLA projections; qv: q and v, MLA q_b and kv_b).
bool lora_targets_module(const LinearModule& m, LoraTargets targets);
// LoRA / QLoRA adapters: trainable parameters of the whole model, r * (in + out) per module copy.
double lora_params(const Architecture& a, LoraTargets targets, int64_t rank);

}  // namespace gpusizer
