// Hugging Face config.json to an Architecture. One reader per dialect of config.json: the
// standard Llama-like keys (most model types, and any unknown type), Qwen v1, ChatGLM, GPT-2 and
// BERT; DeepSeek adds its MLA keys to the standard ones. Defaults are those of each model type's
// transformers config class. A missing or bad key is an InputError naming model.hf_config.<key>.
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/json_reader.h"
#include "model/architecture.h"

namespace gpusizer {
namespace {

int64_t need(JsonReader& r, const char* key) {
  if (auto v = r.integer(key, 1, kMaxArchSize)) return *v;
  throw_error(r.field(key), "config_missing");
}

// The first of `keys` that config.json has (checked against [min, max]).
std::optional<int64_t> first_of(JsonReader& r, std::initializer_list<const char*> keys, int64_t min,
                                int64_t max) {
  for (const char* key : keys) {
    if (auto v = r.integer(key, min, max)) return v;
  }
  return std::nullopt;
}

int64_t need_first(JsonReader& r, std::initializer_list<const char*> keys) {
  if (auto v = first_of(r, keys, 1, kMaxArchSize)) return *v;
  throw_error(r.field(*keys.begin()), "config_missing");
}

// PretrainedConfig ties the embeddings by default; these model types' config classes do not.
bool tie_default(const std::string& type) {
  static const char* const kUntied[] = {
      "llama",       "mistral",    "mixtral",     "qwen",        "qwen2",      "qwen2_moe",
      "qwen3",       "qwen3_moe",  "deepseek_v2", "deepseek_v3", "baichuan",   "internlm2",
      "phi3",        "glm",        "glm4",        "glm4_moe",    "gpt_oss",    "kimi_k2",
      "llama4_text", "qwen2_5_vl", "qwen3_next",  "minimax",     "minimax_m1", "minimax_text_01"};
  for (const char* t : kUntied) {
    if (type == t) return false;
  }
  return true;
}

// heads, kv_heads (default: heads; must divide heads) and head_dim (default: hidden / heads,
// left 0 when that is no integer). `kv_key` and `head_dim_key` may be null: the dialect has none.
void read_heads(JsonReader& r, Architecture* a, const char* heads_key, const char* kv_key,
                const char* head_dim_key) {
  a->heads = need(r, heads_key);
  a->kv_heads = a->heads;
  if (kv_key) a->kv_heads = r.integer(kv_key, 1, kMaxArchSize).value_or(a->heads);
  if (a->heads % a->kv_heads != 0) {
    throw_error(r.field(kv_key), "config_kv_heads_divide",
                {{"key", heads_key}, {"heads", a->heads}, {"kv_heads", a->kv_heads}});
  }
  if (head_dim_key) {
    if (auto v = r.integer(head_dim_key, 1, kMaxArchSize)) a->head_dim = *v;
  }
  if (a->head_dim == 0 && a->hidden % a->heads == 0) a->head_dim = a->hidden / a->heads;
}

// Marks the layers listed in mlp_only_layers dense (Qwen-MoE); each entry must be a layer index.
void mark_mlp_only_layers(JsonReader& r, std::vector<bool>* dense) {
  if (!r.has("mlp_only_layers")) return;
  const nlohmann::json& list = r.raw("mlp_only_layers");
  if (!list.is_array())
    throw_error(r.field("mlp_only_layers"), "layer_indices", {{"max", dense->size() - 1}});
  for (const nlohmann::json& item : list) {
    const double i = item.is_number() ? item.get<double>() : -1;
    if (!(i >= 0 && i < static_cast<double>(dense->size()) &&
          i == static_cast<double>(static_cast<int64_t>(i)))) {
      throw_error(r.field("mlp_only_layers"), "layer_indices", {{"max", dense->size() - 1}, {"value", item}});
    }
    (*dense)[static_cast<size_t>(i)] = true;
  }
}

// Layers without experts: DeepSeek's first_k_dense_replace and moe_layer_freq (layer i has
// experts if i >= k and i % freq == 0), Qwen's decoder_sparse_step and Llama 4's
// interleave_moe_layer_step ((i + 1) % step == 0) and mlp_only_layers.
int64_t count_dense_layers(JsonReader& r, int64_t layers) {
  const int64_t first_moe = r.integer("first_k_dense_replace", 0, layers).value_or(0);
  const int64_t freq = r.integer("moe_layer_freq", 1, kMaxArchSize).value_or(1);
  const int64_t step =
      first_of(r, {"decoder_sparse_step", "interleave_moe_layer_step"}, 1, kMaxArchSize).value_or(1);
  std::vector<bool> dense(static_cast<size_t>(layers));
  for (int64_t i = 0; i < layers; ++i) {
    dense[static_cast<size_t>(i)] = i < first_moe || i % freq != 0 || (i + 1) % step != 0;
  }
  mark_mlp_only_layers(r, &dense);
  int64_t count = 0;
  for (bool d : dense) count += d ? 1 : 0;
  return count;
}

// MoE keys of Mixtral, Qwen-MoE and DeepSeek; a dense config has none of them.
// A key that is there with 0 is refused: a dense model leaves the keys out (or null), and a
// config that names experts but has none is broken, not dense.
void read_moe(JsonReader& r, Architecture* a) {
  for (const char* key : {"num_experts", "num_local_experts", "n_routed_experts"}) {
    if (r.integer(key, 0, kMaxArchSize) == std::optional<int64_t>(0)) {
      throw_error(r.field(key), "experts_zero");
    }
  }
  a->experts =
      first_of(r, {"num_experts", "num_local_experts", "n_routed_experts"}, 1, kMaxArchSize).value_or(0);
  if (a->experts == 0) return;
  a->experts_per_token = need(r, "num_experts_per_tok");
  if (a->experts_per_token > a->experts) {
    throw_error(r.field("num_experts_per_tok"), "experts_per_token", {{"experts", a->experts}});
  }
  // Mixtral has no moe_intermediate_size: its experts are intermediate_size wide.
  a->expert_intermediate = r.integer("moe_intermediate_size", 1, kMaxArchSize).value_or(a->intermediate);
  if (a->expert_intermediate == 0) throw_error(r.field("moe_intermediate_size"), "config_missing");
  a->shared_experts = r.integer("n_shared_experts", 0, kMaxArchSize).value_or(0);
  // Qwen2-MoE: one shared expert of this width behind a hidden x 1 sigmoid gate.
  if (auto width = r.integer("shared_expert_intermediate_size", 0, kMaxArchSize); width && *width > 0) {
    a->shared_experts = 1;
    a->shared_expert_intermediate = *width;
    a->shared_expert_gate = true;
  }
  a->dense_layers = count_dense_layers(r, a->layers);
}

// Sliding-window attention: Qwen2/3 only with use_sliding_window, on layers from
// max_window_layers on; Gemma 2 on every other layer (even indices, window 4096 by default);
// elsewhere (Mistral, Mixtral, Phi-3, unknown types) a sliding_window key covers every layer.
// Newer configs list each layer's kind in layer_types (Gemma 3, gpt-oss, transformers >= 4.53):
// the count of "sliding_attention" layers; -1 when the key is absent.
int64_t count_sliding_layer_types(JsonReader& r, int64_t layers) {
  if (!r.has("layer_types") || r.raw("layer_types").is_null()) return -1;
  const nlohmann::json& list = r.raw("layer_types");
  if (!list.is_array() || static_cast<int64_t>(list.size()) != layers) {
    throw_error(r.field("layer_types"), "layer_kinds_count", {{"layers", layers}});
  }
  int64_t sliding = 0;
  for (const nlohmann::json& kind : list) {
    if (!kind.is_string()) throw_error(r.field("layer_types"), "layer_kinds_values", {{"value", kind}});
    if (kind == "sliding_attention") ++sliding;
  }
  return sliding;
}

void read_sliding_window(JsonReader& r, const std::string& type, Architecture* a) {
  int64_t window = 0;
  const int64_t typed = count_sliding_layer_types(r, a->layers);
  if (typed >= 0 && (type == "gemma3_text" || type == "gpt_oss" || type == "gemma2")) {
    window = r.integer("sliding_window", 0, kMaxArchPositions).value_or(0);
    a->sliding_window_layers = typed;
  } else if (type == "gemma3_text") {
    // Gemma3TextConfig: every sliding_window_pattern-th layer (default 6) is global, window 4096.
    const int64_t pattern = r.integer("sliding_window_pattern", 1, kMaxArchSize).value_or(6);
    window = r.integer("sliding_window", 0, kMaxArchPositions).value_or(4096);
    a->sliding_window_layers = a->layers - a->layers / pattern;
  } else if (type == "llama4_text") {
    // Llama 4: chunked local attention (attention_chunk_size) on every layer but each 4th
    // (no_rope_layers: the NoPE layers attend globally); a chunk keeps at most that many tokens.
    window = r.integer("attention_chunk_size", 0, kMaxArchPositions).value_or(0);
    a->sliding_window_layers = a->layers - a->layers / 4;
  } else if (type == "qwen2" || type == "qwen2_moe" || type == "qwen3" || type == "qwen3_moe" ||
             type == "qwen2_5_vl") {
    if (r.boolean("use_sliding_window").value_or(false)) {
      window = r.integer("sliding_window", 0, kMaxArchPositions).value_or(0);
      a->sliding_window_layers = a->layers - r.integer("max_window_layers", 0, a->layers).value_or(0);
    }
  } else if (type == "gemma2") {
    window = r.integer("sliding_window", 0, kMaxArchPositions).value_or(4096);  // Gemma2Config default
    a->sliding_window_layers = (a->layers + 1) / 2;
  } else {
    window = r.integer("sliding_window", 0, kMaxArchPositions).value_or(0);
    a->sliding_window_layers = a->layers;
  }
  a->sliding_window = a->sliding_window_layers > 0 ? window : 0;
  if (a->sliding_window == 0) a->sliding_window_layers = 0;
}

// Qwen3-Next: Gated DeltaNet layers (layer_types "linear_attention", else all but every
// full_attention_interval-th, default 4) and gated full attention.
void read_linear_attention(JsonReader& r, Architecture* a) {
  int64_t linear = -1;
  if (r.has("layer_types") && r.raw("layer_types").is_array()) {
    linear = 0;
    for (const nlohmann::json& kind : r.raw("layer_types")) linear += kind == "linear_attention" ? 1 : 0;
  }
  if (linear < 0) {
    const int64_t interval = r.integer("full_attention_interval", 1, kMaxArchSize).value_or(4);
    linear = a->layers - a->layers / interval;
  }
  a->linear_attn_layers = linear;
  a->linear_key_heads = need(r, "linear_num_key_heads");
  a->linear_value_heads = need(r, "linear_num_value_heads");
  a->linear_key_dim = need(r, "linear_key_head_dim");
  a->linear_value_dim = need(r, "linear_value_head_dim");
  a->linear_conv_kernel = r.integer("linear_conv_kernel_dim", 1, 64).value_or(4);
  a->attn_output_gate = true;  // Qwen3NextAttention: q_proj emits query and gate
}

// MiniMax-Text-01 / MiniMax-M1 (remote code, model_type minimax_text_01 / minimax_m1) and
// transformers' native minimax: lightning attention on the layers that attn_type_list marks 0
// (1 = softmax attention with a KV cache; MiniMax-M1 config.json: every 8th layer), or that
// layer_types marks "linear_attention". Lightning attention uses the softmax layers' heads and
// head_dim. A shared expert (shared_intermediate_size > 0) sits behind a hidden x 1
// `coefficient` gate (MiniMaxM1DecoderLayer).
bool is_minimax(const std::string& type) {
  return type == "minimax" || type == "minimax_m1" || type == "minimax_text_01";
}

void read_lightning_attention(JsonReader& r, Architecture* a) {
  const bool remote = r.has("attn_type_list");  // else transformers' layer_types
  const char* key = remote ? "attn_type_list" : "layer_types";
  if (!remote && !r.has(key)) {
    throw_error(r.field("attn_type_list"), "minimax_layer_kinds");
  }
  const nlohmann::json& list = r.raw(key);
  if (!list.is_array() || static_cast<int64_t>(list.size()) != a->layers) {
    throw_error(r.field(key), "layer_kinds_count", {{"layers", a->layers}});
  }
  int64_t linear = 0;
  for (const nlohmann::json& kind : list) {
    const bool lightning = remote ? kind == 0 : kind == "linear_attention";
    const bool softmax = remote ? kind == 1 : kind == "full_attention";
    if (!lightning && !softmax) {
      throw_error(r.field(key), remote ? "minimax_kind_numbers" : "minimax_kind_names", {{"value", kind}});
    }
    linear += lightning ? 1 : 0;
  }
  a->linear_attn_layers = linear;
  a->lightning_attn = true;
  a->linear_key_heads = a->linear_value_heads = a->heads;
  a->linear_key_dim = a->linear_value_dim = a->head_dim;
  a->linear_conv_kernel = 0;
  if (auto width = r.integer("shared_intermediate_size", 0, kMaxArchSize);
      width && *width > 0 && a->experts > 0) {
    a->shared_experts = 1;
    a->shared_expert_intermediate = *width;
    a->shared_expert_gate = true;
  }
}

// Per-type details of the standard dialect: biases, q/k norms, extra norms.
void apply_family(JsonReader& r, const std::string& type, Architecture* a) {
  if (type == "qwen2" || type == "qwen2_moe" || type == "qwen2_5_vl") {
    a->attn_bias = AttnBias::Qkv;  // Qwen2Attention: q/k/v with bias, o without
  } else if (type == "glm" || type == "glm4" || type == "glm4_moe") {
    a->attn_bias =
        r.boolean("attention_bias").value_or(true) ? AttnBias::Qkv : AttnBias::None;  // o_proj has none
  } else if (type == "internlm2") {
    a->attn_bias = r.boolean("bias").value_or(true) ? AttnBias::All : AttnBias::None;  // wqkv and wo
  } else if (type != "deepseek_v2" && type != "deepseek_v3" && type != "kimi_k2") {
    a->attn_bias = r.boolean("attention_bias").value_or(false) ? AttnBias::All : AttnBias::None;
  }
  a->mlp_bias = r.boolean("mlp_bias").value_or(false);
  a->qk_norm = type == "qwen3" || type == "qwen3_moe" || type == "gemma3_text" || type == "qwen3_next" ||
               (type == "glm4_moe" && r.boolean("use_qk_norm").value_or(false));
  if (type == "gemma2" || type == "glm4" || type == "gemma3_text")
    a->norms_per_layer = 4;  // before and after each sublayer
  // MoEGate e_score_correction_bias (DeepSeek-V3, Kimi K2, GLM-4.5); gpt-oss's router has a bias.
  a->router_bias = (type == "deepseek_v3" || type == "kimi_k2" || type == "glm4_moe" || type == "gpt_oss") &&
                   a->experts > 0;
  if (type == "qwen3_next") read_linear_attention(r, a);
  if (is_minimax(type)) read_lightning_attention(r, a);
  if (type == "gpt_oss") {
    a->expert_bias = true;  // GptOssExperts gate_up_proj_bias, down_proj_bias
    a->attn_sinks = true;   // GptOssAttention sinks
  }
  if (type == "llama4_text" && a->experts > 0) {
    // Llama4TextMoe: one shared expert as wide as a routed one; dense layers use intermediate_size_mlp.
    a->shared_experts = 1;
    a->intermediate = r.integer("intermediate_size_mlp", 1, kMaxArchSize).value_or(a->intermediate);
  }
  if (type == "deepseek_v3" || type == "kimi_k2" || type == "glm4_moe") {
    a->mtp_layers = r.integer("num_nextn_predict_layers", 0, 16).value_or(0);
    a->mtp_stores_embeddings =
        type != "glm4_moe";  // DeepSeek-V3 layer 61 holds embed_tokens and shared_head.head
  }
  read_sliding_window(r, type, a);
}

// DeepSeek-V2/V3 multi-head latent attention (q_lora_rank null: plain q projection, V2-Lite).
void read_mla(JsonReader& r, Architecture* a) {
  a->mla.q_lora_rank = r.integer("q_lora_rank", 0, kMaxArchSize).value_or(0);
  a->mla.kv_lora_rank = need(r, "kv_lora_rank");
  a->mla.qk_nope_head_dim = need(r, "qk_nope_head_dim");
  a->mla.qk_rope_head_dim = need(r, "qk_rope_head_dim");
  a->mla.v_head_dim = need(r, "v_head_dim");
  a->head_dim = a->mla.qk_nope_head_dim + a->mla.qk_rope_head_dim;
  a->kv_heads = a->heads;
}

// The keys of LlamaConfig, shared by most model types (and assumed for an unknown one).
Architecture read_standard(JsonReader& r, const std::string& type) {
  Architecture a;
  a.family = type.empty() ? "unknown" : type;
  a.hidden = need(r, "hidden_size");
  a.layers = need(r, "num_hidden_layers");
  read_heads(r, &a, "num_attention_heads", "num_key_value_heads", "head_dim");
  a.vocab = need(r, "vocab_size");
  a.intermediate = r.integer("intermediate_size", 1, kMaxArchSize).value_or(0);
  read_moe(r, &a);
  if (a.intermediate == 0 && (a.experts == 0 || a.dense_layers > 0)) {
    throw_error(r.field("intermediate_size"), "config_missing");
  }
  a.max_positions =
      first_of(r, {"max_position_embeddings", "model_max_length"}, 0, kMaxArchPositions).value_or(0);
  a.tied_embeddings = r.boolean("tie_word_embeddings").value_or(tie_default(type));
  apply_family(r, type, &a);
  if (type == "deepseek_v2" || type == "deepseek_v3" || type == "kimi_k2") read_mla(r, &a);
  return a;
}

// Qwen v1 (QWenConfig): intermediate_size is the sum of w1 and w2, each half as wide.
Architecture read_qwen_v1(JsonReader& r) {
  Architecture a;
  a.family = "qwen";
  a.hidden = need(r, "hidden_size");
  a.layers = need(r, "num_hidden_layers");
  read_heads(r, &a, "num_attention_heads", nullptr, "kv_channels");
  a.vocab = need(r, "vocab_size");
  const int64_t both = need(r, "intermediate_size");
  if (both % 2 != 0) throw_error(r.field("intermediate_size"), "intermediate_even");
  a.intermediate = both / 2;
  a.attn_bias = AttnBias::Qkv;  // c_attn has a bias; c_proj has none (no_bias)
  a.max_positions = first_of(r, {"seq_length", "max_position_embeddings"}, 0, kMaxArchPositions).value_or(0);
  a.tied_embeddings = r.boolean("tie_word_embeddings").value_or(false);
  return a;
}

// ChatGLM-6B (v1: inner_hidden_size, GELU MLP, LayerNorm, every linear biased, tied output).
void read_chatglm_v1(JsonReader& r, Architecture* a) {
  read_heads(r, a, "num_attention_heads", nullptr, nullptr);
  a->intermediate = need(r, "inner_hidden_size");
  a->mlp = MlpKind::Plain;
  a->mlp_bias = true;
  a->norm = NormKind::Layer;
  a->attn_bias = AttnBias::All;
  a->max_positions = r.integer("max_sequence_length", 0, kMaxArchPositions).value_or(0);
  a->tied_embeddings = r.boolean("tie_word_embeddings").value_or(true);
}

// ChatGLM2/3 and GLM-4 (ChatGLMConfig of THUDM's remote code).
void read_chatglm_v2(JsonReader& r, Architecture* a) {
  const bool mqa = r.boolean("multi_query_attention").value_or(false);
  read_heads(r, a, "num_attention_heads", mqa ? "multi_query_group_num" : nullptr, "kv_channels");
  a->intermediate = need(r, "ffn_hidden_size");
  const bool bias_linear = r.boolean("add_bias_linear").value_or(false);
  const bool qkv_bias = r.boolean("add_qkv_bias").value_or(false);
  a->attn_bias = bias_linear ? AttnBias::All : qkv_bias ? AttnBias::Qkv : AttnBias::None;
  a->mlp_bias = bias_linear;
  a->norm = r.boolean("rmsnorm").value_or(true) ? NormKind::Rms : NormKind::Layer;
  a->final_norm = r.boolean("post_layer_norm").value_or(true);
  a->max_positions = r.integer("seq_length", 0, kMaxArchPositions).value_or(0);
  a->tied_embeddings = r.boolean("tie_word_embeddings").value_or(false);
}

Architecture read_chatglm(JsonReader& r) {
  Architecture a;
  a.family = "chatglm";
  a.hidden = need(r, "hidden_size");
  a.layers = need_first(r, {"num_layers", "num_hidden_layers"});
  a.vocab = need_first(r, {"padded_vocab_size", "vocab_size"});
  if (r.has("inner_hidden_size")) {
    read_chatglm_v1(r, &a);
  } else {
    read_chatglm_v2(r, &a);
  }
  return a;
}

// GPT2Config: n_inner null means 4 x n_embd; learned positions; Conv1D layers with biases.
Architecture read_gpt2(JsonReader& r) {
  Architecture a;
  a.family = "gpt2";
  a.hidden = need(r, "n_embd");
  a.layers = need(r, "n_layer");
  read_heads(r, &a, "n_head", nullptr, nullptr);
  a.vocab = need(r, "vocab_size");
  a.intermediate = r.integer("n_inner", 1, kMaxArchSize).value_or(4 * a.hidden);
  a.learned_positions = r.integer("n_positions", 1, kMaxArchSize).value_or(1024);  // GPT2Config default
  a.max_positions = a.learned_positions;
  a.mlp = MlpKind::Plain;
  a.mlp_bias = true;
  a.norm = NormKind::Layer;
  a.attn_bias = AttnBias::All;
  a.tied_embeddings = r.boolean("tie_word_embeddings").value_or(true);
  return a;
}

// BertConfig (also RoBERTa): encoder with token-type embeddings, embedding LayerNorm, pooler;
// post-LN blocks, so no final norm. The masked-LM head is not counted.
Architecture read_bert(JsonReader& r, const std::string& type) {
  Architecture a;
  a.family = type;
  a.hidden = need(r, "hidden_size");
  a.layers = need(r, "num_hidden_layers");
  read_heads(r, &a, "num_attention_heads", nullptr, nullptr);
  a.vocab = need(r, "vocab_size");
  a.intermediate = need(r, "intermediate_size");
  a.learned_positions =
      r.integer("max_position_embeddings", 1, kMaxArchSize).value_or(512);   // BertConfig default
  a.type_vocab = r.integer("type_vocab_size", 0, kMaxArchSize).value_or(2);  // BertConfig default
  a.max_positions = a.learned_positions;
  a.mlp = MlpKind::Plain;
  a.mlp_bias = true;
  a.norm = NormKind::Layer;
  a.attn_bias = AttnBias::All;
  a.final_norm = false;
  a.pooler = true;
  a.embedding_norm = true;
  a.encoder = true;
  a.tied_embeddings = true;
  return a;
}

// Configs written by hand or by remote code sometimes lack model_type: then the class named in
// "architectures" tells the dialect (more specific prefixes first).
std::string infer_type(const nlohmann::json& config) {
  static const std::pair<const char*, const char*> kByClass[] = {{"ChatGLM", "chatglm"},
                                                                 {"QWenLMHead", "qwen"},
                                                                 {"GPT2", "gpt2"},
                                                                 {"Bert", "bert"},
                                                                 {"Qwen2Moe", "qwen2_moe"},
                                                                 {"Qwen2", "qwen2"},
                                                                 {"Qwen3Moe", "qwen3_moe"},
                                                                 {"Qwen3Next", "qwen3_next"},
                                                                 {"MiniMaxM1", "minimax_m1"},
                                                                 {"MiniMaxText01", "minimax_text_01"},
                                                                 {"MiniMaxForCausalLM", "minimax"},
                                                                 {"Qwen3", "qwen3"},
                                                                 {"DeepseekV3", "deepseek_v3"},
                                                                 {"DeepseekV2", "deepseek_v2"},
                                                                 {"Gemma3ForCausalLM", "gemma3_text"},
                                                                 {"Gemma3", "gemma3"},
                                                                 {"Gemma2", "gemma2"},
                                                                 {"GptOss", "gpt_oss"},
                                                                 {"Glm4Moe", "glm4_moe"},
                                                                 {"Llama4ForCausalLM", "llama4_text"},
                                                                 {"Llama4", "llama4"},
                                                                 {"Qwen2_5_VL", "qwen2_5_vl"},
                                                                 {"Gemma", "gemma"},
                                                                 {"Mixtral", "mixtral"},
                                                                 {"Mistral", "mistral"},
                                                                 {"Phi3", "phi3"},
                                                                 {"InternLM2", "internlm2"},
                                                                 {"Baichuan", "baichuan"},
                                                                 {"Llama", "llama"}};
  const auto it = config.find("architectures");
  if (it == config.end() || !it->is_array() || it->empty() || !it->front().is_string()) return "";
  const std::string cls = it->front().get<std::string>();
  for (const auto& [prefix, type] : kByClass) {
    if (cls.rfind(prefix, 0) == 0) return type;
  }
  return "";
}

Architecture read_by_type(JsonReader& r, const std::string& type) {
  if (type == "qwen") return read_qwen_v1(r);
  if (type == "chatglm") return read_chatglm(r);
  if (type == "gpt2") return read_gpt2(r);
  if (type == "bert" || type == "roberta" || type == "xlm-roberta") return read_bert(r, type);
  return read_standard(r, type);
}

// The checkpoint's name where config.json records it (_name_or_path), else the model type.
std::string display_name(const nlohmann::json& config, const std::string& family) {
  const auto it = config.find("_name_or_path");
  if (it != config.end() && it->is_string() && !it->get<std::string>().empty()) return it->get<std::string>();
  return family + " (config.json)";
}

// The language model's dialect inside a VLM wrapper's text_config (when it names none).
std::string text_type_of(const std::string& type) {
  if (type == "gemma3") return "gemma3_text";
  if (type == "llama4") return "llama4_text";
  if (type == "mistral3") return "mistral";
  if (type == "qwen2_5_vl") return "qwen2_5_vl";
  return type;
}

int64_t vision_key(JsonReader& v, const char* key, int64_t fallback) {
  if (fallback > 0) return v.integer(key, 1, kMaxArchSize).value_or(fallback);
  return need(v, key);
}

// Weights of the vision tower and projector, from vision_config (0 without one). Each formula
// lists the tower's modules as transformers builds them; defaults are the config classes'.
int64_t vision_params(JsonReader& r, const std::string& type, int64_t text_hidden) {
  if (!r.has("vision_config") || r.raw("vision_config").is_null()) return 0;
  JsonReader v(r.raw("vision_config"), r.field("vision_config"));
  const int64_t th = text_hidden;
  if (type == "gemma3") {
    // SiglipVisionModel (patch conv with bias, learned positions, pre-LN blocks with biased
    // q/k/v/o and fc1/fc2, post_layernorm) + Gemma3MultiModalProjector (vh x text hidden, RMSNorm).
    const int64_t h = vision_key(v, "hidden_size", 768), i = vision_key(v, "intermediate_size", 3072);
    const int64_t layers = vision_key(v, "num_hidden_layers", 12), p = vision_key(v, "patch_size", 16);
    const int64_t image = vision_key(v, "image_size", 224), ch = vision_key(v, "num_channels", 3);
    const int64_t positions = (image / p) * (image / p);
    const int64_t block = 4 * (h * h + h) + (h * i + i) + (i * h + h) + 2 * 2 * h;
    return ch * p * p * h + h + positions * h + layers * block + 2 * h + h * th + h;
  }
  if (type == "qwen2_5_vl") {
    // Qwen2_5_VisionTransformer: Conv3d patch embed without bias, RMSNorm blocks with biased
    // qkv/proj and gated MLP, PatchMerger (RMSNorm, Linear(h m^2, h m^2), Linear(h m^2, out)).
    const int64_t h = vision_key(v, "hidden_size", 1280), i = vision_key(v, "intermediate_size", 3420);
    const int64_t layers = vision_key(v, "depth", 32), p = vision_key(v, "patch_size", 14);
    const int64_t tp = vision_key(v, "temporal_patch_size", 2), ch = vision_key(v, "in_chans", 3);
    const int64_t merge = vision_key(v, "spatial_merge_size", 2), out = vision_key(v, "out_hidden_size", th);
    const int64_t block = 2 * h + (h * 3 * h + 3 * h) + (h * h + h) + 2 * (h * i + i) + (i * h + h);
    const int64_t ctx = h * merge * merge;
    return ch * tp * p * p * h + layers * block + h + (ctx * ctx + ctx) + (ctx * out + out);
  }
  if (type == "llama4") {
    // Llama4VisionModel: unfold-conv patch Linear without bias, class embedding, positions
    // ((image/patch)^2 + 1), LayerNorm pre/post, blocks with biased q/k/v/o and fc1/fc2, the
    // pixel-shuffle MLP (fc1 intermediate -> projector_input_dim, fc2 -> projector_output_dim,
    // no bias), and Llama4MultiModalProjector (vision_output_dim -> text hidden, no bias).
    const int64_t h = vision_key(v, "hidden_size", 768), i = vision_key(v, "intermediate_size", 5632);
    const int64_t layers = vision_key(v, "num_hidden_layers", 34), p = vision_key(v, "patch_size", 14);
    const int64_t image = vision_key(v, "image_size", 448), ch = vision_key(v, "num_channels", 3);
    const int64_t pin = vision_key(v, "projector_input_dim", 4096),
                  pout = vision_key(v, "projector_output_dim", 4096);
    const int64_t vout = vision_key(v, "vision_output_dim", 7680);
    const int64_t positions = (image / p) * (image / p) + 1;
    const int64_t block = 4 * (h * h + h) + (h * i + i) + (i * h + h) + 2 * 2 * h;
    return ch * p * p * h + h + positions * h + 2 * 2 * h + layers * block + i * pin + pout * pout +
           vout * th;
  }
  if (type == "mistral3") {
    // PixtralVisionModel: patch conv without bias, ln_pre, RMSNorm blocks with bias-free q/k/v/o
    // and gated MLP (2D RoPE: no position table) + Mistral3MultiModalProjector (RMSNorm, patch
    // merger Linear(h m^2, h), Linear(h, text), Linear(text, text), no biases).
    const int64_t h = vision_key(v, "hidden_size", 1024), i = vision_key(v, "intermediate_size", 4096);
    const int64_t layers = vision_key(v, "num_hidden_layers", 24), p = vision_key(v, "patch_size", 16);
    const int64_t ch = vision_key(v, "num_channels", 3);
    const int64_t merge = r.integer("spatial_merge_size", 1, kMaxArchSize).value_or(2);
    const int64_t block = 2 * h + 4 * h * h + 3 * h * i;
    return ch * p * p * h + h + layers * block + h + h * merge * merge * h + h * th + th * th;
  }
  throw_error(r.field("vision_config"), "vision_config_unknown", {{"model_type", type}});
}

// Keys a config class fills in when config.json leaves them out: google/gemma-3-4b-it's
// text_config names only hidden_size, intermediate_size, num_hidden_layers and sliding_window;
// Gemma3TextConfig supplies the rest (transformers configuration_gemma3.py defaults).
nlohmann::json with_class_defaults(const nlohmann::json& config, const std::string& type) {
  if (type != "gemma3_text" || !config.is_object()) return config;
  static const std::pair<const char*, int64_t> kGemma3Text[] = {
      {"vocab_size", 262208},      {"hidden_size", 2304},
      {"intermediate_size", 9216}, {"num_hidden_layers", 26},
      {"num_attention_heads", 8},  {"num_key_value_heads", 4},
      {"head_dim", 256},           {"max_position_embeddings", 131072}};
  nlohmann::json out = config;
  for (const auto& [key, value] : kGemma3Text) {
    if (!out.contains(key) || out.at(key).is_null()) out[key] = value;
  }
  return out;
}

// The storage format a quantized checkpoint declares in quantization_config (transformers'
// quantizer names), as a weight format id; "" for 16-bit checkpoints and methods not modelled
// (compressed-tensors schemes vary per layer).
std::string checkpoint_format(const nlohmann::json& config) {
  const auto q = config.find("quantization_config");
  if (q == config.end() || !q->is_object()) return "";
  const auto text = [&q](const char* key) {
    const auto it = q->find(key);
    return it != q->end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  const auto bits = q->find("bits");
  const bool eight = bits != q->end() && bits->is_number() && bits->get<double>() == 8;
  const std::string method = text("quant_method");
  if (method == "mxfp4") return "mxfp4";
  if (method == "fp8") return "fp8";
  if (method == "awq") return "awq-int4";
  if (method == "gptq") return eight ? "gptq-int8" : "gptq-int4";
  if (method == "bitsandbytes") {
    const auto four = q->find("load_in_4bit");
    return four != q->end() && four->is_boolean() && four->get<bool>() ? "nf4" : "int8";
  }
  if (method == "modelopt" && (text("quant_algo") == "NVFP4" || text("quant_algo") == "FP8")) {
    return text("quant_algo") == "NVFP4" ? "nvfp4" : "fp8";
  }
  return "";
}

// rope_scaling (or transformers 5's rope_parameters): the type, and for "llama3" the four numbers
// its frequencies are computed from (transformers _compute_llama3_parameters needs them all).
// "default" is no scaling.
void read_rope_scaling(JsonReader& r, const char* key, Architecture* a) {
  const nlohmann::json& raw = r.raw(key);
  require_object(raw, r.field(key));
  JsonReader s(raw, r.field(key));
  std::optional<std::string> type = s.string("rope_type");
  if (!type) type = s.string("type");
  if (!type) throw_error(s.field("rope_type"), "config_missing");
  if (key == std::string("rope_parameters")) {
    if (auto theta = s.number("rope_theta", 1, kMaxRopeTheta, true)) a->rope_theta = *theta;
  }
  if (*type == "default") return;
  RopeScalingConfig& out = a->rope_scaling;
  out.type = *type;
  if (*type != "llama3") {
    out.factor = s.number("factor", 0, kMaxRopeFactor, true).value_or(0);
    return;
  }
  const auto need_number = [&s](const char* k, double min, bool exclusive) {
    if (auto v = s.number(k, min, kMaxRopeFactor, exclusive)) return *v;
    throw_error(s.field(k), "config_missing");
  };
  out.factor = need_number("factor", 1, false);
  out.low_freq_factor = need_number("low_freq_factor", 0, true);
  out.high_freq_factor = need_number("high_freq_factor", out.low_freq_factor, true);
  if (auto v = s.integer("original_max_position_embeddings", 1, kMaxArchPositions)) {
    out.original_max_positions = *v;
  } else {
    throw_error(s.field("original_max_position_embeddings"), "config_missing");
  }
}

// The RoPE base, its scaling and the norm epsilon: they size nothing, the Megatron-LM launch
// writes them as flags. LlamaConfig's rope_theta default is 10000.0 (meta-llama/Llama-2-7b-hf's
// config.json names none); other types without one leave it unknown (0).
void read_positions_and_norms(JsonReader& r, const std::string& type, Architecture* a) {
  const char* theta_key = type == "qwen" ? "rotary_emb_base" : "rope_theta";
  if (auto theta = r.number(theta_key, 1, kMaxRopeTheta, true)) {
    a->rope_theta = *theta;
  } else if (type == "llama") {
    a->rope_theta = 10000;
  }
  if (r.has("rope_scaling")) {
    read_rope_scaling(r, "rope_scaling", a);
  } else if (r.has("rope_parameters")) {
    read_rope_scaling(r, "rope_parameters", a);
  }
  for (const char* key : {"rms_norm_eps", "layer_norm_epsilon", "layer_norm_eps", "layernorm_epsilon"}) {
    if (auto eps = r.number(key, 0, kMaxNormEps, true)) {
      a->norm_eps = *eps;
      break;
    }
  }
}

Architecture read_checked(JsonReader& r, const std::string& type) {
  Architecture a = read_by_type(r, type);
  read_positions_and_norms(r, type, &a);
  if (a.head_dim == 0) {
    throw_error(r.field("head_dim"), "head_dim_missing", {{"hidden", a.hidden}, {"heads", a.heads}});
  }
  return a;
}

}  // namespace

// VLM wrappers (Gemma 3, Llama 4, Mistral 3, Qwen2.5-VL in newer transformers) keep the
// language model's keys in text_config and the tower's in vision_config.
Architecture from_hf_config(const nlohmann::json& config) {
  JsonReader r(config, "model.hf_config");
  const std::string type = r.string("model_type").value_or(infer_type(config));
  Architecture a;
  if (r.has("text_config") && r.raw("text_config").is_object()) {
    const nlohmann::json& raw_text = r.raw("text_config");
    std::string text_type = text_type_of(type);
    if (raw_text.contains("model_type") && raw_text.at("model_type").is_string()) {
      text_type = raw_text.at("model_type").get<std::string>();
    }
    if (text_type == "qwen2_5_vl_text") text_type = "qwen2_5_vl";
    const nlohmann::json text = with_class_defaults(raw_text, text_type);
    JsonReader t(text, r.field("text_config"));
    t.string("model_type");
    a = read_checked(t, text_type);
    a.tied_embeddings = t.boolean("tie_word_embeddings")
                            .value_or(r.boolean("tie_word_embeddings").value_or(a.tied_embeddings));
  } else if (type == "gemma3_text") {
    const nlohmann::json full = with_class_defaults(config, type);
    JsonReader d(full, "model.hf_config");
    a = read_checked(d, type);
  } else {
    a = read_checked(r, type);
  }
  a.vision_params = vision_params(r, type, a.hidden);
  a.checkpoint_weights = checkpoint_format(config);
  a.name = display_name(config, a.family);
  validate_architecture(a, "model.hf_config");
  return a;
}

}  // namespace gpusizer
