#include "model/precision.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gpusizer {
namespace {

struct FormatName {
  WeightFormat format;
  const char* id;
};
constexpr FormatName kWeightNames[] = {
    {WeightFormat::Fp32, "fp32"},
    {WeightFormat::Bf16, "bf16"},
    {WeightFormat::Fp16, "fp16"},
    {WeightFormat::Fp8, "fp8"},
    {WeightFormat::Int8, "int8"},
    {WeightFormat::Int4, "int4"},
    {WeightFormat::Nf4, "nf4"},
    {WeightFormat::GptqInt8, "gptq-int8"},
    {WeightFormat::GptqInt4, "gptq-int4"},
    {WeightFormat::AwqInt4, "awq-int4"},
    {WeightFormat::Q8_0, "q8_0"},
    {WeightFormat::Q6_K, "q6_k"},
    {WeightFormat::Q5_K_M, "q5_k_m"},
    {WeightFormat::Q5_K_S, "q5_k_s"},
    {WeightFormat::Q5_0, "q5_0"},
    {WeightFormat::Q4_K_M, "q4_k_m"},
    {WeightFormat::Q4_K_S, "q4_k_s"},
    {WeightFormat::Q4_0, "q4_0"},
    {WeightFormat::Q3_K_M, "q3_k_m"},
    {WeightFormat::Q2_K, "q2_k"},
    {WeightFormat::Mxfp4, "mxfp4"},
    {WeightFormat::Nvfp4, "nvfp4"},
};
struct KvName {
  KvFormat format;
  const char* id;
};
constexpr KvName kKvNames[] = {{KvFormat::Bf16, "bf16"},
                               {KvFormat::Fp16, "fp16"},
                               {KvFormat::Fp8, "fp8"},
                               {KvFormat::Int8, "int8"},
                               {KvFormat::Int4, "int4"}};

// GGUF block layouts, bits per weight = block bytes * 8 / block weights (llama.cpp ggml-common.h:
// block_q8_0 34 B/32, block_q6_K 210 B/256, block_q5_K 176 B/256, block_q5_0 22 B/32,
// block_q4_K 144 B/256, block_q4_0 18 B/32, block_q3_K 110 B/256, block_q2_K 84 B/256).
constexpr double kQ8_0Bits = 34.0 * 8 / 32;
constexpr double kQ6_KBits = 210.0 * 8 / 256;
constexpr double kQ5_KBits = 176.0 * 8 / 256;
constexpr double kQ5_0Bits = 22.0 * 8 / 32;
constexpr double kQ4_KBits = 144.0 * 8 / 256;
constexpr double kQ4_0Bits = 18.0 * 8 / 32;
constexpr double kQ3_KBits = 110.0 * 8 / 256;
constexpr double kQ2_KBits = 84.0 * 8 / 256;

// NF4 with double quantisation: 4 bits + 8-bit absmax per 64 weights + one fp32 per 256 absmax
// (Dettmers et al. 2023, QLoRA, section 3 "Double Quantization": 0.127 bits per parameter).
constexpr double kNf4Bits = 4.0 + 8.0 / 64 + 32.0 / (64 * 256);
// GPTQ/AWQ packing with group size 128: fp16 scale and a packed zero point per group and
// output column (AutoGPTQ/AutoAWQ qweight/qzeros/scales layout; the Qwen2.5 -GPTQ/-AWQ
// checkpoints use group_size 128).
constexpr double kGroup = 128;
constexpr double kGptqInt4Bits = 4.0 + (16.0 + 4.0) / kGroup;
constexpr double kGptqInt8Bits = 8.0 + (16.0 + 8.0) / kGroup;
constexpr double kGptqGidxBitsPerInput = 32;  // g_idx: one int32 per input row (AutoGPTQ)

// MXFP4 (OCP Microscaling Formats spec v1.0, section 5.3): FP4 E2M1 values in blocks of 32
// sharing one E8M0 scale, 4 + 8/32 bits. gpt-oss stores only its experts so (config.json
// quantization_config.modules_to_not_convert: self_attn, router, embeddings, lm_head).
constexpr double kMxfp4Bits = 4.0 + 8.0 / 32;
// NVFP4 (NVIDIA Blackwell; TensorRT Model Optimizer checkpoints): E2M1 values in blocks of 16
// sharing an FP8 E4M3 scale, 4 + 8/16 bits, plus fp32 weight_scale_2 and input_scale per tensor.
constexpr double kNvfp4Bits = 4.0 + 8.0 / 16;
// FP8 checkpoints of DeepSeek-V3/R1, Qwen3 and GLM-4.5 (quantization_config fmt e4m3,
// weight_block_size [128, 128]): one fp32 scale (weight_scale_inv) per 128 x 128 block.
constexpr double kFp8Block = 128;

bool is_kv_module(const LinearModule& m) { return m.name == "v" || m.name == "kv_b"; }
bool is_down_module(const LinearModule& m) { return m.name == "down" || m.name == "expert_down"; }

// Share of layers for which llama.cpp's k-quant mixes use more bits on attn_v and ffn_down
// (llama-quant.cpp use_more_bits: first and last eighth, and every third layer between).
double more_bits_share(int64_t layers) {
  if (layers <= 0) return 0;
  int64_t n = 0;
  for (int64_t i = 0; i < layers; ++i) {
    if (i < layers / 8 || i >= 7 * layers / 8 || (i - layers / 8) % 3 == 2) ++n;
  }
  return static_cast<double>(n) / static_cast<double>(layers);
}

// Bits per weight of one linear module copy in a GGUF file (mixes per llama-quant.cpp).
double gguf_module_bits(WeightFormat f, const LinearModule& m, double more_share) {
  const bool special = is_kv_module(m) || is_down_module(m);
  auto mix = [&](double base, double more) {
    return special ? more_share * more + (1 - more_share) * base : base;
  };
  switch (f) {
    case WeightFormat::Q8_0:
      return kQ8_0Bits;
    case WeightFormat::Q6_K:
      return kQ6_KBits;
    case WeightFormat::Q5_K_M:
      return mix(kQ5_KBits, kQ6_KBits);
    case WeightFormat::Q5_K_S:
      return kQ5_KBits;
    case WeightFormat::Q5_0:
      return kQ5_0Bits;
    case WeightFormat::Q4_K_M:
      return mix(kQ4_KBits, kQ6_KBits);
    case WeightFormat::Q4_K_S:
      return mix(kQ4_KBits, kQ5_KBits);
    case WeightFormat::Q4_0:
      return kQ4_0Bits;
    case WeightFormat::Q3_K_M:
      return (special || m.name == "o") ? kQ4_KBits : kQ3_KBits;
    case WeightFormat::Q2_K:
      return special ? kQ3_KBits : kQ2_KBits;
    default:
      return 16;
  }
}

// Bytes of one copy of a linear module, scales and indices included. `moe`: the model has
// routed experts.
double module_bytes(WeightFormat f, const LinearModule& m, double more_share, bool moe) {
  const double n = static_cast<double>(m.in) * static_cast<double>(m.out);
  const double in = static_cast<double>(m.in);
  const double out = static_cast<double>(m.out);
  // The router stays 16-bit in every fp8/fp4 checkpoint modelled (DeepSeek-V3 and Qwen3 FP8
  // keep mlp.gate in bf16; gpt-oss and ModelOpt NVFP4 exclude the router).
  const bool router = m.group == "router";
  switch (f) {
    case WeightFormat::Fp32:
      return n * 4;
    case WeightFormat::Bf16:
    case WeightFormat::Fp16:
      return n * 2;
    case WeightFormat::Fp8:
      if (router) return n * 2;
      // + one fp32 scale per 128 x 128 block (the block layout of the released FP8 checkpoints;
      // per-tensor fp8 on load stores 8 bytes a tensor: the two differ by 0.02 %).
      return n + std::ceil(in / kFp8Block) * std::ceil(out / kFp8Block) * 4;
    case WeightFormat::Mxfp4:
      if (router || (moe && m.group != "experts")) return n * 2;  // gpt-oss: only the experts
      return n * kMxfp4Bits / 8;
    case WeightFormat::Nvfp4:
      if (router) return n * 2;
      return n * kNvfp4Bits / 8 + 8;
    case WeightFormat::Int8:
      return n + out * 4;  // LLM.int8: fp32 absmax per output row (bnb SCB)
    case WeightFormat::Int4:
    case WeightFormat::AwqInt4:
      return n * kGptqInt4Bits / 8;
    case WeightFormat::Nf4:
      return n * kNf4Bits / 8;
    case WeightFormat::GptqInt4:
      return n * kGptqInt4Bits / 8 + in * kGptqGidxBitsPerInput / 8;
    case WeightFormat::GptqInt8:
      return n * kGptqInt8Bits / 8 + in * kGptqGidxBitsPerInput / 8;
    default:
      return n * gguf_module_bits(f, m, more_share) / 8;
  }
}

// Bytes per embedding / LM-head weight: quantizers keep them 16-bit (transformers
// get_keys_to_not_convert, AutoGPTQ/AutoAWQ, vLLM fp8); GGUF quantizes token_embd with the base
// type and stores output.weight as Q6_K (Q8_0 for the q8_0 type) per llama-quant.cpp.
double embedding_bytes_per_weight(WeightFormat f, bool lm_head) {
  switch (f) {
    case WeightFormat::Fp32:
      return 4;
    case WeightFormat::Q8_0:
      return kQ8_0Bits / 8;
    case WeightFormat::Q6_K:
      return kQ6_KBits / 8;
    case WeightFormat::Q5_K_M:
    case WeightFormat::Q5_K_S:
      return (lm_head ? kQ6_KBits : kQ5_KBits) / 8;
    case WeightFormat::Q5_0:
      return (lm_head ? kQ6_KBits : kQ5_0Bits) / 8;
    case WeightFormat::Q4_K_M:
    case WeightFormat::Q4_K_S:
      return (lm_head ? kQ6_KBits : kQ4_KBits) / 8;
    case WeightFormat::Q4_0:
      return (lm_head ? kQ6_KBits : kQ4_0Bits) / 8;
    case WeightFormat::Q3_K_M:
      return (lm_head ? kQ6_KBits : kQ3_KBits) / 8;
    case WeightFormat::Q2_K:
      return (lm_head ? kQ6_KBits : kQ2_KBits) / 8;
    default:
      return 2;
  }
}

}  // namespace

