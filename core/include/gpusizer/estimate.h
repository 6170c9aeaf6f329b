// The `estimate` entry point: memory, fit on the chosen GPU, speed and time of one scenario.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/max_solver.h"
#include "gpusizer/memory.h"
#include "gpusizer/scenario.h"
#include "gpusizer/speed.h"

namespace gpusizer {

struct GpuFit {
  std::string id;
  double memory_bytes = 0;  // what CUDA can allocate on the card
  bool fits = false;        // per_gpu_bytes <= memory_bytes
};

struct Estimate {
  std::string model_name;
  ParamCounts params;
  MemoryEstimate memory;
  std::optional<GpuFit> gpu;
  std::optional<MaxFit> max;  // largest batch / seq_len that fit the GPU
  std::optional<Throughput> throughput;  // needs a GPU
  std::optional<JobTime> time;           // needs a GPU and training.tokens
  std::vector<Warning> warnings;
};

Estimate estimate(const Scenario& s);

// Warnings about the chosen card: bf16 without native support, fp8 before Ada/Hopper, ...
std::vector<Warning> capability_warnings(const Scenario& s, const Gpu& gpu);
// Why the engine cannot run the weight format on this card at all ("" when it can): the
// planner drops such plans; estimate warns.
std::string unsupported_reason(const Scenario& s, const Gpu& gpu);

nlohmann::json to_json(const Estimate& e);
nlohmann::json to_json(const Warning& w);

}  // namespace gpusizer
