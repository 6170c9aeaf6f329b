// The model-size x workload grid, cell by cell from the planner. Each column is a complete
// workload with stated defaults; each cell says the measure it was chosen by and, computed, the
// arithmetic of its weights next to the rule of thumb the popular guides give for it.
#include "plan/table.h"

#include <algorithm>

#include "base/error.h"
#include "base/json_reader.h"
#include "base/messages.h"
#include "catalog/catalog.h"
#include "catalog/checkpoints.h"
#include "model/architecture.h"
#include "model/precision.h"
#include "plan/planner.h"
#include "scenario/scenario.h"

namespace gpusizer {
namespace {

using nlohmann::json;

// Stands in for the model while a column is validated once, before the cells.
constexpr const char* kProbeModel = "qwen2.5-7b";
// Notes speak GB (1e9 bytes) like the guides they compare with.
constexpr double kGB = 1e9;

// Keys that apply to every cell as given: where to buy and how much margin, not the workload.
const char* const kMarketKeys[] = {"pricing", "filters", "headroom", "efficiency", "schema"};
// Keys a column's overrides may set, per kind; the task is the column's identity and the
// layout (gpu, gpus, tp, pp) is the planner's answer.
const char* const kServingKeys[] = {"seq_len",  "batch",   "prompt_tokens", "output_tokens",
                                    "kv_cache", "weights", "engine",        "flash_attention"};
const char* const kTrainingKeys[] = {"seq_len", "batch", "weights", "engine", "flash_attention", "training"};
const char* const kTrainingSubKeys[] = {
    "optimizer",      "master_weights", "grad_checkpointing", "zero",       "offload_optimizer",
    "offload_params", "lora_rank",      "lora_targets",       "grad_accum", "tokens"};

template <size_t N>
bool listed(const char* const (&keys)[N], const std::string& key) {
  return std::find_if(std::begin(keys), std::end(keys), [&](const char* k) { return key == k; }) !=
         std::end(keys);
}

const Workload* find_workload(const std::string& id) {
  for (const Workload& w : table_workloads()) {
    if (w.id == id) return &w;
  }
  return nullptr;
}

std::vector<std::string> column_id_list() {
  std::vector<std::string> ids;
  for (const Workload& w : table_workloads()) ids.push_back(w.id);
  return ids;
}

struct Inputs {
  json market = json::object();
  json context = json::object();
  json columns = json::object();  // column id -> overrides
  std::vector<std::string> models;
};

void check_overrides(const Workload& w, const json& overrides) {
  const std::string at = "columns." + w.id;
  if (!overrides.is_object()) throw_error(at, "column_overrides", {{"type", overrides.type_name()}});
  for (auto it = overrides.begin(); it != overrides.end(); ++it) {
    const bool allowed = w.serving ? listed(kServingKeys, it.key()) : listed(kTrainingKeys, it.key());
    if (!allowed) {
      throw_error(at + "." + it.key(), "column_setting");
    }
    if (it.key() != "training") continue;
    if (!it->is_object()) throw_error(at + ".training", "table_object", {{"type", it->type_name()}});
    for (auto t = it->begin(); t != it->end(); ++t) {
      if (!listed(kTrainingSubKeys, t.key())) throw_error(at + ".training." + t.key(), "column_training_key");
    }
  }
}

Inputs read_inputs(const json& input) {
  if (!input.is_object()) throw_error("input", "table_input", {{"type", input.type_name()}});
  Inputs in;
  for (auto it = input.begin(); it != input.end(); ++it) {
    const std::string& key = it.key();
    if (listed(kMarketKeys, key)) {
      in.market[key] = *it;
    } else if (key == "models" || key == "columns" || key == "context") {
      continue;
    } else {
      // An empty key still gets a visible name, as json_reader.cpp does for scenarios (found by fuzzing).
      throw_error(key.empty() ? "\"\"" : key, "table_key");
    }
  }
  if (input.contains("models")) {
    const json& models = input.at("models");
    if (!models.is_array() || models.empty()) throw_error("models", "table_models");
    for (const json& m : models) {
      if (!m.is_string() || !find_preset(m.get<std::string>())) {
        throw_composed_error("models", "unknown preset id " + m.dump() + " (see `gpusizer models`)",
                             "unknown_model",
                             {{"name", m.is_string() ? m.get<std::string>() : m.dump()},
                              {"suggestions", std::vector<std::string>{}}});
      }
      in.models.push_back(m.get<std::string>());
    }
  } else {
    in.models = table_default_models();
  }
  if (input.contains("context")) {
    const json& c = input.at("context");
    if (!c.is_object()) throw_error("context", "table_object", {{"type", c.type_name()}});
    for (auto it = c.begin(); it != c.end(); ++it) {
      if (it.key() == "training") {
        if (!it->is_object()) throw_error("context.training", "table_object", {{"type", it->type_name()}});
        for (auto t = it->begin(); t != it->end(); ++t) {
          if (t.key() != "tokens") throw_error("context.training." + t.key(), "context_training_key");
        }
      } else if (it.key() != "seq_len") {
        throw_error("context." + it.key(), "context_key");
      }
    }
    in.context = c;
  }
  if (input.contains("columns")) {
    const json& c = input.at("columns");
    if (!c.is_object()) throw_error("columns", "table_object", {{"type", c.type_name()}});
    for (auto it = c.begin(); it != c.end(); ++it) {
      const Workload* w = find_workload(it.key());
      if (!w)
        throw_error("columns." + it.key(), "unknown_column",
                    {{"id", it.key()}, {"columns", column_id_list()}});
      check_overrides(*w, *it);
    }
    in.columns = c;
  }
  return in;
}

// `from`'s keys over `into`'s, the training object key by key.
void merge(json& into, const json& from) {
  for (auto it = from.begin(); it != from.end(); ++it) {
    if (it.key() == "training" && into.contains("training")) {
      for (auto t = it->begin(); t != it->end(); ++t) into["training"][t.key()] = *t;
    } else {
      into[it.key()] = *it;
    }
  }
}

enum class Layers { Defaults, Context, Overrides };

json column_scenario(const Inputs& in, const Workload& w, const std::string& model, Layers upto) {
  json j = w.defaults;
  if (upto != Layers::Defaults) {
    if (in.context.contains("seq_len")) j["seq_len"] = in.context["seq_len"];
    if (!w.serving && in.context.contains("training")) {
      for (auto t = in.context["training"].begin(); t != in.context["training"].end(); ++t)
        j["training"][t.key()] = *t;
    }
  }
  if (upto == Layers::Overrides && in.columns.contains(w.id)) {
    merge(j, in.columns[w.id]);
  }
  merge(j, in.market);
  // Among the providers' own data centres unless the user opens the marketplaces (issue 28: 37
  // of 55 default cells had landed on RunPod community pods).
  if (!j.contains("filters") || !j["filters"].contains("marketplaces")) j["filters"]["marketplaces"] = false;
  j["model"] = model;
  return j;
}

// Parses the column's scenario (with the probe model). When that fails, the layers are parsed
// one by one so the error names the one it comes from: the market keys as given,
// "context.<field>" or "columns.<id>.<field>".
Scenario parse_column(const Inputs& in, const Workload& w) {
  try {
    return parse_scenario(column_scenario(in, w, kProbeModel, Layers::Overrides));
  } catch (const InputError& e) {
    parse_scenario(column_scenario(in, w, kProbeModel, Layers::Defaults));
    try {
      parse_scenario(column_scenario(in, w, kProbeModel, Layers::Context));
    } catch (const InputError& c) {
      throw InputError("context." + c.field, c.what(), c.code, c.values);
    }
    throw InputError("columns." + w.id + "." + e.field, e.what(), e.code, e.values);
  }
}

// The rule of thumb a popular guide gives for this workload, as bytes for the whole job; false
// when no guide covers it.
struct Seed {
  std::string source, rule;
  double bytes = 0;
};

bool seed_rule(const Scenario& s, double params, double weights_bytes, Seed* out) {
  const double x = params / 1e9;  // the guides' "x": billions of parameters
  // LLaMA-Factory README "Hardware Requirement" (estimated), hiyouga/LLaMA-Factory: Full
  // bf16/fp16 AMP 18x GB, Full pure_bf16 8x GB, LoRA 16-bit 2x GB, QLoRA 4-bit x/2 GB.
  const std::string lf = "LLaMA-Factory's table";
  if (s.task == Task::Inference) {
    // EleutherAI "Transformer Math 101" (Anthony, Biderman, Schoelkopf 2023): inference needs
    // about 1.2 x the model's memory.
    *out = {"EleutherAI's Transformer Math", "1.2 x weights", 1.2 * weights_bytes};
  } else if (s.task == Task::Lora && !is_quantized(s.weights)) {
    *out = {lf, "2x GB", 2 * x * kGB};
  } else if (s.task == Task::Qlora && is_four_bit(s.weights)) {
    *out = {lf, "x/2 GB", x / 2 * kGB};
  } else if (s.task == Task::Full && s.training.optimizer == Optimizer::Adamw &&
             !s.training.offload_optimizer) {
    *out = s.training.master_weights ? Seed{lf, "18x GB", 18 * x * kGB}
                                     : Seed{lf, "8x GB (pure_bf16)", 8 * x * kGB};
  } else {
    return false;
  }
  return true;
}

// The arithmetic behind a cell, computed: weights (and KV cache when serving), what the plan
// holds over its GPUs, and the guide's rule with whether it covers that. Figures only: the page
// words them (web/views/lookup.js), e.g. "weights nf4: 68.98e9 x 0.527 B = 36.4 GB".
json note_of(const Scenario& s, const Plan& p) {
  const double params = count_params(s.model).total;
  const double weights = weight_bytes(s.model, s.weights).total();
  const double plan_bytes = p.per_gpu_bytes * static_cast<double>(p.gpus);
  json n = json::object();
  n["params"] = params;
  n["weights"] = to_string(s.weights);
  n["weights_bytes"] = weights;
  n["bytes_per_param"] = weights / params;
  n["gpus"] = p.gpus;
  n["plan_bytes"] = plan_bytes;
  if (s.task == Task::Inference) {
    const double per_token = kv_bytes_per_token(s.model, s.kv_cache);
    n["kv_bytes_per_token"] = per_token;
    n["kv_cache_bytes"] = per_token * static_cast<double>(s.batch * s.seq_len);
  }
  Seed seed;
  if (seed_rule(s, params, weights, &seed)) {
    const char* verdict = seed.bytes < weights      ? "below_weights"
                          : seed.bytes < plan_bytes ? "below_plan"
                                                    : "covers";
    json& j = n["seed"];
    j["source"] = seed.source;
    j["rule"] = seed.rule;
    j["bytes"] = seed.bytes;
    j["verdict"] = verdict;
  }
  return n;
}

// The measure the ranking ordered by (planner.cpp: job cost, else cost per million output
// tokens, else price per hour), taken from the same plan fields.
json measure_of(const Plan& p) {
  json m = json::object();  // assignments, not initializer lists: smaller in wasm
  m["kind"] = p.cost ? "job_cost" : p.cost_per_million_tokens ? "cost_per_million_tokens" : "price_per_hour";
  m["value"] = p.cost ? *p.cost : p.cost_per_million_tokens ? *p.cost_per_million_tokens : p.price_per_hour;
  m["currency"] = p.currency;
  return m;
}

// One cell: the column's parsed scenario with the row's model in place of the probe (no second
// parse: the column's keys were validated once; validate_scenario checks what the model changes).
json cell(const Scenario& column, const std::string& model, const std::string& workload) {
  json c = json::object();
  c["workload"] = workload;
  try {
    Scenario s = column;
    s.model = *find_preset(model);
    // A serving column serves a model released only in a low-bit format (DeepSeek-V3 and Kimi K2:
    // fp8, gpt-oss: MXFP4) as released where no checkpoint of it is published in the column's
    // format (no 16-bit DeepSeek-V3, no AWQ gpt-oss): there is none to serve.
    const std::optional<WeightFormat> released = low_bit_release(s.model);
    if (s.task == Task::Inference && released && *released != s.weights &&
        !published_checkpoint_of(model, s.weights)) {
      s.weights = *released;
      c["as_released"] = to_string(*released);
    }
    // A bf16 cell runs on cards that compute in bf16, not on one that would run it in fp16.
    if ((s.weights == WeightFormat::Bf16 || is_training(s.task)) && s.filters.gpus.empty()) {
      for (const Gpu& g : gpu_catalog())
        if (g.supports_bf16) s.filters.gpus.push_back(g.id);
    }
    s.checkpoint = preset_checkpoint(s.model, s.weights);
    s.model_input = model;
    validate_scenario(s);
    const std::optional<Plan> best = best_plan(s);
    if (!best) {
      c["fits"] = false;
      c["reason"] = message_text("no_instance", json::object());
      c["reason_code"] = "no_instance";
      return c;
    }
    const Plan& p = *best;
    c["fits"] = p.fits;
    c["per_gpu_bytes"] = p.per_gpu_bytes;
    c["gpus"] = p.gpus;
    c["gpu"] = p.instance->gpu_id;
    if (const Gpu* g = find_gpu(p.instance->gpu_id)) c["memory_bytes"] = g->memory_bytes;
    c["plan"] = to_json(p);
    if (p.fits)
      c["measure"] = measure_of(p);
    else {
      c["reason"] = message_text("none_fits", json::object(), {{"closest", p.reason}});
      c["reason_code"] = "none_fits";
    }
    c["note"] = note_of(s, p);
  } catch (const InputError& e) {
    c["error"] = error_json(e.field, e.what(), e.code, e.values);
  }
  return c;
}

// The measure a column's cells are chosen by, from its scenario.
std::string column_measure(const Scenario& s) {
  if (is_training(s.task)) return s.training.tokens ? "job_cost" : "price_per_hour";
  return s.output_tokens > 0 ? "cost_per_million_tokens" : "price_per_hour";
}

// The column's settings as the page shows them: its defaults with the context and its edits
// (a valid scenario less the model), and the prompt/output split the parser derived.
json shown_settings(const Inputs& in, const Workload& w, const Scenario& s) {
  json j = column_scenario(in, w, kProbeModel, Layers::Overrides);
  for (const char* key : kMarketKeys) j.erase(key);
  j.erase("model");
  if (w.serving) {
    j["prompt_tokens"] = s.prompt_tokens;
    j["output_tokens"] = s.output_tokens;
  }
  return j;
}

}  // namespace

// Column defaults as JSON text, parsed once: smaller in wasm than nested initializer lists.
// Serving load: 16 concurrent sequences of 4,096 tokens, split half prompt, half output (the
// contract's default split). 4,096 is Llama 2's whole context (max_position_embeddings), so every
// default row serves it without rope scaling; 16 sequences is a stated load (a small shared
// service), not a sizing constant: edit it to yours.
// Training: hiyouga/LLaMA-Factory@13d252fa examples/train_lora/llama3_lora_sft.yaml:
// per_device_train_batch_size 1, cutoff_len 2048, lora_rank 8, lora_target all; gradient
// checkpointing on (LLaMA-Factory and ms-swift turn it on by default). The full fine-tune is
// bf16 AdamW under DeepSpeed with the fp32 master weights it keeps (16 bytes per parameter of
// model states: ZeRO, arXiv 1910.02054 section 3.1), as its launch runs it; the planner picks the
// ZeRO stage (none on one GPU). The job of every training column is 10^8 tokens, about one epoch of
// Stanford Alpaca's 52,002 examples packed at the 2,048-token cutoff: a stated job, not a sizing
// constant; the cells are ordered by its cost (GPU-hours x price), which its size does not change.
constexpr const char* kWorkloads = R"json([
 ["serve-bf16", "Serving, BF16 (vLLM)", true,
  {"task": "inference", "engine": "vllm", "weights": "bf16", "batch": 16, "seq_len": 4096, "kv_cache": "bf16"}],
 ["serve-int4", "Serving, INT4 AWQ (vLLM)", true,
  {"task": "inference", "engine": "vllm", "weights": "awq-int4", "batch": 16, "seq_len": 4096, "kv_cache": "bf16"}],
 ["lora-bf16", "LoRA, BF16 base", false,
  {"task": "lora", "engine": "deepspeed", "weights": "bf16", "batch": 1, "seq_len": 2048,
   "training": {"optimizer": "adamw", "master_weights": true, "grad_checkpointing": "full", "lora_rank": 8, "lora_targets": "all-linear", "tokens": 1e8}}],
 ["qlora-nf4", "QLoRA, NF4 base", false,
  {"task": "qlora", "engine": "deepspeed", "weights": "nf4", "batch": 1, "seq_len": 2048,
   "training": {"optimizer": "adamw", "master_weights": true, "grad_checkpointing": "full", "lora_rank": 8, "lora_targets": "all-linear", "tokens": 1e8}}],
 ["full-zero3", "Full fine-tune, BF16 AdamW, DeepSpeed ZeRO", false,
  {"task": "full", "engine": "deepspeed", "weights": "bf16", "batch": 1, "seq_len": 2048,
   "training": {"optimizer": "adamw", "master_weights": true, "grad_checkpointing": "full", "tokens": 1e8}}]
])json";

