// The engine versions the project has checked, and the facts of each that change the memory
// accounting: the scenario's "engine_version" ("vllm 0.11", "0.6.3", "transformers 4.44").
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario/scenario.h"

namespace gpusizer {

struct EngineVersion {
  Engine engine;
  const char* version;  // "0.11": what engine_version names
  const char* covers;   // the releases it stands for ("0.6.3 to 0.6.4.post1")
  const char* also;     // those releases' names, space-separated, each with its patch releases
  // What a version does (scenario.h VersionFacts); "" or -1: the fact's default.
  const char* sampler = "";               // vLLM's profile-run sampler (engine_options.sampler's default)
  const char* non_torch_accounting = "";  // vLLM's non-torch memory count
  const char* mla_moe_kernels = "";       // SGLang's MLA + MoE kernels
  int full_prompt_logits = -1;            // transformers generate(): -1 unset, 0 false, 1 true
  int legacy_kv_cache = -1;               // transformers tuple past_key_values
  bool launch_checked = false;            // the commands' flags were checked at this version
  const char* source = "";
};

// The versions checked for `e`, oldest first; the last is the default.
std::vector<const EngineVersion*> engine_versions(Engine e);
// The default version of `e` (the newest checked).
const EngineVersion& default_engine_version(Engine e);

// Parses "engine_version" ("vllm 0.11", "vLLM v0.11.0", "0.11") for the scenario's engine, or takes
// the default version when `value` is null, and sets s->engine_version and s->version_facts; the
// version's sampler becomes engine_options.sampler unless `given_options` (the scenario's
// "engine_options" object, or null) names one. Throws InputError on field "engine_version".
void apply_engine_version(const nlohmann::json* value, const nlohmann::json& given_options, Scenario* s);

// {engine id: [{"version", "covers", "releases", "launch_checked", "default"}, ...]} for the catalog
// and the page.
nlohmann::json engine_versions_json();

}  // namespace gpusizer
