#include "scenario/scenario.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "base/error.h"
#include "base/json_reader.h"
#include "base/messages.h"
#include "base/text.h"
#include "catalog/catalog.h"
#include "catalog/checkpoints.h"
#include "catalog/model_names.h"
#include "scenario/engine_options_parse.h"
#include "scenario/engine_versions.h"
#include "scenario/speculative.h"

namespace gpusizer {

Warning::Warning(const char* code_, const char* field_, std::string message_, nlohmann::json values_)
    : code(code_), field(field_), message(std::move(message_)), values(std::move(values_)) {}
Warning::Warning(const char* code_, std::string field_, std::string message_, nlohmann::json values_)
    : code(code_), field(std::move(field_)), message(std::move(message_)), values(std::move(values_)) {}
Warning::Warning(std::string code_, std::string field_, std::string message_, nlohmann::json values_)
    : code(std::move(code_)),
      field(std::move(field_)),
      message(std::move(message_)),
      values(std::move(values_)) {}

Warning message_warning(const char* code, std::string field, nlohmann::json values,
                        const nlohmann::json& text) {
  std::string english = message_text(code, values, text);
  return Warning(code, std::move(field), std::move(english), std::move(values));
}

namespace {

// Upper bounds: far beyond any real workload, low enough that no product overflows a double's
// exact-integer range (2^53) in the byte counts.
constexpr int64_t kMaxBatch = 1'000'000;
constexpr int64_t kMaxSeqLen = 100'000'000;
constexpr int64_t kMaxGpus = 1'000'000;
constexpr int64_t kMaxLoraRank = 65'536;
constexpr int64_t kMaxGradAccum = 1'000'000;
constexpr double kMaxTokens = 1e16;  // 10 quadrillion tokens: beyond any published run

template <typename E>
struct Named {
  E value;
  const char* id;
};
constexpr Named<Task> kTasks[] = {{Task::Inference, "inference"},
                                  {Task::Full, "full"},
                                  {Task::Lora, "lora"},
                                  {Task::Qlora, "qlora"},
                                  {Task::Pretrain, "pretrain"}};
constexpr Named<Engine> kEngines[] = {{Engine::Vllm, "vllm"},
                                      {Engine::Sglang, "sglang"},
                                      {Engine::Lmdeploy, "lmdeploy"},
                                      {Engine::TensorrtLlm, "tensorrt-llm"},
                                      {Engine::Transformers, "transformers"},
                                      {Engine::LlamaCpp, "llama.cpp"},
                                      {Engine::Deepspeed, "deepspeed"},
                                      {Engine::Fsdp, "fsdp"},
                                      {Engine::Megatron, "megatron"}};
constexpr Named<Optimizer> kOptimizers[] = {{Optimizer::Adamw, "adamw"},
                                            {Optimizer::Adamw8bit, "adamw-8bit"},
                                            {Optimizer::PagedAdamw8bit, "paged-adamw-8bit"},
                                            {Optimizer::Sgd, "sgd"},
                                            {Optimizer::Adafactor, "adafactor"}};
constexpr Named<Checkpointing> kCheckpointing[] = {
    {Checkpointing::None, "none"}, {Checkpointing::Selective, "selective"}, {Checkpointing::Full, "full"}};
constexpr Named<LoraTargets> kLoraTargets[] = {
    {LoraTargets::AllLinear, "all-linear"}, {LoraTargets::Attention, "attention"}, {LoraTargets::Qv, "qv"}};

template <typename E, size_t N>
const char* name_of(const Named<E> (&table)[N], E value) {
  for (const auto& n : table) {
    if (n.value == value) return n.id;
  }
  return "?";
}
template <typename E, size_t N>
std::vector<std::string> ids_of(const Named<E> (&table)[N]) {
  std::vector<std::string> ids;
  for (const auto& n : table) ids.emplace_back(n.id);
  return ids;
}
template <typename E, size_t N>
E value_of(const Named<E> (&table)[N], const std::string& id) {
  for (const auto& n : table) {
    if (id == n.id) return n.value;
  }
  return table[0].value;
}

bool is_inference_engine(Engine e) {
  return e != Engine::Deepspeed && e != Engine::Fsdp && e != Engine::Megatron;
}
bool is_training_engine(Engine e) {
  return e == Engine::Deepspeed || e == Engine::Fsdp || e == Engine::Megatron || e == Engine::Transformers;
}

// A typed name (model_names.h) may also carry the checkpoint's weight format ("...-AWQ"):
// `match` keeps what the name said.
Architecture resolve_model(const nlohmann::json& m, std::vector<Warning>* warnings, ModelNameMatch* name) {
  if (m.is_string()) {
    const ModelNameMatch match =
        resolve_model_name(m.get<std::string>(), "model");  // aliases, Hub ids, "did you mean"
    if (match.matched_by != "id") {
      warnings->push_back(message_warning("model_name_resolved", "model",
                                          {{"name", m.get<std::string>()},
                                           {"preset", match.preset->id},
                                           {"weights", match.has_weights ? to_string(match.weights) : ""}}));
    }
    *name = match;
    return *match.preset;
  }
  if (!m.is_object()) throw_error("model", "model_type", {{"type", m.type_name()}});
  if (m.contains("hf_config")) {
    if (m.size() != 1) throw_error("model", "model_one_key", {{"key", "hf_config"}});
    Architecture arch = from_hf_config(m.at("hf_config"));
    validate_architecture(arch, "model.hf_config");
    // A quantized checkpoint's config.json names its format (quantization_config).
    if (!arch.checkpoint_weights.empty() && parse_weight_format(arch.checkpoint_weights, &name->weights)) {
      name->has_weights = true;
      name->weights_token = "checkpoint";
    }
    return arch;
  }
  if (m.contains("params")) {
    if (m.size() != 1) throw_error("model", "model_one_key", {{"key", "params"}});
    JsonReader r(m, "model");
    const double params = *r.number("params", 1e6, 1e14, false);  // 1M to 100T parameters
    warnings->push_back(message_warning("params_only_model", "model.params"));
    Architecture arch = from_param_count(params);
    validate_architecture(arch, "model.params");
    return arch;
  }
  Architecture arch = from_explicit_fields(m);
  validate_architecture(arch, "model");
  return arch;
}

bool is_16bit(WeightFormat f) { return !is_quantized(f); }  // bf16, fp16 (and fp32)

// Formats an engine makes from 16-bit weights while it loads them: vLLM's and SGLang's online
// fp8, bitsandbytes int8/int4/nf4, and the 16-bit dtypes themselves. AWQ, GPTQ, GGUF, MXFP4 and
// NVFP4 weights exist only as checkpoints quantized beforehand.
bool converted_on_load(WeightFormat f) {
  return is_16bit(f) || f == WeightFormat::Fp8 || f == WeightFormat::Int8 || f == WeightFormat::Int4 ||
         f == WeightFormat::Nf4;
}

// The variant a repository name shows ("-Instruct", "-Chat", "-it", "-Distill-"); "" when none.
std::string variant_of(const std::string& repo) {
  const std::string n = lower_case(repo);
  if (n.find("distill") != std::string::npos) return "distill";
  if (n.find("instruct") != std::string::npos || n.find("-it") != std::string::npos) return "instruct";
  if (n.find("chat") != std::string::npos) return "chat";
  if (n.find("coder") != std::string::npos) return "coder";
  if (n.find("base") != std::string::npos) return "base";
  return "";
}

void take_published(const PublishedCheckpoint& p, Checkpoint* c, Architecture* a = nullptr) {
  if (a && p.max_positions > 0) a->max_positions = p.max_positions;  // e.g. Qwen3 -2507: 262,144
  c->repo = p.repo;
  c->listed = true;
  c->variant = p.variant;
  c->stored = p.weights;
  c->gguf_file = p.gguf_file;
  c->gguf_repo = !p.gguf_file.empty();
  c->group_size = p.group_size;
  c->act_order = p.desc_act;
  c->quant_scope = p.quant_scope;
}

}  // namespace

std::optional<WeightFormat> low_bit_release(const Architecture& a) {
  WeightFormat released = WeightFormat::Bf16;
  if (a.checkpoint_weights.empty() || !parse_weight_format(a.checkpoint_weights, &released))
    return std::nullopt;
  return released;
}

namespace {

// The checkpoint the model names (checkpoint.h) and whether `weights` can be loaded from it.
void resolve_checkpoint(const ModelNameMatch& name, const std::optional<WeightFormat>& weights, Scenario* s) {
  Checkpoint& c = s->checkpoint;
  const Architecture& a = s->model;
  const std::optional<WeightFormat> release = low_bit_release(a);
  const WeightFormat released = release.value_or(WeightFormat::Bf16);
  if (!s->model_input.is_string()) {
    // A config.json names its format (quantization_config); a parameter count or fields have none.
    if (name.has_weights) c.stored = name.weights;
    return;
  }
  c.named = !name.hub_id.empty();
  c.modelscope = name.modelscope;
  c.repo = c.named ? name.hub_id : a.hf_repo;
  // A GGUF repository holds one file per quant type ("...-GGUF"): any GGUF format is one of its
  // files, served by llama-server -hf <repo>:<QUANT>; without one named, its Q4_K_M.
  const bool gguf_repo = lower_case(c.repo).find("gguf") != std::string::npos;
  if (const PublishedCheckpoint* p = find_published_checkpoint(c.repo, weights)) {
    take_published(*p, &c, &s->model);
    c.repo = c.named ? name.hub_id : p->repo;  // kept as the user wrote it
    if (gguf_repo && weights && is_gguf(*weights) && c.stored != *weights) {
      c.stored = *weights;
      c.gguf_file.clear();  // another file of the repository
    }
  } else if (gguf_repo) {
    c.variant = variant_of(c.repo);
    c.stored = weights && is_gguf(*weights)                ? *weights
               : name.has_weights && is_gguf(name.weights) ? name.weights
                                                           : WeightFormat::Q4_K_M;
    c.gguf_repo = true;
    // Neither `weights` nor the name says which file: llama.cpp's own choice, sized as Q4_K_M.
    c.gguf_quant_assumed = !(weights && is_gguf(*weights)) && !(name.has_weights && is_gguf(name.weights));
  } else {
    c.variant = variant_of(c.repo);
    if (name.has_weights && name.weights_token != "checkpoint") {
      c.stored = name.weights;  // "-AWQ", "-GPTQ-Int8", "-FP8", "Q4_K_M" in the name
    } else if (release) {
      const bool own = lower_case(c.repo) == lower_case(a.hf_repo);
      if (c.named && !own && !weights) {
        throw_error("model", "checkpoint_format_unknown",
                    {{"repo", c.repo}, {"preset", a.id}, {"released", to_string(released)}});
      }
      c.stored = own ? released : weights.value_or(released);
    }
  }
  if (!weights || *weights == c.stored) return;
  if (!c.named) {
    // A preset asked for a format it is published in: that checkpoint, not a conversion.
    if (const PublishedCheckpoint* p = published_checkpoint_of(a.id, *weights)) {
      c.preset_repo = c.repo;
      take_published(*p, &c, &s->model);
      return;
    }
    // No published checkpoint in that format: converted on load where an engine does it, else
    // a checkpoint quantized beforehand that the launch leaves as a placeholder (its notes say so).
    if (!is_16bit(c.stored) || !converted_on_load(*weights)) {
      c.preset_repo = c.repo;
      c.repo.clear();
      c.listed = false;
      c.gguf_file.clear();
      c.gguf_repo = false;
    }
    return;
  }
  if (!is_16bit(c.stored) || !converted_on_load(*weights)) {
    const PublishedCheckpoint* other = published_checkpoint_of(a.id, *weights);
    nlohmann::json values = {
        {"repo", c.repo}, {"stored", to_string(c.stored)}, {"weights", to_string(*weights)}};
    if (other) values["alternative"] = other->repo;
    throw_error("weights", "checkpoint_weights", values);
  }
}

void parse_training(JsonReader& top, Scenario* s) {
  if (!top.has("training")) return;
  JsonReader r(top.raw("training"), "training");
  Training& t = s->training;
  if (auto v = r.choice("optimizer", ids_of(kOptimizers))) t.optimizer = value_of(kOptimizers, *v);
  if (auto v = r.boolean("master_weights")) t.master_weights = *v;
  if (auto v = r.choice("grad_checkpointing", ids_of(kCheckpointing))) {
    t.grad_checkpointing = value_of(kCheckpointing, *v);
  }
  if (r.has("zero")) {
    const nlohmann::json& z = r.raw("zero");
    if (!z.is_number_integer() || z.get<int64_t>() < 0 || z.get<int64_t>() > 3) {
      throw_error("training.zero", "choice", {{"choices", {0, 1, 2, 3}}});
    }
    t.zero = static_cast<int>(z.get<int64_t>());
    s->zero_set = true;
  }
  if (auto v = r.boolean("offload_optimizer")) t.offload_optimizer = *v;
  if (auto v = r.boolean("offload_params")) t.offload_params = *v;
  if (auto v = r.integer("lora_rank", 1, kMaxLoraRank)) t.lora_rank = *v;
  if (auto v = r.choice("lora_targets", ids_of(kLoraTargets))) t.lora_targets = value_of(kLoraTargets, *v);
  if (auto v = r.integer("grad_accum", 1, kMaxGradAccum)) {
    t.grad_accum = *v;
    t.grad_accum_stated = true;
  }
  if (auto v = r.number("tokens", 0, kMaxTokens, true)) t.tokens = *v;
  r.reject_unknown();
}

// Lower bound of the efficiency overrides: 1 % of peak, a documented input range (docs/scenario.md),
// not a measurement. The measured shares of docs/speed.md sit far above it (MFU 0.30-0.56,
// Narayanan et al. 2021 Table 1, OPT (Zhang et al. 2022); bandwidth 0.75-0.80); values such as 1e-300
// overflow the times to infinity and answer nothing.
constexpr double kMinEfficiency = 0.01;

void parse_efficiency(JsonReader& top, Scenario* s) {
  if (!top.has("efficiency")) return;
  JsonReader r(top.raw("efficiency"), "efficiency");
  if (auto v = r.number("mfu", kMinEfficiency, 1, false)) s->efficiency.mfu = *v;
  if (auto v = r.number("bandwidth", kMinEfficiency, 1, false)) s->efficiency.bandwidth = *v;
  if (auto v = r.boolean("cuda_graphs")) s->efficiency.cuda_graphs = *v;
  r.reject_unknown();
}

// "YYYY-MM-DD" with a plausible month and day.
bool is_iso_day(const std::string& v) {
  if (v.size() != 10 || v[4] != '-' || v[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (v[i] < '0' || v[i] > '9') return false;
  }
  const int month = (v[5] - '0') * 10 + (v[6] - '0'), day = (v[8] - '0') * 10 + (v[9] - '0');
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

constexpr int64_t kMaxInstanceGpus = 64;
constexpr double kMaxPricePerHour = 1e7;

// One of pricing.custom_instances, as a catalog instance of provider "custom".
Instance parse_custom_instance(const nlohmann::json& j, const std::string& field) {
  JsonReader r(j, field);
  Instance i;
  i.provider_id = "custom";
  i.billing = "on-demand";
  i.price_date = "user";
  i.source = "user";
  i.provider = r.string("provider").value_or("");
  const auto name = r.string("instance");
  if (!name || name->empty()) throw_error(field + ".instance", "instance_name_required");
  // The page keys prices by type name and launch picks a plan by it, so names must not collide.
  for (const Instance& c : instance_catalog()) {
    if (c.instance == *name) throw_error(field + ".instance", "catalog_instance_name", {{"name", *name}});
  }
  i.instance = *name;
  i.region = r.string("region").value_or("");
  const auto gpu = r.string("gpu");
  if (!gpu) throw_error(field + ".gpu", "instance_gpu_required");
  if (!find_gpu(*gpu)) throw_error(field + ".gpu", "unknown_gpu", {{"id", *gpu}});
  i.gpu_id = *gpu;
  const auto gpus = r.integer("gpus_per_instance", 1, kMaxInstanceGpus);
  if (!gpus) throw_error(field + ".gpus_per_instance", "instance_gpus_required");
  i.gpus = static_cast<int>(*gpus);
  const auto price = r.number("price_per_hour", 0, kMaxPricePerHour, true);
  if (!price) throw_error(field + ".price_per_hour", "instance_price_required");
  i.price_per_hour = *price;
  const auto currency = r.choice("currency", {"USD", "CNY"});
  if (!currency) throw_error(field + ".currency", "instance_currency_required");
  i.currency = *currency;
  i.vcpu = static_cast<int>(r.integer("vcpu", 1, 100'000).value_or(0));
  i.ram_bytes = r.number("ram_bytes", 0, 1e15, true).value_or(0);
  if (auto v = r.string("price_date")) {
    if (!is_iso_day(*v)) throw_error(field + ".price_date", "date");
    i.price_date = *v;
  }
  r.reject_unknown();
  return i;
}

// A price for an instance type that is neither in the catalog nor one of the scenario's own
// changes nothing: say so, naming the type (a typo, or a type that a catalog update removed).
void warn_unknown_overrides(Scenario* s) {
  for (const auto& override : s->pricing.overrides) {
    const std::string& id = override.first;  // C++17 lambdas cannot capture a structured binding
    const auto named = [&](const Instance& i) { return i.instance == id; };
    const auto& custom = s->pricing.custom_instances;
    if (std::any_of(instance_catalog().begin(), instance_catalog().end(), named) ||
        std::any_of(custom.begin(), custom.end(), named)) {
      continue;
    }
    s->warnings.push_back(message_warning("unknown_override", "pricing.overrides." + id, {{"instance", id}}));
  }
}

void parse_pricing(JsonReader& top, Scenario* s) {
  if (!top.has("pricing")) return;
  JsonReader r(top.raw("pricing"), "pricing");
  if (auto v = r.choice("currency", {"USD", "CNY"})) s->pricing.currency = *v;
  if (auto v = r.number("cny_per_usd", 0, 1000, true)) s->pricing.cny_per_usd = *v;
  if (r.has("overrides")) {
    const nlohmann::json& o = r.raw("overrides");
    require_object(o, "pricing.overrides");
    for (auto it = o.begin(); it != o.end(); ++it) {
      JsonReader item(o, "pricing.overrides");
      s->pricing.overrides[it.key()] = *item.number(it.key(), 0, kMaxPricePerHour, true);
    }
  }
  if (r.has("custom_instances")) {
    const nlohmann::json& list = r.raw("custom_instances");
    if (!list.is_array()) throw_error("pricing.custom_instances", "instance_list");
    for (size_t n = 0; n < list.size(); ++n) {
      const std::string field = "pricing.custom_instances[" + std::to_string(n) + "]";
      Instance i = parse_custom_instance(list[n], field);
      for (const Instance& earlier : s->pricing.custom_instances) {
        if (earlier.instance == i.instance)
          throw_error(field + ".instance", "duplicate_instance_name", {{"name", i.instance}});
      }
      s->pricing.custom_instances.push_back(std::move(i));
    }
  }
  r.reject_unknown();
  warn_unknown_overrides(s);
}

// Largest request rate accepted: 1e6 requests/s, far beyond any single service.
constexpr double kMaxRequestsPerS = 1e6;

void parse_load(JsonReader& top, Scenario* s) {
  if (!top.has("load")) return;
  JsonReader r(top.raw("load"), "load");
  Load load;
  const auto rate = r.number("requests_per_s", 0, kMaxRequestsPerS, true);
  if (!rate) throw_error("load.requests_per_s", "load_rate_required");
  load.requests_per_s = *rate;
  if (auto v = r.number("ttft_s", 0, 3600, true)) load.ttft_s = *v;
  if (auto v = r.number("tpot_s", 0, 60, true)) load.tpot_s = *v;
  r.reject_unknown();
  if (is_training(s->task)) throw_error("load", "load_training");
  s->load = load;
}

void parse_filters(JsonReader& top, Scenario* s) {
  if (!top.has("filters")) return;
  JsonReader r(top.raw("filters"), "filters");
  if (auto v = r.string_list("providers")) {
    for (const auto& id : *v) {
      const auto named = [&](const Instance& i) { return i.provider_id == id; };
      if (id != "custom" && std::none_of(instance_catalog().begin(), instance_catalog().end(), named)) {
        throw_error("filters.providers", "unknown_provider", {{"id", id}});
      }
    }
    s->filters.providers = *v;
  }
  if (auto v = r.string_list("gpus")) {
    for (const auto& id : *v) {
      if (!find_gpu(id)) throw_error("filters.gpus", "unknown_gpu", {{"id", id}});
    }
    s->filters.gpus = *v;
  }
  if (auto v = r.integer("max_gpus", 1, kMaxGpus)) s->filters.max_gpus = *v;
  if (auto v = r.string_list("billing")) {
    const auto& kinds = billing_kinds();
    for (const auto& id : *v) {
      if (std::find(kinds.begin(), kinds.end(), id) == kinds.end())
        throw_error("filters.billing", "unknown_billing", {{"id", id}, {"kinds", kinds}});
    }
    s->filters.billing = *v;
  }
  if (auto v = r.boolean("marketplaces")) s->filters.marketplaces = *v;
  r.reject_unknown();
}

// Sequence split: seq_len = prompt_tokens + output_tokens; any two determine the third.
void parse_lengths(JsonReader& r, Scenario* s) {
  const auto seq = r.integer("seq_len", 1, kMaxSeqLen);
  const auto prompt = r.integer("prompt_tokens", 0, kMaxSeqLen);
  const auto output = r.integer("output_tokens", 0, kMaxSeqLen);
  if (seq) s->seq_len = *seq;
  if (prompt && output) {
    if (seq && *prompt + *output != *seq) {
      throw_error("output_tokens", "tokens_sum",
                  {{"prompt_tokens", *prompt}, {"output_tokens", *output}, {"seq_len", *seq}});
    }
    s->seq_len = *prompt + *output;
  } else if (prompt) {
    if (*prompt > s->seq_len) throw_error("prompt_tokens", "exceeds_seq_len", {{"seq_len", s->seq_len}});
    if (!seq) throw_error("prompt_tokens", "tokens_alone", {{"other", "output_tokens"}});
  } else if (output) {
    if (*output > s->seq_len) throw_error("output_tokens", "exceeds_seq_len", {{"seq_len", s->seq_len}});
    if (!seq) throw_error("output_tokens", "tokens_alone", {{"other", "prompt_tokens"}});
  }
  if (s->seq_len < 1) throw_error("seq_len", "seq_len_min");
  s->prompt_tokens = prompt ? *prompt : (output ? s->seq_len - *output : (s->seq_len + 1) / 2);
  s->output_tokens = s->seq_len - s->prompt_tokens;
}

}  // namespace

nlohmann::json scenario_choices_json() {
  nlohmann::json inference = nlohmann::json::array(), training = nlohmann::json::array();
  for (const auto& e : kEngines) {
    if (is_inference_engine(e.value)) inference.push_back(e.id);
    if (is_training_engine(e.value)) training.push_back(e.id);
  }
  return nlohmann::json({{"tasks", ids_of(kTasks)},
                         {"engines", nlohmann::json({{"inference", inference}, {"training", training}})},
                         {"optimizers", ids_of(kOptimizers)},
                         {"checkpointing", ids_of(kCheckpointing)},
                         {"lora_targets", ids_of(kLoraTargets)},
                         {"zero_stages", {0, 1, 2, 3}},                             // parse_training's range
                         {"currencies", std::vector<std::string>{"USD", "CNY"}}});  // parse_pricing's choice
}

const char* to_string(Task t) { return name_of(kTasks, t); }
const char* to_string(Engine e) { return name_of(kEngines, e); }
const char* to_string(Optimizer o) { return name_of(kOptimizers, o); }
const char* to_string(Checkpointing c) { return name_of(kCheckpointing, c); }
const char* to_string(LoraTargets t) { return name_of(kLoraTargets, t); }
bool is_training(Task t) { return t != Task::Inference; }

Checkpoint preset_checkpoint(const Architecture& a, WeightFormat weights) {
  Checkpoint c;
  c.repo = a.hf_repo;
  if (!a.checkpoint_weights.empty()) parse_weight_format(a.checkpoint_weights, &c.stored);
  if (const PublishedCheckpoint* p = find_published_checkpoint(c.repo)) take_published(*p, &c);
  if (weights == c.stored) return c;
  if (const PublishedCheckpoint* p = published_checkpoint_of(a.id, weights)) {
    c.preset_repo = c.repo;
    take_published(*p, &c);
  }
  return c;
}

Scenario parse_scenario(const nlohmann::json& input) {
  JsonReader r(input, "");
  Scenario s;
  if (r.has("schema") && r.raw("schema") != 1) throw_error("schema", "schema");
  if (!r.has("model")) throw_error("model", "model_required");
  s.model_input = r.raw("model");
  ModelNameMatch name_match;
  s.model = resolve_model(s.model_input, &s.warnings, &name_match);

  if (auto v = r.choice("task", ids_of(kTasks))) s.task = value_of(kTasks, *v);
  const bool training = is_training(s.task);
  s.engine = training ? Engine::Deepspeed : Engine::Vllm;
  if (auto v = r.choice("engine", ids_of(kEngines))) s.engine = value_of(kEngines, *v);
  if (training && !is_training_engine(s.engine)) {
    throw_error("engine", "engine_serving", {{"engine", to_string(s.engine)}});
  }
  if (!training && !is_inference_engine(s.engine)) {
    throw_error("engine", "engine_training", {{"engine", to_string(s.engine)}});
  }
  s.weights = s.task == Task::Qlora ? WeightFormat::Nf4 : WeightFormat::Bf16;
  std::optional<WeightFormat> weights;
  if (auto v = r.choice("weights", weight_format_ids())) {
    WeightFormat w = WeightFormat::Bf16;
    parse_weight_format(*v, &w);
    weights = w;
  }
  resolve_checkpoint(name_match, weights, &s);
  if (weights) {
    s.weights = *weights;
  } else if (!training ? !is_16bit(s.checkpoint.stored)
                       : name_match.has_weights && name_match.weights_token != "checkpoint") {
    // "Qwen/Qwen2.5-72B-Instruct-AWQ": that checkpoint's format; a checkpoint stored in a
    // low-bit format (gpt-oss: mxfp4, DeepSeek-R1: fp8) serves in it, and trains from 16-bit weights.
    s.weights = s.checkpoint.stored;
  }
  if (auto v = r.choice("kv_cache", kv_format_ids())) parse_kv_format(*v, &s.kv_cache);
  if (auto v = r.integer("batch", 1, kMaxBatch)) s.batch = *v;
  parse_lengths(r, &s);
  if (auto v = r.boolean("flash_attention")) s.flash_attention = *v;
  if (auto v = r.string("gpu")) {
    if (!find_gpu(*v)) throw_error("gpu", "unknown_gpu", {{"id", *v}});
    s.gpu = *v;
  }
  if (auto v = r.integer("gpus", 1, kMaxGpus)) {
    s.gpus = *v;
    s.gpus_set = true;
  }
  if (auto v = r.integer("tp", 1, kMaxGpus)) {
    s.tp = *v;
    s.tp_set = true;
  }
  if (auto v = r.integer("pp", 1, kMaxGpus)) {
    s.pp = *v;
    s.pp_set = true;
  }
  if (auto v = r.integer("ep", 1, kMaxGpus)) {
    s.ep = *v;
    s.ep_set = true;
  }
  if (!s.gpus_set && (s.tp_set || s.pp_set)) s.gpus = s.tp * s.pp;    // gpus defaults to one replica
  if (!s.gpus_set && s.ep_set) s.gpus = std::lcm(s.tp, s.ep) * s.pp;  // ... and ep ranks per stage
  s.training.grad_checkpointing =
      (s.task == Task::Lora || s.task == Task::Qlora) ? Checkpointing::Full : Checkpointing::None;
  parse_training(r, &s);
  // PyTorch FSDP shards parameters, gradients and optimizer states unless told otherwise
  // (FullyShardedDataParallel sharding_strategy defaults to FULL_SHARD; FSDP2 fully_shard
  // reshards after forward): ZeRO-3's sharding.
  if (s.engine == Engine::Fsdp && !s.zero_set && training) s.training.zero = 3;
  parse_efficiency(r, &s);
  parse_engine_options(r, &s.engine_options);  // engine_options_parse.cpp
  // The version named, or the newest checked (engine_versions.cpp): its facts fill engine_options.
  apply_engine_version(r.has("engine_version") ? &r.raw("engine_version") : nullptr,
                       r.has("engine_options") ? r.raw("engine_options") : nlohmann::json(), &s);
  if (auto v = r.number("headroom", 0, 0.9, false)) s.headroom = *v;
  parse_pricing(r, &s);
  parse_filters(r, &s);
  parse_load(r, &s);
  if (auto v = r.string("today")) {
    if (!is_iso_day(*v)) throw_error("today", "date");
    s.today = *v;
  }
  r.reject_unknown();
  apply_layout_defaults(s);
  validate_scenario(s);
  return s;
}

// Tokens a pre-training step takes when the input names no accumulation: LLaMA (Touvron et al.
// 2023, arXiv 2302.13971, table 2): a batch of 4M tokens at every size, 6.7B to 65.2B.
constexpr double kPretrainStepTokens = 4.0e6;

void apply_layout_defaults(Scenario& s) {
  if (s.task != Task::Pretrain || s.training.grad_accum_stated) return;
  // The smallest accumulation whose step of batch x dp sequences per micro-step holds the recipe's tokens.
  const double per_micro = static_cast<double>(s.batch) * static_cast<double>(s.seq_len) *
                           static_cast<double>(std::max<int64_t>(s.dp(), 1));
  s.training.grad_accum =
      std::max<int64_t>(1, static_cast<int64_t>(std::ceil(kPretrainStepTokens / per_micro)));
}

bool dp_attention(const Scenario& s) {
  return s.engine_options.dp_attention.value_or(false) && s.model.mla.kv_lora_rank > 0 && s.tp > 1;
}

bool vllm_dp_attention(const Scenario& s) { return s.engine == Engine::Vllm && dp_attention(s); }

int64_t engine_core_sequences(const Scenario& s) {
  if (s.engine_options.max_num_seqs) return *s.engine_options.max_num_seqs;
  return vllm_dp_attention(s) ? (s.batch + s.tp - 1) / s.tp : s.batch;
}

bool tp_splits_attention(const Scenario& s, int64_t tp) {
  const Architecture& m = s.model;
  if (m.heads % tp != 0) return false;
  return !(s.engine == Engine::Megatron && m.kv_heads > 0 && m.mla.kv_lora_rank == 0 && m.kv_heads % tp != 0);
}

void validate_scenario(const Scenario& s) {
  const Architecture& m = s.model;
  if ((s.tp * s.pp) <= 0 || s.gpus % (s.tp * s.pp) != 0) {
    throw_error("tp", "tp_pp_divide_gpus",
                {{"tp", s.tp}, {"pp", s.pp}, {"gpus", s.gpus}, {"tp_pp", s.tp * s.pp}});
  }
  if (m.heads % s.tp != 0) {
    throw_error("tp", "tp_heads", {{"heads", m.heads}});
  }
  if (!tp_splits_attention(s, s.tp)) {
    throw_error("tp", "tp_query_groups", {{"kv_heads", m.kv_heads}, {"tp", s.tp}});
  }
  if (s.pp > m.layers) {
    throw_error("pp", "pp_layers", {{"layers", m.layers}});
  }
  // SGLang's --enable-dp-attention, or vLLM's --data-parallel-size with --enable-expert-parallel at TP 1.
  if (s.engine_options.dp_attention.value_or(false) && s.engine != Engine::Sglang &&
      s.engine != Engine::Vllm) {
    throw_error("engine_options.dp_attention", "dp_attention_engine", {{"engine", to_string(s.engine)}});
  }
  validate_speculative(s);  // engine_options.speculative: serving on vLLM / SGLang (speculative.cpp)
  if (s.ep > 1) {
    // Megatron-LM's expert parallelism (--expert-model-parallel-size): the serving engines place
    // experts over their TP ranks themselves (launch adds --enable-expert-parallel / --ep-size).
    if (s.engine != Engine::Megatron) throw_error("ep", "ep_engine", {{"engine", to_string(s.engine)}});
    if (m.experts == 0) throw_error("ep", "ep_dense");
    if (m.experts % s.ep != 0) throw_error("ep", "ep_experts", {{"experts", m.experts}});
    // Megatron's expert grid (expert TP x ep x pp, expert TP 1) must divide the GPUs.
    if ((s.gpus / s.pp) % s.ep != 0) throw_error("ep", "ep_ranks", {{"ranks", s.gpus / s.pp}});
  }
  if (s.task == Task::Qlora && !is_four_bit(s.weights)) {
    throw_error("weights", "qlora_weights", {{"weights", to_string(s.weights)}});
  }
  if (is_training(s.task) && is_gguf(s.weights)) {
    throw_error("weights", "gguf_training");
  }
  if ((s.task == Task::Full || s.task == Task::Pretrain) && is_quantized(s.weights)) {
    throw_error("weights", "full_weights", {{"weights", to_string(s.weights)}});
  }
  if (is_gguf(s.weights) && s.engine != Engine::LlamaCpp) {
    throw_error("weights", "gguf_engine", {{"engine", to_string(s.engine)}});
  }
  const Training& t = s.training;
  if ((t.offload_optimizer || t.offload_params) && t.zero == 0) {
    throw_error("training.zero", "offload_needs_zero");
  }
  if (t.offload_params && t.zero != 3) {
    throw_error("training.offload_params", "offload_params_zero3");
  }
  if (m.encoder && s.task == Task::Inference && s.output_tokens > 0 && s.prompt_tokens == 0) {
    throw_error("model", "encoder_generates");
  }
}

nlohmann::json scenario_to_json(const Scenario& s) {
  nlohmann::json j;
  j["model"] = s.model_input;
  j["task"] = to_string(s.task);
  j["engine"] = to_string(s.engine);
  j["engine_version"] = s.engine_version;
  j["weights"] = to_string(s.weights);
  j["kv_cache"] = to_string(s.kv_cache);
  j["batch"] = s.batch;
  j["seq_len"] = s.seq_len;
  j["prompt_tokens"] = s.prompt_tokens;
  j["output_tokens"] = s.output_tokens;
  j["flash_attention"] = s.flash_attention;
  if (s.gpu) j["gpu"] = *s.gpu;
  j["gpus"] = s.gpus;
  j["tp"] = s.tp;
  j["pp"] = s.pp;
  if (s.ep > 1) j["ep"] = s.ep;
  if (is_training(s.task)) {
    const Training& t = s.training;
    nlohmann::json tj = nlohmann::json({{"optimizer", to_string(t.optimizer)},
                                        {"master_weights", t.master_weights},
                                        {"grad_checkpointing", to_string(t.grad_checkpointing)},
                                        {"zero", t.zero},
                                        {"offload_optimizer", t.offload_optimizer},
                                        {"offload_params", t.offload_params},
                                        {"grad_accum", t.grad_accum}});
    if (s.task == Task::Lora || s.task == Task::Qlora) {
      tj["lora_rank"] = t.lora_rank;
      tj["lora_targets"] = to_string(t.lora_targets);
    }
    if (t.tokens) tj["tokens"] = *t.tokens;
    j["training"] = tj;
  }
  if (s.efficiency.mfu) j["efficiency"]["mfu"] = *s.efficiency.mfu;
  if (s.efficiency.bandwidth) j["efficiency"]["bandwidth"] = *s.efficiency.bandwidth;
  if (s.efficiency.cuda_graphs) j["efficiency"]["cuda_graphs"] = *s.efficiency.cuda_graphs;
  j["headroom"] = s.headroom;
  const Pricing& p = s.pricing;
  j["pricing"]["currency"] = p.currency;
  if (p.cny_per_usd) j["pricing"]["cny_per_usd"] = *p.cny_per_usd;
  if (!p.overrides.empty()) j["pricing"]["overrides"] = p.overrides;
  for (const Instance& i : p.custom_instances) {
    nlohmann::json c = nlohmann::json({{"provider", i.provider},
                                       {"instance", i.instance},
                                       {"region", i.region},
                                       {"gpu", i.gpu_id},
                                       {"gpus_per_instance", i.gpus},
                                       {"price_per_hour", i.price_per_hour},
                                       {"currency", i.currency}});
    if (i.vcpu > 0) c["vcpu"] = i.vcpu;
    if (i.ram_bytes > 0) c["ram_bytes"] = i.ram_bytes;
    if (i.price_date != "user") c["price_date"] = i.price_date;
    j["pricing"]["custom_instances"].push_back(c);
  }
  if (s.load) {
    j["load"] = nlohmann::json({{"requests_per_s", s.load->requests_per_s}});
    if (s.load->ttft_s) j["load"]["ttft_s"] = *s.load->ttft_s;
    if (s.load->tpot_s) j["load"]["tpot_s"] = *s.load->tpot_s;
  }
  if (s.today) j["today"] = *s.today;
  return j;
}

}  // namespace gpusizer
