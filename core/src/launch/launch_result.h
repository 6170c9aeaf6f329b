// What a launch answers: the deployment it is written for, its command lines and config files,
// and its notes and warnings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace gpusizer {

// The deployment the commands are written for.
struct LaunchPlan {
  std::string gpu;       // catalog GPU id
  std::string instance;  // cloud instance type; "" when the layout was given explicitly
  std::string source;    // "ranking" (a plan of rank_plans), "explicit" (the input's plan) or "scenario"
  int64_t gpus_per_instance = 1;
  int64_t instances = 1;
  int64_t gpus = 1;  // GPUs used in all: tp x pp x data-parallel replicas
  int64_t tp = 1;
  int64_t pp = 1;
  int zero = 0;
  // Sequences each serving replica carries at the scenario's `load` (the ranked plan's
  // concurrency_per_replica); 0: the scenario's own batch.
  int64_t concurrency = 0;
  int64_t ep = 1;             // expert-parallel degree (Megatron-LM --expert-model-parallel-size)
  bool dp_attention = false;  // DP attention over tp GPUs, SGLang's or vLLM's (the ranked plan's choice)
  bool zero_stated =
      false;  // `zero` is the input's own (training.zero, or the explicit plan's), not a default
};

// One command line or one config file.
struct LaunchText {
  std::string tool;             // "vllm", "sglang", "ms-swift", "llama-factory", "deepspeed", "torchrun"
  std::string version_checked;  // the tool version whose documentation the flag names were checked against
  std::string kind;             // "shell", "json" or "yaml"
  std::string filename;         // files only: the name the shell commands refer to
  std::string text;
};

struct Launch {
  LaunchPlan plan;
  std::string dtype;  // the commands' --dtype: "bfloat16"; "float16" without bf16 or for AWQ/GPTQ
  std::vector<LaunchText> commands;
  std::vector<std::string> notes;     // settings a tool cannot express, placeholders to fill in
  std::vector<Warning> note_details;  // the same notes as {code, values, message} (docs/errors.md)
  std::vector<Warning> warnings;
};

}  // namespace gpusizer
