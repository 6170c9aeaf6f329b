#include "api/catalog_json.h"

#include "base/error.h"
#include "model/precision.h"
#include "plan/table.h"
#include "scenario/engine_versions.h"
#include "scenario/engines.h"
#include "scenario/scenario.h"
#include "scenario/starting_points.h"

namespace gpusizer {

nlohmann::json architecture_json(const Architecture& a) {
  const ParamCounts p = count_params(a);
  nlohmann::json j = nlohmann::json({{"id", a.id},
                                     {"name", a.name},
                                     {"family", a.family},
                                     {"hf_repo", a.hf_repo},
                                     {"params", p.total},
                                     {"active_params", p.active},
                                     {"layers", a.layers},
                                     {"hidden", a.hidden},
                                     {"heads", a.heads},
                                     {"kv_heads", a.kv_heads},
                                     {"head_dim", a.head_dim},
                                     {"intermediate", a.intermediate},
                                     {"vocab", a.vocab},
                                     {"tied_embeddings", a.tied_embeddings},
                                     {"mlp", a.mlp == MlpKind::Gated ? "gated" : "plain"},
                                     {"max_positions", a.max_positions},
                                     {"kv_bytes_per_token_bf16", kv_bytes_per_token(a, KvFormat::Bf16)}});
  if (a.experts > 0) {
    j["experts"] = a.experts;
    j["experts_per_token"] = a.experts_per_token;
    j["shared_experts"] = a.shared_experts;
    j["expert_intermediate"] = a.expert_intermediate;
    j["dense_layers"] = a.dense_layers;
  }
  if (a.mla.kv_lora_rank > 0) j["kv_lora_rank"] = a.mla.kv_lora_rank;
  if (a.encoder) j["encoder"] = true;
  if (a.sliding_window > 0) {  // only these layers keep a window; the rest the whole context
    j["sliding_window"] = a.sliding_window;
    j["sliding_window_layers"] = a.sliding_window_layers;
  }
  if (p.vision > 0) j["vision_params"] = p.vision;
  if (a.linear_attn_layers > 0) {  // Gated DeltaNet layers: a fixed state, no KV cache
    j["linear_attn_layers"] = a.linear_attn_layers;
    j["linear_state_bytes_per_sequence"] = linear_state_bytes_per_sequence(a);
  }
  if (p.mtp > 0) j["mtp_params"] = p.mtp;  // in the checkpoint, not in params: unused in serving
  if (!a.aliases.empty()) j["aliases"] = a.aliases;
  return j;
}

nlohmann::json models_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const Architecture& a : model_presets()) out.push_back(architecture_json(a));
  return out;
}

nlohmann::json gpus_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const Gpu& g : gpu_catalog()) {
    out.push_back(nlohmann::json({{"id", g.id},
                                  {"name", g.name},
                                  {"vendor", g.vendor},
                                  {"arch", g.arch},
                                  {"year", g.year},
                                  {"memory_bytes", g.memory_bytes},
                                  {"marketed_memory_bytes", g.marketed_memory_bytes},
                                  {"memory_measured", g.memory_measured},
                                  {"bandwidth_bytes_per_s", g.bandwidth_bytes_per_s},
                                  {"fp32_tflops", g.fp32_tflops},
                                  {"tf32_tflops", g.tf32_tflops},
                                  {"fp16_tflops", g.fp16_tflops},
                                  {"bf16_tflops", g.bf16_tflops},
                                  {"fp8_tflops", g.fp8_tflops},
                                  {"int8_tops", g.int8_tops},
                                  {"int4_tops", g.int4_tops},
                                  {"supports_bf16", g.supports_bf16},
                                  {"supports_fp8", g.supports_fp8},
                                  {"interconnect_bytes_per_s", g.interconnect_bytes_per_s},
                                  {"pcie_bytes_per_s", g.pcie_bytes_per_s},
                                  {"source", g.source}}));
  }
  return out;
}

nlohmann::json instances_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const Instance& i : instance_catalog()) {
    out.push_back(nlohmann::json({{"provider", i.provider},
                                  {"provider_id", i.provider_id},
                                  {"instance", i.instance},
                                  {"region", i.region},
                                  {"gpu", i.gpu_id},
                                  {"gpus_per_instance", i.gpus},
                                  {"vcpu", i.vcpu},
                                  {"ram_bytes", i.ram_bytes},
                                  {"price_per_hour", i.price_per_hour},
                                  {"currency", i.currency},
                                  {"billing", i.billing},
                                  {"price_date", i.price_date},
                                  {"source", i.source},
                                  {"gpu_link", i.gpu_link},
                                  {"gpu_link_bytes_per_s", i.gpu_link_bytes_per_s},
                                  {"network_gbps", i.network_gbps},
                                  {"rdma", i.rdma},
                                  {"cluster", i.cluster},
                                  {"marketplace", i.marketplace},
                                  {"network_source", i.network_source}}));
  }
  return out;
}

// What parse_scenario fills in for each task when a scenario gives only the model and the task:
// the core's own defaults, read back rather than restated (docs/scenario.md, "Catalog").
nlohmann::json task_defaults_json() {
  nlohmann::json out = nlohmann::json::object();
  const nlohmann::json choices = scenario_choices_json();  // kept alive: the loop reads into it
  for (const nlohmann::json& task : choices["tasks"]) {
    const Scenario s =
        parse_scenario(nlohmann::json({{"model", model_presets().front().id}, {"task", task}}));
    nlohmann::json d = nlohmann::json({{"engine", to_string(s.engine)},
                                       {"weights", to_string(s.weights)},
                                       {"seq_len", s.seq_len},
                                       {"batch", s.batch},
                                       {"gpus", s.gpus},
                                       {"tp", s.tp},
                                       {"pp", s.pp},
                                       {"flash_attention", s.flash_attention},
                                       {"headroom", s.headroom},
                                       {"pricing", nlohmann::json({{"currency", s.pricing.currency}})}});
    if (is_training(s.task)) {
      const Training& t = s.training;
      d["training"] = nlohmann::json({{"optimizer", to_string(t.optimizer)},
                                      {"master_weights", t.master_weights},
                                      {"grad_checkpointing", to_string(t.grad_checkpointing)},
                                      {"zero", t.zero},
                                      {"offload_optimizer", t.offload_optimizer},
                                      {"offload_params", t.offload_params},
                                      {"lora_rank", t.lora_rank},
                                      {"lora_targets", to_string(t.lora_targets)},
                                      {"grad_accum", t.grad_accum}});
    } else {
      d["kv_cache"] = to_string(s.kv_cache);
    }
    out[task.get<std::string>()] = d;
  }
  return out;
}

nlohmann::json catalog_json() {
  nlohmann::json j = nlohmann::json({{"models", models_json()},
                                     {"gpus", gpus_json()},
                                     {"instances", instances_json()},
                                     {"weights", weight_format_ids()},
                                     {"kv_cache", kv_format_ids()},
                                     {"defaults", task_defaults_json()},
                                     // where the page's tabs start, not what the parser fills in
                                     {"starting_points", starting_points_json()},
                                     {"table_settings", table_settings_json()},
                                     // beside "engines" (the ids per task): how the page names them
                                     {"engine_names", engine_names_json()},
                                     {"engine_versions", engine_versions_json()}});
  const nlohmann::json choices = scenario_choices_json();
  for (auto it = choices.begin(); it != choices.end(); ++it) j[it.key()] = it.value();
  return j;
}

}  // namespace gpusizer
