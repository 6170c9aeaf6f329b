// from_hf_config on real config.json files: each import counts exactly what the matching
// preset counts, and every malformed config is an InputError naming its key.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/architecture.h"
#include "gpusizer/error.h"

using gpusizer::Architecture;
using gpusizer::InputError;
using nlohmann::json;

namespace {

// Hub config.json files (as published; copies found through public code search).
const char* const kLlama31_8B = R"({
  "architectures": ["LlamaForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "bos_token_id": 128000, "eos_token_id": 128001, "hidden_act": "silu", "hidden_size": 4096,
  "initializer_range": 0.02, "intermediate_size": 14336, "max_position_embeddings": 131072,
  "mlp_bias": false, "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 32,
  "num_key_value_heads": 8, "pretraining_tp": 1, "rms_norm_eps": 1e-05,
  "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                   "original_max_position_embeddings": 8192, "rope_type": "llama3"},
  "rope_theta": 500000.0, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
  "transformers_version": "4.43.0.dev0", "use_cache": true, "vocab_size": 128256})";

const char* const kQwen25_7B = R"({
  "architectures": ["Qwen2ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 151643,
  "eos_token_id": 151645, "hidden_act": "silu", "hidden_size": 3584, "initializer_range": 0.02,
  "intermediate_size": 18944, "max_position_embeddings": 32768, "max_window_layers": 28,
  "model_type": "qwen2", "num_attention_heads": 28, "num_hidden_layers": 28,
  "num_key_value_heads": 4, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0,
  "sliding_window": 131072, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
  "transformers_version": "4.43.1", "use_cache": true, "use_sliding_window": false,
  "vocab_size": 152064})";

const char* const kQwen3_30B_A3B = R"({
  "architectures": ["Qwen3MoeForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "bos_token_id": 151643, "decoder_sparse_step": 1, "eos_token_id": 151645, "head_dim": 128,
  "hidden_act": "silu", "hidden_size": 2048, "initializer_range": 0.02, "intermediate_size": 6144,
  "max_position_embeddings": 40960, "max_window_layers": 48, "mlp_only_layers": [],
  "model_type": "qwen3_moe", "moe_intermediate_size": 768, "norm_topk_prob": true,
  "num_attention_heads": 32, "num_experts": 128, "num_experts_per_tok": 8, "num_hidden_layers": 48,
  "num_key_value_heads": 4, "output_router_logits": false, "rms_norm_eps": 1e-06,
  "rope_scaling": null, "rope_theta": 1000000.0, "router_aux_loss_coef": 0.001,
  "sliding_window": null, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
  "transformers_version": "4.51.0", "use_cache": true, "use_sliding_window": false,
  "vocab_size": 151936})";

// deepseek-ai/DeepSeek-R1: the DeepSeek-V3 architecture, same config.json keys and values.
const char* const kDeepSeekV3 = R"({
  "architectures": ["DeepseekV3ForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "auto_map": {"AutoConfig": "configuration_deepseek.DeepseekV3Config",
               "AutoModel": "modeling_deepseek.DeepseekV3Model",
               "AutoModelForCausalLM": "modeling_deepseek.DeepseekV3ForCausalLM"},
  "bos_token_id": 0, "eos_token_id": 1, "ep_size": 1, "first_k_dense_replace": 3,
  "hidden_act": "silu", "hidden_size": 7168, "initializer_range": 0.02, "intermediate_size": 18432,
  "kv_lora_rank": 512, "max_position_embeddings": 163840, "model_type": "deepseek_v3",
  "moe_intermediate_size": 2048, "moe_layer_freq": 1, "n_group": 8, "n_routed_experts": 256,
  "n_shared_experts": 1, "norm_topk_prob": true, "num_attention_heads": 128,
  "num_experts_per_tok": 8, "num_hidden_layers": 61, "num_key_value_heads": 128,
  "num_nextn_predict_layers": 1, "q_lora_rank": 1536, "qk_nope_head_dim": 128,
  "qk_rope_head_dim": 64,
  "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8",
                          "weight_block_size": [128, 128]},
  "rms_norm_eps": 1e-06,
  "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
                   "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096, "type": "yarn"},
  "rope_theta": 10000, "routed_scaling_factor": 2.5, "scoring_func": "sigmoid",
  "tie_word_embeddings": false, "topk_group": 4, "topk_method": "noaux_tc",
  "torch_dtype": "bfloat16", "transformers_version": "4.46.3", "use_cache": true,
  "v_head_dim": 128, "vocab_size": 129280})";

