// The `estimate` entry point: memory, fit on the chosen GPU, speed and time of one scenario.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "memory/memory.h"
#include "plan/max_solver.h"
#include "scenario/scenario.h"
#include "speed/speed.h"

namespace gpusizer {

struct GpuFit {
  std::string id;
  double memory_bytes = 0;  // what CUDA can allocate on the card
  double usable_bytes = 0;  // memory_bytes less the headroom
  bool fits = false;        // per_gpu_bytes <= usable_bytes (fits_on, max_solver.h)
  std::string name;  // the catalog's name, for a reader with no catalog at hand (the page's first figure)
};

// A change that would make a scenario that does not fit need less memory, with its figure.
struct Remedy {
  std::string id;        // "grad_checkpointing", "lora", "qlora", "zero3_offload", "adamw_8bit", "batch_1",
                         // "kv_fp8", "awq_int4"
  std::string field;     // the scenario field it changes
  nlohmann::json value;  // the value it sets there
  double per_gpu_bytes = 0;
  bool fits = false;
};

struct Estimate {
  std::string model_name;
  ParamCounts params;
  MemoryEstimate memory;
  std::optional<GpuFit> gpu;
  std::optional<MaxFit> max;             // largest batch / seq_len that fit the GPU
  std::optional<Throughput> throughput;  // needs a GPU
  std::optional<JobTime> time;           // needs a GPU and training.tokens
  std::vector<Remedy> remedies;          // when it does not fit the GPU: what would, with figures
  std::vector<Warning> warnings;
};

// What would make `s` fit `gpu`, each change alone, the ones that save memory, most saving first.
std::vector<Remedy> remedies(const Scenario& s, const Gpu& gpu);

Estimate estimate(const Scenario& s);

// The scenario's memory on each GPU type of the catalog, at its own GPU count and layout (its `gpu`
// aside), in catalog order: the page's fit table. The memory part of estimate() alone: no speed, no
// largest batch, no remedies, which made 32 full estimates ~25 times dearer (callgrind).
struct GpuFitRow {
  const Gpu* gpu = nullptr;
  double per_gpu_bytes = 0;  // estimate().memory.per_gpu_bytes with `gpu` set to this card
  GpuFit fit;                // estimate().gpu with `gpu` set to this card
};
std::vector<GpuFitRow> fit_on_each(const Scenario& s);
nlohmann::json to_json(const GpuFitRow& r);

// Warnings about the chosen card: bf16 without native support, fp8 before Ada/Hopper, ...
std::vector<Warning> capability_warnings(const Scenario& s, const Gpu& gpu);
// A request arriving alone waits longer than kSlowFirstTokenS for its first token (prefill-starved
// cards such as the H20 and L20 at long prompts): the warning, unless a load's ttft_s target
// judges the latency already; nullopt otherwise. `ttft_alone_s`: the curve's ttft_joining_s at 1.
std::optional<Warning> slow_first_token_warning(const Scenario& s, const Gpu& gpu, double ttft_alone_s);
// Why the engine cannot run the weight format on this card at all ("" when it can): the
// planner drops such plans; estimate warns.
// `kind`, when given, gets the reason's code (docs/errors.md, format_unsupported): "awq_volta", "fp8_old",
// "fp4_old", "nvfp4_amd" or "".
std::string unsupported_reason(const Scenario& s, const Gpu& gpu, std::string* kind = nullptr);

nlohmann::json to_json(const Estimate& e);
nlohmann::json to_json(const Warning& w);

}  // namespace gpusizer