const char* to_string(WeightFormat f) {
  for (const auto& n : kWeightNames) {
    if (n.format == f) return n.id;
  }
  return "?";
}
const char* to_string(KvFormat f) {
  for (const auto& n : kKvNames) {
    if (n.format == f) return n.id;
  }
  return "?";
}
bool parse_weight_format(const std::string& s, WeightFormat* out) {
  for (const auto& n : kWeightNames) {
    if (s == n.id) {
      *out = n.format;
      return true;
    }
  }
  return false;
}
bool parse_kv_format(const std::string& s, KvFormat* out) {
  for (const auto& n : kKvNames) {
    if (s == n.id) {
      *out = n.format;
      return true;
    }
  }
  return false;
}
std::vector<std::string> weight_format_ids() {
  std::vector<std::string> ids;
  for (const auto& n : kWeightNames) ids.emplace_back(n.id);
  return ids;
}
std::vector<std::string> kv_format_ids() {
  std::vector<std::string> ids;
  for (const auto& n : kKvNames) ids.emplace_back(n.id);
  return ids;
}

bool is_gguf(WeightFormat f) { return static_cast<int>(f) >= static_cast<int>(WeightFormat::Q8_0); }
bool is_quantized(WeightFormat f) { return nominal_bits(f) < 16; }
bool is_four_bit(WeightFormat f) { return nominal_bits(f) == 4; }

