// Storage formats: bytes per weight (with their scales and block layouts) and per cached token.
#pragma once

#include <string>
#include <vector>

#include "model/architecture.h"

namespace gpusizer {

// Mxfp4, Nvfp4 sit before the GGUF types: is_gguf() is the range from Q8_0 on.
enum class WeightFormat {
  Fp32,
  Bf16,
  Fp16,
  Fp8,
  Int8,
  Int4,
  Nf4,
  GptqInt8,
  GptqInt4,
  AwqInt4,
  Mxfp4,
  Nvfp4,
  Q8_0,
  Q6_K,
  Q5_K_M,
  Q5_K_S,
  Q5_0,
  Q4_K_M,
  Q4_K_S,
  Q4_0,
  Q3_K_M,
  Q2_K
};
enum class KvFormat { Bf16, Fp16, Fp8, Int8, Int4 };

// The format's spec id ("bf16", "q4_k_m") and back; parse returns false if unknown.
const char* to_string(WeightFormat f);
const char* to_string(KvFormat f);
bool parse_weight_format(const std::string& s, WeightFormat* out);
bool parse_kv_format(const std::string& s, KvFormat* out);
std::vector<std::string> weight_format_ids();
std::vector<std::string> kv_format_ids();

bool is_gguf(WeightFormat f);
bool is_quantized(WeightFormat f);    // anything below 16 bits
bool is_four_bit(WeightFormat f);     // int4, nf4, gptq-int4, awq-int4, mxfp4, nvfp4 and 4-bit GGUF types
double nominal_bits(WeightFormat f);  // bits of the quantized values alone (16 for bf16)

// Bytes of the model's weights in format `f`, split by role. Quantizers store only the
// blocks' nn.Linear weights quantized; embeddings, LM head, norms and biases keep their own
// precision (per format, see precision.cpp).
struct WeightBytes {
  double linear = 0;     // all blocks' linear layers
  double embedding = 0;  // input embeddings (+ positions, token types)
  double lm_head = 0;    // output projection (0 when tied and not stored twice)
  double other = 0;      // norms, biases, pooler
  double vision = 0;     // vision tower and projector (16-bit; loads with the embeddings)
  double per_layer = 0;  // one average transformer block (linear + its share of other)
  double routed = 0;     // the routed experts' linear layers (part of linear; expert parallelism splits them)
  double attention = 0;  // the attention projections (part of linear; DP attention replicates them)
  double total() const { return linear + embedding + lm_head + other + vision; }
};
WeightBytes weight_bytes(const Architecture& arch, WeightFormat f);
// Bytes per linear weight in format f, scales included (weight_bytes' linear over the linear
// parameter count); 2, a 16-bit weight, for a model with no linear weights.
double linear_bytes_per_weight(const Architecture& arch, WeightFormat f);

// Whether a GPU architecture (Gpu::arch: "volta", "turing", "ampere", "ada", "hopper",
// "blackwell", "cdna3", "cdna4", ...) has tensor cores that compute in format `f`; otherwise
// engines dequantise to 16 bits (weight-only). fp8: Ada, Hopper, Blackwell, CDNA3/4; mxfp4:
// Blackwell and CDNA4; nvfp4: Blackwell only.
bool computes_natively(WeightFormat f, const std::string& arch);
// Why no engine kernel runs `f` on `arch`, as the code of its message ("" when one does):
// "fp4_old", the mxfp4 and nvfp4 paths of vLLM need compute capability 8.0 (Marlin weight-only
// below native support); "nvfp4_amd", nvfp4 is NVIDIA's format, with no kernel on AMD.
std::string format_unsupported_kind(WeightFormat f, const std::string& arch);

// KV-cache bytes per token for one sequence, whole model (all layers, all KV heads).
// MHA/GQA/MQA: 2 * layers * kv_heads * head_dim * bytes; MLA: layers * (kv_lora_rank + rope dim).
double kv_bytes_per_token(const Architecture& arch, KvFormat f);
// The fixed state one sequence keeps in the linear-attention layers (Gated DeltaNet): per layer
// value_heads x key_dim x value_dim recurrent values and (kernel - 1) conv inputs of the q/k/v
// width, in the model's 16-bit dtype (vLLM mamba_ssm_cache_dtype "auto"). 0 without such layers.
double linear_state_bytes_per_sequence(const Architecture& arch);
// Bytes per cached element, scales included (int8/int4: per-token, per-head fp16 scale + zero).
double kv_bytes_per_element(KvFormat f, int64_t head_dim);

}  // namespace gpusizer
