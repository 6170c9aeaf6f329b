// The `launch` command: picks the plan, applies it to the scenario, and gathers the serving or
// training commands of launch_serving.cpp / launch_training.cpp with their notes and warnings.
#include "launch/launch.h"
#include "base/format.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "base/error.h"
#include "base/json_reader.h"
#include "base/messages.h"
#include "launch/launch_internal.h"
#include "plan/planner.h"
#include "scenario/engine_versions.h"

namespace gpusizer {

// Versions whose documentation (or source) the flag names were read from; docs/launch.md cites
// the pages. A flag renamed in a later release is a bug to fix here and there.
const char* const kVllmVersion = "vLLM 0.11";
const char* const kSglangVersion = "SGLang 0.5";
const char* const kLmdeployVersion = "LMDeploy 0.10.2";
const char* const kTrtllmVersion = "TensorRT-LLM 1.0";
const char* const kLlamaCppVersion = "llama.cpp server, 2026 master";
const char* const kSwiftVersion = "ms-swift 3.9";
const char* const kLlamaFactoryVersion = "LLaMA-Factory 0.9.3";
const char* const kDeepspeedVersion = "DeepSpeed 0.17";
const char* const kTorchrunVersion = "PyTorch 2.8 torchrun";
const char* const kMegatronVersion = "Megatron-LM core_v0.15.3";

const char* const kNodeRank = "$NODE_RANK";
const char* const kMasterAddr = "$MASTER_ADDR";
const char* const kMasterPort = "29500";  // torchrun's and DeepSpeed's default rendezvous port

namespace {

constexpr int64_t kMaxPlanSize = 1000000;  // the scenario's own bound on gpus, tp and pp
// Without a plan, a scenario's GPUs beyond one server are assumed to come as 8-GPU nodes, the
// size of every multi-GPU training server in the catalog.
constexpr int64_t kAssumedNodeGpus = 8;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

LaunchPlan plan_of(const Scenario& s, const Plan& p) {
  return {p.instance->gpu_id,
          p.instance->instance,
          "ranking",
          p.instance->gpus,
          p.instances,
          p.gpus,
          p.tp,
          p.pp,
          p.zero,
          p.load ? p.load->concurrency_per_replica : 0,
          p.ep,
          p.dp_attention,
          s.zero_set};  // the planner keeps a stated stage
}

// The ranking is sorted fitting-first, cheapest-first, so the first row of a type is its best plan.
LaunchPlan catalog_plan(const Scenario& s, const std::string& instance) {
  for (const Plan& p : rank_plans(s)) {
    if (p.instance->instance == instance) return plan_of(s, p);
  }
  throw_error("plan.instance", "no_plan_for_instance", {{"instance", instance}});
}

LaunchContext make_context(const Scenario& s, const LaunchPlan& plan);

// The cheapest fitting plan the commands can launch; when cheaper ones cannot be launched (a
// layout their engine does not run), `note` says which and why.
LaunchPlan cheapest_plan(const Scenario& s, Warning* note) {
  const std::vector<Plan> plans = rank_plans(s);
  if (plans.empty() || !plans.front().fits) {
    throw_error("plan", "no_fitting_plan");
  }
  for (const Plan& p : plans) {
    if (!p.fits) break;
    const LaunchPlan candidate = plan_of(s, p);
    if (!launch_blocker(make_context(s, candidate)).empty()) continue;
    if (&p != &plans.front()) {
      const Plan& top = plans.front();
      nlohmann::json why;
      const std::string blocker = launch_blocker(make_context(s, plan_of(s, top)), &why);
      note->code = "cheapest_not_launchable";
      note->values = nlohmann::json({{"instance", top.instance->instance},
                                     {"gpus", top.gpus},
                                     {"tp", top.tp},
                                     {"pp", top.pp},
                                     {"instances", top.instances},
                                     {"reason", blocker},
                                     {"why", why}});
      note->message =
          cat({"the cheapest plan, ", top.instance->instance, " (", top.gpus, " GPUs, tp ", top.tp, ", pp ",
               top.pp, ", ", top.instances, " instances), cannot be launched: ", blocker,
               "; these commands are for the cheapest plan that can"});
    }
    return candidate;
  }
  return plan_of(s, plans.front());  // none can be launched: the cheapest, with the warning that says why
}

LaunchPlan explicit_plan(const Scenario& s, const nlohmann::json& j) {
  JsonReader r(j, "plan");
  const std::optional<std::string> gpu = r.string("gpu");
  if (!gpu) throw_error("plan.gpu", "plan_gpu_required");
  if (!find_gpu(*gpu)) throw_error("plan.gpu", "plan_unknown_gpu", {{"id", *gpu}});
  LaunchPlan p;
  p.gpu = *gpu;
  p.source = "explicit";
  p.tp = r.integer("tp", 1, kMaxPlanSize).value_or(s.tp);
  p.pp = r.integer("pp", 1, kMaxPlanSize).value_or(s.pp);
  p.zero_stated = r.has("zero") || s.zero_set;
  p.zero = static_cast<int>(r.integer("zero", 0, 3).value_or(s.training.zero));
  p.ep = r.integer("ep", 1, kMaxPlanSize).value_or(s.ep);
  p.dp_attention = r.boolean("dp_attention").value_or(false);
  p.instances = r.integer("instances", 1, kMaxPlanSize).value_or(1);
  const int64_t wanted = std::max(s.gpus, p.tp * p.pp);
  p.gpus_per_instance =
      r.integer("gpus_per_instance", 1, kMaxPlanSize).value_or(ceil_div(wanted, p.instances));
  r.reject_unknown();
  p.gpus = p.gpus_per_instance * p.instances;
  return p;
}

LaunchPlan scenario_plan(const Scenario& s) {
  LaunchPlan p{*s.gpu, "", "scenario", s.gpus, 1, s.gpus, s.tp, s.pp, s.training.zero, 0, s.ep};
  p.zero_stated = s.zero_set;
  if (s.gpus > kAssumedNodeGpus && s.gpus % kAssumedNodeGpus == 0) {
    p.gpus_per_instance = kAssumedNodeGpus;
    p.instances = s.gpus / kAssumedNodeGpus;
  }
  return p;
}

// "plan": {"instance"} picks a ranked plan (extra keys of a ranking row are ignored: they come
// from the same ranking); otherwise an explicit layout; no plan: the scenario's gpu or the cheapest.
LaunchPlan resolve_plan(const Scenario& s, const nlohmann::json& plan, Warning* note) {
  if (!plan.is_null()) {
    require_object(plan, "plan");
    if (!plan.contains("instance")) return explicit_plan(s, plan);
    if (!plan["instance"].is_string())
      throw_error("plan.instance", "plan_instance_string", {{"type", plan["instance"].type_name()}});
    return catalog_plan(s, plan["instance"].get<std::string>());
  }
  return s.gpu ? scenario_plan(s) : cheapest_plan(s, note);
}

LaunchContext make_context(const Scenario& s, const LaunchPlan& plan) {
  LaunchContext c;
  c.s = s;
  c.s.gpu = plan.gpu;
  c.s.gpus = plan.gpus;
  c.s.tp = plan.tp;
  c.s.pp = plan.pp;
  c.s.training.zero = plan.zero;
  c.s.ep = plan.ep;
  if (plan.dp_attention) c.s.engine_options.dp_attention = true;  // the plan was sized with it
  // A load plan runs each replica at the concurrency its capacity was computed for.
  if (plan.concurrency > 0) c.s.batch = plan.concurrency;
  apply_layout_defaults(c.s);
  validate_scenario(c.s);
  c.gpu = find_gpu(plan.gpu);
  c.plan = plan;
  c.caps = engine_caps(c.s.engine);
  c.estimate = estimate(c.s);
  c.fp16 = !c.gpu->supports_bf16 || c.s.weights == WeightFormat::Fp16;
  // The checkpoint the scenario names, as written (scenario.h, Checkpoint).
  c.model = c.s.checkpoint.repo.empty() ? "/path/to/model" : c.s.checkpoint.repo;
  c.facts = model_launch_facts(c.s.model.id);
  c.nproc_per_node = ceil_div(plan.gpus, plan.instances);  // exact unless launch_blocker says otherwise
  return c;
}

void add_plan_warnings(const LaunchContext& c, Launch& out) {
  out.warnings = c.estimate.warnings;
  const bool wants_bf16 = c.s.weights != WeightFormat::Fp16 && c.s.weights != WeightFormat::Fp32;
  if (!c.gpu->supports_bf16 && wants_bf16) {
    out.warnings.push_back(message_warning("launch_fp16", "gpu", {{"gpu", c.gpu->name}}));
  }
  if (c.estimate.gpu && !c.estimate.gpu->fits) {
    const MemoryBreakdown& b = c.estimate.memory.breakdown;
    const double fixed_bytes = b.weights + b.draft_weights + b.activations + b.runtime;
    const double usable = c.estimate.gpu->usable_bytes;
    // Engines that give their KV cache a share of the memory left at start-up and queue the
    // requests beyond it: vLLM (--gpu-memory-utilization), SGLang (--mem-fraction-static), LMDeploy
    // TurboMind (--cache-max-entry-count of the free memory), TensorRT-LLM
    // (kv_cache_free_gpu_memory_fraction).
    const bool preallocates =
        !is_training(c.s.task) && (c.s.engine == Engine::Vllm || c.s.engine == Engine::Sglang ||
                                   c.s.engine == Engine::Lmdeploy || c.s.engine == Engine::TensorrtLlm);
    const auto gib1 = [](double bytes) { return fixed(bytes / 1073741824.0, 1); };
    if (preallocates && fixed_bytes > usable) {
      out.warnings.push_back(
          message_warning("launch_cannot_start", "plan",
                          {{"static_bytes", fixed_bytes},
                           {"usable_bytes", usable},
                           {"gpu", c.gpu->name},
                           {"engine", to_string(c.s.engine)}},
                          {{"static", gib1(fixed_bytes)}, {"usable", gib1(usable)}, {"gpu_id", c.gpu->id}}));
    } else {
      out.warnings.push_back(message_warning("launch_does_not_fit", "plan",
                                             {{"per_gpu_bytes", c.estimate.memory.per_gpu_bytes},
                                              {"usable_bytes", usable},
                                              {"memory_bytes", c.gpu->memory_bytes},
                                              {"gpu", c.gpu->name},
                                              {"engine", to_string(c.s.engine)},
                                              {"static_bytes", fixed_bytes},
                                              {"preallocates", preallocates}},
                                             {{"per_gpu", gib1(c.estimate.memory.per_gpu_bytes)},
                                              {"usable", gib1(usable)},
                                              {"memory", gib1(c.gpu->memory_bytes)},
                                              {"gpu_id", c.gpu->id},
                                              {"static", gib1(fixed_bytes)}}));
    }
  }
}

// The engines whose commands here carry a model card's YaRN override: vLLM (--hf-overrides),
// SGLang (--json-model-override-args) and llama.cpp (--rope-scaling yarn).
bool takes_rope_override(const LaunchContext& c) {
  return !is_training(c.s.task) &&
         (c.s.engine == Engine::Vllm || c.s.engine == Engine::Sglang || c.s.engine == Engine::LlamaCpp);
}

// Weight formats and vendors the serving engines cannot load at all (their docs, launch_serving*.cpp).
std::string engine_format_reason(const LaunchContext& c) {
  const WeightFormat w = c.s.weights;
  const bool bnb = w == WeightFormat::Nf4 || w == WeightFormat::Int4;
  switch (c.s.engine) {
    case Engine::LlamaCpp:
      if (is_gguf(w) || w == WeightFormat::Bf16 || w == WeightFormat::Fp16 || w == WeightFormat::Fp32)
        return "";
      return cat({"llama.cpp loads GGUF files: ", to_string(w),
                  " checkpoints cannot be loaded (use a GGUF k-quant)"});
    case Engine::Lmdeploy:
      if (c.gpu->vendor != "nvidia") return "LMDeploy's TurboMind runs on NVIDIA GPUs only";
      if (bnb || w == WeightFormat::Int8 || w == WeightFormat::GptqInt8) {
        return cat({"LMDeploy's TurboMind (0.10.2) loads 16-bit, fp8 and 4-bit AWQ/GPTQ checkpoints, not ",
                    to_string(w)});
      }
      return "";
    case Engine::TensorrtLlm:
      if (c.gpu->vendor != "nvidia") return "TensorRT-LLM runs on NVIDIA GPUs only";
      if (bnb) return cat({"TensorRT-LLM has no bitsandbytes ", to_string(w), " weights"});
      // It loads fp8, AWQ, GPTQ and int8 weights from NVIDIA Model Optimizer checkpoints (the
      // nvidia/ organisation on the Hub) and quantizes nothing on load (its quantization guide).
      if ((w == WeightFormat::Fp8 || w == WeightFormat::Int8 || pre_quantized(w)) &&
          (c.s.checkpoint.stored != w || c.s.checkpoint.repo.rfind("nvidia/", 0) != 0)) {
        return cat(
            {"TensorRT-LLM 1.0 loads ", to_string(w),
             " weights only from a checkpoint quantized with NVIDIA Model Optimizer (nvidia/ on the Hub); ",
             c.s.checkpoint.repo.empty() ? std::string("this checkpoint") : c.s.checkpoint.repo, " stores ",
             to_string(c.s.checkpoint.stored), ": serve it with vLLM or SGLang"});
      }
      return "";
    case Engine::Vllm:
      if (vllm_refuses_float16(c.s.model) && (!c.gpu->supports_bf16 || w == WeightFormat::Fp16)) {
        return cat({"vLLM refuses float16 for ", c.s.model.family,
                    " models (numerical instability: its config/model.py), and ",
                    c.gpu->supports_bf16 ? std::string("the weights are fp16") : c.gpu->name + " has no bf16",
                    ": serve it in bf16 on a card that has it, or with llama.cpp"});
      }
      return "";
    default:
      return "";
  }
}

}  // namespace

bool vllm_refuses_float16(const Architecture& a) {
  // vllm/config/model.py _FLOAT16_NOT_SUPPORTED_MODELS: "Numerical instability. Please use
  // bfloat16 or float32 instead."
  static const char* const kNoFloat16[] = {"gemma2", "gemma3", "gemma3_text", "plamo2", "glm4"};
  return std::any_of(std::begin(kNoFloat16), std::end(kNoFloat16),
                     [&](const char* t) { return a.family == t; });
}

std::string launch_blocker(const LaunchContext& c, nlohmann::json* detail) {
  const LaunchPlan& p = c.plan;
  nlohmann::json ignored;
  nlohmann::json& d = detail ? *detail : ignored;
  d = nlohmann::json({{"engine", to_string(c.s.engine)},
                      {"gpus", p.gpus},
                      {"instances", p.instances},
                      {"tp", p.tp},
                      {"pp", p.pp},
                      {"zero", p.zero}});
  // The English of blocker `code`, filled from those of the values above its entry names.
  const auto blocker = [&d](const char* code) {
    d["code"] = code;
    const Message& m = message(code);
    nlohmann::json values = nlohmann::json::object();
    for (const std::string& f : message_fields(m)) {
      if (d.contains(f)) values[f] = d[f];
    }
    return message_text(m, values);
  };
  if (is_training(c.s.task) && (p.tp > 1 || p.pp > 1 || p.ep > 1) && !megatron_pretrain(c) &&
      !megatron_finetune(c)) {
    return blocker("training_data_parallel");
  }
  if (p.gpus % p.instances != 0) {
    return blocker("uneven_nodes");
  }
  if (p.tp > 1 && !c.caps.tensor_parallel) {
    return blocker("no_tp");
  }
  if (p.pp > 1 && !c.caps.pipeline_parallel) {
    return blocker("no_pp");
  }
  // Independent servers on separate instances need no multi-node support; one replica over several does.
  const bool spans = is_training(c.s.task) ? c.multi_node() : c.spans_nodes();
  if (spans && !c.caps.multi_node) {
    return blocker("single_machine");
  }
  if (is_training(c.s.task) && p.zero > 0 && !c.caps.zero) {
    return blocker("no_zero");
  }
  if (!is_training(c.s.task) && !engine_format_reason(c).empty()) {
    d["code"] = "engine_format";  // composed: the reason is the engine's own
    d["weights"] = to_string(c.s.weights);
    return engine_format_reason(c);
  }
  if (c.beyond_window() && !(c.yarn() && takes_rope_override(c))) {
    if (c.facts && c.facts->rope_scaling) {
      d["factor"] = c.facts->rope_scaling->factor;
      d["original"] = c.facts->rope_scaling->original_max_positions;
    }
    d["seq_len"] = c.s.seq_len;
    d["positions"] = c.s.model.max_positions;
    d["model"] = c.s.model.name;
    return blocker("context_beyond_window");
  }
  if (!is_training(c.s.task) && c.spans_nodes() && c.dp() > 1) {
    return blocker("replicas_across_nodes");
  }
  return "";
}

KvCapacity kv_capacity(const LaunchContext& c, double budget_bytes) {
  KvCapacity k;
  k.budget_bytes = std::max(0.0, budget_bytes);
  const MemoryEstimate& m = c.estimate.memory;
  // A speculative draft's KV cache grows with the target's, sequence by sequence.
  if (m.breakdown.kv_cache > 0 && c.s.batch > 0)
    k.per_sequence_bytes =
        (m.breakdown.kv_cache + m.breakdown.draft_kv_cache) / static_cast<double>(c.s.batch);
  if (k.per_sequence_bytes > 0)
    k.sequences = static_cast<int64_t>(std::floor(k.budget_bytes / k.per_sequence_bytes + 1e-9));
  return k;
}

void add_note(Launch& out, const char* code, nlohmann::json values, const nlohmann::json& text) {
  add_note(out, message_warning(code, "", std::move(values), text));
}

void add_command(Launch& out, const char* tool, const char* version, const char* kind, const char* filename,
                 std::string text) noexcept {
  out.commands.push_back({tool, version, kind, filename, std::move(text)});
}

void add_note(Launch& out, const Warning& note) noexcept {
  out.notes.push_back(note.message);
  out.note_details.push_back(note);
}

Warning kv_capacity_note(const LaunchContext& c, const std::string& engine, const std::string& setting,
                         const KvCapacity& k) noexcept {
  nlohmann::json text = nlohmann::json::object();
  if (c.dp() > 1) text["total"] = k.sequences * c.dp();
  return message_warning("kv_capacity", "",
                         {{"engine", engine},
                          {"setting", setting},
                          {"budget_bytes", k.budget_bytes},
                          {"sequences", k.sequences},
                          {"seq_len", c.s.seq_len},
                          {"replicas", c.dp()},
                          {"batch", c.s.batch},
                          {"per_sequence_bytes", k.per_sequence_bytes}},
                         text);
}

void warn_if_short(const LaunchContext& c, const std::string& setting, const KvCapacity& k,
                   Launch& out) noexcept {
  if (k.per_sequence_bytes <= 0 || k.sequences >= c.s.batch) return;
  out.warnings.push_back(message_warning(
      "launch_kv_short", "batch",
      {{"setting", setting}, {"sequences", k.sequences}, {"seq_len", c.s.seq_len}, {"batch", c.s.batch}}));
}

void Piece::append_to(std::string& out) const noexcept {
  if (n_ == kInteger) {
    out += std::to_string(i_);
  } else if (n_ == kLiteral) {
    out += p_;
  } else {
    out.append(p_, n_);
  }
}

std::string cat(std::initializer_list<Piece> pieces) noexcept {
  std::string out;
  for (const Piece& p : pieces) p.append_to(out);
  return out;
}

Flags& Flags::add(const char* name, Piece value) noexcept {
  text_ += " \\\n  ";
  text_ += name;
  std::string v;
  value.append_to(v);
  if (!v.empty()) {
    text_ += ' ';
    text_ += v;
  }
  return *this;
}

std::string shell_command(const std::string& head, const Flags& flags) noexcept {
  return cat({head, flags.text(), "\n"});
}

std::string fixed2(double value) noexcept { return fixed(value, 2); }

std::string rope_scaling_json(const RopeScaling& r) {
  return nlohmann::json({{"rope_type", r.type},
                         {"factor", r.factor},
                         {"original_max_position_embeddings", r.original_max_positions}})
      .dump();
}

std::string percent_text(double share) noexcept { return std::to_string(std::lround(share * 100)); }

std::string gib_text(double bytes) noexcept { return fixed(bytes / 1073741824.0, 1) + " GiB"; }

std::string devices_env(int64_t n) noexcept {
  std::string env = "CUDA_VISIBLE_DEVICES=";
  for (int64_t i = 0; i < n; ++i) {
    if (i) env += ',';
    env += std::to_string(i);
  }
  return env + " ";
}

std::string replica_devices(const LaunchContext& c) noexcept {
  if (c.node_dp() <= 1) return visible_devices(c);
  return devices_env(c.plan.tp * c.plan.pp);
}

std::string modelscope_env(const LaunchContext& c, const char* var) noexcept {
  return c.s.checkpoint.modelscope ? cat({var, "=true "}) : std::string();
}

void add_swift_hub(const LaunchContext& c, Flags& f) noexcept {
  if (!c.s.checkpoint.repo.empty() && !c.s.checkpoint.modelscope) f.add("--use_hf", "true");
}

std::string visible_devices(const LaunchContext& c) noexcept {
  if (c.nproc_per_node >= c.plan.gpus_per_instance) return "";
  return devices_env(c.nproc_per_node);
}

std::string dtype_name(const LaunchContext& c) noexcept { return c.fp16 ? "float16" : "bfloat16"; }

Launch make_launch(const Scenario& s, const LaunchPlan& plan) {
  const LaunchContext c = make_context(s, plan);
  Launch out;
  out.plan = plan;
  out.dtype = dtype_name(c);
  add_plan_warnings(c, out);
  nlohmann::json why;
  const std::string blocker = launch_blocker(c, &why);
  if (!blocker.empty()) {
    // No command rather than a wrong one: the plan itself cannot run as laid out.
    const bool training_parallel = is_training(c.s.task) && (plan.tp > 1 || plan.pp > 1);
    if (training_parallel) {
      out.warnings.push_back(message_warning("launch_parallelism_unsupported", "plan",
                                             {{"tp", plan.tp}, {"pp", plan.pp}, {"gpus", plan.gpus}}));
    } else {
      out.warnings.push_back(
          message_warning("launch_plan_invalid", "plan", {{"reason", blocker}, {"why", why}}));
    }
    return out;
  }
  if (is_training(c.s.task)) {
    add_training(c, out);
  } else {
    add_serving(c, out);
  }
  if (c.s.checkpoint.repo.empty() && c.s.checkpoint.preset_repo.empty()) add_note(out, "path_model");
  if (!c.s.engine_version.empty() && c.s.engine_version != default_engine_version(c.s.engine).version) {
    add_note(out, "version_not_launch_checked",
             {{"engine", to_string(c.s.engine)},
              {"version", c.s.engine_version},
              {"checked", default_engine_version(c.s.engine).version}});
  }
  if (plan.source == "scenario" && plan.instances > 1) {
    add_note(out, "nodes_assumed",
             {{"gpus", plan.gpus}, {"instances", plan.instances}, {"per_instance", plan.gpus_per_instance}});
  }
  return out;
}

nlohmann::json launch_json(const nlohmann::json& input) {
  require_object(input, "input");
  // The page sends {"scenario": {...}, "plan": {...}}; the CLI a scenario with a "plan" key.
  // "scenario" is no scenario key, so the two shapes cannot be confused.
  nlohmann::json scenario = input.contains("scenario") ? input["scenario"] : input;
  const nlohmann::json plan = input.contains("plan") ? input["plan"] : nlohmann::json();
  if (scenario.is_object()) scenario.erase("plan");  // parse_scenario rejects unknown keys
  // Without a plan, a stated gpu is launched at the scenario's layout: the planner's where it
  // chooses one (with_planned_layout, as `estimate` sizes it).
  const Scenario parsed = parse_scenario(scenario);
  const Scenario s = plan.is_null() ? with_planned_layout(parsed) : parsed;
  Warning note;
  const LaunchPlan chosen = resolve_plan(s, plan, &note);
  Launch l = make_launch(s, chosen);
  if (!note.message.empty()) {
    // The plan's note ahead of the generators' notes: appended to a new list (an insert at the
    // front instantiated vector::insert of a string and of a Warning for this one use).
    Launch first;
    add_note(first, note);
    const Launch& made = l;
    first.notes.insert(first.notes.end(), made.notes.begin(), made.notes.end());
    first.note_details.insert(first.note_details.end(), made.note_details.begin(), made.note_details.end());
    l.notes = std::move(first.notes);
    l.note_details = std::move(first.note_details);
  }
  return to_json(l);
}

nlohmann::json to_json(const Launch& l) {
  nlohmann::json commands = nlohmann::json::array();
  for (const LaunchText& t : l.commands) {
    nlohmann::json c = nlohmann::json(
        {{"tool", t.tool}, {"version_checked", t.version_checked}, {"kind", t.kind}, {"text", t.text}});
    if (!t.filename.empty()) c["filename"] = t.filename;
    commands.push_back(c);
  }
  nlohmann::json warnings = nlohmann::json::array();
  nlohmann::json details = nlohmann::json::array();
  for (const Warning& w : l.warnings) {
    warnings.push_back(w.message);
    details.push_back(to_json(w));
  }
  const LaunchPlan& p = l.plan;
  nlohmann::json plan = nlohmann::json({{"gpu", p.gpu},
                                        {"gpus_per_instance", p.gpus_per_instance},
                                        {"instances", p.instances},
                                        {"gpus", p.gpus},
                                        {"tp", p.tp},
                                        {"pp", p.pp},
                                        {"dp", p.gpus / (p.tp * p.pp)},
                                        {"source", p.source},
                                        {"zero", p.zero},
                                        {"dtype", l.dtype}});
  if (p.ep > 1) plan["ep"] = p.ep;
  if (p.dp_attention) plan["dp_attention"] = true;
  if (!p.instance.empty()) plan["instance"] = p.instance;
  if (p.concurrency > 0) plan["concurrency_per_replica"] = p.concurrency;
  nlohmann::json notes = nlohmann::json::array();
  for (const Warning& n : l.note_details) {
    nlohmann::json j = nlohmann::json({{"code", n.code}, {"message", n.message}});
    if (!n.values.empty()) j["values"] = n.values;
    notes.push_back(j);
  }
  return nlohmann::json({{"plan", plan},
                         {"commands", commands},
                         {"notes", l.notes},
                         {"note_details", notes},
                         {"warnings", warnings},
                         {"warning_details", details}});
}

}  // namespace gpusizer