const char* const kChatGlm3_6B = R"({
  "_name_or_path": "THUDM/chatglm3-6b", "model_type": "chatglm", "add_bias_linear": false, "add_qkv_bias": true,
  "apply_residual_connection_post_layernorm": false, "architectures": ["ChatGLMModel"],
  "attention_dropout": 0.0, "attention_softmax_in_fp32": true,
  "auto_map": {"AutoConfig": "configuration_chatglm.ChatGLMConfig",
               "AutoModel": "modeling_chatglm.ChatGLMForConditionalGeneration",
               "AutoModelForSeq2SeqLM": "modeling_chatglm.ChatGLMForConditionalGeneration"},
  "bias_dropout_fusion": true, "ffn_hidden_size": 13696, "hidden_dropout": 0.0,
  "hidden_size": 4096, "kv_channels": 128, "layernorm_epsilon": 1e-05,
  "multi_query_attention": true, "multi_query_group_num": 2, "num_attention_heads": 32,
  "num_layers": 28, "original_rope": true, "padded_vocab_size": 65024, "post_layer_norm": true,
  "rmsnorm": true, "seq_length": 8192, "tie_word_embeddings": false, "torch_dtype": "float16",
  "transformers_version": "4.30.2", "use_cache": true, "vocab_size": 65024})";

const char* const kChatGlm6B = R"({
  "_name_or_path": "THUDM/chatglm-6b", "architectures": ["ChatGLMModel"],
  "auto_map": {"AutoConfig": "configuration_chatglm.ChatGLMConfig",
               "AutoModel": "modeling_chatglm.ChatGLMForConditionalGeneration",
               "AutoModelForSeq2SeqLM": "modeling_chatglm.ChatGLMForConditionalGeneration"},
  "bos_token_id": 130004, "eos_token_id": 130005, "mask_token_id": 130000,
  "gmask_token_id": 130001, "pad_token_id": 3, "hidden_size": 4096, "inner_hidden_size": 16384,
  "layernorm_epsilon": 1e-05, "max_sequence_length": 2048, "model_type": "chatglm",
  "num_attention_heads": 32, "num_layers": 28, "position_encoding_2d": true,
  "pre_seq_len": null, "prefix_projection": false, "quantization_bit": 0,
  "torch_dtype": "float16", "transformers_version": "4.27.1", "use_cache": true,
  "vocab_size": 130528})";

const char* const kGlm4_9B = R"({
  "_name_or_path": "THUDM/glm-4-9b-chat", "add_bias_linear": false, "add_qkv_bias": true,
  "apply_query_key_layer_scaling": true, "apply_residual_connection_post_layernorm": false,
  "architectures": ["ChatGLMModel"], "attention_dropout": 0.0, "attention_softmax_in_fp32": true,
  "bias_dropout_fusion": true, "classifier_dropout": null, "eos_token_id": [151329, 151336, 151338],
  "ffn_hidden_size": 13696, "fp32_residual_connection": false, "hidden_dropout": 0.0,
  "hidden_size": 4096, "kv_channels": 128, "layernorm_epsilon": 1.5625e-07,
  "model_type": "chatglm", "multi_query_attention": true, "multi_query_group_num": 2,
  "num_attention_heads": 32, "num_hidden_layers": 40, "num_layers": 40, "original_rope": true,
  "pad_token_id": 151329, "padded_vocab_size": 151552, "post_layer_norm": true, "rmsnorm": true,
  "rope_ratio": 500, "seq_length": 131072, "tie_word_embeddings": false,
  "torch_dtype": "bfloat16", "transformers_version": "4.43.4", "use_cache": true,
  "vocab_size": 151552})";

// Qwen/Qwen-7B (v1): intermediate_size is w1 + w2.
const char* const kQwen7B = R"({
  "architectures": ["QWenLMHeadModel"], "attn_dropout_prob": 0.0, "bf16": false,
  "emb_dropout_prob": 0.0, "fp16": false, "fp32": false, "hidden_size": 4096,
  "intermediate_size": 22016, "initializer_range": 0.02, "kv_channels": 128,
  "layer_norm_epsilon": 1e-06, "max_position_embeddings": 32768, "model_type": "qwen",
  "no_bias": true, "num_attention_heads": 32, "num_hidden_layers": 32, "onnx_safe": null,
  "rotary_emb_base": 10000, "rotary_pct": 1.0, "scale_attn_weights": true, "seq_length": 8192,
  "tie_word_embeddings": false, "tokenizer_class": "QWenTokenizer",
  "transformers_version": "4.32.0", "use_cache": true, "use_dynamic_ntk": true,
  "use_flash_attn": "auto", "use_logn_attn": true, "vocab_size": 151936})";

