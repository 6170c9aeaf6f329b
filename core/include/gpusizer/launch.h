// From plan to launch: the command lines and config files that run a scenario on a chosen plan
// (vLLM, SGLang, ms-swift, LLaMA-Factory, DeepSpeed, torchrun). docs/launch.md lists every flag
// and the tool version its name was checked against.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/scenario.h"

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
  std::vector<std::string> notes;  // settings a tool cannot express, placeholders to fill in
  std::vector<Warning> note_details;  // the same notes as {code, values, message} (docs/errors.md)
  std::vector<Warning> warnings;
};

// Commands for scenario `s` on `plan`. Throws InputError when the layout does not suit the
// scenario (tp not dividing the heads, ...).
Launch make_launch(const Scenario& s, const LaunchPlan& plan);

// The `launch` command: a scenario object plus an optional "plan" key, {"instance": "<type>"}
// (a plan of rank_plans) or {"gpu", "gpus_per_instance", "instances", "tp", "pp", "zero"}.
// Without it: the scenario's own gpu/gpus/tp/pp/zero, or the cheapest fitting plan.
nlohmann::json launch_json(const nlohmann::json& input);

nlohmann::json to_json(const Launch& l);

}  // namespace gpusizer
