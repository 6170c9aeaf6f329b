// Shared by launch.cpp, launch_serving.cpp and launch_training.cpp: the resolved context of one
// launch and the text helpers every generator uses.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gpusizer/catalog.h"
#include "gpusizer/estimate.h"
#include "gpusizer/launch.h"

namespace gpusizer {

// Documentation each generator's flag names were checked against (docs/launch.md, "Versions").
extern const char* const kVllmVersion;
extern const char* const kSglangVersion;
extern const char* const kSwiftVersion;
extern const char* const kLlamaFactoryVersion;
extern const char* const kDeepspeedVersion;
extern const char* const kTorchrunVersion;

struct LaunchContext {
  Scenario s;         // the scenario with the plan's gpu, gpus, tp, pp and ZeRO stage applied
  const Gpu* gpu = nullptr;
  LaunchPlan plan;
  Estimate estimate;  // of `s`
  bool fp16 = false;  // compute in float16: the card has no bf16, or the weights are fp16
  std::string model;  // what --model gets: the preset's Hugging Face repo, or a placeholder
  int64_t nproc_per_node = 1;  // GPUs used on each node

  int64_t dp() const { return plan.gpus / (plan.tp * plan.pp); }
  bool multi_node() const { return plan.instances > 1; }
};

void add_serving(const LaunchContext& c, Launch& out);
void add_training(const LaunchContext& c, Launch& out);

// One "--flag value" of a command line; an empty value writes the flag alone.
using Flag = std::pair<std::string, std::string>;

// `head` (environment assignments and the program) and one flag per continued line.
std::string shell_command(const std::string& head, const std::vector<Flag>& flags);
// The multi-node placeholders every node fills in: "$NODE_RANK", "$MASTER_ADDR".
extern const char* const kNodeRank;
extern const char* const kMasterAddr;
extern const char* const kMasterPort;

std::string fixed2(double value);  // "0.87": two decimals, for memory fractions
std::string dtype_name(const LaunchContext& c);  // "bfloat16" or "float16"

}  // namespace gpusizer
