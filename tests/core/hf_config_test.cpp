// from_hf_config on real config.json files: each import counts exactly what the matching
// preset counts, and every malformed config is an InputError naming its key.
#include <catch2/catch.hpp>

#include "hf_configs.h"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "model/architecture.h"
#include "model/precision.h"

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

// Families added for 2025-26 models. Each is the repository's config.json; keys that no part
// of the import reads (token ids, rope details, dropout) are left out where noted.
// openai/gpt-oss-20b: alternating sliding (128) / full attention, MoE with biases and sinks,
// experts stored in MXFP4.
const char* const kGptOss20B = R"({
  "architectures": ["GptOssForCausalLM"], "attention_bias": true, "attention_dropout": 0.0,
  "eos_token_id": 200002, "experts_per_token": 4, "head_dim": 64, "hidden_act": "silu",
  "hidden_size": 2880, "initial_context_length": 4096, "initializer_range": 0.02,
  "intermediate_size": 2880, "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention"],
  "max_position_embeddings": 131072, "model_type": "gpt_oss", "num_attention_heads": 64,
  "num_experts_per_tok": 4, "num_hidden_layers": 24, "num_key_value_heads": 8,
  "num_local_experts": 32, "output_router_logits": false, "pad_token_id": 199999,
  "quantization_config": {"modules_to_not_convert": ["model.layers.*.self_attn",
    "model.layers.*.mlp.router", "model.embed_tokens", "lm_head"], "quant_method": "mxfp4"},
  "rms_norm_eps": 1e-05, "rope_scaling": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0,
    "original_max_position_embeddings": 4096, "rope_type": "yarn", "truncate": false},
  "rope_theta": 150000, "router_aux_loss_coef": 0.9, "sliding_window": 128, "swiglu_limit": 7.0,
  "tie_word_embeddings": false, "transformers_version": "4.55.0.dev0", "use_cache": true,
  "vocab_size": 201088})";

// moonshotai/Kimi-K2-Instruct: the DeepSeek-V3 keys under model_type kimi_k2, 384 experts,
// one dense layer, no MTP module; FP8 with 128 x 128 blocks (auto_map and rope_scaling left out).
const char* const kKimiK2 = R"({
  "architectures": ["DeepseekV3ForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "aux_loss_alpha": 0.001, "bos_token_id": 163584, "eos_token_id": 163585,
  "first_k_dense_replace": 1, "hidden_act": "silu", "hidden_size": 7168,
  "initializer_range": 0.02, "intermediate_size": 18432, "kv_lora_rank": 512,
  "max_position_embeddings": 131072, "model_type": "kimi_k2", "moe_intermediate_size": 2048,
  "moe_layer_freq": 1, "n_group": 1, "n_routed_experts": 384, "n_shared_experts": 1,
  "norm_topk_prob": true, "num_attention_heads": 64, "num_experts_per_tok": 8,
  "num_hidden_layers": 61, "num_key_value_heads": 64, "num_nextn_predict_layers": 0,
  "pretraining_tp": 1, "q_lora_rank": 1536, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
  "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8",
                          "weight_block_size": [128, 128]},
  "rms_norm_eps": 1e-06, "rope_theta": 50000.0, "routed_scaling_factor": 2.827,
  "scoring_func": "sigmoid", "seq_aux": true, "tie_word_embeddings": false, "topk_group": 1,
  "topk_method": "noaux_tc", "torch_dtype": "bfloat16", "use_cache": true, "v_head_dim": 128,
  "vocab_size": 163840})";

