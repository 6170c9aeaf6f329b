// The lookup table: model presets (rows) x workloads (columns); each cell is the cheapest
// fitting plan of rank_plans() for one complete workload (docs/planner.md, "Lookup table").
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusizer {

// A column: a complete workload with stated defaults that fit its kind. The page shows them
// above the table and lets the user edit them (the input's "columns" overrides).
struct Workload {
  std::string id;     // "serve-bf16", "serve-int4", "lora-bf16", "qlora-nf4", "full-zero3"
  std::string label;  // English column heading
  bool serving = false;
  nlohmann::json defaults;  // scenario keys: task, weights, engine, batch, seq_len, training.*
                            // (where they come from: table.cpp and docs/planner.md)
};

const std::vector<Workload>& table_workloads();

// The keys a column's overrides may set, per kind, dotted ("training.zero"): {"serving": [...],
// "training": [...]} (the page edits these; catalog_json).
nlohmann::json table_settings_json();
const std::vector<std::string>& table_default_models();

// Input (every key optional):
//   "models":  preset ids, the rows (default table_default_models())
//   "columns": {"<column id>": {overrides}}: per-column edits of the defaults, e.g.
//              {"lora-bf16": {"seq_len": 4096, "training": {"lora_rank": 16}}}
//   "context": {"seq_len": N, "training": {"tokens": T}}: applied to every column (tokens to
//              the training columns) above the defaults and below the column's own overrides
//   "pricing", "filters", "headroom", "efficiency", "schema": as in a scenario, for every cell.
// Anything else (a top-level seq_len, model, gpu, ...) is an error naming the key, as is a bad
// override ("columns.lora-bf16.seq_len"). A cell whose estimate fails carries {"error": ...}.
nlohmann::json table_json(const nlohmann::json& input);

// The scenario one cell ranks: the column's defaults, the context, the column's overrides, the
// input's pricing/filters/headroom/efficiency and the row's model. Validates like table_json.
nlohmann::json table_cell_scenario(const nlohmann::json& input, const std::string& model,
                                   const std::string& column);

}  // namespace gpusizer
