// Where each workload tab of the page starts: the engine, precisions, lengths and training
// settings a practitioner would pick for that task, each with its reason in starting_points.cpp.
// They are not the parser's defaults (parse_scenario fills in those, the catalog's `defaults`):
// a scenario that leaves a key out still means the parser's value; the page starts each tab from
// these and writes into its link only the keys that differ from them (web/state.js).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/precision.h"
#include "scenario/scenario.h"

namespace gpusizer {

// The scenario keys a tab sets; a key left empty is one the tab leaves to the parser.
struct StartingPoint {
  Task task = Task::Inference;
  Engine engine = Engine::Vllm;
  WeightFormat weights = WeightFormat::Bf16;
  std::optional<KvFormat> kv_cache;  // serving tabs
  int64_t seq_len = 0;
  int64_t batch = 0;
  // training.*, on training tabs
  std::optional<Optimizer> optimizer;
  std::optional<Checkpointing> grad_checkpointing;
  std::optional<int> zero;
  std::optional<int64_t> lora_rank;
  std::optional<LoraTargets> lora_targets;
};

// One per task, in the order of the catalog's `tasks`.
const std::vector<StartingPoint>& starting_points();

// The keys a starting point sets, as spec JSON (docs/scenario.md): {"engine", "weights",
// "seq_len", "batch", ["kv_cache"], ["training": {...}]}, without the model and the task.
nlohmann::json starting_point_json(const StartingPoint& p);

// Task id -> starting_point_json: the catalog's `starting_points`.
nlohmann::json starting_points_json();

}  // namespace gpusizer