double nominal_bits(WeightFormat f) {
  switch (f) {
    case WeightFormat::Fp32:
      return 32;
    case WeightFormat::Bf16:
    case WeightFormat::Fp16:
      return 16;
    case WeightFormat::Fp8:
    case WeightFormat::Int8:
    case WeightFormat::GptqInt8:
    case WeightFormat::Q8_0:
      return 8;
    case WeightFormat::Q6_K:
      return 6;
    case WeightFormat::Q5_K_M:
    case WeightFormat::Q5_K_S:
    case WeightFormat::Q5_0:
      return 5;
    case WeightFormat::Q3_K_M:
      return 3;
    case WeightFormat::Q2_K:
      return 2;
    default:
      return 4;
  }
}

WeightBytes weight_bytes(const Architecture& arch, WeightFormat f) {
  // The last answer is kept: the planner asks for the same model and format thousands of times.
  thread_local Architecture last_arch;
  thread_local WeightFormat last_format = WeightFormat::Bf16;
  thread_local WeightBytes last;
  thread_local bool valid = false;
  if (valid && f == last_format && same_shape(arch, last_arch)) return last;
  const ParamCounts p = count_params(arch);
  const double more_share = more_bits_share(arch.layers);
  WeightBytes w;
  for (const LinearModule& m : linear_modules(arch)) {
    const double bytes = static_cast<double>(m.count) * module_bytes(f, m, more_share, arch.experts > 0);
    w.linear += bytes;
    if (m.group == "experts") w.routed += bytes;
    if (m.group == "attention") w.attention += bytes;
  }
  w.embedding = p.embedding * embedding_bytes_per_weight(f, false);
  w.lm_head = p.lm_head * embedding_bytes_per_weight(f, true);
  // Norms and biases: fp32 in fp32 models and in GGUF files (llama.cpp keeps 1-D tensors F32).
  w.other = p.other * ((f == WeightFormat::Fp32 || is_gguf(f)) ? 4 : 2);
  // The vision tower stays 16-bit (32 in fp32 models) in every quantized checkpoint modelled
  // (AutoAWQ and llm-compressor recipes skip the visual modules; llama.cpp keeps it in an f16
  // mmproj file). It loads with the embeddings, on the first pipeline stage.
  w.vision = p.vision * (f == WeightFormat::Fp32 ? 4 : 2);
  w.per_layer = arch.layers > 0 ? (w.linear + w.other) / static_cast<double>(arch.layers) : 0;
  last_arch = arch;
  last_format = f;
  last = w;
  valid = true;
  return w;
}

