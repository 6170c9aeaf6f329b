// From plan to launch: the command lines and config files that run a scenario on a chosen plan
// (vLLM, SGLang, ms-swift, LLaMA-Factory, DeepSpeed, torchrun). docs/launch.md lists every flag
// and the tool version its name was checked against.
#pragma once

#include <nlohmann/json.hpp>

#include "launch/launch_result.h"
#include "scenario/scenario.h"

namespace gpusizer {

// Commands for scenario `s` on `plan`. Throws InputError when the layout does not suit the
// scenario (tp not dividing the heads, ...).
Launch make_launch(const Scenario& s, const LaunchPlan& plan);

// The `launch` command: a scenario object plus an optional "plan" key, {"instance": "<type>"}
// (a plan of rank_plans) or {"gpu", "gpus_per_instance", "instances", "tp", "pp", "zero"}.
// Without it: the scenario's own gpu/gpus/tp/pp/zero, or the cheapest fitting plan.
nlohmann::json launch_json(const nlohmann::json& input);

nlohmann::json to_json(const Launch& l);

}  // namespace gpusizer
