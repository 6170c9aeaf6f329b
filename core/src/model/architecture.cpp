// Parameter counts and linear-module lists of an Architecture, its invariants, and the two
// sources of an architecture that need no catalog: explicit fields and a bare parameter count.
// The counting formulas reproduce shared/reference/facts_models.md ("Formulas used for computed
// params") exactly for every preset.
#include "model/architecture.h"
#include "base/format.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/json_reader.h"

namespace gpusizer {
namespace {

int64_t moe_layers(const Architecture& a) { return a.experts > 0 ? a.layers - a.dense_layers : 0; }
int64_t dense_mlp_layers(const Architecture& a) { return a.layers - moe_layers(a); }

// RMSNorm has a weight; LayerNorm a weight and a bias.
double norm_params(const Architecture& a) {
  return static_cast<double>(a.norm == NormKind::Layer ? 2 * a.hidden : a.hidden);
}

double weights(const LinearModule& m) { return static_cast<double>(m.in) * static_cast<double>(m.out); }

// The attention projections of one layer (count 1 each).
std::vector<LinearModule> attention_modules(const Architecture& a) {
  const int64_t h = a.hidden;
  const Mla& m = a.mla;
  if (m.kv_lora_rank > 0) {  // DeepSeek-V2 paper, eq. 9-14: low-rank q and joint kv compression
    const int64_t q_out = a.heads * (m.qk_nope_head_dim + m.qk_rope_head_dim);
    std::vector<LinearModule> out;
    if (m.q_lora_rank > 0) {
      out.push_back({"q_a", "attention", h, m.q_lora_rank, 1, 1});
      out.push_back({"q_b", "attention", m.q_lora_rank, q_out, 1, 1});
    } else {
      out.push_back({"q", "attention", h, q_out, 1, 1});
    }
    out.push_back({"kv_a", "attention", h, m.kv_lora_rank + m.qk_rope_head_dim, 1, 1});
    out.push_back({"kv_b", "attention", m.kv_lora_rank, a.heads * (m.qk_nope_head_dim + m.v_head_dim), 1, 1});
    out.push_back({"o", "attention", a.heads * m.v_head_dim, h, 1, 1});
    return out;
  }
  const int64_t q = a.heads * a.head_dim;
  const int64_t kv = a.kv_heads * a.head_dim;
  // Gated attention (Qwen3-Next): q_proj is twice as wide, the second half gates the output.
  const int64_t q_out = a.attn_output_gate ? 2 * q : q;
  return {{"q", "attention", h, q_out, 1, 1},
          {"k", "attention", h, kv, 1, 1},
          {"v", "attention", h, kv, 1, 1},
          {"o", "attention", q, h, 1, 1}};
}

int64_t full_attention_layers(const Architecture& a) { return a.layers - a.linear_attn_layers; }

// One Gated DeltaNet layer's projections (transformers Qwen3NextGatedDeltaNet): in_proj_qkvz
// (q, k of key_heads x key_dim; v, z of value_heads x value_dim), in_proj_ba (beta and the decay
// gate per value head) and out_proj. Its conv1d, A_log, dt_bias and gated norm are in `other`.
// MiniMax lightning attention: qkv_proj (q, k, v of heads x head_dim), output_gate (a sigmoid
// gate as wide as v) and out_proj, none biased (MiniMaxM1LightningAttention).
std::vector<LinearModule> linear_attention_modules(const Architecture& a) {
  const int64_t key = a.linear_key_heads * a.linear_key_dim;
  const int64_t value = a.linear_value_heads * a.linear_value_dim;
  if (a.lightning_attn) {
    return {{"linear_qkv", "attention", a.hidden, 2 * key + value, 1, 1},
            {"linear_gate", "attention", a.hidden, value, 1, 1},
            {"linear_out", "attention", value, a.hidden, 1, 1}};
  }
  return {{"linear_qkvz", "attention", a.hidden, 2 * key + 2 * value, 1, 1},
          {"linear_ba", "attention", a.hidden, 2 * a.linear_value_heads, 1, 1},
          {"linear_out", "attention", value, a.hidden, 1, 1}};
}

// The names of one MLP's matrices: plain, routed-expert or shared-expert copies.
struct MlpNames {
  std::string_view gate, up, down;
};
constexpr MlpNames kDenseNames = {"gate", "up", "down"};
constexpr MlpNames kExpertNames = {"expert_gate", "expert_up", "expert_down"};
constexpr MlpNames kSharedNames = {"shared_gate", "shared_up", "shared_down"};

// One MLP of `width`: gated (gate, up, down) or plain (up, down).
void add_mlp(const Architecture& a, const MlpNames& names, std::string_view group, int64_t width,
             int64_t count, int64_t active, std::vector<LinearModule>* out) {
  if (a.mlp == MlpKind::Gated) out->push_back({names.gate, group, a.hidden, width, count, active});
  out->push_back({names.up, group, a.hidden, width, count, active});
  out->push_back({names.down, group, width, a.hidden, count, active});
}

std::vector<LinearModule> dense_mlp_modules(const Architecture& a) {
  std::vector<LinearModule> out;
  add_mlp(a, kDenseNames, "mlp", a.intermediate, 1, 1, &out);
  return out;
}

// One MoE layer: router, routed experts (top-k active), shared experts (always active).
std::vector<LinearModule> moe_modules(const Architecture& a) {
  std::vector<LinearModule> out = {{"router", "router", a.hidden, a.experts, 1, 1}};
  add_mlp(a, kExpertNames, "experts", a.expert_intermediate, a.experts, a.experts_per_token, &out);
  if (a.shared_experts > 0) {
    const int64_t width =
        a.shared_expert_intermediate > 0 ? a.shared_expert_intermediate : a.expert_intermediate;
    add_mlp(a, kSharedNames, "mlp", width, a.shared_experts, a.shared_experts, &out);
  }
  if (a.shared_expert_gate) out.push_back({"shared_expert_gate", "router", a.hidden, 1, 1, 1});
  return out;
}

void append(const std::vector<LinearModule>& per_layer, int64_t layers, std::vector<LinearModule>* out) {
  for (LinearModule m : per_layer) {
    m.count *= layers;
    m.active_count *= layers;
    out->push_back(m);
  }
}

double sum_weights(const std::vector<LinearModule>& modules) {
  double total = 0;
  for (const LinearModule& m : modules) total += weights(m) * static_cast<double>(m.count);
  return total;
}

// Biases of the linear layers: q/k/v (Qwen2, ChatGLM2+), also o (GPT-2, BERT), dense MLP.
double bias_params(const Architecture& a, const std::vector<LinearModule>& modules) {
  double total = 0;
  for (const LinearModule& m : modules) {
    const bool qkv = m.name == "q" || m.name == "k" || m.name == "v";
    const bool biased = (qkv && a.attn_bias != AttnBias::None) ||
                        (m.name == "o" && a.attn_bias == AttnBias::All) ||
                        (m.group == "mlp" && a.mlp_bias && m.name.rfind("shared_", 0) != 0);
    if (biased) total += static_cast<double>(m.out) * static_cast<double>(m.count);
  }
  return total;
}

// Norms, biases, pooler and router biases: everything outside embeddings and linear weights.
double other_params(const Architecture& a, const std::vector<LinearModule>& modules) {
  const double h = static_cast<double>(a.hidden);
  const double layers = static_cast<double>(a.layers);
  double total = bias_params(a, modules);
  total += layers * static_cast<double>(a.norms_per_layer) * norm_params(a);
  if (a.qk_norm) {  // Qwen3 q_norm, k_norm (full-attention layers)
    total += static_cast<double>(full_attention_layers(a)) * 2.0 * static_cast<double>(a.head_dim);
  }
  if (a.linear_attn_layers > 0 &&
      a.lightning_attn) {  // lightning attention: one RMSNorm over heads x head_dim
    total += static_cast<double>(a.linear_attn_layers) *
             static_cast<double>(a.linear_value_heads * a.linear_value_dim);
  } else if (a.linear_attn_layers >
             0) {  // Gated DeltaNet: depthwise conv1d over q, k, v; A_log, dt_bias; gated RMSNorm
    const double conv_dim = static_cast<double>(2 * a.linear_key_heads * a.linear_key_dim +
                                                a.linear_value_heads * a.linear_value_dim);
    total += static_cast<double>(a.linear_attn_layers) *
             (conv_dim * static_cast<double>(a.linear_conv_kernel) +
              2.0 * static_cast<double>(a.linear_value_heads) + static_cast<double>(a.linear_value_dim));
  }
  if (a.mla.kv_lora_rank > 0) {  // DeepSeek q_a_layernorm and kv_a_layernorm (RMSNorm)
    total += layers * static_cast<double>(a.mla.q_lora_rank + a.mla.kv_lora_rank);
  }
  if (a.final_norm) total += norm_params(a);
  if (a.embedding_norm) total += norm_params(a);
  if (a.pooler) total += h * h + h;  // BertPooler: dense hidden x hidden with bias
  if (a.router_bias) total += static_cast<double>(a.experts * moe_layers(a));
  if (a.attn_sinks) total += layers * static_cast<double>(a.heads);  // gpt-oss: one sink per head
  if (a.expert_bias) {  // gpt-oss: gate_up_proj_bias (2 x width) and down_proj_bias (hidden) per expert
    const double widths = a.mlp == MlpKind::Gated ? 2 : 1;
    total += static_cast<double>(a.experts) * static_cast<double>(moe_layers(a)) *
             (widths * static_cast<double>(a.expert_intermediate) + h);
  }
  return total;
}

// One multi-token-prediction module (DeepSeek-V3 technical report, section 2.2; the layout of
// layer 61 in deepseek-ai/DeepSeek-V3's safetensors index): a full decoder block (MoE when the
// model has experts), eh_proj (2 hidden -> hidden), enorm, hnorm and shared_head.norm, and where
// the checkpoint stores them, copies of embed_tokens and shared_head.head.
double mtp_params(const Architecture& a) {
  if (a.mtp_layers == 0) return 0;
  Architecture one = a;  // a one-layer model of the same block
  one.layers = 1;
  one.dense_layers = 0;
  one.linear_attn_layers = 0;  // the MTP block attends fully
  one.mtp_layers = 0;
  one.vision_params = 0;
  one.final_norm = false;
  std::vector<LinearModule> block = attention_modules(one);
  const std::vector<LinearModule> mlp = one.experts > 0 ? moe_modules(one) : dense_mlp_modules(one);
  block.insert(block.end(), mlp.begin(), mlp.end());
  const double h = static_cast<double>(a.hidden);
  double per_module = sum_weights(block) + other_params(one, block) + 2 * h * h + 3 * norm_params(a);
  if (a.mtp_stores_embeddings) per_module += 2 * static_cast<double>(a.vocab) * h;
  return static_cast<double>(a.mtp_layers) * per_module;
}

// The largest block's linear weights (a dense block or an MoE block, whichever is larger).
double per_layer_linear_max(const Architecture& a) {
  double attention = sum_weights(attention_modules(a));
  if (a.linear_attn_layers > 0) attention = std::max(attention, sum_weights(linear_attention_modules(a)));
  double mlp = 0;
  if (dense_mlp_layers(a) > 0) mlp = sum_weights(dense_mlp_modules(a));
  if (moe_layers(a) > 0) mlp = std::max(mlp, sum_weights(moe_modules(a)));
  return attention + mlp;
}

void check_range(const std::string& field, const char* key, int64_t value, int64_t lo, int64_t hi) {
  if (value < lo || value > hi) {
    throw_error(field + "." + key, "size_range", {{"min", lo}, {"max", hi}, {"value", value}});
  }
}

// 0 (not known) or above `lo` up to `hi`.
void check_number(const std::string& field, const char* key, double value, double lo, double hi) {
  if (value != 0 && !(value > lo && value <= hi)) {
    throw_error(field + "." + key, "number_range",
                {{"min", lo}, {"max", hi}, {"above", true}, {"value", value}});
  }
}

void validate_moe(const Architecture& a, const std::string& field) {
  if (a.experts == 0) {
    check_range(field, "experts_per_token", a.experts_per_token, 0, 0);
    check_range(field, "shared_experts", a.shared_experts, 0, 0);
    check_range(field, "expert_intermediate", a.expert_intermediate, 0, 0);
    check_range(field, "dense_layers", a.dense_layers, 0, 0);
    return;
  }
  check_range(field, "experts", a.experts, 1, kMaxArchSize);
  check_range(field, "experts_per_token", a.experts_per_token, 1, a.experts);
  check_range(field, "expert_intermediate", a.expert_intermediate, 1, kMaxArchSize);
  check_range(field, "shared_experts", a.shared_experts, 0, kMaxArchSize);
  check_range(field, "shared_expert_intermediate", a.shared_expert_intermediate, 0, kMaxArchSize);
  check_range(field, "dense_layers", a.dense_layers, 0, a.layers);
}

void validate_mla(const Mla& m, const std::string& field) {
  const std::string mla = field + ".mla";
  if (m.kv_lora_rank == 0) {
    check_range(mla, "q_lora_rank", m.q_lora_rank, 0, 0);
    return;
  }
  check_range(mla, "kv_lora_rank", m.kv_lora_rank, 1, kMaxArchSize);
  check_range(mla, "q_lora_rank", m.q_lora_rank, 0, kMaxArchSize);
  check_range(mla, "qk_nope_head_dim", m.qk_nope_head_dim, 0, kMaxArchSize);
  check_range(mla, "qk_rope_head_dim", m.qk_rope_head_dim, 1, kMaxArchSize);
  check_range(mla, "v_head_dim", m.v_head_dim, 1, kMaxArchSize);
}

// Llama-3-like shape of the scaling rule (sources in from_param_count's comment).
Architecture llama_like(int64_t hidden, int64_t layers, int64_t intermediate, double params) {
  Architecture a;
  a.family = "llama";
  a.hidden = hidden;
  a.layers = layers;
  a.head_dim = hidden < 1024 ? 64 : 128;  // Llama-3.2-1B and GPT-2 use 64 at small widths
  a.heads = hidden / a.head_dim;
  a.kv_heads = std::gcd(a.heads, int64_t{8});  // Llama-3: 8 KV heads where the heads allow
  a.intermediate = intermediate;
  a.vocab = params < 1e9 ? 32000 : 128256;  // Llama-2 vocab below 1B, Llama-3 above
  a.tied_embeddings = params < 5e9;         // Llama-3.2 1B/3B tie, 8B and up do not
  a.max_positions = 8192;                   // Llama-3 context
  return a;
}

int64_t round_to(double value, int64_t step) {
  return static_cast<int64_t>(std::llround(value / static_cast<double>(step))) * step;
}

// The rule's shape for one hidden size: layers to fit `params` at intermediate 3.5 x hidden,
// then the intermediate (multiple of 256, 2.5 to 4 x hidden) that closes the remaining gap.
Architecture fit_hidden(int64_t hidden, double params) {
  const double h = static_cast<double>(hidden);
  const int64_t base = round_to(3.5 * h, 256);
  const double one = count_params(llama_like(hidden, 1, base, params)).total;
  const double per_layer = count_params(llama_like(hidden, 2, base, params)).total - one;
  const double layers = std::max(1.0, 1 + std::round((params - one) / per_layer));
  if (layers > static_cast<double>(kMaxArchSize)) return Architecture();
  const double gap = params - (one + (layers - 1) * per_layer);
  // Each unit of intermediate width adds 3 x hidden weights (gate, up, down) per layer.
  const double width = static_cast<double>(base) + gap / (3.0 * h * layers);
  const int64_t intermediate = round_to(std::min(std::max(width, 2.5 * h), 4.0 * h), 256);
  return llama_like(hidden, static_cast<int64_t>(layers), intermediate, params);
}

std::vector<LinearModule> build_linear_modules(const Architecture& arch) {
  std::vector<LinearModule> out;
  out.reserve(20);  // at most 4 + 3 attention, 3 dense, 8 MoE kinds: one allocation per call
  append(attention_modules(arch), full_attention_layers(arch), &out);
  if (arch.linear_attn_layers > 0) append(linear_attention_modules(arch), arch.linear_attn_layers, &out);
  if (dense_mlp_layers(arch) > 0) append(dense_mlp_modules(arch), dense_mlp_layers(arch), &out);
  if (moe_layers(arch) > 0) append(moe_modules(arch), moe_layers(arch), &out);
  return out;
}

ParamCounts build_param_counts(const Architecture& arch) {
  const std::vector<LinearModule> modules = linear_modules(arch);
  const double h = static_cast<double>(arch.hidden);
  ParamCounts p;
  p.embedding = static_cast<double>(arch.vocab + arch.learned_positions + arch.type_vocab) * h;
  p.lm_head = arch.tied_embeddings ? 0 : static_cast<double>(arch.vocab) * h;
  for (const LinearModule& m : modules) {
    p.linear += weights(m) * static_cast<double>(m.count);
    p.linear_active += weights(m) * static_cast<double>(m.active_count);
  }
  p.other = other_params(arch, modules);
  p.vision = static_cast<double>(arch.vision_params);
  p.total = p.embedding + p.lm_head + p.linear + p.other + p.vision;
  p.active = p.total - p.vision - (p.linear - p.linear_active);
  p.mtp = mtp_params(arch);
  p.per_layer_linear_max = per_layer_linear_max(arch);
  return p;
}

auto shape_tie(const Architecture& a) {
  return std::tie(a.layers, a.hidden, a.heads, a.kv_heads, a.head_dim, a.intermediate, a.vocab,
                  a.tied_embeddings, a.mlp, a.mlp_bias, a.norm, a.norms_per_layer, a.qk_norm, a.attn_bias,
                  a.final_norm, a.learned_positions, a.type_vocab, a.pooler, a.embedding_norm, a.encoder,
                  a.experts, a.experts_per_token, a.shared_experts, a.expert_intermediate,
                  a.shared_expert_intermediate, a.dense_layers, a.router_bias, a.shared_expert_gate,
                  a.expert_bias, a.attn_sinks, a.mtp_layers, a.mtp_stores_embeddings, a.vision_params,
                  a.linear_attn_layers, a.linear_key_heads, a.linear_value_heads, a.linear_key_dim,
                  a.linear_value_dim, a.linear_conv_kernel, a.attn_output_gate, a.lightning_attn,
                  a.mla.q_lora_rank, a.mla.kv_lora_rank, a.mla.qk_nope_head_dim, a.mla.qk_rope_head_dim,
                  a.mla.v_head_dim, a.sliding_window, a.sliding_window_layers, a.max_positions);
}

}  // namespace

bool same_shape(const Architecture& a, const Architecture& b) { return shape_tie(a) == shape_tie(b); }

// The last answer of `build` (a function pointer: one cache per builder) for this shape.
template <typename T, T (*build)(const Architecture&)>
T remembered(const Architecture& arch) {
  thread_local Architecture last;
  thread_local T value;
  thread_local bool valid = false;
  if (!valid || !same_shape(arch, last)) {
    value = build(arch);
    last = arch;
    valid = true;
  }
  return value;
}

std::vector<LinearModule> linear_modules(const Architecture& arch) {
  return remembered<std::vector<LinearModule>, build_linear_modules>(arch);
}

ParamCounts count_params(const Architecture& arch) {
  return remembered<ParamCounts, build_param_counts>(arch);
}

void validate_architecture(const Architecture& a, const std::string& field) {
  check_range(field, "layers", a.layers, 1, kMaxArchSize);
  check_range(field, "hidden", a.hidden, 1, kMaxArchSize);
  check_range(field, "heads", a.heads, 1, kMaxArchSize);
  check_range(field, "kv_heads", a.kv_heads, 1, a.heads);
  if (a.heads % a.kv_heads != 0) {
    throw_error(field + ".kv_heads", "kv_heads_divide", {{"heads", a.heads}, {"kv_heads", a.kv_heads}});
  }
  check_range(field, "head_dim", a.head_dim, 1, kMaxArchSize);
  check_range(field, "vocab", a.vocab, 1, kMaxArchSize);
  validate_moe(a, field);
  check_range(field, "intermediate", a.intermediate, dense_mlp_layers(a) > 0 ? 1 : 0, kMaxArchSize);
  validate_mla(a.mla, field);
  check_range(field, "norms_per_layer", a.norms_per_layer, 0, 8);  // Gemma 2 has the most: 4
  check_range(field, "learned_positions", a.learned_positions, 0, kMaxArchSize);
  check_range(field, "type_vocab", a.type_vocab, 0, kMaxArchSize);
  check_range(field, "sliding_window", a.sliding_window, 0, kMaxArchPositions);
  check_range(field, "sliding_window_layers", a.sliding_window_layers, 0,
              a.sliding_window > 0 ? a.layers : 0);
  check_range(field, "max_positions", a.max_positions, 0, kMaxArchPositions);
  check_range(field, "mtp_layers", a.mtp_layers, 0, 16);
  check_range(field, "linear_attn_layers", a.linear_attn_layers, 0, a.layers - 1);  // at least one full layer
  const int64_t lin_min = a.linear_attn_layers > 0 ? 1 : 0;
  check_range(field, "linear_key_heads", a.linear_key_heads, lin_min, kMaxArchSize);
  check_range(field, "linear_value_heads", a.linear_value_heads, lin_min, kMaxArchSize);
  check_range(field, "linear_key_dim", a.linear_key_dim, lin_min, kMaxArchSize);
  check_range(field, "linear_value_dim", a.linear_value_dim, lin_min, kMaxArchSize);
  if (a.lightning_attn) {  // lightning attention has no conv; it needs linear layers to apply to
    check_range(field, "linear_attn_layers", a.linear_attn_layers, 1, a.layers - 1);
    check_range(field, "linear_conv_kernel", a.linear_conv_kernel, 0, 0);
  } else {
    check_range(field, "linear_conv_kernel", a.linear_conv_kernel, lin_min, 64);
  }  // released models have 1 (DeepSeek-V3, GLM-4.5)
  check_range(field, "vision_params", a.vision_params, 0, int64_t{1} << 40);
  check_number(field, "rope_theta", a.rope_theta, 1, kMaxRopeTheta);
  check_number(field, "norm_eps", a.norm_eps, 0, kMaxNormEps);
}

// Scaling rule. The shape is Llama-3's (meta-llama/Meta-Llama-3-8B and -70B config.json):
// head_dim 128, 8 KV heads, intermediate 3.5 x hidden rounded to 256, vocab 128256, untied;
// below 5e9 parameters tied embeddings (Llama-3.2-1B/3B), below 1e9 the Llama-2 vocab 32000 and,
// under hidden 1024, head_dim 64. Hidden is a multiple of 1024 (so 8 KV heads divide the heads),
// or of 128 below 1024. For each hidden the layer count that best fits `params` is taken, and
// the intermediate (kept within 2.5 to 4 x hidden: Llama-2-7B has 2.7, Llama-3 3.5) closes the
// gap. Of the shapes within 1 % of `params`, the one nearest hidden = 128 x layers wins: the
// depth of Llama-2-7B and -13B (4096 = 128 x 32, 5120 = 128 x 40).
Architecture from_param_count(double params) {
  if (!std::isfinite(params) || params <= 0 || params > 1e15) {  // 1e15: 2,500 x Llama-3.1-405B
    throw_error("model.params", "params_range");
  }
  Architecture best;
  double best_distance = std::numeric_limits<double>::infinity();
  for (int64_t hidden = 128; hidden <= kMaxArchSize / 8; hidden += hidden < 1024 ? 128 : 1024) {
    const Architecture a = fit_hidden(hidden, params);
    if (a.layers == 0 || std::fabs(count_params(a).total - params) > 0.01 * params) continue;
    const double distance =
        std::fabs(std::log(static_cast<double>(hidden) / static_cast<double>(a.layers) / 128.0));
    if (distance < best_distance) {
      best_distance = distance;
      best = a;
    }
  }
  if (best.layers == 0) {
    throw_error("model.params", "params_no_shape");
  }
  const bool trillions = params >= 1e12;
  best.name = "Llama-like " + significant(params / (trillions ? 1e12 : 1e9), 3) + (trillions ? "T" : "B") +
              " (from the parameter count)";
  return best;
}

// The spec's explicit-field model object; defaults: kv_heads = heads, head_dim = hidden / heads,
// untied embeddings, gated MLP, dense; expert_intermediate defaults to intermediate.
Architecture from_explicit_fields(const nlohmann::json& fields) {
  static const char* const kKeys[] = {"name",
                                      "layers",
                                      "hidden",
                                      "heads",
                                      "kv_heads",
                                      "head_dim",
                                      "intermediate",
                                      "vocab",
                                      "tied_embeddings",
                                      "mlp",
                                      "experts",
                                      "experts_per_token",
                                      "shared_experts",
                                      "expert_intermediate",
                                      "dense_layers"};
  JsonReader r(fields, "model");
  for (const char* key : kKeys) r.has(key);
  r.reject_unknown();  // a misspelt key is reported before the missing one it stands for
  const auto required = [&r](const char* key) {
    if (auto v = r.integer(key, 1, kMaxArchSize)) return *v;
    throw_error(r.field(key), "required");
  };
  Architecture a;
  a.family = "custom";
  a.name = r.string("name").value_or("Custom model");
  a.layers = required("layers");
  a.hidden = required("hidden");
  a.heads = required("heads");
  a.vocab = required("vocab");
  a.kv_heads = r.integer("kv_heads", 1, kMaxArchSize).value_or(a.heads);
  if (auto v = r.integer("head_dim", 1, kMaxArchSize)) {
    a.head_dim = *v;
  } else if (a.hidden % a.heads != 0) {
    throw_error("model.head_dim", "head_dim_required");
  } else {
    a.head_dim = a.hidden / a.heads;
  }
  a.tied_embeddings = r.boolean("tied_embeddings").value_or(false);
  a.mlp = r.choice("mlp", {"gated", "plain"}).value_or("gated") == "plain" ? MlpKind::Plain : MlpKind::Gated;
  a.experts = r.integer("experts", 0, kMaxArchSize).value_or(0);
  a.experts_per_token = r.integer("experts_per_token", 0, kMaxArchSize).value_or(0);
  a.shared_experts = r.integer("shared_experts", 0, kMaxArchSize).value_or(0);
  a.dense_layers = r.integer("dense_layers", 0, kMaxArchSize).value_or(0);
  const auto intermediate = r.integer("intermediate", 1, kMaxArchSize);
  const auto expert_intermediate = r.integer("expert_intermediate", 1, kMaxArchSize);
  if (!intermediate && !(a.experts > 0 && expert_intermediate && a.dense_layers == 0)) {
    throw_error("model.intermediate", "intermediate_required");
  }
  a.intermediate = intermediate.value_or(0);
  a.expert_intermediate = expert_intermediate.value_or(a.experts > 0 ? a.intermediate : 0);
  validate_architecture(a, "model");
  return a;
}

}  // namespace gpusizer