// openai-community/gpt2: no n_inner key (4 x n_embd), no tie_word_embeddings key (tied).
const char* const kGpt2 = R"({
  "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1,
  "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02,
  "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": 1024, "n_embd": 768, "n_head": 12,
  "n_layer": 12, "n_positions": 1024, "resid_pdrop": 0.1, "summary_activation": null,
  "summary_first_dropout": 0.1, "summary_proj_to_labels": true, "summary_type": "cls_index",
  "summary_use_proj": true,
  "task_specific_params": {"text-generation": {"do_sample": true, "max_length": 50}},
  "vocab_size": 50257})";

const char* const kBertBase = R"({
  "architectures": ["BertForMaskedLM"], "attention_probs_dropout_prob": 0.1,
  "gradient_checkpointing": false, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
  "hidden_size": 768, "initializer_range": 0.02, "intermediate_size": 3072,
  "layer_norm_eps": 1e-12, "max_position_embeddings": 512, "model_type": "bert",
  "num_attention_heads": 12, "num_hidden_layers": 12, "pad_token_id": 0,
  "position_embedding_type": "absolute", "transformers_version": "4.6.0.dev0",
  "type_vocab_size": 2, "use_cache": true, "vocab_size": 30522})";

const char* const kMixtral8x7B = R"({
  "architectures": ["MixtralForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1,
  "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 4096, "initializer_range": 0.02,
  "intermediate_size": 14336, "max_position_embeddings": 32768, "model_type": "mixtral",
  "num_attention_heads": 32, "num_experts_per_tok": 2, "num_hidden_layers": 32,
  "num_key_value_heads": 8, "num_local_experts": 8, "output_router_logits": false,
  "rms_norm_eps": 1e-05, "rope_theta": 1000000.0, "router_aux_loss_coef": 0.02,
  "sliding_window": null, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
  "transformers_version": "4.36.0.dev0", "use_cache": true, "vocab_size": 32000})";

// google/gemma-2-9b-it (same architecture as the base model).
const char* const kGemma2_9B = R"({
  "architectures": ["Gemma2ForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "attn_logit_softcapping": 50.0, "bos_token_id": 2, "cache_implementation": "hybrid",
  "eos_token_id": 1, "final_logit_softcapping": 30.0, "head_dim": 256,
  "hidden_act": "gelu_pytorch_tanh", "hidden_activation": "gelu_pytorch_tanh",
  "hidden_size": 3584, "initializer_range": 0.02, "intermediate_size": 14336,
  "max_position_embeddings": 8192, "model_type": "gemma2", "num_attention_heads": 16,
  "num_hidden_layers": 42, "num_key_value_heads": 8, "pad_token_id": 0,
  "query_pre_attn_scalar": 256, "rms_norm_eps": 1e-06, "rope_theta": 10000.0,
  "sliding_window": 4096, "sliding_window_size": 4096, "torch_dtype": "bfloat16",
  "transformers_version": "4.42.0.dev0", "use_cache": true, "vocab_size": 256000})";

const char* const kPhi3Mini4k = R"({
  "_name_or_path": "Phi-3-mini-4k-instruct", "architectures": ["Phi3ForCausalLM"],
  "attention_dropout": 0.0,
  "auto_map": {"AutoConfig": "configuration_phi3.Phi3Config",
               "AutoModelForCausalLM": "modeling_phi3.Phi3ForCausalLM"},
  "bos_token_id": 1, "embd_pdrop": 0.0, "eos_token_id": 32000, "hidden_act": "silu",
  "hidden_size": 3072, "initializer_range": 0.02, "intermediate_size": 8192,
  "max_position_embeddings": 4096, "model_type": "phi3", "num_attention_heads": 32,
  "num_hidden_layers": 32, "num_key_value_heads": 32, "original_max_position_embeddings": 4096,
  "pad_token_id": 32000, "resid_pdrop": 0.0, "rms_norm_eps": 1e-05, "rope_scaling": null,
  "rope_theta": 10000.0, "sliding_window": 2047, "tie_word_embeddings": false,
  "torch_dtype": "bfloat16", "transformers_version": "4.40.2", "use_cache": true,
  "attention_bias": false, "vocab_size": 32064})";