// zai-org/GLM-4.5 and zai-org/GLM-4.5-Air: glm4_moe, q/k/v biases, shared expert, leading dense
// layers, one MTP layer; GLM-4.5 also q/k norms.
const char* const kGlm45 = R"({
  "architectures": ["Glm4MoeForCausalLM"], "attention_bias": true, "attention_dropout": 0.0,
  "pad_token_id": 151329, "eos_token_id": [151329, 151336, 151338], "head_dim": 128,
  "hidden_act": "silu", "hidden_size": 5120, "partial_rotary_factor": 0.5,
  "initializer_range": 0.02, "intermediate_size": 12288, "max_position_embeddings": 131072,
  "model_type": "glm4_moe", "moe_intermediate_size": 1536, "norm_topk_prob": true,
  "num_attention_heads": 96, "n_group": 1, "topk_group": 1, "n_routed_experts": 160,
  "n_shared_experts": 1, "routed_scaling_factor": 2.5, "num_experts_per_tok": 8,
  "first_k_dense_replace": 3, "num_hidden_layers": 92, "num_key_value_heads": 8,
  "rms_norm_eps": 1e-05, "rope_theta": 1000000, "num_nextn_predict_layers": 1,
  "tie_word_embeddings": false, "torch_dtype": "bfloat16", "transformers_version": "4.54.0",
  "use_cache": true, "use_qk_norm": true, "vocab_size": 151552})";

const char* const kGlm45Air = R"({
  "architectures": ["Glm4MoeForCausalLM"], "attention_bias": true, "attention_dropout": 0.0,
  "pad_token_id": 151329, "eos_token_id": [151329, 151336, 151338], "head_dim": 128,
  "hidden_act": "silu", "hidden_size": 4096, "partial_rotary_factor": 0.5,
  "initializer_range": 0.02, "intermediate_size": 10944, "max_position_embeddings": 131072,
  "model_type": "glm4_moe", "moe_intermediate_size": 1408, "norm_topk_prob": true,
  "num_attention_heads": 96, "n_group": 1, "topk_group": 1, "n_routed_experts": 128,
  "n_shared_experts": 1, "routed_scaling_factor": 1.0, "num_experts_per_tok": 8,
  "first_k_dense_replace": 1, "num_hidden_layers": 46, "num_key_value_heads": 8,
  "rms_norm_eps": 1e-05, "rope_theta": 1000000, "num_nextn_predict_layers": 1,
  "tie_word_embeddings": false, "torch_dtype": "bfloat16", "transformers_version": "4.54.0",
  "use_cache": true, "use_qk_norm": false, "vocab_size": 151552})";

// google/gemma-3-4b-it, complete: it names few keys and Gemma3TextConfig / SiglipVisionConfig
// fill the rest (8 heads, 4 KV heads, head_dim 256, vocab 262208, every 6th layer global).
const char* const kGemma3_4B = R"({
  "architectures": ["Gemma3ForConditionalGeneration"], "boi_token_index": 255999,
  "eoi_token_index": 256000, "eos_token_id": [1, 106], "image_token_index": 262144,
  "initializer_range": 0.02, "mm_tokens_per_image": 256, "model_type": "gemma3",
  "text_config": {"hidden_size": 2560, "intermediate_size": 10240, "model_type": "gemma3_text",
                  "num_hidden_layers": 34, "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
                  "sliding_window": 1024},
  "torch_dtype": "bfloat16", "transformers_version": "4.50.0.dev0",
  "vision_config": {"hidden_size": 1152, "image_size": 896, "intermediate_size": 4304,
                    "model_type": "siglip_vision_model", "num_attention_heads": 16,
                    "num_hidden_layers": 27, "patch_size": 14, "vision_use_head": false}})";

// google/gemma-3-1b-it: text only, model_type gemma3_text at the top.
const char* const kGemma3_1B = R"({
  "architectures": ["Gemma3ForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "attn_logit_softcapping": null, "bos_token_id": 2, "cache_implementation": "hybrid",
  "eos_token_id": [1, 106], "final_logit_softcapping": null, "head_dim": 256,
  "hidden_activation": "gelu_pytorch_tanh", "hidden_size": 1152, "initializer_range": 0.02,
  "intermediate_size": 6912, "max_position_embeddings": 32768, "model_type": "gemma3_text",
  "num_attention_heads": 4, "num_hidden_layers": 26, "num_key_value_heads": 1, "pad_token_id": 0,
  "query_pre_attn_scalar": 256, "rms_norm_eps": 1e-06, "rope_local_base_freq": 10000,
  "rope_scaling": null, "rope_theta": 1000000, "sliding_window": 512, "sliding_window_pattern": 6,
  "torch_dtype": "bfloat16", "transformers_version": "4.50.0.dev0", "use_cache": true,
  "vocab_size": 262144})";

