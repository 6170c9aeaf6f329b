// The model-size x workload grid, cell by cell from the planner.
#include "gpusizer/table.h"

#include "gpusizer/architecture.h"
#include "gpusizer/error.h"
#include "gpusizer/planner.h"
#include "gpusizer/scenario.h"

namespace gpusizer {
namespace {

// Stands in for the model while the context is validated once, before the cells.
constexpr const char* kContextModel = "qwen2.5-7b";

// Keys a column decides; the caller's values for them are dropped.
const char* const kColumnKeys[] = {"model", "models", "task", "weights", "engine", "gpu", "gpus", "tp", "pp"};

nlohmann::json context_of(const nlohmann::json& input) {
  if (!input.is_object()) throw InputError("input", "must be a scenario object");
  nlohmann::json context = input;
  for (const char* key : kColumnKeys) context.erase(key);
  if (context.contains("training") && context["training"].is_object()) context["training"].erase("zero");
  return context;
}

std::vector<std::string> rows_of(const nlohmann::json& input) {
  if (!input.contains("models")) return table_default_models();
  const nlohmann::json& models = input.at("models");
  if (!models.is_array() || models.empty()) throw InputError("models", "must be a non-empty array of preset ids");
  std::vector<std::string> rows;
  for (const nlohmann::json& m : models) {
    if (!m.is_string() || !find_preset(m.get<std::string>())) {
      throw InputError("models", "unknown preset id " + m.dump() + " (see `gpusizer models`)");
    }
    rows.push_back(m.get<std::string>());
  }
  return rows;
}

nlohmann::json cell_scenario(const nlohmann::json& context, const std::string& model, const Workload& w) {
  nlohmann::json j = context;
  j["model"] = model;
  for (auto it = w.scenario.begin(); it != w.scenario.end(); ++it) {
    if (it.key() == "training") {
      for (auto t = it->begin(); t != it->end(); ++t) j["training"][t.key()] = *t;
    } else {
      j[it.key()] = *it;
    }
  }
  if (w.scenario.at("task") == "inference") j.erase("training");
  return j;
}

nlohmann::json cell(const nlohmann::json& scenario_json, const std::string& workload) {
  nlohmann::json c = {{"workload", workload}};
  try {
    const Scenario s = parse_scenario(scenario_json);  // named: plans may point into its custom instances
    const std::vector<Plan> plans = rank_plans(s);
    if (plans.empty()) {
      c["fits"] = false;
      c["reason"] = "no instance passes the filters";
    } else {
      c["fits"] = plans.front().fits;
      c["per_gpu_bytes"] = plans.front().per_gpu_bytes;
      c["plan"] = to_json(plans.front());
      if (!plans.front().fits) c["reason"] = "no instance fits; closest: " + plans.front().reason;
    }
  } catch (const InputError& e) {
    c["error"] = {{"field", e.field}, {"message", e.what()}};
  }
  return c;
}

}  // namespace

const std::vector<Workload>& table_workloads() {
  static const std::vector<Workload> workloads = {
      {"serve-bf16", "Serving, BF16 (vLLM)", {{"task", "inference"}, {"weights", "bf16"}, {"engine", "vllm"}}},
      {"serve-int4", "Serving, INT4 AWQ (vLLM)", {{"task", "inference"}, {"weights", "awq-int4"}, {"engine", "vllm"}}},
      {"lora-bf16", "LoRA, BF16 base", {{"task", "lora"}, {"weights", "bf16"}, {"engine", "deepspeed"}}},
      {"qlora-nf4", "QLoRA, NF4 base", {{"task", "qlora"}, {"weights", "nf4"}, {"engine", "deepspeed"}}},
      {"full-zero3", "Full fine-tune, AdamW mixed precision, ZeRO-3",
       {{"task", "full"}, {"weights", "bf16"}, {"engine", "deepspeed"},
        {"training", {{"zero", 3}, {"optimizer", "adamw"}, {"master_weights", true}}}}},
  };
  return workloads;
}

const std::vector<std::string>& table_default_models() {
  static const std::vector<std::string> models = {
      "qwen2.5-0.5b", "qwen2.5-1.5b",  "qwen2.5-3b",      "qwen2.5-7b",      "qwen2.5-14b", "qwen2.5-32b",
      "qwen2.5-72b",  "qwen3-30b-a3b", "qwen3-235b-a22b", "llama-3.1-405b", "deepseek-v3"};
  return models;
}

nlohmann::json table_json(const nlohmann::json& input) {
  const nlohmann::json context = context_of(input);
  const std::vector<std::string> models = rows_of(input);
  nlohmann::json probe = context;
  probe["model"] = kContextModel;
  parse_scenario(probe);  // a bad context key fails once, naming its field
  nlohmann::json columns = nlohmann::json::array();
  for (const Workload& w : table_workloads()) columns.push_back({{"id", w.id}, {"label", w.label}, {"scenario", w.scenario}});
  nlohmann::json rows = nlohmann::json::array();
  for (const std::string& model : models) {
    nlohmann::json cells = nlohmann::json::array();
    for (const Workload& w : table_workloads()) cells.push_back(cell(cell_scenario(context, model, w), w.id));
    const ParamCounts p = count_params(*find_preset(model));
    rows.push_back({{"model", model}, {"name", find_preset(model)->name}, {"params", p.total},
                    {"active_params", p.active}, {"cells", cells}});
  }
  return {{"columns", columns}, {"rows", rows}};
}

}  // namespace gpusizer
