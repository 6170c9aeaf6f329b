// Quantized-weight kernels under transformers-style engines: the checkpoint's group size, the
// kernels' own buffers and dequantisation scratch (docs/methodology.md, "Quantized-kernel buffers").
#include "memory/memory_quant.h"

#include <algorithm>
#include <cmath>

#include "memory/element_bytes.h"
#include "memory/memory.h"
#include "model/architecture.h"
#include "model/precision.h"

namespace gpusizer {
namespace {

// precision.cpp's GPTQ/AWQ group (kGroup): the format's bytes already hold one scale and zero per 128.
constexpr double kDefaultGroup = 128;
constexpr double kScaleBits = 16;  // fp16 scale per group and output column (AutoGPTQ/AutoAWQ scales)
// exllama kernels' default input length for their buffers: AutoGPTQ EXLLAMA_DEFAULT_MAX_INPUT_LENGTH
// (auto_gptq/modeling/_const.py), turboderp/exllama ExLlamaConfig.max_input_len, transformers
// AwqConfig exllama_config max_input_len (utils/quantization_config.py).
constexpr int64_t kExllamaMaxInputLen = 2048;
// transformers AwqConfig exllama_config default max_batch_size for ExLlamaV2 (utils/quantization_config.py).
constexpr int64_t kExllamaV2MaxBatch = 8;
// AutoGPTQ QuantLinear (qlinear_cuda_old.py) kernel_switch_threshold=128: from 128 rows on, the
// forward dequantises the whole weight with torch ops and calls torch.matmul.
constexpr int64_t kCudaOldSwitchRows = 128;
// Bytes per weight element alive at the cuda-old dequantisation peak (qlinear_cuda_old.py forward):
// bitwise_right_shift of the expanded qweight gives int32 (4), its .to(torch.int8) copy (1).
constexpr double kCudaOldScratchBytesPerWeight = 4 + 1;
// turboderp/exllama model.py ExLlamaConfig: fused_mlp_thd = 2 (temp_mlp holds 2 x thd rows),
// max_attention_size = 2048**2 (score elements per chunk), temp_zeros_float 65536 fp32.
constexpr double kExllamaFusedMlpThd = 2;
constexpr double kExllamaMaxAttention = 2048.0 * 2048.0;
constexpr double kExllamaZerosFloatBytes = 65536 * 4;
// ExLlama's attention (model.py ExLlamaAttention.forward, no flash-attn): torch.matmul scores in
// fp16 and nn.functional.softmax(dtype=torch.float16) into a new tensor, both alive.
constexpr double kExllamaScoreBytes = 2 + 2;
// AutoAWQ ScratchSpace slices: temp_dq_size / temp_fwd_size each add 128 bytes (exllamav2.py).
constexpr double kExllamaV2SliceBytes = 128;

bool is_group_quant(WeightFormat f) {
  return f == WeightFormat::GptqInt4 || f == WeightFormat::AwqInt4 || f == WeightFormat::GptqInt8;
}

// Share of the model's layers on the busiest GPU and the TP split, as weights_per_gpu applies them.

// The largest quantized linear (in x out elements) on one GPU.
double largest_linear(const Scenario& s, double* in_out_max, double* out_max) {
  double best = 0, dim = 0, out = 0;
  for (const LinearModule& m : linear_modules(s.model)) {
    if (m.group == "router") continue;  // the router stays 16-bit
    const double io = d(m.in) * d(m.out) / d(s.tp);
    best = std::max(best, io);
    dim = std::max({dim, d(m.in), d(m.out)});
    out = std::max(out, d(m.out));
  }
  if (in_out_max) *in_out_max = dim;
  if (out_max) *out_max = out;
  return best;
}

const std::string& kernel(const Scenario& s) {
  static const std::string none;
  return s.engine_options.quant_kernel ? *s.engine_options.quant_kernel : none;
}

}  // namespace

double summed_devices(const Scenario& s) {
  return static_cast<double>(s.engine_options.summed_devices.value_or(1));
}

bool exllama_standalone(const Scenario& s) {
  return is_group_quant(s.weights) && kernel(s) == "exllama-standalone";
}

std::optional<int64_t> quant_group_size(const Scenario& s) {
  if (s.engine_options.group_size) return s.engine_options.group_size;
  return s.weights == s.checkpoint.stored ? s.checkpoint.group_size : std::nullopt;
}

bool quant_act_order(const Scenario& s) {
  if (s.engine_options.act_order) return *s.engine_options.act_order;
  return s.weights == s.checkpoint.stored && s.checkpoint.act_order.value_or(false);
}

double quant_group_size_delta_bytes(const Scenario& s) {
  const std::optional<int64_t> group = quant_group_size(s);
  if (!is_group_quant(s.weights) || !group) return 0;
  const int64_t g = *group;
  // Packed zero point per group and column: 4 bits (int4), 8 bits (int8) (AutoGPTQ qzeros layout).
  const double zero_bits = s.weights == WeightFormat::GptqInt8 ? 8 : 4;
  double delta = 0;
  for (const LinearModule& m : linear_modules(s.model)) {
    if (m.group == "router") continue;
    const double in = static_cast<double>(m.in);
    // group_size -1: one group over all input rows of each column (GPTQ "no grouping").
    const double groups = g > 0 ? std::ceil(in / static_cast<double>(g)) : 1;
    delta += static_cast<double>(m.count) * static_cast<double>(m.out) * (groups - in / kDefaultGroup) *
             (kScaleBits + zero_bits) / 8;
  }
  return delta * stage_layer_share(s);
}

std::string quant_scope(const Scenario& s) {
  if (s.engine_options.quant_scope) return *s.engine_options.quant_scope;
  if (s.weights == s.checkpoint.stored && !s.checkpoint.quant_scope.empty()) return s.checkpoint.quant_scope;
  return "all";
}

double quant_scope_model_delta_bytes(const Scenario& s) {
  if (!is_quantized(s.weights) || quant_scope(s) != "mlp-inner") return 0;
  const Architecture& a = s.model;
  const double layers = static_cast<double>(a.layers);
  if (layers <= 0) return 0;
  // The format's own bytes per linear weight, scales included (precision.cpp weight_bytes).
  const double quantized = linear_bytes_per_weight(a, s.weights);
  // transformers' FBGEMM FP8 conversion of Llama 3.1 405B ("As defined by Meta, we don't quantize the
  // first and last layers as well as the lm_head. Also, we don't quantize the self_attn layers"):
  // modules_to_not_convert = model.layers.0, model.layers.{L-1}, lm_head, model.layers.{1..L-2}.self_attn.
  // So every attention linear and the first and last layers' other linears stay 16-bit (the lm_head
  // already is in precision.cpp's fp8 layout).
  double kept = 0;
  for (const LinearModule& m : linear_modules(a)) {
    if (m.group == "router") continue;
    const double weights = static_cast<double>(m.in) * static_cast<double>(m.out);
    const double copies = static_cast<double>(m.count);
    kept += weights * (m.group == "attention" ? copies : copies * std::min(2.0, layers) / layers);
  }
  return kept * (kHalf - quantized);  // bf16 checkpoints keep 2 bytes per weight
}

double quant_scope_delta_bytes(const Scenario& s) {
  return quant_scope_model_delta_bytes(s) * stage_layer_share(s);
}

double quant_kernel_buffer_bytes(const Scenario& s) {
  if (!is_group_quant(s.weights) || s.engine_options.quant_kernel == std::nullopt) return 0;
  const std::string& k = kernel(s);
  const Architecture& a = s.model;
  double dim = 0, out = 0;
  const double dq = largest_linear(s, &dim, &out) * kHalf;
  const double max_input =
      static_cast<double>(s.engine_options.quant_max_input_len.value_or(kExllamaMaxInputLen));
  double bytes = 0;
  if (k == "exllama") {
    // AutoGPTQ autogptq_post_init: temp_dq = max qweight.numel() * 8 fp16 (in x out of the largest
    // layer); temp_state = (max_input_len, max(in, out)) fp16 with act-order, (1, 1) without.
    bytes = dq + (quant_act_order(s) ? max_input * dim * kHalf : 0);
  } else if (k == "exllamav2") {
    // AutoAWQ exllamav2_post_init: one ScratchSpace per device of max over layers of
    // temp_dq_size (in x out x 2 + 128) + temp_fwd_size (out x max_input_len x max_batch_size x 4 + 128).
    const double batch =
        static_cast<double>(s.engine_options.quant_max_batch_size.value_or(kExllamaV2MaxBatch));
    double best = 0;
    for (const LinearModule& m : linear_modules(a)) {
      if (m.group == "router") continue;
      const double o = static_cast<double>(m.out) / static_cast<double>(s.tp);
      best = std::max(
          best, static_cast<double>(m.in) * o * kHalf + o * max_input * batch * 4 + 2 * kExllamaV2SliceBytes);
    }
    bytes = best;
  } else if (k == "exllama-standalone") {
    // turboderp/exllama model.py ExLlama.__init__, per device: temp_state (max_input_len x
    // intermediate fp16), temp_mlp (2 x fused_mlp_thd x intermediate fp16), temp_zeros_float,
    // temp_dq (max qweight.numel() * 8 fp16).
    const double inter = static_cast<double>(a.intermediate) / static_cast<double>(s.tp);
    bytes =
        max_input * inter * kHalf + 2 * kExllamaFusedMlpThd * inter * kHalf + kExllamaZerosFloatBytes + dq;
  }
  return bytes * summed_devices(s);
}

double quant_dequant_scratch_bytes(const Scenario& s) {
  if (!is_group_quant(s.weights) || kernel(s) != "cuda-old") return 0;
  const int64_t rows = s.batch * std::max<int64_t>(s.prompt_tokens, 1);
  if (rows < kCudaOldSwitchRows) return 0;
  return largest_linear(s, nullptr, nullptr) * kCudaOldScratchBytesPerWeight;
}

double exllama_standalone_score_bytes(const Scenario& s) {
  if (!exllama_standalone(s)) return 0;
  const double max_input =
      static_cast<double>(s.engine_options.quant_max_input_len.value_or(kExllamaMaxInputLen));
  const double b = static_cast<double>(s.batch);
  const double p = static_cast<double>(std::max<int64_t>(s.prompt_tokens, 1));
  // model.py forward: chunks of at most max_input_len // bsz tokens, each attending to the whole
  // prefix, further cut so that one chunk's scores stay within max_attention_size per sequence and head.
  const double chunk = std::min(p, std::max(1.0, std::floor(max_input / b)));
  const double per_head = std::min(chunk * p, kExllamaMaxAttention);
  return b * static_cast<double>(s.model.heads) / static_cast<double>(s.tp) * per_head * kExllamaScoreBytes;
}

}  // namespace gpusizer
