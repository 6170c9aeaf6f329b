// Training activations: what each layer keeps for its backward (Korthikanti et al. 2022,
// arXiv:2205.05198, sec. 4, generalized to gated MLPs, GQA, MLA and MoE), checkpointing,
// pipeline in-flight micro-batches and the logits/loss buffers.
#include <algorithm>
#include <string>

#include "memory/element_bytes.h"
#include "memory/lora.h"
#include "memory/memory.h"
#include "memory/memory_backward.h"
#include "memory/memory_finetune_stack.h"
#include "memory/memory_fused_ce.h"
#include "memory/memory_training.h"

namespace gpusizer {
namespace {

// Logits and loss per token and vocabulary entry. HF causal-LM loss (transformers
// ForCausalLMLoss, torchtune without chunking) ends the forward with bf16 logits (2), their fp32
// upcast (4) and the fp32 log-softmax saved for the backward (4) = 10; its backward peaks higher:
// nll_loss_backward writes a dense fp32 gradient (4) and log_softmax_backward_data(grad_output,
// output) a new fp32 grad_input (4) beside the saved output (4) = 12, the bf16 logits and the
// upcast being freed by then (aten/src/ATen/native LossNLL.cpp, SoftMax.cpp). Megatron's fused
// vocab-parallel cross entropy (tensor_parallel/cross_entropy.py): bf16 logits (2) and one fp32
// copy reused for the softmax and its gradient in place (4).
constexpr double kHfLogitBytes = 4 + 4 + 4;
constexpr double kMegatronLogitBytes = 2 + 4;
// torchtune CEWithChunkedOutputLoss(num_output_chunks=8) (torchtune/modules/loss/ce_chunked_output_loss.py).
constexpr double kCeChunks = 8;

// Attention projections' saved tensors per token (elements): Q, K, V for the score/flash kernel
// and the output projection's input (Korthikanti: 2sbh each for Q, K, V and the o input).
double attention_split_elements(const Architecture& a) {
  const Mla& m = a.mla;
  if (m.kv_lora_rank > 0) {  // DeepSeek-V2 eq. 9-14: also the compressed q/kv inputs of q_b, kv_b
    const double qk = d(a.heads * (m.qk_nope_head_dim + m.qk_rope_head_dim));
    const double v = d(a.heads * m.v_head_dim);
    return d(m.q_lora_rank) + d(m.kv_lora_rank) + 2 * qk + 2 * v;
  }
  return d(2 * a.heads * a.head_dim + 2 * a.kv_heads * a.head_dim);
}

// One MLP of width i: plain (GELU) keeps the activation's input and output (Korthikanti 8sbh +
// 8sbh for i = 4h); gated (SwiGLU) keeps gate, up, act(gate) and their product (4 x 2i). The last
// of these is the down projection's input, which a frozen down projection does not keep (autograd
// saves a matmul's input only for its weight's gradient: tools/autograd/derivatives.yaml, mm's
// "mat2: mm_mat2_backward(grad, self, ...)" is the only formula that reads self, and codegen saves
// self only when mat2 requires grad).
double mlp_elements(const Architecture& a, double width, bool frozen_base = false) {
  return width * ((a.mlp == MlpKind::Gated ? 4 : 2) - (frozen_base ? 1 : 0));
}

// MoE layer: router logits (16-bit) and fp32 routing probabilities per expert; each of the top-k
// experts gets a dispatched copy of the token, its MLP intermediates and its output; shared
// experts see every token.
double moe_split_bytes(const Architecture& a, double eb, bool frozen) {
  const double h = d(a.hidden);
  const double shared_width =
      d(a.shared_expert_intermediate > 0 ? a.shared_expert_intermediate : a.expert_intermediate);
  const double router = d(a.experts) * (eb + kFp32);
  const double routed =
      d(a.experts_per_token) * eb * (2 * h + mlp_elements(a, d(a.expert_intermediate), frozen));
  return router + routed + d(a.shared_experts) * eb * mlp_elements(a, shared_width, frozen);
}

// MLP bytes per token averaged over the layers (DeepSeek/GLM-style leading dense layers).
double mlp_split_bytes(const Architecture& a, double eb, bool frozen) {
  const double dense = eb * mlp_elements(a, d(a.intermediate), frozen);
  if (a.experts == 0) return dense;
  const double moe_layers = d(a.layers - a.dense_layers);
  return (d(a.dense_layers) * dense + moe_layers * moe_split_bytes(a, eb, frozen)) / d(a.layers);
}

// LoRA keeps lora_A's r-wide output per targeted module copy (its input is the base input).
double lora_split_bytes(const Architecture& a, const ActivationLayout& l) {
  // Under engine_options.adapter_saves the adapters' own tensors are adapter_token_bytes.
  if (l.frozen_base) return l.adapter_token_bytes;
  if (l.lora_rank <= 0) return 0;
  double modules = 0;
  for (const LinearModule& m : linear_modules(a)) {
    if (lora_targets_module(m, l.lora_targets)) modules += d(m.active_count);
  }
  return l.element_bytes * l.lora_rank * modules / d(a.layers);
}

}  // namespace

double layer_activation_bytes(const Architecture& a, const ActivationLayout& l) {
  const double h = d(a.hidden);
  // Replicated under TP without SP (Korthikanti's "10"): the norms' inputs, the attention and MLP
  // inputs, the two dropout masks. HF RMSNorm upcasts and saves an fp32 copy of its input.
  const double eb = l.element_bytes;
  const double norm_in = l.fp32_norm_input ? kFp32 * h : eb * h;
  // The attention and MLP inputs (2 x 2sbh) are kept for the q/k/v and up/gate weights' gradients:
  // a frozen base (engine_options.adapter_saves) does not keep them.
  // Under kbit_fp32_upcast the fp32 norm weights make the norms' outputs (the attention and MLP
  // inputs) fp32, and the 4-bit linears return fp32 for an fp32 input (bitsandbytes 0.43
  // Linear4bit.forward: out.to(inp_dtype)), so the MLP's tensors are fp32 too.
  const double stream_eb = l.fp32_stream ? kFp32 : eb;
  double replicated = d(a.norms_per_layer) * norm_in + (l.frozen_base ? 0 : 2 * stream_eb * h);
  if (l.dropout) replicated += 2 * kMaskBytes * h;
  const double split = eb * attention_split_elements(a) + mlp_split_bytes(a, stream_eb, l.frozen_base) +
                       lora_split_bytes(a, l);
  // Scores without FlashAttention: softmax output (2 bytes), and with dropout its mask (1) and
  // the dropped-out scores (2): Korthikanti's 5as^2b.
  const double score_bytes = l.dropout ? 2 * eb + kMaskBytes : eb;
  const double scores = l.flash_attention ? 0 : d(a.heads) * l.seq_len * score_bytes;
  const double replicated_share = l.sequence_parallel ? l.tp : 1;
  return l.tokens * (replicated / replicated_share + (split + scores) / l.tp);
}

double checkpoint_activation_bytes(const Architecture& a, const ActivationLayout& l) {
  // Full recomputation keeps each layer's input, 2sbh (Korthikanti sec. 4.3), /t with SP.
  return l.tokens * l.element_bytes * d(a.hidden) / (l.sequence_parallel ? l.tp : 1);
}

ActivationLayout activation_layout(const Scenario& s) {
  ActivationLayout l;
  l.tokens = d(s.batch) * d(s.seq_len);
  l.seq_len = d(s.seq_len);
  l.tp = d(s.tp);
  // Activations in the compute dtype: 16-bit (mixed or pure), fp32 for fp32 full training.
  l.element_bytes = s.weights == WeightFormat::Fp32 ? kFp32 : kHalf;
  // Assumption: Megatron runs TP with --sequence-parallel (its recommended setting); others do not.
  l.sequence_parallel = s.engine == Engine::Megatron && s.tp > 1;
  // Selective recomputation drops exactly the score tensors (Korthikanti sec. 5), as flash does.
  l.flash_attention = s.flash_attention || s.training.grad_checkpointing == Checkpointing::Selective;
  // Assumption: GELU-MLP models (GPT-2, BERT, Megatron GPT) train with dropout 0.1 in their
  // configs; gated (Llama-family) models set attention/hidden dropout to 0.
  l.dropout = s.model.mlp == MlpKind::Plain;
  // HF LlamaRMSNorm: hidden_states.to(float32) is saved for the backward; Megatron's fused norm
  // kernels save the 16-bit input.
  l.fp32_norm_input = s.model.norm == NormKind::Rms && s.engine != Engine::Megatron;
  if (s.task == Task::Lora || s.task == Task::Qlora) {
    l.lora_rank = d(s.training.lora_rank);
    l.lora_targets = s.training.lora_targets;
    l.frozen_base = peft_frozen_base(s);
    l.adapter_token_bytes = peft_adapter_token_bytes(s);
    l.fp32_stream = s.task == Task::Qlora && s.engine_options.kbit_fp32_upcast.value_or(false);
  }
  return l;
}

double logits_bytes(const Scenario& s) {
  const double tokens = d(s.batch) * d(s.seq_len);
  const std::string& ce = s.engine_options.cross_entropy;
  // Liger FusedLinearCrossEntropy: one chunk of logits at a time, the hidden states' gradient
  // computed in the forward and kept (memory_fused_ce.cpp).
  if (ce == "fused") return fused_ce_bytes(s);
  double per_entry = s.engine == Engine::Megatron ? kMegatronLogitBytes : kHfLogitBytes;
  if (ce == "inplace") {
    // unsloth's Fast_CrossEntropyLoss (vendored by fms-acceleration's fused-ops-and-kernels):
    // saves the logits it is given and its backward kernel stores the gradient into them in place
    // (tl.store(logits_ptr ...)); only an fp32 logsumexp per row besides. It receives the model's
    // fp32 upcast of the logits (4) sliced into a shifted contiguous copy (4); in the backward the
    // gradient is scattered back into the unshifted shape (4) as the copy is released: 8 bytes.
    per_entry = kFp32 + kFp32;
  }
  if (ce == "chunked") {
    // torchtune CEWithChunkedOutputLoss: the bf16 logits (2) stay whole; the fp32 upcast and
    // log-softmax (4 + 4) exist for one of its 8 chunks at a time (num_output_chunks = 8).
    per_entry = kHalf + (kFp32 + kFp32) / kCeChunks;
  }
  if (ce == "litgpt") per_entry = litgpt_loss_bytes_per_entry();  // memory_finetune_stack.cpp
  return tokens * d(s.model.vocab) / d(s.tp) * per_entry;
}

double recompute_working_bytes(const Scenario& s) {
  if (s.training.grad_checkpointing != Checkpointing::Full) return 0;
  const ActivationLayout l = activation_layout(s);
  // The rebuilt layer's saved tensors and, at its backward's peak, the gradients beside them.
  return layer_activation_bytes(s.model, l) + recompute_backward_transient_bytes(s.model, l);
}

double fsdp_retained_checkpoint_bytes(const Scenario& s) {
  // Reentrant checkpointing around an FSDP unit whose flat parameter is frozen (LoRA/QLoRA base).
  // torch.utils.checkpoint CheckpointFunction.backward reruns the unit on detach_variable(inputs),
  // new leaf tensors sharing the saved inputs' storage. FSDP's pre-forward then calls
  // _register_post_backward_reshard_only_hook (torch/distributed/fsdp/_runtime_utils.py: frozen
  // flat parameters only), which hooks those leaves with register_multi_grad_hook
  // (torch/autograd/graph.py); its closure holds _get_grad_fn_or_grad_acc(leaf), the leaf's
  // AccumulateGrad node, which owns the leaf, and the leaf's .grad is accumulated by that node.
  // The handle lives on flat_param._post_backward_hook_state until _finalize_params removes it at
  // the end of the backward, so every layer's input (2sbh) and its input gradient (2sbh) stay
  // allocated until then: at the first layer's backward, L inputs and L - 1 gradients.
  const bool lora = s.task == Task::Lora || s.task == Task::Qlora;
  if (s.engine != Engine::Fsdp || !lora || s.training.grad_checkpointing != Checkpointing::Full ||
      !s.engine_options.checkpoint_wraps_fsdp.value_or(false)) {
    return 0;
  }
  const double layers = d(layers_on_busiest_stage(s));
  return (2 * layers - 1) * checkpoint_activation_bytes(s.model, activation_layout(s));
}

double training_activation_bytes(const Scenario& s) {
  const ActivationLayout l = activation_layout(s);
  const double layer = layer_activation_bytes(s.model, l);
  const bool full = s.training.grad_checkpointing == Checkpointing::Full;
  const double stored = full ? checkpoint_activation_bytes(s.model, l) : layer;
  // kbit_fp32_upcast: from the second layer on, each layer's input (what full recomputation keeps) is
  // the fp32 residual stream (the first layer's MLP adds its fp32 output to the bf16 embedding):
  // 2 more bytes per element than the 16-bit input checkpoint_activation_bytes counts.
  const double fp32_inputs = full && l.fp32_stream ? std::max(0.0, d(layers_on_busiest_stage(s)) - 1) *
                                                         checkpoint_activation_bytes(s.model, l) *
                                                         (kFp32 - l.element_bytes) / l.element_bytes
                                                   : 0;
  // Under full recomputation one layer's activations are rebuilt at a time during the backward,
  // with its backward's own gradients beside them (memory_backward.cpp); by then the logits are
  // freed, so the two do not add.
  const double work = full ? layer + recompute_backward_transient_bytes(s.model, l) : 0;
  const double stage = d(layers_on_busiest_stage(s)) * stored + fp32_inputs;
  const double last = stage + std::max(work, logits_bytes(s));
  if (s.pp == 1) return last;
  // 1F1B: the first stage holds min(pp, micro-batches) micro-batches in flight (Korthikanti
  // sec. 4.2.3); the last stage one micro-batch and the logits.
  const double in_flight = d(std::min(s.pp, s.training.grad_accum));
  return std::max(stage * in_flight + work, last);
}

}  // namespace gpusizer