// meta-llama/Llama-4-Scout-17B-16E-Instruct: text_config (16 experts, top-1, a shared expert,
// chunked attention 8192) and the vision tower.
const char* const kLlama4Scout = R"({
  "architectures": ["Llama4ForConditionalGeneration"], "boi_token_index": 200080,
  "eoi_token_index": 200081, "image_token_index": 200092, "model_type": "llama4",
  "text_config": {"attention_bias": false, "attention_chunk_size": 8192, "attention_dropout": 0.0,
    "bos_token_id": 200000, "eos_token_id": [200001, 200007, 200008], "head_dim": 128,
    "hidden_act": "silu", "hidden_size": 5120, "initializer_range": 0.02,
    "interleave_moe_layer_step": 1, "intermediate_size": 8192, "intermediate_size_mlp": 16384,
    "max_position_embeddings": 10485760, "model_type": "llama4_text", "no_rope_layers": [],
    "num_attention_heads": 40, "num_experts_per_tok": 1, "num_hidden_layers": 48,
    "num_key_value_heads": 8, "num_local_experts": 16, "output_router_logits": false,
    "pad_token_id": 200018, "rms_norm_eps": 1e-05, "rope_theta": 500000.0,
    "router_aux_loss_coef": 0.001, "router_jitter_noise": 0.0, "torch_dtype": "bfloat16",
    "use_cache": true, "use_qk_norm": true, "vocab_size": 202048},
  "tie_word_embeddings": false, "torch_dtype": "bfloat16", "transformers_version": "4.51.0.dev0",
  "vision_config": {"attention_dropout": 0.0, "hidden_act": "gelu", "hidden_size": 1408,
    "image_size": 336, "initializer_range": 0.02, "intermediate_size": 5632,
    "model_type": "llama4_vision_model", "multi_modal_projector_bias": false, "norm_eps": 1e-05,
    "num_attention_heads": 16, "num_channels": 3, "num_hidden_layers": 34, "patch_size": 14,
    "pixel_shuffle_ratio": 0.5, "projector_dropout": 0.0, "projector_input_dim": 4096,
    "projector_output_dim": 4096, "rope_theta": 10000, "vision_feature_layer": -1,
    "vision_feature_select_strategy": "default", "vision_output_dim": 4096}})";

// Qwen/Qwen2.5-VL-7B-Instruct: the Qwen2 keys at the top, the ViT in vision_config.
const char* const kQwen25VL7B = R"({
  "architectures": ["Qwen2_5_VLForConditionalGeneration"], "attention_dropout": 0.0,
  "bos_token_id": 151643, "eos_token_id": 151645, "vision_start_token_id": 151652,
  "vision_end_token_id": 151653, "vision_token_id": 151654, "image_token_id": 151655,
  "video_token_id": 151656, "hidden_act": "silu", "hidden_size": 3584, "initializer_range": 0.02,
  "intermediate_size": 18944, "max_position_embeddings": 128000, "max_window_layers": 28,
  "model_type": "qwen2_5_vl", "num_attention_heads": 28, "num_hidden_layers": 28,
  "num_key_value_heads": 4, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0,
  "sliding_window": 32768, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
  "transformers_version": "4.41.2", "use_cache": true, "use_sliding_window": false,
  "vision_config": {"depth": 32, "hidden_act": "silu", "hidden_size": 1280,
    "intermediate_size": 3420, "num_heads": 16, "in_chans": 3, "out_hidden_size": 3584,
    "patch_size": 14, "spatial_merge_size": 2, "spatial_patch_size": 14, "window_size": 112,
    "fullatt_block_indexes": [7, 15, 23, 31], "tokens_per_second": 2, "temporal_patch_size": 2},
  "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}, "vocab_size": 152064})";

