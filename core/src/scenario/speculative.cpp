// engine_options.speculative: the option's fields, its checks, and the draft as a scenario.
#include "scenario/speculative.h"

#include <algorithm>

#include "base/error.h"
#include "catalog/model_names.h"
#include "model/precision.h"

namespace gpusizer {
namespace {

// DeepSeek-V3 Technical Report (arXiv 2412.19437) section 5.4.3: "the acceptance rate of the second
// token prediction ranges between 85% and 90%" with one MTP module (k = 1); the low end.
constexpr double kMtpAcceptanceRate = 0.85;
// Draft tokens per step at most: vLLM takes any num_speculative_tokens > 0 (config/speculative.py),
// SGLang any --speculative-num-steps; 16 is beyond the published chains (nebius/MTP-DeepSeek-V3-0324
// runs K = 7, EAGLE-2 trees reach depth 6).
constexpr int64_t kMaxDraftTokens = 16;
// EAGLE-3's LM head covers the draft vocabulary only (draft_vocab_size; its d2t table maps it to the
// target's ids): 32000 in SafeAILab/EAGLE eagle/traineagle3/config.json, the config of the
// Llama-3.1-8B-Instruct head, and in SpecForge's published EAGLE-3 configs (Llama 3, Qwen3, gpt-oss).
constexpr int64_t kEagle3DraftVocab = 32000;

const char* const kField = "engine_options.speculative";

}  // namespace

void parse_speculative(JsonReader& options, EngineOptions* out) {
  if (!options.has("speculative")) return;
  require_object(options.raw("speculative"), kField);
  JsonReader r(options.raw("speculative"), kField);
  Speculative sp;
  const std::optional<std::string> method = r.choice("method", {"mtp", "eagle", "eagle3", "draft_model"});
  if (!method) throw_error(std::string(kField) + ".method", "speculative_method_required");
  sp.method = *method;
  if (auto k = r.integer("draft_tokens", 1, kMaxDraftTokens)) sp.draft_tokens = *k;
  if (auto a = r.number("acceptance_rate", 0, 1, true)) {
    if (*a >= 1) throw_error(std::string(kField) + ".acceptance_rate", "below_one");
    sp.acceptance_rate = *a;
    sp.acceptance_stated = true;
  } else if (sp.method == "mtp" && sp.draft_tokens == 1) {
    sp.acceptance_rate = kMtpAcceptanceRate;
  } else if (sp.method == "mtp") {
    // The report's figure is for the one token its module predicts; chaining the module for more
    // positions accepts less at each, by how much is not measured there.
    throw_error(std::string(kField) + ".acceptance_rate", "speculative_mtp_chain",
                {{"draft_tokens", sp.draft_tokens}});
  } else {
    // EAGLE's and EAGLE-3's papers report acceptance lengths of tree drafts (several candidates per
    // position), not a per-token rate of a chain; a draft model's rate depends on the pair.
    throw_error(std::string(kField) + ".acceptance_rate", "speculative_acceptance_required",
                {{"method", sp.method}});
  }
  if (auto d = r.string("draft_model")) sp.draft_model = *d;
  if (sp.draft_model.empty() &&
      (sp.method == "eagle" || sp.method == "eagle3" || sp.method == "draft_model")) {
    throw_error(std::string(kField) + ".draft_model", "speculative_draft_required", {{"method", sp.method}});
  }
  if (sp.method == "draft_model") {
    // A catalog model (id, alias or Hub id): it sizes the draft's weights and KV cache.
    sp.draft_preset = resolve_model_name(sp.draft_model, std::string(kField) + ".draft_model").preset;
  }
  r.reject_unknown();
  out->speculative = sp;
}

bool speculative(const Scenario& s) {
  return s.task == Task::Inference && s.engine_options.speculative.has_value();
}

void validate_speculative(const Scenario& s) {
  if (!s.engine_options.speculative) return;
  const Speculative& sp = *s.engine_options.speculative;
  if (s.task != Task::Inference) throw_error(kField, "speculative_task", {{"task", to_string(s.task)}});
  // vLLM's --speculative-config and SGLang's --speculative-algorithm; the other engines modelled
  // are not given one here (llama.cpp's draft model, TensorRT-LLM's and LMDeploy's are left out).
  if (s.engine != Engine::Vllm && s.engine != Engine::Sglang) {
    throw_error(kField, "speculative_engine", {{"engine", to_string(s.engine)}});
  }
  if (s.model.encoder) throw_error(kField, "speculative_encoder");
  if (sp.method == "mtp" && s.model.mtp_layers == 0) {
    throw_error(std::string(kField) + ".method", "speculative_mtp_layers");
  }
  if (sp.method == "draft_model" && sp.draft_preset && sp.draft_preset->vocab != s.model.vocab) {
    // vLLM and SGLang verify the draft's token ids against the target's: one vocabulary.
    throw_error(
        std::string(kField) + ".draft_model", "speculative_draft_vocab",
        {{"draft", sp.draft_preset->id}, {"vocab", sp.draft_preset->vocab}, {"target", s.model.vocab}});
  }
}

Draft draft_scenario(const Scenario& s) {
  const Speculative& sp = *s.engine_options.speculative;
  Draft d;
  d.scenario = s;
  Scenario& ds = d.scenario;
  ds.engine_options.speculative.reset();
  ds.pp = 1;  // the draft runs on the last stage's TP ranks
  ds.gpus = s.tp;
  ds.load.reset();
  if (sp.method == "draft_model") {
    ds.model = *sp.draft_preset;
    ds.checkpoint = preset_checkpoint(ds.model, WeightFormat::Bf16);
    ds.weights = ds.checkpoint.stored;  // the draft's own checkpoint format
    ds.engine_options.dp_attention.reset();
    return d;
  }
  Architecture& a = ds.model;
  const double h = static_cast<double>(a.hidden);
  d.shares_embedding = d.shares_head = true;
  a.layers = 1;
  a.dense_layers = 0;
  a.linear_attn_layers = 0;
  a.mtp_layers = 0;
  a.vision_params = 0;
  a.sliding_window = 0;
  a.sliding_window_layers = 0;
  if (sp.method == "mtp") {
    // One MTP module: the target's decoder block (MoE where the model has experts) and eh_proj
    // (architecture.cpp mtp_params); vLLM loads all of them, each keeps its own KV cache.
    d.extra_params = 2 * h * h;
    d.weight_copies = static_cast<double>(s.model.mtp_layers);
    d.kv_copies = static_cast<double>(std::min(s.model.mtp_layers, sp.draft_tokens));
    return d;
  }
  // EAGLE head: one Llama decoder layer of the target's width, dense, the target's embedding.
  // EAGLE (SafeAILab/EAGLE eagle/model/cnets1.py): fc 2 x hidden -> hidden before a plain layer, the
  // target's LM head. EAGLE-3 (eagle/model/cnets.py): fc 3 x hidden -> hidden fuses the low, mid and
  // high features; q/k/v_proj read the embedding and that feature side by side (2 x hidden); its own
  // lm_head over draft_vocab_size (vLLM llama_eagle3.py the same).
  ds.engine_options.dp_attention.reset();
  if (a.experts > 0 && a.intermediate == 0) a.intermediate = a.expert_intermediate;
  a.experts = a.experts_per_token = a.shared_experts = 0;
  a.expert_intermediate = a.shared_expert_intermediate = 0;
  a.router_bias = a.shared_expert_gate = a.expert_bias = false;
  if (a.mla.kv_lora_rank > 0) {
    a.mla = Mla();
    if (a.head_dim == 0) a.head_dim = a.hidden / a.heads;
    if (a.kv_heads == 0) a.kv_heads = a.heads;
  }
  a.lightning_attn = false;
  a.attn_output_gate = false;
  if (sp.method == "eagle") {
    d.extra_params = 2 * h * h;
    return d;
  }
  const double head_dim = static_cast<double>(a.head_dim > 0 ? a.head_dim : a.hidden / a.heads);
  d.extra_params = 3 * h * h + h * head_dim * static_cast<double>(a.heads + 2 * a.kv_heads);
  d.shares_head = false;
  a.vocab = std::min(a.vocab, kEagle3DraftVocab);
  a.tied_embeddings = false;
  return d;
}

}  // namespace gpusizer