const std::vector<Workload>& table_workloads() {
  static const std::vector<Workload> workloads = [] {
    std::vector<Workload> out;
    for (const json& w : parse_json(kWorkloads)) {
      out.push_back({w[0].get<std::string>(), w[1].get<std::string>(), w[2].get<bool>(), w[3]});
    }
    return out;
  }();
  return workloads;
}

json table_settings_json() {
  json serving = json::array(), training = json::array();
  for (const char* key : kServingKeys) serving.push_back(key);
  for (const char* key : kTrainingKeys) {
    if (std::string(key) != "training") training.push_back(key);
  }
  for (const char* key : kTrainingSubKeys) training.push_back(std::string("training.") + key);
  return nlohmann::json({{"serving", serving}, {"training", training}});
}

const std::vector<std::string>& table_default_models() {
  // The guides' question (7B, 13B, 70B: Llama 2), the Qwen2.5 ladder, MoE and the largest. Eleven
  // rows, as many as the table had before the Llama 2 rows: the full table stays within its time
  // budget (docs/planner.md); `models` asks for others.
  static const std::vector<std::string> models = {
      "qwen2.5-0.5b", "llama-2-7b",    "qwen2.5-7b",      "llama-2-13b",    "qwen2.5-32b", "llama-2-70b",
      "qwen2.5-72b",  "qwen3-30b-a3b", "qwen3-235b-a22b", "llama-3.1-405b", "deepseek-v3"};
  return models;
}