// Qwen/Qwen3-Coder-480B-A35B-Instruct.
const char* const kQwen3Coder480B = R"({
  "architectures": ["Qwen3MoeForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "decoder_sparse_step": 1, "eos_token_id": 151645, "head_dim": 128, "hidden_act": "silu",
  "hidden_size": 6144, "initializer_range": 0.02, "intermediate_size": 8192,
  "max_position_embeddings": 262144, "max_window_layers": 62, "mlp_only_layers": [],
  "model_type": "qwen3_moe", "moe_intermediate_size": 2560, "norm_topk_prob": true,
  "num_attention_heads": 96, "num_experts": 160, "num_experts_per_tok": 8,
  "num_hidden_layers": 62, "num_key_value_heads": 8, "output_router_logits": false,
  "qkv_bias": false, "rms_norm_eps": 1e-06, "rope_scaling": null, "rope_theta": 10000000,
  "router_aux_loss_coef": 0.0, "shared_expert_intermediate_size": 0, "sliding_window": null,
  "tie_word_embeddings": false, "torch_dtype": "bfloat16", "transformers_version": "4.51.0",
  "use_cache": true, "use_qk_norm": true, "use_sliding_window": false, "vocab_size": 151936})";

// microsoft/phi-4 (the phi3 model type).
const char* const kPhi4 = R"({
  "architectures": ["Phi3ForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "bos_token_id": 100257, "embd_pdrop": 0.0, "eos_token_id": 100265, "hidden_act": "silu",
  "hidden_size": 5120, "initializer_range": 0.02, "intermediate_size": 17920,
  "max_position_embeddings": 16384, "model_type": "phi3", "num_attention_heads": 40,
  "num_hidden_layers": 40, "num_key_value_heads": 10, "original_max_position_embeddings": 16384,
  "pad_token_id": 100349, "resid_pdrop": 0.0, "rms_norm_eps": 1e-05, "rope_scaling": null,
  "rope_theta": 250000, "sliding_window": null, "tie_word_embeddings": false,
  "torch_dtype": "bfloat16", "transformers_version": "4.47.0", "use_cache": true,
  "vocab_size": 100352})";

// mistralai/Mistral-Small-24B-Instruct-2501.
const char* const kMistralSmall24B = R"({
  "architectures": ["MistralForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1,
  "eos_token_id": 2, "head_dim": 128, "hidden_act": "silu", "hidden_size": 5120,
  "initializer_range": 0.02, "intermediate_size": 32768, "max_position_embeddings": 32768,
  "model_type": "mistral", "num_attention_heads": 32, "num_hidden_layers": 40,
  "num_key_value_heads": 8, "rms_norm_eps": 1e-05, "rope_theta": 100000000.0,
  "sliding_window": null, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
  "transformers_version": "4.49.0.dev0", "use_cache": true, "vocab_size": 131072})";

// Qwen/Qwen3-Next-80B-A3B-Instruct: Gated DeltaNet in 3 of 4 layers, gated attention, 512
// experts and a gated shared expert.
const char* const kQwen3Next80B = R"({
  "architectures": ["Qwen3NextForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "bos_token_id": 151643, "decoder_sparse_step": 1, "eos_token_id": 151645,
  "full_attention_interval": 4, "head_dim": 256, "hidden_act": "silu", "hidden_size": 2048,
  "initializer_range": 0.02, "intermediate_size": 5120, "linear_conv_kernel_dim": 4,
  "linear_key_head_dim": 128, "linear_num_key_heads": 16, "linear_num_value_heads": 32,
  "linear_value_head_dim": 128, "max_position_embeddings": 262144, "mlp_only_layers": [],
  "model_type": "qwen3_next", "moe_intermediate_size": 512, "norm_topk_prob": true,
  "num_attention_heads": 16, "num_experts": 512, "num_experts_per_tok": 10,
  "num_hidden_layers": 48, "num_key_value_heads": 2, "output_router_logits": false,
  "partial_rotary_factor": 0.25, "rms_norm_eps": 1e-06, "rope_scaling": null,
  "rope_theta": 10000000, "router_aux_loss_coef": 0.001, "shared_expert_intermediate_size": 512,
  "tie_word_embeddings": false, "torch_dtype": "bfloat16", "transformers_version": "4.57.0.dev0",
  "use_cache": true, "use_sliding_window": false, "vocab_size": 151936})";

