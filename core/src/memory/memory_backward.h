// The backward's own working tensors in the layer being rebuilt under full recomputation
// (memory_backward.cpp; docs/methodology.md, "The recomputed layer's backward").
#pragma once

#include "memory/memory_training.h"
#include "model/architecture.h"

namespace gpusizer {

// Bytes the backward of one recomputed layer holds beside that layer's saved activations at its
// peak (the MLP's gated product): the layer output's gradient, the output the recompute rebuilt,
// and the gradients of the MLP's inner tensors.
double recompute_backward_transient_bytes(const Architecture& a, const ActivationLayout& l);

}  // namespace gpusizer