json table_cell_scenario(const json& input, const std::string& model, const std::string& column) {
  const Inputs in = read_inputs(input);
  const Workload* w = find_workload(column);
  if (!w) throw_error("column", "unknown_column_id", {{"id", column}, {"columns", column_id_list()}});
  parse_column(in, *w);
  return column_scenario(in, *w, model, Layers::Overrides);
}

json table_json(const json& input) {
  const Inputs in = read_inputs(input);
  std::vector<Scenario> parsed;
  json columns = json::array();
  for (const Workload& w : table_workloads()) {
    parsed.push_back(parse_column(in, w));
    json col = json::object();
    col["id"] = w.id;
    col["label"] = w.label;
    col["kind"] = w.serving ? "serving" : "training";
    col["measure"] = column_measure(parsed.back());
    col["defaults"] = w.defaults;
    col["settings"] = shown_settings(in, w, parsed.back());
    col["overrides"] = in.columns.contains(w.id) ? in.columns[w.id] : json::object();
    columns.push_back(std::move(col));
  }
  json rows = json::array();
  for (const std::string& model : in.models) {
    json cells = json::array();
    for (size_t i = 0; i < parsed.size(); ++i) {
      json c = cell(parsed[i], model, table_workloads()[i].id);
      if (c.contains("plan")) {  // the scenario this cell ranked, laid out as its plan: the page loads it
        json s = column_scenario(in, table_workloads()[i], model, Layers::Overrides);
        const json& p = c["plan"];
        s["gpu"] = c["gpu"];
        if (c.contains("as_released")) s["weights"] = c["as_released"];
        for (const char* key : {"gpus", "tp", "pp"}) s[key] = p[key];
        if (p.contains("ep")) s["ep"] = p["ep"];
        if (p.value("dp_attention", false)) s["engine_options"]["dp_attention"] = true;
        if (!table_workloads()[i].serving) s["training"]["zero"] = p["zero"];
        c["scenario"] = std::move(s);
      }
      cells.push_back(std::move(c));
    }
    const Architecture& arch = *find_preset(model);
    const ParamCounts p = count_params(arch);
    json row = json::object();
    row["model"] = model;
    row["name"] = arch.name;
    row["params"] = p.total;
    row["active_params"] = p.active;
    row["cells"] = std::move(cells);
    rows.push_back(std::move(row));
  }
  json out = json::object();
  out["context"] = in.context;
  out["columns"] = std::move(columns);
  out["rows"] = std::move(rows);
  return out;
}

}  // namespace gpusizer
