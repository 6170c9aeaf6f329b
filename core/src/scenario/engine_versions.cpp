#include "scenario/engine_versions.h"

#include <algorithm>
#include <cctype>

#include "base/error.h"
#include "base/text.h"

namespace gpusizer {
namespace {

// Each row's facts are those engine_options.h documents with their sources; a version is listed
// only where every fact of it has one.
const EngineVersion kVersions[] = {
    {Engine::Vllm, "0.6.3", "0.6.3 to 0.6.4.post1", "0.6.4", "v0", "device", "", -1, -1, false,
     "worker.py determine_num_available_blocks (device used minus torch allocated); the V0 sampler "
     "(model_executor/layers/sampler.py)"},
    {Engine::Vllm, "0.6.5", "0.6.5 to 0.7.x", "0.6.6 0.7", "v0", "increase", "", -1, -1, false,
     "PR #10511 memory_profiling (non-torch increase since the baseline); the V0 sampler until 0.8"},
    {Engine::Vllm, "0.11", "0.10 and 0.11", "0.10", "pytorch-native", "increase", "", -1, -1, true,
     "V1 gpu_worker memory_profiling after PR #19312 (June 2025); apply_top_k_top_p's sort, "
     "v1/sample/ops/topk_topp_sampler.py, v0.8 to v0.11; flags: tests/fixtures/flags/vllm-0.11.json"},
    {Engine::Sglang, "0.4.1", "0.4.1 and 0.4.1.post2", "", "", "", "triton", -1, -1, false,
     "Triton MLA attention and fused MoE with block-wise FP8 before FlashInfer MLA and DeepGEMM "
     "(docs/speed.md, DeepSeek-V3 on SGLang 0.4.1)"},
    {Engine::Sglang, "0.5", "0.5.x", "", "", "", "tuned", -1, -1, true,
     "tests/fixtures/flags/sglang-0.5.json"},
    {Engine::Lmdeploy, "0.10.2", "0.10.2", "", "", "", "", -1, -1, true,
     "tests/fixtures/flags/lmdeploy-0.10.2.json"},
    {Engine::TensorrtLlm, "1.0", "1.0", "", "", "", "", -1, -1, true,
     "tests/fixtures/flags/tensorrt-llm-1.0.json"},
    {Engine::LlamaCpp, "master", "master of 2026", "", "", "", "", -1, -1, true,
     "tests/fixtures/flags/llama.cpp-master.json"},
    {Engine::Transformers, "4.35", "4.30 to 4.35", "4.30 4.31 4.32 4.33 4.34", "", "", "", 1, 1, false,
     "tuple past_key_values before DynamicCache (4.36); fp32 logits of every prompt position before "
     "logits_to_keep (4.45)"},
    {Engine::Transformers, "4.44", "4.36 to 4.44", "4.36 4.37 4.38 4.39 4.40 4.41 4.42 4.43", "", "", "", 1,
     0, false, "DynamicCache from 4.36; every prompt position's logits until 4.45"},
    {Engine::Transformers, "4.57", "4.45 to 4.57",
     "4.45 4.46 4.47 4.48 4.49 4.50 4.51 4.52 4.53 4.54 4.55 4.56", "", "", "", 0, 0, true,
     "logits_to_keep from 4.45; TrainingArguments of tests/fixtures/flags/ms-swift-3.9.json inherited_keys"},
    {Engine::Deepspeed, "0.17", "0.17.x", "", "", "", "", -1, -1, true,
     "tests/fixtures/flags/deepspeed-config-0.17.json, deepspeed-launcher-0.17.json"},
    {Engine::Fsdp, "torch 2.8", "PyTorch 2.8", "2.8", "", "", "", -1, -1, true,
     "tests/fixtures/flags/torchrun-main.json"},
    {Engine::Megatron, "core_v0.15.3", "Megatron-LM core_v0.15.3", "0.15.3", "", "", "", -1, -1, true,
     "tests/fixtures/flags/megatron-lm-core_v0.15.3.json"},
};

// A release name or one of its patch releases ("0.11.1", "0.6.4.post1", "4.44.2").
bool release_matches(const std::string& text, const std::string& release) {
  if (text == release) return true;
  return text.size() > release.size() && text.compare(0, release.size(), release) == 0 &&
         text[release.size()] == '.';
}

// The release names `v` answers to: its own and those of `also`.
std::vector<std::string> releases_of(const EngineVersion& v) {
  std::vector<std::string> out{v.version};
  const std::string also = v.also;
  size_t start = 0;
  while (start < also.size()) {
    const size_t end = std::min(also.find(' ', start), also.size());
    out.push_back(also.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// "v0.11.0" and "0.11.0" name "0.11"; "0.6.4.post1" names the row of 0.6.3 (its `also`).
bool names(const EngineVersion& v, const std::string& text) {
  std::string t = text;
  if (t.size() > 1 && t[0] == 'v' && std::isdigit(static_cast<unsigned char>(t[1]))) t.erase(0, 1);
  for (const std::string& release : releases_of(v)) {
    if (release_matches(t, lower_case(release))) return true;
  }
  return false;
}

std::vector<std::string> version_ids(Engine e) {
  std::vector<std::string> out;
  for (const EngineVersion* v : engine_versions(e)) out.emplace_back(v->version);
  return out;
}

}  // namespace

std::vector<const EngineVersion*> engine_versions(Engine e) {
  std::vector<const EngineVersion*> out;
  for (const EngineVersion& v : kVersions) {
    if (v.engine == e) out.push_back(&v);
  }
  return out;
}

const EngineVersion& default_engine_version(Engine e) { return *engine_versions(e).back(); }

namespace {

// `v` becomes the scenario's version: its facts, and the sampler unless engine_options names one
// (`given_options`).
void apply_version_facts(const EngineVersion& v, const nlohmann::json& given_options, Scenario* s) {
  s->engine_version = v.version;
  const bool sampler_given = given_options.is_object() && given_options.contains("sampler");
  if (*v.sampler && !sampler_given) s->engine_options.sampler = v.sampler;
  VersionFacts& f = s->version_facts;
  if (*v.non_torch_accounting) f.non_torch_accounting = v.non_torch_accounting;
  if (*v.mla_moe_kernels) f.mla_moe_kernels = v.mla_moe_kernels;
  if (v.full_prompt_logits >= 0) f.full_prompt_logits = v.full_prompt_logits == 1;
  if (v.legacy_kv_cache >= 0) f.legacy_kv_cache = v.legacy_kv_cache == 1;
}

}  // namespace

void apply_engine_version(const nlohmann::json* value, const nlohmann::json& given_options, Scenario* s) {
  if (!value) {
    apply_version_facts(default_engine_version(s->engine), given_options, s);
    return;
  }
  if (!value->is_string()) throw_error("engine_version", "string", {{"type", value->type_name()}});
  std::string text = lower_case(value->get<std::string>());
  const std::string engine = to_string(s->engine);
  if (text.empty()) {
    throw_error("engine_version", "engine_version_unknown",
                {{"engine", engine}, {"versions", version_ids(s->engine)}, {"value", ""}});
  }
  // An engine name first ("vllm 0.11", "sglang v0.5.2") must be the scenario's.
  const size_t space = text.find(' ');
  const bool version_first =
      std::isdigit(static_cast<unsigned char>(text[0])) ||
      (text[0] == 'v' && text.size() > 1 && std::isdigit(static_cast<unsigned char>(text[1])));
  if (space != std::string::npos && !version_first) {
    const std::string named = text.substr(0, space);
    if (named != engine && !(named == "torch" && s->engine == Engine::Fsdp)) {
      throw_error("engine_version", "engine_version_engine", {{"named", named}, {"engine", engine}});
    }
    if (named != "torch") text = text.substr(space + 1);
  }
  const EngineVersion* found = nullptr;
  for (const EngineVersion* v : engine_versions(s->engine)) {
    if (names(*v, text)) found = v;
  }
  if (!found) {
    throw_error(
        "engine_version", "engine_version_unknown",
        {{"engine", engine}, {"versions", version_ids(s->engine)}, {"value", value->get<std::string>()}});
  }
  apply_version_facts(*found, given_options, s);
}

nlohmann::json engine_versions_json() {
  nlohmann::json out = nlohmann::json::object();
  for (const EngineVersion& v : kVersions) {
    out[to_string(v.engine)].push_back({{"version", v.version},
                                        {"covers", v.covers},
                                        {"releases", releases_of(v)},
                                        {"launch_checked", v.launch_checked},
                                        {"default", &v == &default_engine_version(v.engine)}});
  }
  return out;
}

}  // namespace gpusizer