double linear_bytes_per_weight(const Architecture& arch, WeightFormat f) {
  const double linear = count_params(arch).linear;
  return linear > 0 ? weight_bytes(arch, f).linear / linear : 2;
}

bool computes_natively(WeightFormat f, const std::string& arch) {
  const bool blackwell = arch == "blackwell";
  switch (f) {
    case WeightFormat::Fp32:
    case WeightFormat::Fp16:
      return true;
    case WeightFormat::Bf16:
      return arch != "volta" && arch != "turing";
    case WeightFormat::Fp8:
      return arch == "ada" || arch == "hopper" || blackwell || arch == "cdna3" || arch == "cdna4";
    case WeightFormat::Mxfp4:
      return blackwell || arch == "cdna4";  // AMD CDNA4 (MI355X) has MXFP4 matrix cores
    case WeightFormat::Nvfp4:
      return blackwell;
    default:
      return false;  // integer and GGUF formats are dequantised or use int8 paths
  }
}

std::string format_unsupported_kind(WeightFormat f, const std::string& arch) {
  const bool fp_low = f == WeightFormat::Mxfp4 || f == WeightFormat::Nvfp4;
  if (fp_low && (arch == "volta" || arch == "turing")) return "fp4_old";
  if (f == WeightFormat::Nvfp4 && arch.rfind("cdna", 0) == 0) return "nvfp4_amd";
  return "";
}

double kv_bytes_per_element(KvFormat f, int64_t head_dim) {
  // int8/int4 KV caches keep an fp16 scale and zero point per token and head (LMDeploy
  // quant_policy 8/4, docs "INT4/INT8 KV Cache"), i.e. 4 bytes per head_dim values.
  const double scale = head_dim > 0 ? 4.0 / static_cast<double>(head_dim) : 0;
  switch (f) {
    case KvFormat::Bf16:
    case KvFormat::Fp16:
      return 2;
    case KvFormat::Fp8:
      return 1;
    case KvFormat::Int8:
      return 1 + scale;
    case KvFormat::Int4:
      return 0.5 + scale;
  }
  return 2;
}

double kv_bytes_per_token(const Architecture& arch, KvFormat f) {
  if (arch.encoder) return 0;  // encoders keep no cache
  const double layers = static_cast<double>(arch.layers);
  if (arch.mla.kv_lora_rank > 0) {
    // MLA caches the compressed latent and the decoupled RoPE key, shared by all heads
    // (DeepSeek-V2 paper, section 2.1.3: (d_c + d_h^R) * l elements per token).
    const int64_t width = arch.mla.kv_lora_rank + arch.mla.qk_rope_head_dim;
    return layers * static_cast<double>(width) * kv_bytes_per_element(f, width);
  }
  // Linear-attention layers (Qwen3-Next Gated DeltaNet) keep a fixed state, no cache.
  const double full = layers - static_cast<double>(arch.linear_attn_layers);
  return 2 * full * static_cast<double>(arch.kv_heads * arch.head_dim) *
         kv_bytes_per_element(f, arch.head_dim);
}

double linear_state_bytes_per_sequence(const Architecture& arch) {
  if (arch.linear_attn_layers == 0) return 0;
  const double recurrent =
      static_cast<double>(arch.linear_value_heads * arch.linear_key_dim * arch.linear_value_dim);
  const double conv_dim = static_cast<double>(2 * arch.linear_key_heads * arch.linear_key_dim +
                                              arch.linear_value_heads * arch.linear_value_dim);
  const double conv = conv_dim * static_cast<double>(std::max<int64_t>(arch.linear_conv_kernel - 1, 0));
  // 16-bit state; MiniMax lightning attention keeps it in fp32 (vLLM minimax_text_01.py:
  // MinimaxCacheManager(dtype=torch.float32), modeling_minimax_m1.py kv =
  // torch.zeros(...).to(torch.float32)).
  const double bytes = arch.lightning_attn ? 4 : 2;
  return static_cast<double>(arch.linear_attn_layers) * (recurrent + conv) * bytes;
}

}  // namespace gpusizer