const char* const kInternLm2_7B = R"({
  "architectures": ["InternLM2ForCausalLM"], "attn_implementation": "eager",
  "auto_map": {"AutoConfig": "configuration_internlm2.InternLM2Config",
               "AutoModelForCausalLM": "modeling_internlm2.InternLM2ForCausalLM",
               "AutoModel": "modeling_internlm2.InternLM2ForCausalLM"},
  "bias": false, "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 4096,
  "initializer_range": 0.02, "intermediate_size": 14336, "max_position_embeddings": 32768,
  "model_type": "internlm2", "num_attention_heads": 32, "num_hidden_layers": 32,
  "num_key_value_heads": 8, "pad_token_id": 2, "rms_norm_eps": 1e-05, "rope_scaling": null,
  "rope_theta": 1000000, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
  "transformers_version": "4.33.2", "use_cache": true, "vocab_size": 92544})";

const char* const kBaichuan2_7B = R"({
  "_from_model_config": true, "architectures": ["BaichuanForCausalLM"],
  "auto_map": {"AutoConfig": "configuration_baichuan.BaichuanConfig",
               "AutoModelForCausalLM": "modeling_baichuan.BaichuanForCausalLM"},
  "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 4096,
  "initializer_range": 0.02, "intermediate_size": 11008, "max_position_embeddings": 4096,
  "model_max_length": 4096, "model_type": "baichuan", "num_attention_heads": 32,
  "num_hidden_layers": 32, "pad_token_id": 0, "rms_norm_eps": 1e-06, "tie_word_embeddings": false,
  "torch_dtype": "bfloat16", "transformers_version": "4.29.2", "use_cache": true,
  "vocab_size": 125696, "z_loss_weight": 0})";

// Baichuan2-13B (ALiBi): no max_position_embeddings, only model_max_length.
const char* const kBaichuan2_13B = R"({
  "_from_model_config": true, "architectures": ["BaichuanForCausalLM"],
  "auto_map": {"AutoConfig": "configuration_baichuan.BaichuanConfig",
               "AutoModelForCausalLM": "modeling_baichuan.BaichuanForCausalLM"},
  "tokenizer_class": "BaichuanTokenizer", "bos_token_id": 1, "eos_token_id": 2,
  "gradient_checkpointing": [false], "hidden_act": "silu", "hidden_size": 5120,
  "initializer_range": 0.02, "intermediate_size": 13696, "model_max_length": 4096,
  "model_type": "baichuan", "num_attention_heads": 40, "num_hidden_layers": 40,
  "pad_token_id": 0, "rms_norm_eps": 1e-06, "tie_word_embeddings": false,
  "torch_dtype": "bfloat16", "transformers_version": "4.29.2", "use_cache": true,
  "vocab_size": 125696})";

// A model type this project has never heard of, with the standard Llama keys (Yi-34B's values).
const char* const kUnknownType = R"({
  "architectures": ["SomeNewForCausalLM"], "model_type": "some_new_model", "hidden_size": 7168,
  "intermediate_size": 20480, "max_position_embeddings": 4096, "num_attention_heads": 56,
  "num_hidden_layers": 60, "num_key_value_heads": 8, "tie_word_embeddings": false,
  "vocab_size": 64000})";

struct Case {
  const char* preset;
  const char* config;
};
const Case kCases[] = {
    {"llama-3.1-8b", kLlama31_8B},
    {"qwen2.5-7b", kQwen25_7B},
    {"qwen3-30b-a3b", kQwen3_30B_A3B},
    {"deepseek-v3", kDeepSeekV3},
    {"chatglm3-6b", kChatGlm3_6B},
    {"chatglm-6b", kChatGlm6B},
    {"glm-4-9b", kGlm4_9B},
    {"qwen-7b", kQwen7B},
    {"gpt2", kGpt2},
    {"bert-base", kBertBase},
    {"mixtral-8x7b", kMixtral8x7B},
    {"gemma-2-9b", kGemma2_9B},
    {"phi-3-mini-4k", kPhi3Mini4k},
    {"internlm2-7b", kInternLm2_7B},
    {"baichuan2-7b", kBaichuan2_7B},
    {"baichuan2-13b", kBaichuan2_13B},
    {"yi-34b", kUnknownType},
};