// mistralai/Mistral-Small-3.1-24B-Instruct-2503: mistral3 wraps the Mistral Small 3 text model
// and a Pixtral vision tower (keys the import does not read left out: token ids, rope details).
const char* const kMistralSmall31 = R"({
  "architectures": ["Mistral3ForConditionalGeneration"], "image_token_index": 10,
  "model_type": "mistral3", "multimodal_projector_bias": false, "projector_hidden_act": "gelu",
  "spatial_merge_size": 2,
  "text_config": {"attention_dropout": 0.0, "head_dim": 128, "hidden_act": "silu",
    "hidden_size": 5120, "initializer_range": 0.02, "intermediate_size": 32768,
    "max_position_embeddings": 131072, "model_type": "mistral", "num_attention_heads": 32,
    "num_hidden_layers": 40, "num_key_value_heads": 8, "rms_norm_eps": 1e-05,
    "rope_theta": 1000000000.0, "sliding_window": null, "use_cache": true, "vocab_size": 131072},
  "torch_dtype": "bfloat16", "vision_config": {"attention_dropout": 0.0, "head_dim": 64,
    "hidden_act": "silu", "hidden_size": 1024, "image_size": 1540, "initializer_range": 0.02,
    "intermediate_size": 4096, "model_type": "pixtral", "num_attention_heads": 16,
    "num_channels": 3, "num_hidden_layers": 24, "patch_size": 14, "rope_theta": 10000.0},
  "vision_feature_layer": -1})";

// MiniMax-AI/MiniMax-M1 config.json at commit 2abb4f45 (the GitHub repository of
// MiniMaxAI/MiniMax-M1-80k), every key as released: lightning attention on the layers
// attn_type_list marks 0, softmax attention on every 8th (1), 32 experts, top-2.
const char* const kMiniMaxM1 =
    R"({"architectures": ["MiniMaxM1ForCausalLM"], "attention_dropout": 0.0, "attn_type_list": [0, 0, 0, 0,
  0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0,
  0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
  0, 1, 0, 0, 0, 0, 0, 0, 0, 1], "auto_map": {"AutoConfig":
  "configuration_minimax_m1.MiniMaxM1Config", "AutoModelForCausalLM":
  "modeling_minimax_m1.MiniMaxM1ForCausalLM"}, "bos_token_id": null, "eos_token_id": null, "head_dim":
  128, "hidden_act": "silu", "hidden_size": 6144, "initializer_range": 0.02, "intermediate_size":
  9216, "layernorm_full_attention_alpha": 3.5565588200778455, "layernorm_full_attention_beta": 1.0,
  "layernorm_linear_attention_alpha": 3.5565588200778455, "layernorm_linear_attention_beta": 1.0,
  "layernorm_mlp_alpha": 3.5565588200778455, "layernorm_mlp_beta": 1.0, "max_position_embeddings":
  10240000, "model_type": "minimax_m1", "num_attention_heads": 64, "num_experts_per_tok": 2,
  "num_hidden_layers": 80, "num_key_value_heads": 8, "num_local_experts": 32, "output_router_logits":
  false, "postnorm": true, "rms_norm_eps": 1e-05, "rope_theta": 10000000, "rotary_dim": 64,
  "router_aux_loss_coef": 0.001, "router_jitter_noise": 0.0, "shared_intermediate_size": 0,
  "shared_moe_mode": "sigmoid", "sliding_window": null, "tie_word_embeddings": false,
  "transformers_version": "4.45.2", "use_cache": true, "vocab_size": 200064})";

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
    {"deepseek-r1", kDeepSeekV3},
    {"gpt-oss-20b", kGptOss20B},
    {"kimi-k2", kKimiK2},
    {"glm-4.5", kGlm45},
    {"glm-4.5-air", kGlm45Air},
    {"gemma-3-4b", kGemma3_4B},
    {"gemma-3-1b", kGemma3_1B},
    {"llama-4-scout", kLlama4Scout},
    {"qwen2.5-vl-7b", kQwen25VL7B},
    {"qwen3-coder-480b-a35b", kQwen3Coder480B},
    {"phi-4", kPhi4},
    {"mistral-small-3-24b", kMistralSmall24B},
    {"qwen3-next-80b-a3b", kQwen3Next80B},
    {"mistral-small-3.1-24b", kMistralSmall31},
    {"minimax-m1", kMiniMaxM1},
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
    CHECK(a.vision_params == p.vision_params);
    CHECK(a.mtp_layers == p.mtp_layers);
    CHECK(got.mtp == want.mtp);
    // A preset's positions and norms, where it states them, are its config.json's.
    if (p.rope_theta > 0) CHECK(a.rope_theta == p.rope_theta);
    if (p.norm_eps > 0) CHECK(a.norm_eps == p.norm_eps);
    if (!p.rope_scaling.type.empty()) {
      CHECK(a.rope_scaling.type == p.rope_scaling.type);
      CHECK(a.rope_scaling.factor == p.rope_scaling.factor);
      CHECK(a.rope_scaling.low_freq_factor == p.rope_scaling.low_freq_factor);
      CHECK(a.rope_scaling.high_freq_factor == p.rope_scaling.high_freq_factor);
      CHECK(a.rope_scaling.original_max_positions == p.rope_scaling.original_max_positions);
    }
  }
}

