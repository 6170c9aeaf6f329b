// What the backward of a recomputed layer allocates beside the activations it rebuilt: the tensors
// alive at its peak, read from PyTorch's autograd and torch.utils.checkpoint (docs/methodology.md,
// "The recomputed layer's backward").
#include "memory/memory_backward.h"

#include <algorithm>

#include "memory/element_bytes.h"

namespace gpusizer {
namespace {

// Per token, in elements, the MLP gradients alive at the MLP backward's peak beyond the saved
// activations. Gated (down(act(gate) * up)): the down projection's backward writes the product's
// gradient (i); MulBackward0 then writes the gradients of both factors (i each) before the engine
// releases its inputs, while the product's own storage is already gone (saved by down only, freed
// after its node ran): +2i over the saved set, whether or not down's weight is frozen (a frozen
// down_proj never saves the product: saved set - i, transient + 3i). Plain (fc2(act(fc1))): fc2's
// backward writes the activation output's gradient (i), the activation's backward its input's
// gradient (i), the saved activation output freed after fc2 ran: +i.
double mlp_transient_elements(const Architecture& a, double width) {
  return width * (a.mlp == MlpKind::Gated ? 2 : 1);
}

// The widest MLP whose backward runs at once. Dense: the intermediate. MoE (HF loops over experts
// one at a time, each on its share of the tokens, top-k of E on average: MixtralSparseMoeBlock
// .forward; shared experts see every token): the widest of the dense leading layers, the shared
// experts, and one routed expert's tokens.
double mlp_transient_width(const Architecture& a) {
  if (a.experts == 0) return d(a.intermediate);
  const double shared_width =
      d(a.shared_expert_intermediate > 0 ? a.shared_expert_intermediate : a.expert_intermediate);
  const double routed = d(a.expert_intermediate) * d(a.experts_per_token) / d(a.experts);
  double w = std::max(d(a.shared_experts) * shared_width, routed);
  if (a.dense_layers > 0) w = std::max(w, d(a.intermediate));
  return w;
}

}  // namespace

double recompute_backward_transient_bytes(const Architecture& a, const ActivationLayout& l) {
  const double eb = l.element_bytes;
  // torch.utils.checkpoint CheckpointFunction.backward (reentrant, transformers' default
  // use_reentrant=True) reruns the layer, keeps its rebuilt `outputs` and calls
  // torch.autograd.backward(outputs, args) with `args`, the gradient of the layer output: two
  // h-wide tensors for the whole backward of the layer (replicated under TP unless SP splits them).
  const double h_part = 2 * eb * d(a.hidden) / (l.sequence_parallel ? l.tp : 1);
  // The MLP's inner gradients are split like its columns under TP.
  const double mlp_part = eb * mlp_transient_elements(a, mlp_transient_width(a)) / l.tp;
  return l.tokens * (h_part + mlp_part);
}

}  // namespace gpusizer