std::string error_field(const json& config) {
  try {
    gpusizer::from_hf_config(config);
  } catch (const InputError& e) {
    return e.field;
  }
  return "no error";
}

json edited(const char* config, const std::string& key, const json& value) {
  json j = json::parse(config);
  if (value.is_discarded()) {
    j.erase(key);
  } else {
    j[key] = value;
  }
  return j;
}

const json kRemove = json(json::value_t::discarded);

}  // namespace

TEST_CASE("config.json imports count exactly what their presets count") {
  for (const Case& c : kCases) {
    const Architecture a = gpusizer::from_hf_config(json::parse(c.config));
    const Architecture& p = *gpusizer::find_preset(c.preset);
    const gpusizer::ParamCounts got = gpusizer::count_params(a);
    const gpusizer::ParamCounts want = gpusizer::count_params(p);
    INFO(c.preset << ": " << got.total << " vs " << want.total);
    CHECK(got.total == want.total);
    CHECK(got.active == want.active);
    CHECK(got.linear == want.linear);
    CHECK(a.layers == p.layers);
    CHECK(a.kv_heads == p.kv_heads);
    CHECK(a.head_dim == p.head_dim);
    CHECK(a.mla.kv_lora_rank == p.mla.kv_lora_rank);
    CHECK(a.max_positions == p.max_positions);
    CHECK(a.encoder == p.encoder);
    CHECK(a.sliding_window == p.sliding_window);
    CHECK(a.sliding_window_layers == p.sliding_window_layers);
  }
}

TEST_CASE("config.json dialects: the details each model type adds") {
  const Architecture qwen = gpusizer::from_hf_config(json::parse(kQwen7B));
  CHECK(qwen.intermediate == 11008);  // 22016 / 2
  CHECK(qwen.max_positions == 8192);  // seq_length, not max_position_embeddings
  CHECK(gpusizer::from_hf_config(json::parse(kChatGlm6B)).tied_embeddings);  // PretrainedConfig default
  CHECK(gpusizer::from_hf_config(json::parse(kGpt2)).intermediate == 3072);
  CHECK(gpusizer::from_hf_config(json::parse(kBaichuan2_13B)).max_positions == 4096);
  CHECK(gpusizer::from_hf_config(json::parse(kChatGlm3_6B)).name == "THUDM/chatglm3-6b");

  // Qwen2 only slides when use_sliding_window is set, from max_window_layers on.
  const json sliding = edited(kQwen25_7B, "use_sliding_window", true);
  const Architecture q = gpusizer::from_hf_config(edited(sliding.dump().c_str(), "max_window_layers", 20));
  CHECK(q.sliding_window == 131072);
  CHECK(q.sliding_window_layers == 8);

  // A Qwen-MoE layer listed in mlp_only_layers is a dense MLP of intermediate_size.
  const Architecture dense2 = gpusizer::from_hf_config(edited(kQwen3_30B_A3B, "mlp_only_layers", {0, 47}));
  CHECK(dense2.dense_layers == 2);
  const double expert_block = 128.0 * 3 * 2048 * 768 + 2048.0 * 128;
  const double dense_block = 3.0 * 2048 * 6144;
  CHECK(gpusizer::count_params(dense2).total ==
        gpusizer::count_params(*gpusizer::find_preset("qwen3-30b-a3b")).total -
            2 * (expert_block - dense_block));
}

TEST_CASE("without model_type, the class in architectures names the dialect") {
  for (const Case& c : {Case{"chatglm3-6b", kChatGlm3_6B}, Case{"qwen-7b", kQwen7B}, Case{"gpt2", kGpt2},
                        Case{"gemma-2-9b", kGemma2_9B}, Case{"deepseek-v3", kDeepSeekV3}}) {
    const Architecture a = gpusizer::from_hf_config(edited(c.config, "model_type", kRemove));
    INFO(c.preset);
    CHECK(gpusizer::count_params(a).total == gpusizer::count_params(*gpusizer::find_preset(c.preset)).total);
  }
}

