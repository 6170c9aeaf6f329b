// Model architecture: the hyper-parameters the sizing math needs, and the exact
// parameter counts derived from them. Plain data, plain functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace gpusizer {

enum class MlpKind { Gated, Plain };     // gated: SwiGLU/GeGLU, 3 matrices; plain: GELU, 2 matrices
enum class NormKind { Rms, Layer };      // RMSNorm: weight only; LayerNorm: weight and bias
enum class AttnBias { None, Qkv, All };  // Qkv: Qwen2-style q/k/v biases; All: q/k/v/o biases (GPT-2, BERT)

// Multi-head latent attention (DeepSeek-V2/V3); active when kv_lora_rank > 0. Then the KV cache
// holds kv_lora_rank + qk_rope_head_dim values per token and layer, and Architecture::head_dim
// is the q/k head width qk_nope_head_dim + qk_rope_head_dim.
struct Mla {
  int64_t q_lora_rank = 0;  // 0: plain q projection
  int64_t kv_lora_rank = 0;
  int64_t qk_nope_head_dim = 0;
  int64_t qk_rope_head_dim = 0;
  int64_t v_head_dim = 0;
};

// Rotary-position frequency scaling as config.json's rope_scaling names it. "llama3" (Llama 3.1+,
// transformers modeling_rope_utils _compute_llama3_parameters) keeps its four numbers; any other
// type ("yarn", "linear", "dynamic", "longrope", ...) keeps its name and factor only.
struct RopeScalingConfig {
  std::string type;  // "" when the model has none
  double factor = 0;
  double low_freq_factor = 0;          // llama3 only
  double high_freq_factor = 0;         // llama3 only
  int64_t original_max_positions = 0;  // llama3 only: original_max_position_embeddings
};

// A new sizing field must also join same_shape() in architecture.cpp: linear_modules() and
// count_params() keep their last answer for an architecture of the same shape.
struct Architecture {
  std::string id;    // preset id, or "" for an imported / explicit model
  std::string name;  // display name
  std::string hf_repo;
  std::string family;                // "llama", "qwen2", "gpt2", ... (informational)
  std::vector<std::string> aliases;  // other names people type (model_names.h); not part of the shape
  std::string checkpoint_weights;    // weight format id of the released checkpoint when not 16-bit
                                     // ("mxfp4": gpt-oss); a scenario naming the model defaults to it

  int64_t layers = 0;
  int64_t hidden = 0;
  int64_t heads = 0;
  int64_t kv_heads = 0;
  int64_t head_dim = 0;      // per attention head (q/k/v); may differ from hidden/heads (Qwen3, Gemma 2)
  int64_t intermediate = 0;  // dense MLP width per projection
  int64_t vocab = 0;
  bool tied_embeddings = false;

  MlpKind mlp = MlpKind::Gated;
  bool mlp_bias = false;
  NormKind norm = NormKind::Rms;
  int64_t norms_per_layer = 2;  // Gemma 2: 4
  bool qk_norm = false;         // per-head q/k RMSNorm (Qwen3)
  AttnBias attn_bias = AttnBias::None;
  bool final_norm = true;

  int64_t learned_positions = 0;  // learned absolute position embeddings (GPT-2, BERT)
  int64_t type_vocab = 0;         // BERT token-type embeddings
  bool pooler = false;            // BERT pooler (hidden x hidden + bias)
  bool embedding_norm = false;    // BERT LayerNorm after the embeddings
  bool encoder = false;           // bidirectional encoder: no KV cache, no generation

  // Mixture of experts; experts == 0 means dense.
  int64_t experts = 0;
  int64_t experts_per_token = 0;
  int64_t shared_experts = 0;
  int64_t expert_intermediate = 0;         // per routed expert
  int64_t shared_expert_intermediate = 0;  // per shared expert; 0 = expert_intermediate
  int64_t dense_layers = 0;                // leading dense layers (DeepSeek first_k_dense_replace)
  bool router_bias = false;         // per-expert score-correction bias (DeepSeek-V3 e_score_correction_bias)
  bool shared_expert_gate = false;  // hidden x 1 sigmoid gate on the shared expert (Qwen2-MoE)
  bool expert_bias = false;         // biases on every expert's projections (gpt-oss gate_up/down_proj_bias)
  bool attn_sinks = false;          // one learned sink logit per head and layer (gpt-oss self_attn.sinks)

  // Multi-token-prediction modules (DeepSeek-V3 / GLM-4.5 num_nextn_predict_layers): each one
  // decoder block, an eh_proj (2 hidden -> hidden), three norms and, as the checkpoint stores
  // them, copies of the embedding and the head. Counted in ParamCounts::mtp, not in total:
  // serving does not load them unless speculative decoding uses them.
  int64_t mtp_layers = 0;
  bool mtp_stores_embeddings = false;  // DeepSeek-V3 layer 61 holds embed_tokens and shared_head.head

  // Weights outside the language model that the checkpoint ships and serving loads: the vision
  // tower and projector of a VLM (computed from vision_config by the importer, stated for a
  // preset). Kept in 16 bits by every quantizer modelled (AutoAWQ/llm-compressor skip the
  // visual tower), no KV cache.
  int64_t vision_params = 0;

