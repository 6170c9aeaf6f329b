// Speculative decoding's flags (engine_options.speculative) on the vLLM and SGLang commands.
// Checked against:
//   vLLM 0.11    --speculative-config, a JSON SpeculativeConfig (vllm/config/speculative.py: method
//                "deepseek_mtp", "glm4_moe_mtp", "eagle", "eagle3", "draft_model"; num_speculative_tokens;
//                model, the draft's repository); the JSON form replaced --speculative-model and
//                --num-speculative-tokens, removed in vllm-project/vllm PR #15466 (March 2025)
//   SGLang 0.5   server_args.py --speculative-algorithm EAGLE|EAGLE3|NEXTN|STANDALONE,
//                --speculative-draft-model-path, --speculative-num-steps, --speculative-eagle-topk,
//                --speculative-num-draft-tokens (NEXTN runs as EAGLE on the checkpoint's own MTP
//                layers when no draft path is given)
#include "launch/launch_internal.h"

#include <nlohmann/json.hpp>

namespace gpusizer {
namespace {

// vLLM's method for a model's MTP modules (config/speculative.py MTPModelTypes), by family.
std::string vllm_mtp_method(const Architecture& a) {
  if (a.family == "glm4_moe") return "glm4_moe_mtp";
  return "deepseek_mtp";  // DeepSeek-V3 / R1 / V3.1 (model_type deepseek_v3)
}

// The draft's repository: the draft model's checkpoint, or the repository the scenario names.
std::string draft_repo(const Speculative& sp) {
  if (sp.draft_preset && !sp.draft_preset->hf_repo.empty()) return sp.draft_preset->hf_repo;
  return sp.draft_model;
}

}  // namespace

void add_vllm_speculative(const LaunchContext& c, Flags& f) {
  if (!c.s.engine_options.speculative) return;
  const Speculative& sp = *c.s.engine_options.speculative;
  // Keys sorted (nlohmann::json, the one JSON type of the wasm): vLLM reads them by name.
  nlohmann::json j;
  j["method"] = sp.method == "mtp" ? vllm_mtp_method(c.s.model) : sp.method;
  j["num_speculative_tokens"] = sp.draft_tokens;
  if (!sp.draft_model.empty()) j["model"] = draft_repo(sp);
  f.add("--speculative-config", cat({"'", j.dump(), "'"}));
}

void add_sglang_speculative(const LaunchContext& c, Flags& f) {
  if (!c.s.engine_options.speculative) return;
  const Speculative& sp = *c.s.engine_options.speculative;
  const char* algorithm = "NEXTN";
  if (sp.method == "eagle") algorithm = "EAGLE";
  if (sp.method == "eagle3") algorithm = "EAGLE3";
  if (sp.method == "draft_model") algorithm = "STANDALONE";
  f.add("--speculative-algorithm", algorithm);
  if (!sp.draft_model.empty()) f.add("--speculative-draft-model-path", draft_repo(sp));
  // A chain of k drafts: k steps, one candidate each, k + 1 tokens verified (the drafts and the root).
  f.add("--speculative-num-steps", sp.draft_tokens)
      .add("--speculative-eagle-topk", 1)
      .add("--speculative-num-draft-tokens", sp.draft_tokens + 1);
}

}  // namespace gpusizer