TEST_CASE("tie_word_embeddings defaults follow each transformers config class") {
  CHECK_FALSE(gpusizer::from_hf_config(edited(kLlama31_8B, "tie_word_embeddings", kRemove)).tied_embeddings);
  CHECK_FALSE(gpusizer::from_hf_config(edited(kQwen25_7B, "tie_word_embeddings", kRemove)).tied_embeddings);
  CHECK(gpusizer::from_hf_config(edited(kGemma2_9B, "tie_word_embeddings", kRemove)).tied_embeddings);
  CHECK(gpusizer::from_hf_config(edited(kUnknownType, "tie_word_embeddings", kRemove)).tied_embeddings);
}

TEST_CASE("other MoE configs: Qwen2-MoE shared expert, DeepSeek-V2") {
  // Qwen/Qwen2-57B-A14B config.json: 57.4B total, 14.2B active (model card).
  const char* const qwen2_moe = R"({
    "architectures": ["Qwen2MoeForCausalLM"], "decoder_sparse_step": 1, "hidden_size": 3584,
    "intermediate_size": 18944, "max_position_embeddings": 131072, "max_window_layers": 28,
    "model_type": "qwen2_moe", "moe_intermediate_size": 2560, "norm_topk_prob": false,
    "num_attention_heads": 28, "num_experts": 64, "num_experts_per_tok": 8, "num_hidden_layers": 28,
    "num_key_value_heads": 4, "shared_expert_intermediate_size": 20480, "sliding_window": 131072,
    "tie_word_embeddings": false, "use_sliding_window": false, "vocab_size": 151936})";
  const gpusizer::ParamCounts q = gpusizer::count_params(gpusizer::from_hf_config(json::parse(qwen2_moe)));
  CHECK(q.total == Approx(57.4e9).epsilon(0.005));
  CHECK(q.active == Approx(14.2e9).epsilon(0.01));

  // deepseek-ai/DeepSeek-V2.5 config.json: 236B total, 21B active (DeepSeek-V2 paper).
  const char* const deepseek_v2 = R"({
    "architectures": ["DeepseekV2ForCausalLM"], "first_k_dense_replace": 1, "hidden_size": 5120,
    "intermediate_size": 12288, "kv_lora_rank": 512, "max_position_embeddings": 163840,
    "model_type": "deepseek_v2", "moe_intermediate_size": 1536, "moe_layer_freq": 1,
    "n_routed_experts": 160, "n_shared_experts": 2, "num_attention_heads": 128,
    "num_experts_per_tok": 6, "num_hidden_layers": 60, "num_key_value_heads": 128,
    "q_lora_rank": 1536, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
    "tie_word_embeddings": false, "v_head_dim": 128, "vocab_size": 102400})";
  const Architecture v2 = gpusizer::from_hf_config(json::parse(deepseek_v2));
  CHECK_FALSE(v2.router_bias);
  CHECK(v2.dense_layers == 1);
  const gpusizer::ParamCounts d = gpusizer::count_params(v2);
  CHECK(d.total == Approx(236e9).epsilon(0.005));
  CHECK(d.active == Approx(21e9).epsilon(0.05));
}

TEST_CASE("a missing required key is named, with what is missing") {
  try {
    gpusizer::from_hf_config(edited(kLlama31_8B, "hidden_size", kRemove));
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.field == "model.hf_config.hidden_size");
    CHECK(std::string(e.what()).find("missing") != std::string::npos);
  }
  CHECK(error_field(edited(kLlama31_8B, "num_hidden_layers", kRemove)) ==
        "model.hf_config.num_hidden_layers");
  CHECK(error_field(edited(kLlama31_8B, "intermediate_size", kRemove)) ==
        "model.hf_config.intermediate_size");
  CHECK(error_field(edited(kGpt2, "n_embd", kRemove)) == "model.hf_config.n_embd");
  CHECK(error_field(edited(kChatGlm3_6B, "ffn_hidden_size", kRemove)) == "model.hf_config.ffn_hidden_size");
  CHECK(error_field(edited(kChatGlm3_6B, "num_layers", kRemove)) == "model.hf_config.num_layers");
  CHECK(error_field(edited(kDeepSeekV3, "kv_lora_rank", kRemove)) == "model.hf_config.kv_lora_rank");
  CHECK(error_field(edited(kMixtral8x7B, "num_experts_per_tok", kRemove)) ==
        "model.hf_config.num_experts_per_tok");
  CHECK(error_field(json::object()) == "model.hf_config.hidden_size");
}

