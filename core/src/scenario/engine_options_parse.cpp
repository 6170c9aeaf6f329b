// The scenario's "engine_options": vLLM / SGLang start-up flags that set the memory budget.
#include "scenario/engine_options_parse.h"

#include "base/error.h"
#include "scenario/engine_versions.h"
#include "scenario/speculative.h"

namespace gpusizer {

void parse_engine_options(JsonReader& top, EngineOptions* out) {
  if (!top.has("engine_options")) return;
  require_object(top.raw("engine_options"), "engine_options");
  JsonReader r(top.raw("engine_options"), "engine_options");
  EngineOptions& o = *out;
  // What a version of an engine does is not a setting (scenario.h VersionFacts): engine_version
  // selects it.
  const std::pair<const char*, Engine> kVersionFacts[] = {{"non_torch_accounting", Engine::Vllm},
                                                          {"mla_moe_kernels", Engine::Sglang},
                                                          {"full_prompt_logits", Engine::Transformers},
                                                          {"legacy_kv_cache", Engine::Transformers}};
  for (const auto& [key, owner] : kVersionFacts) {
    if (!r.has(key)) continue;
    std::vector<std::string> versions;
    for (const EngineVersion* v : engine_versions(owner)) versions.emplace_back(v->version);
    throw_error(std::string("engine_options.") + key, "engine_option_version_fact",
                {{"owner", to_string(owner)}, {"versions", versions}});
  }
  constexpr int64_t kMaxTokens = int64_t{1} << 24;  // 16 M tokens: beyond any published context
  o.gpu_memory_utilization = r.number("gpu_memory_utilization", 0, 1, true);
  o.max_model_len = r.integer("max_model_len", 1, kMaxTokens);
  o.max_num_seqs = r.integer("max_num_seqs", 1, 1 << 20);
  o.max_num_batched_tokens = r.integer("max_num_batched_tokens", 1, kMaxTokens);
  o.enforce_eager = r.boolean("enforce_eager");
  o.block_size = r.integer("block_size", 1, 4096);
  if (auto v = r.number("mem_fraction_static", 0, 1, true)) {
    if (*v >= 1) throw_error("engine_options.mem_fraction_static", "below_one");
    o.mem_fraction_static = v;
  }
  if (auto v = r.choice("cross_entropy", {"materialized", "chunked", "fused", "inplace", "litgpt"}))
    o.cross_entropy = *v;
  if (auto v = r.choice("lora_dropout", {"none", "per-module", "litgpt"})) o.lora_dropout = *v;
  if (auto v = r.choice("adapter_saves", {"fp32-input", "fp32-input-and-delta", "ia3", "none"}))
    o.adapter_saves = *v;
  if (auto v = r.choice("bnb_quantizer", {"transformers", "lightning"})) o.bnb_quantizer = *v;
  o.bnb_prev_step_inputs = r.boolean("bnb_prev_step_inputs");
  o.kbit_fp32_upcast = r.boolean("kbit_fp32_upcast");
  o.bnb_double_quant = r.boolean("bnb_double_quant");
  o.padded_batches = r.boolean("padded_batches");
  o.checkpoint_wraps_fsdp = r.boolean("checkpoint_wraps_fsdp");
  o.fused_layers = r.boolean("fused_layers");
  if (auto v = r.choice("awq_kernel", {"gemm", "gemv"})) o.awq_kernel = *v;
  o.disable_custom_all_reduce = r.boolean("disable_custom_all_reduce");
  if (auto v = r.choice("sampler", {"flashinfer", "pytorch-native", "v0"})) o.sampler = *v;
  if (auto v = r.choice("tp_worker", {"driver", "non-driver"})) o.tp_worker = *v;
  o.dp_attention = r.boolean("dp_attention");
  if (auto v = r.choice("quant_kernel", {"exllama", "exllamav2", "cuda-old", "exllama-standalone"}))
    o.quant_kernel = *v;
  if (auto v = r.choice("quant_scope", {"all", "mlp-inner"})) o.quant_scope = *v;
  o.act_order = r.boolean("act_order");
  if (auto v = r.integer("group_size", -1, 1 << 20)) {
    if (*v == 0) throw_error("engine_options.group_size", "group_size_zero");
    o.group_size = v;
  }
  o.quant_max_input_len = r.integer("quant_max_input_len", 1, kMaxTokens);
  o.quant_max_batch_size = r.integer("quant_max_batch_size", 1, 1 << 20);
  o.summed_devices = r.integer("summed_devices", 1, 1024);
  parse_speculative(r, &o);  // speculative.cpp
  r.reject_unknown();
}

}  // namespace gpusizer