TEST_CASE("new families: windows, experts, MTP, vision and the checkpoint's format") {
  const Architecture oss = gpusizer::from_hf_config(json::parse(kGptOss20B));
  CHECK(oss.sliding_window == 128);
  CHECK(oss.sliding_window_layers == 12);  // layer_types: every other layer
  CHECK(oss.attn_sinks);
  CHECK(oss.expert_bias);
  CHECK(oss.checkpoint_weights == "mxfp4");
  CHECK(gpusizer::from_hf_config(json::parse(kKimiK2)).checkpoint_weights == "fp8");
  CHECK(gpusizer::from_hf_config(json::parse(kPhi4)).checkpoint_weights.empty());
  const Architecture scout = gpusizer::from_hf_config(json::parse(kLlama4Scout));
  CHECK(scout.shared_experts == 1);
  CHECK(scout.sliding_window == 8192);  // chunked attention on 3 of 4 layers
  CHECK(scout.sliding_window_layers == 36);
  CHECK(scout.vision_params > 800000000);
  // Maverick interleaves MoE with dense layers (interleave_moe_layer_step 2).
  json maverick = json::parse(kLlama4Scout);
  maverick["text_config"]["num_local_experts"] = 128;
  maverick["text_config"]["interleave_moe_layer_step"] = 2;
  maverick["text_config"]["max_position_embeddings"] = 1048576;
  const Architecture m = gpusizer::from_hf_config(maverick);
  CHECK(m.dense_layers == 24);
  CHECK(gpusizer::count_params(m).total ==
        gpusizer::count_params(*gpusizer::find_preset("llama-4-maverick")).total);
  const Architecture gemma = gpusizer::from_hf_config(json::parse(kGemma3_4B));
  CHECK(gemma.heads == 8);  // Gemma3TextConfig defaults
  CHECK(gemma.vocab == 262208);
  CHECK(gemma.sliding_window_layers == 29);  // 34 layers, every 6th global
  // A vision_config the importer cannot count is named, not silently dropped.
  json unknown_vlm = json::parse(kMistralSmall24B);
  unknown_vlm["vision_config"] = {{"hidden_size", 1024}};
  CHECK(error_field(unknown_vlm) == "model.hf_config.vision_config");
  // layer_types must list every layer.
  json short_types = json::parse(kGptOss20B);
  short_types["layer_types"] = {"sliding_attention"};
  CHECK(error_field(short_types) == "model.hf_config.layer_types");
}