TEST_CASE("a bad value is named: wrong type, negative, zero, fraction, huge") {
  CHECK(error_field(edited(kLlama31_8B, "hidden_size", "4096")) == "model.hf_config.hidden_size");
  CHECK(error_field(edited(kLlama31_8B, "hidden_size", json::object())) == "model.hf_config.hidden_size");
  CHECK(error_field(edited(kLlama31_8B, "hidden_size", json::array({4096}))) ==
        "model.hf_config.hidden_size");
  CHECK(error_field(edited(kLlama31_8B, "hidden_size", true)) == "model.hf_config.hidden_size");
  CHECK(error_field(edited(kLlama31_8B, "num_hidden_layers", -32)) == "model.hf_config.num_hidden_layers");
  CHECK(error_field(edited(kLlama31_8B, "vocab_size", 0)) == "model.hf_config.vocab_size");
  CHECK(error_field(edited(kLlama31_8B, "intermediate_size", 14336.5)) ==
        "model.hf_config.intermediate_size");
  CHECK(error_field(edited(kLlama31_8B, "intermediate_size", 1e308)) == "model.hf_config.intermediate_size");
  CHECK(error_field(edited(kLlama31_8B, "max_position_embeddings", 1e19)) ==
        "model.hf_config.max_position_embeddings");
  CHECK(error_field(edited(kLlama31_8B, "tie_word_embeddings", "false")) ==
        "model.hf_config.tie_word_embeddings");
  CHECK(error_field(edited(kLlama31_8B, "model_type", 7)) == "model.hf_config.model_type");
  CHECK(error_field(edited(kQwen7B, "intermediate_size", 22017)) == "model.hf_config.intermediate_size");
  CHECK(error_field(json::array()) == "model.hf_config");
  CHECK(error_field(json("llama")) == "model.hf_config");
}

TEST_CASE("inconsistent configs are named by the key at fault") {
  CHECK(error_field(edited(kLlama31_8B, "num_key_value_heads", 5)) == "model.hf_config.num_key_value_heads");
  CHECK(error_field(edited(kLlama31_8B, "num_key_value_heads", 64)) == "model.hf_config.num_key_value_heads");
  CHECK(error_field(edited(kChatGlm3_6B, "multi_query_group_num", 3)) ==
        "model.hf_config.multi_query_group_num");
  CHECK(error_field(edited(kLlama31_8B, "num_attention_heads", 30)) == "model.hf_config.num_key_value_heads");
  CHECK(error_field(edited(edited(kLlama31_8B, "num_attention_heads", 24).dump().c_str(),
                           "num_key_value_heads", 24)) ==
        "model.hf_config.head_dim");  // 4096 / 24 is no integer and head_dim is absent
  CHECK(error_field(edited(kMixtral8x7B, "num_experts_per_tok", 9)) == "model.hf_config.num_experts_per_tok");
  CHECK(error_field(edited(kDeepSeekV3, "first_k_dense_replace", 62)) ==
        "model.hf_config.first_k_dense_replace");
  CHECK(error_field(edited(kQwen3_30B_A3B, "mlp_only_layers", {48})) == "model.hf_config.mlp_only_layers");
  CHECK(error_field(edited(kQwen3_30B_A3B, "mlp_only_layers", "0")) == "model.hf_config.mlp_only_layers");
  CHECK(error_field(edited(kQwen3_30B_A3B, "decoder_sparse_step", 0)) ==
        "model.hf_config.decoder_sparse_step");
}

TEST_CASE("no JSON value in any key crashes the import") {
  const std::vector<json> values = {json(),
                                    json("x"),
                                    json::object(),
                                    json::array(),
                                    json(true),
                                    json(-1),
                                    json(0),
                                    json(0.5),
                                    json(1e308),
                                    json(-1e308),
                                    json(18446744073709551615ULL),
                                    json(1),
                                    json(2),
                                    kRemove};
  for (const Case& c : kCases) {
    const json base = json::parse(c.config);
    for (auto it = base.begin(); it != base.end(); ++it) {
      for (const json& v : values) {
        INFO(c.preset << ": " << it.key() << " = " << v.dump());
        try {
          const Architecture a = gpusizer::from_hf_config(edited(c.config, it.key(), v));
          CHECK(gpusizer::count_params(a).total > 0);
        } catch (const InputError& e) {
          CHECK(e.field.rfind("model.hf_config", 0) == 0);
        }
      }
    }
  }
}
