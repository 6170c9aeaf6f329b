// Fine-tuning terms set by the training stack (docs/methodology.md "Fine-tuning stacks: LoRA
// dropout, LitGPT's loss, bitsandbytes 4-bit matmuls").
#include "memory/memory_finetune_stack.h"

#include <algorithm>
#include <string_view>

#include "memory/element_bytes.h"
#include "memory/lora.h"
#include "memory/memory.h"
#include "model/precision.h"

namespace gpusizer {
namespace {

// LitGPT lora.py / adapter.py: model(input_ids, lm_head_chunk_size=128) returns the bf16 logits as
// a list of 128-token chunks that the loop keeps (`logits`) through the backward, and
// utils.chunked_cross_entropy runs F.cross_entropy on each bf16 chunk, whose log_softmax output
// (bf16) is saved for the backward: 2 + 2 bytes at the end of the forward. In the backward the
// chunks' logit gradients (bf16) join the kept logits as the log-softmax outputs are released:
// again 2 + 2.
constexpr double kLitgptLossBytes = 2 + 2;
// Lightning Fabric's bitsandbytes plugin quantises with weight.contiguous().to(device="cuda",
// dtype=torch.half) (fabric/plugins/precision/bitsandbytes.py _Linear4bit._quantize_weight), so the
// quant state's dtype is fp16 and bitsandbytes' MatMul4Bit dequantises to fp16 and then casts with
// .to(A.dtype) (autograd/_functions.py): an fp16 and a bf16 copy during the cast.
constexpr double kLightningDequantCopies = 2;

// bitsandbytes quantize_4bit without compress_statistics: 4-bit codes and one fp32 absmax per block
// of 64 weights (blocksize=64; Dettmers et al. 2023, QLoRA sec. 3: 32/64 = 0.5 bit per parameter).
constexpr double kNf4SingleQuantBytes = (4.0 + 32.0 / 64) / 8;

bool is_lora_task(const Scenario& s) { return s.task == Task::Lora || s.task == Task::Qlora; }

bool lightning_quantizer(const Scenario& s) {
  return s.task == Task::Qlora && s.engine_options.bnb_quantizer == "lightning" && !s.model.tied_embeddings;
}

// Modules that read the same input tensor as an earlier module of the list: k and v read q's
// input; a gated MLP's up reads the gate's input; MLA's kv_a reads q_a's input.
bool shares_previous_input(const Architecture& a, std::string_view name) {
  if (name == "k" || name == "v") return true;
  if (a.mlp == MlpKind::Gated && (name == "up" || name == "expert_up" || name == "shared_up")) return true;
  return name == "kv_a" && a.mla.q_lora_rank > 0;
}

}  // namespace

double litgpt_loss_bytes_per_entry() { return kLitgptLossBytes; }

double lora_dropout_layer_bytes(const Scenario& s, double tokens) {
  const std::string& mode = s.engine_options.lora_dropout;
  if (!is_lora_task(s) || mode == "none" || s.training.lora_rank <= 0) return 0;
  const Architecture& a = s.model;
  // PEFT: every adapted nn.Linear has its own nn.Dropout ("per-module"). LitGPT lora.py:
  // LoRAQKVLinear applies one lora_dropout to the fused qkv input; proj, fc_1, fc_2 and the MLP's
  // proj are separate LoRALinear modules, one dropout each ("litgpt").
  const bool fused_qkv = mode == "litgpt";
  double elements = 0;
  bool qkv_counted = false;
  for (const LinearModule& m : linear_modules(a)) {
    if (!lora_targets_module(m, s.training.lora_targets)) continue;
    const bool qkv = m.name == "q" || m.name == "k" || m.name == "v";
    if (fused_qkv && qkv) {
      if (qkv_counted) continue;
      qkv_counted = true;
    }
    elements += d(m.in) * d(m.active_count);
  }
  // With engine_options.adapter_saves the dropped-out input is the adapter-dtype copy that
  // peft_adapter_token_bytes already counts (the cast input goes through the dropout and lora_A keeps
  // its output): only the masks are added here.
  const double per_element = peft_frozen_base(s) ? kMaskBytes : kHalf + kMaskBytes;
  return tokens * elements / d(a.layers) * per_element;
}

bool peft_frozen_base(const Scenario& s) {
  return is_lora_task(s) && s.engine_options.adapter_saves.has_value();
}

double peft_adapter_token_bytes(const Scenario& s) {
  if (!peft_frozen_base(s)) return 0;
  const Architecture& a = s.model;
  const std::string& mode = *s.engine_options.adapter_saves;
  double bytes = 0;
  for (const LinearModule& m : linear_modules(a)) {
    if (!lora_targets_module(m, s.training.lora_targets)) continue;
    const double copies = d(m.active_count);
    if (mode == "fp32-input" || mode == "fp32-input-and-delta") {
      // The adapter dtype is fp32: PEFT's autocast_adapter_dtype=True (the default of get_peft_model)
      // keeps 16-bit adapters in fp32 (tuners_utils.py cast_adapter_dtype).
      // peft BaseTunerLayer._cast_input_dtype (tuners_utils.py): x.to(adapter dtype) in each adapted
      // module's forward (lora/layer.py Linear.forward, loha/lokr _get_delta_activations, ...), so
      // every module makes its own fp32 copy even where modules share an input, and the trainable
      // matmul that reads it saves it for its weight gradient.
      bytes += copies * kFp32 * d(m.in);
    } else if (mode == "ia3") {
      // ia3/layer.py Linear.forward: a feed-forward module scales its input, x.to(fp32) * ia3_l,
      // which saves the fp32 input for ia3_l's gradient; any other module scales its 16-bit output,
      // (result * ia3_l), which saves that output. MLP modules are the feed-forward ones here
      // (peft's Llama default feedforward_modules = ["down_proj"], the only MLP target it adapts).
      const bool feedforward = m.group == "mlp" || m.group == "experts";
      bytes += copies * (feedforward ? kFp32 * d(m.in) : kHalf * d(m.out));
    }
    // The first adapter matmul's r-wide fp32 output, kept by the second (lora_B's input).
    if (mode != "ia3") bytes += copies * kFp32 * d(std::max<int64_t>(0, s.training.lora_rank));
  }
  return bytes / d(a.layers);
}

double peft_delta_weight_layer_bytes(const Scenario& s) {
  if (!peft_frozen_base(s) || *s.engine_options.adapter_saves != "fp32-input-and-delta") return 0;
  // get_delta_weight builds the whole out x in update in fp32 (loha/lokr/fourierft/peanut/waveft
  // layer.py, MiSS "bat": orig_weight + delta) and F.linear(x, delta_w) saves it for x's gradient.
  double elements = 0;
  for (const LinearModule& m : linear_modules(s.model)) {
    if (lora_targets_module(m, s.training.lora_targets)) elements += d(m.in) * d(m.out) * d(m.count);
  }
  return kFp32 * elements / d(s.model.layers) / d(s.tp);
}

double bnb_prev_step_input_bytes(const Scenario& s) {
  if (s.task != Task::Qlora || !s.engine_options.bnb_prev_step_inputs.value_or(false)) return 0;
  const Architecture& a = s.model;
  // bitsandbytes < 0.43.2 MatMul4Bit.forward stores ctx.tensors = (A, B) whenever A needs a grad
  // (removed by PR #1270, 0.43.2): an attribute of the autograd node, not save_for_backward, so the
  // backward does not release it. LitGPT's loop keeps `loss` and `logits` bound until the next step
  // reassigns them, so the previous step's graph, and with it one input tensor per 4-bit matmul,
  // is alive through the next forward (finetune/lora.py fit). Distinct inputs per layer: the
  // attention input, the output projection's input, the MLP input and the down projection's input.
  double elements = 0;
  for (const LinearModule& m : linear_modules(a)) {
    if (m.group == "router" || shares_previous_input(a, m.name)) continue;
    elements += d(m.in) * d(m.active_count);
  }
  // The first layer's attention input is the norm of the frozen embedding: it needs no grad and
  // is not kept. Under the Lightning plugin the lm_head is 4-bit and keeps its input (hidden).
  elements -= d(a.hidden);
  if (lightning_quantizer(s)) elements += d(a.hidden);
  const double tokens = d(s.batch) * d(s.seq_len);
  return tokens * kHalf * std::max(0.0, elements) * stage_layer_share(s);
}

namespace {
bool single_quant(const Scenario& s) {
  return s.task == Task::Qlora && s.weights == WeightFormat::Nf4 &&
         !s.engine_options.bnb_double_quant.value_or(true);
}
// Bytes per parameter of a 4-bit linear as the run stores it.
double four_bit_bytes_per_param(const Scenario& s) {
  if (single_quant(s)) return kNf4SingleQuantBytes;
  return linear_bytes_per_weight(s.model, s.weights);
}
}  // namespace

double lightning_bnb_head_weight_delta(const Scenario& s) {
  if (!lightning_quantizer(s)) return 0;
  return count_params(s.model).lm_head * (four_bit_bytes_per_param(s) - kHalf) / d(s.tp);
}

double bnb_single_quant_weight_delta(const Scenario& s) {
  if (!single_quant(s)) return 0;
  const ParamCounts p = count_params(s.model);
  return p.linear * stage_layer_share(s) *
         (kNf4SingleQuantBytes - linear_bytes_per_weight(s.model, s.weights));
}

double bnb_dequant_copy_bytes(const Scenario& s) {
  if (!is_quantized(s.weights) || !is_lora_task(s)) return 0;
  double largest = 0;
  for (const LinearModule& m : linear_modules(s.model)) largest = std::max(largest, d(m.in) * d(m.out));
  double copies = 1;
  if (lightning_quantizer(s)) {
    largest = std::max(largest, count_params(s.model).lm_head);
    copies = kLightningDequantCopies;
  }
  return copies * kHalf * largest / d(s.tp);
}

}  // namespace gpusizer