TEST_CASE("MiniMax lightning attention: 70 linear layers with a fixed fp32 state, 10 with a KV cache") {
  const Architecture a = gpusizer::from_hf_config(json::parse(kMiniMaxM1));
  CHECK(a.lightning_attn);
  CHECK(a.linear_attn_layers == 70);  // attn_type_list: 1 on layers 7, 15, ..., 79
  CHECK(a.linear_key_heads == 64);
  CHECK(a.linear_key_dim == 128);
  CHECK(a.linear_conv_kernel == 0);
  CHECK(a.experts == 32);
  CHECK(a.experts_per_token == 2);
  CHECK(a.expert_intermediate == 9216);
  CHECK_FALSE(a.tied_embeddings);
  // Per layer: qkv_proj 6144 x 24576, output_gate 6144 x 8192, out_proj 8192 x 6144 and an
  // RMSNorm of 8192 (modeling_minimax_m1.py MiniMaxM1LightningAttention).
  const gpusizer::ParamCounts p = gpusizer::count_params(a);
  CHECK(p.total == 456089655296.0);
  // State: 70 layers x 64 heads x 128 x 128 in fp32 per sequence; KV cache only in the 10
  // softmax layers: 2 x 10 x 8 KV heads x 128 x 2 bytes per token in bf16.
  CHECK(gpusizer::linear_state_bytes_per_sequence(a) == 70.0 * 64 * 128 * 128 * 4);
  // The same model in transformers' native form lists layer_types instead.
  json native = json::parse(kMiniMaxM1);
  native.erase("attn_type_list");
  native["model_type"] = "minimax";
  native["layer_types"] = json::array();
  for (int i = 0; i < 80; ++i)
    native["layer_types"].push_back(i % 8 == 7 ? "full_attention" : "linear_attention");
  CHECK(gpusizer::count_params(gpusizer::from_hf_config(native)).total == p.total);
  // Without model_type, the class names the dialect.
  json untyped = json::parse(kMiniMaxM1);
  untyped.erase("model_type");
  CHECK(gpusizer::from_hf_config(untyped).lightning_attn);
  // A shared expert behind the hidden x 1 coefficient gate.
  const Architecture shared = gpusizer::from_hf_config(edited(kMiniMaxM1, "shared_intermediate_size", 4096));
  CHECK(shared.shared_experts == 1);
  CHECK(gpusizer::count_params(shared).total == p.total + 80.0 * (3 * 6144.0 * 4096 + 6144));
  // Each layer's kind must be there, one per layer, 0 or 1.
  CHECK(error_field(edited(kMiniMaxM1, "attn_type_list", kRemove)) == "model.hf_config.attn_type_list");
  CHECK(error_field(edited(kMiniMaxM1, "attn_type_list", {0, 1})) == "model.hf_config.attn_type_list");
  json bad = json::parse(kMiniMaxM1);
  bad["attn_type_list"][3] = 2;
  CHECK(error_field(bad) == "model.hf_config.attn_type_list");
  json all_linear = json::parse(kMiniMaxM1);
  for (auto& kind : all_linear["attn_type_list"]) kind = 0;
  CHECK(error_field(all_linear) == "model.hf_config.linear_attn_layers");  // at least one softmax layer
}

TEST_CASE("an MoE config with zero experts is refused, naming the key (not read as dense)") {
  CHECK(error_field(edited(kMixtral8x7B, "num_local_experts", 0)) == "model.hf_config.num_local_experts");
  CHECK(error_field(edited(kQwen3_30B_A3B, "num_experts", 0)) == "model.hf_config.num_experts");
  CHECK(error_field(edited(kDeepSeekV3, "n_routed_experts", 0)) == "model.hf_config.n_routed_experts");
  try {
    gpusizer::from_hf_config(edited(kMixtral8x7B, "num_local_experts", 0));
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("is 0") != std::string::npos);
  }
  // A null (or absent) key is a dense model.
  CHECK(gpusizer::from_hf_config(edited(kLlama31_8B, "num_local_experts", nullptr)).experts == 0);
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
  const char* const deepseek_v2 = gpusizer_test::kDeepSeekV25Config;
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
