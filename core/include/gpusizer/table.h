// The lookup table: model presets (rows) x workloads (columns); each cell is the cheapest
// fitting plan of rank_plans() for that pair under the caller's context (docs/planner.md).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusizer {

struct Workload {
  std::string id;     // "serve-bf16", "serve-int4", "lora-bf16", "qlora-nf4", "full-zero3"
  std::string label;  // English column heading
  nlohmann::json scenario;  // the keys the column sets (task, weights, engine, training.zero)
};

const std::vector<Workload>& table_workloads();
const std::vector<std::string>& table_default_models();

// Input: a scenario whose model may be omitted (rows replace it), plus an optional "models"
// array of preset ids. Context keys (seq_len, batch, prompt/output tokens, kv_cache, headroom,
// pricing, filters, efficiency, training.tokens and LoRA settings) apply to every cell; task,
// weights, engine, gpu, gpus, tp, pp and training.zero come from the column. Throws InputError
// for a bad context; a cell whose estimate fails carries {"error": ...} instead.
nlohmann::json table_json(const nlohmann::json& input);

}  // namespace gpusizer