  // Hybrid linear attention (Qwen3-Next's Gated DeltaNet; Yang et al. 2024, "Gated Delta
  // Networks"): `linear_attn_layers` of the layers replace softmax attention by a recurrent state
  // of linear_value_heads x linear_key_dim x linear_value_dim values and a causal-conv window of
  // linear_conv_kernel - 1 steps; they keep no KV cache. The others are full attention.
  int64_t linear_attn_layers = 0;
  int64_t linear_key_heads = 0;
  int64_t linear_value_heads = 0;
  int64_t linear_key_dim = 0;
  int64_t linear_value_dim = 0;
  int64_t linear_conv_kernel = 0;
  bool attn_output_gate = false;  // q_proj also emits a sigmoid gate per head (Qwen3-Next gated attention)
  // MiniMax lightning attention instead of Gated DeltaNet (MiniMax-01 report, arXiv 2501.08313,
  // section 2.2; MiniMaxM1LightningAttention in MiniMax-AI/MiniMax-M1 modeling_minimax_m1.py):
  // the linear layers are qkv_proj, output_gate and out_proj over linear_key_heads x
  // linear_key_dim (= heads x head_dim) with one RMSNorm of that width; the state is a
  // heads x head_dim x head_dim matrix per layer, kept in fp32; no causal conv (kernel 0).
  bool lightning_attn = false;

  Mla mla;

  int64_t sliding_window = 0;         // 0: full attention everywhere
  int64_t sliding_window_layers = 0;  // layers that use the window (Gemma 2: every other one)
  int64_t max_positions = 0;          // max_position_embeddings, 0 if unknown

  // Facts that define the positions and norms but not the sizes (not in same_shape): read from
  // config.json for the training launch (Megatron-LM's --rotary-base, --use-rope-scaling,
  // --norm-epsilon), which builds the architecture from flags.
  double rope_theta = 0;  // RoPE base (rope_theta, Qwen v1 rotary_emb_base); 0 if unknown
  RopeScalingConfig rope_scaling;
  double norm_eps = 0;  // rms_norm_eps / layer_norm_epsilon / layer_norm_eps; 0 if unknown
};

// Bounds that validate_architecture enforces: far above any released model (largest vocab
// 256000, largest hidden 18432), and small enough that a product of three sizes fits in int64.
constexpr int64_t kMaxArchSize = int64_t{1} << 20;
constexpr int64_t kMaxArchPositions = int64_t{1} << 30;  // context lengths (Llama 4 Scout: 10M)
// rope_theta above 1 (a base of 1 gives every pair the same frequency) and at most 1e12
// (Mistral Small 3.1: 1e9); a norm epsilon above 0 and at most 0.1 (released models: 1e-12 to 1e-5).
constexpr double kMaxRopeTheta = 1e12;
constexpr double kMaxNormEps = 0.1;
constexpr double kMaxRopeFactor = 1e6;

// One kind of nn.Linear weight in the model: `count` copies of an in x out matrix.
struct LinearModule {
  // Names and groups point to string literals: the list is rebuilt in hot loops (planner).
  std::string_view
      name;  // "q", "k", "v", "o", "gate", "up", "down", "expert_gate", "q_a", "kv_b", "router", ...
  std::string_view group;  // "attention", "mlp", "experts", "router"
  int64_t in = 0;
  int64_t out = 0;
  int64_t count = 0;         // copies across the whole model
  int64_t active_count = 0;  // copies touched per token (top-k routed experts)
};

struct ParamCounts {
  double total = 0;
  double active = 0;     // per text token (MoE: top-k routed + shared experts; no vision tower)
  double embedding = 0;  // token (+position, +type) embeddings
  double lm_head = 0;    // 0 when tied to the embeddings
  double linear = 0;     // weights of all nn.Linear layers in the blocks (quantizable)
  double linear_active = 0;
  double other = 0;                 // norms, biases, pooler: kept in 16-bit by every quantizer
  double vision = 0;                // vision tower and projector (in total, not in active)
  double mtp = 0;                   // multi-token-prediction modules: in the checkpoint, not in total
  double per_layer_linear_max = 0;  // largest single layer's linear weights (ZeRO-3 live params)
};

// Every nn.Linear of the blocks, also the module list LoRA targets. Names: attention q, k, v, o
// (MLA: q_a, q_b or q, kv_a, kv_b, o); dense MLP gate, up, down (plain MLP: up, down); routed
// experts expert_gate, expert_up, expert_down (group "experts"); shared experts shared_gate,
// shared_up, shared_down (group "mlp": every token passes them, like a dense MLP); router and
// shared_expert_gate (group "router"). Fused checkpoints (qkv_proj, gate_up_proj) are listed
// split: the weights are the same. The LM head is not listed (ParamCounts::lm_head).
// Both are pure and remember their last answer (the planner sizes one model thousands of times
// per table); they return copies, so two models can be sized in one expression.
std::vector<LinearModule> linear_modules(const Architecture& arch);
ParamCounts count_params(const Architecture& arch);
// True when every field the sizing reads is equal (names and sources aside).
bool same_shape(const Architecture& a, const Architecture& b);

// Preset catalog (core/data/models.json, embedded at build time).
const std::vector<Architecture>& model_presets();
const Architecture* find_preset(const std::string& id);  // nullptr if unknown

// Hugging Face config.json to an Architecture. Throws InputError naming the missing or
// bad field as "model.hf_config.<key>".
Architecture from_hf_config(const nlohmann::json& config);

// Architecture from a bare parameter count: a Llama-3-like shape (scaling rule documented in
// architecture.cpp) whose count lands within 1 %. The caller warns that the shape is guessed.
Architecture from_param_count(double params);

// Explicit-field object of the spec ({"name", "layers", ...}); errors name "model.<key>".
Architecture from_explicit_fields(const nlohmann::json& fields);

// Checks the invariants (positive sizes, heads divisible by kv_heads, ...); throws InputError
// with field prefix `field` ("model", "model.hf_config").
void validate_architecture(const Architecture& arch, const std::string& field);

}  // namespace gpusizer
