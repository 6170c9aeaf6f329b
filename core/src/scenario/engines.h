// What each engine can do with a deployment: which parallel layouts it runs, whether it spans
// machines, and the largest batch it accepts. The planner, the launch commands and the checks read
// these rules from here (docs/planner.md "Engine rules" gives each source).
#pragma once

#include <cstdint>
#include <vector>

#include "scenario/scenario.h"

namespace gpusizer {

struct EngineCaps {
  bool tensor_parallel = false;    // splits each layer's matrices across GPUs
  bool pipeline_parallel = false;  // splits the layers into stages (incl. device_map="auto" layer splits)
  bool zero = false;               // shards model states across data-parallel ranks (ZeRO / FSDP)
  bool multi_node = false;         // runs one model instance across several machines
  int64_t max_batch = 0;  // largest concurrent batch the engine accepts by default; 0 = no fixed limit
};

EngineCaps engine_caps(Engine e);

// {id: display name} for every engine ("vllm": "vLLM"): a brand, the same in every language; the
// catalog hands it to the page.
nlohmann::json engine_names_json();

// Warnings about what the model and the engine accept, whatever the card: a context beyond the
// model's trained positions, a batch beyond the engine's default limit, a tp/pp the engine lacks.
std::vector<Warning> workload_warnings(const Scenario& s);

}  // namespace gpusizer
