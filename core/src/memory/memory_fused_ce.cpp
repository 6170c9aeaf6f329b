// Liger's fused linear cross-entropy (engine_options.cross_entropy = "fused"): what its forward
// allocates, read from the version fms-acceleration vendors (plugins/fused-ops-and-kernels
// fused_ops/liger_ce/fused_linear_cross_entropy_loss.py @733992a, Liger-Kernel of 2024-11;
// lce_forward replaces LlamaForCausalLM / MistralForCausalLM .forward in training) and the same
// chunking in Liger-Kernel's liger_kernel/ops/fused_linear_cross_entropy.py (docs/methodology.md,
// "Fused linear cross-entropy").
#include "memory/memory_fused_ce.h"

#include <algorithm>
#include <cmath>

#include "memory/element_bytes.h"

namespace gpusizer {
namespace {

double next_power_of_2(double x) { return std::pow(2.0, std::ceil(std::log2(std::max(1.0, x)))); }

}  // namespace

double fused_ce_chunk_rows(double bt, double vocab, double hidden) {
  // inc_factor = triton.cdiv(V, H); chunk_size = triton.next_power_of_2(triton.cdiv(BT, inc_factor)).
  const double inc_factor = std::ceil(vocab / hidden);
  return std::min(bt, next_power_of_2(std::ceil(bt / inc_factor)));
}

double fused_ce_bytes(const Scenario& s) {
  // lce_forward: shift_hidden_states = hidden_states[..., :-1, :].contiguous(): BT = b (s - 1)
  // rows, a copy of the hidden states alive through the loss call.
  const double bt = d(s.batch) * d(s.seq_len - 1);
  const double h = d(s.model.hidden);
  const double v = d(s.model.vocab);
  const double eb = s.weights == WeightFormat::Fp32 ? kFp32 : kHalf;  // the model's compute dtype
  // Per chunk entry: logits_chunk = _input_chunk @ weight.t() (eb), .float() (4) beside it, later
  // .to(dtype) (eb) beside the fp32 one, then grad_logits_chunk = logits_chunk * alpha (eb) beside
  // the downcast: max(eb + 4, 2 eb) (fp32: .float() and .to() return the tensor itself).
  // The loss accumulator loss_1d and the upcast logits chunk are fp32.
  const double chunk = fused_ce_chunk_rows(bt, v, h) * v * std::max(eb + kFp32, 2 * eb);
  // grad_input = torch.zeros_like(_input), filled chunk by chunk and saved for the backward,
  // beside the shifted copy it was made from; loss_1d = torch.zeros(BT, dtype=float32).
  const double rows = bt * (2 * eb * h + kFp32);
  // grad_weight = torch.zeros_like(weight) when the lm_head trains (full fine-tuning,
  // pre-training): a V x H gradient made in the forward and saved for the backward.
  const bool head_trains = s.task == Task::Full || s.task == Task::Pretrain;
  const double grad_weight = head_trains ? v * h * eb : 0;
  return chunk + rows + grad_weight;
}

}  // namespace gpusizer
