// config.json documents that several test files read.
#pragma once

namespace gpusizer_test {

// deepseek-ai/DeepSeek-V2.5 config.json (the keys the core reads): 236B total, 21B active
// (DeepSeek-V2 paper), MLA with kv_lora_rank 512.
inline const char* const kDeepSeekV25Config = R"({
  "architectures": ["DeepseekV2ForCausalLM"], "first_k_dense_replace": 1, "hidden_size": 5120,
  "intermediate_size": 12288, "kv_lora_rank": 512, "max_position_embeddings": 163840,
  "model_type": "deepseek_v2", "moe_intermediate_size": 1536, "moe_layer_freq": 1,
  "n_routed_experts": 160, "n_shared_experts": 2, "num_attention_heads": 128,
  "num_experts_per_tok": 6, "num_hidden_layers": 60, "num_key_value_heads": 128,
  "q_lora_rank": 1536, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
  "tie_word_embeddings": false, "v_head_dim": 128, "vocab_size": 102400})";

}  // namespace gpusizer_test
