// Properties over thousands of random valid scenarios: no NaN or infinity anywhere in an estimate,
// a breakdown that sums to per_gpu_bytes, memory that grows with the workload and shrinks with
// sharding and quantisation, and rankings that are sorted, fit, and agree with `estimate`.
// The generator is seeded, so a failure names a scenario that reproduces on every run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "base/error.h"
#include "plan/estimate.h"
#include "plan/planner.h"

using namespace gpusizer;
using nlohmann::json;

namespace {

constexpr int kScenarios = 10'000;
constexpr int kRankEvery = 40;  // 250 rankings, each plan estimated again

// Draws from std::mt19937_64 directly: its output is fixed by the standard, while the
// std::*_distribution classes differ between libstdc++ (native) and libc++ (emscripten), and the
// same seed should give the same scenarios on both.
struct Gen {
  std::mt19937_64 rng{0x6750'5353'495a'4552};
  int64_t below(int64_t n) { return static_cast<int64_t>(rng() % static_cast<uint64_t>(n)); }
  int64_t between(int64_t lo, int64_t hi) { return lo + below(hi - lo + 1); }
  bool chance(double p) { return static_cast<double>(rng() >> 11) * 0x1p-53 < p; }
  // Small and large sizes about equally often: a random power of two bounds a uniform draw
  // (integers only, so that both platforms draw the same).
  int64_t log_between(int64_t lo, int64_t hi) {
    int octaves = 0;
    while ((int64_t{1} << octaves) < hi - lo + 1) ++octaves;
    return lo + below(std::min(hi - lo + 1, int64_t{1} << below(octaves + 1)));
  }
  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[static_cast<size_t>(below(static_cast<int64_t>(items.size())))];
  }
};

const std::vector<std::string> kServingEngines = {"vllm",         "sglang",       "lmdeploy",
                                                  "tensorrt-llm", "transformers", "llama.cpp"};
const std::vector<std::string> kTrainingEngines = {"deepspeed", "fsdp", "megatron", "transformers"};
const std::vector<std::string> kGgufFormats = {"q8_0",   "q6_k",   "q5_k_m", "q5_k_s", "q5_0",
                                               "q4_k_m", "q4_k_s", "q4_0",   "q3_k_m", "q2_k"};
const std::vector<std::string> kServingFormats = {"fp32", "bf16", "fp16",      "fp8",       "int8",
                                                  "int4", "nf4",  "gptq-int8", "gptq-int4", "awq-int4"};
const std::vector<std::string> kFourBitFormats = {"int4", "nf4", "gptq-int4", "awq-int4"};
const std::vector<std::string> kFullFormats = {"bf16", "fp16", "fp32"};

std::vector<int64_t> divisors_of(int64_t n, const std::vector<int64_t>& candidates) {
  std::vector<int64_t> out;
  for (int64_t c : candidates) {
    if (n % c == 0) out.push_back(c);
  }
  return out;
}

// A random scenario that parse_scenario accepts: every task, engine, weight and KV format, every
// preset (MoE, MLA, encoders included) and now and then a size-only model; valid tp/pp/gpus.
json random_scenario(Gen& g) {
  json s;
  if (g.chance(0.05)) {
    s["model"] = {{"params", static_cast<double>(g.log_between(100'000'000, 1'000'000'000'000))}};
  } else {
    s["model"] = g.pick(model_presets()).id;
  }
  const Architecture arch = parse_scenario(json{{"model", s["model"]}}).model;
  const std::string task = g.pick(std::vector<std::string>{"inference", "full", "lora", "qlora", "pretrain"});
  s["task"] = task;
  const bool training = task != "inference";
  const std::string engine = g.pick(training ? kTrainingEngines : kServingEngines);
  s["engine"] = engine;
  if (task == "inference") {
    s["weights"] = engine == "llama.cpp" && g.chance(0.6) ? g.pick(kGgufFormats) : g.pick(kServingFormats);
  } else if (task == "qlora") {
    s["weights"] = g.pick(kFourBitFormats);
  } else if (task == "lora") {
    s["weights"] = g.pick(kServingFormats);  // LoRA trains over any base but GGUF
  } else {
    s["weights"] = g.pick(kFullFormats);
  }
  s["kv_cache"] = g.pick(std::vector<std::string>{"bf16", "fp16", "fp8", "int8", "int4"});
  s["batch"] = g.log_between(1, 256);
  s["seq_len"] = g.log_between(1, 32768);
  if (!training && g.chance(0.3)) s["prompt_tokens"] = g.between(1, s["seq_len"].get<int64_t>());
  if (g.chance(0.2)) s["flash_attention"] = false;
  if (g.chance(0.5)) s["gpu"] = g.pick(gpu_catalog()).id;
  if (g.chance(0.7)) {
    // Megatron-Core splits the query groups over TP ranks: TP divides the KV heads there too.
    const bool groups = engine == "megatron" && arch.mla.kv_lora_rank == 0 && arch.kv_heads > 0;
    const int64_t tp =
        g.pick(divisors_of(groups ? std::gcd(arch.heads, arch.kv_heads) : arch.heads, {1, 2, 4, 8}));
    std::vector<int64_t> pps;
    for (int64_t p : {1, 2, 3, 4}) {
      if (p <= arch.layers) pps.push_back(p);
    }
    const int64_t pp = g.pick(pps);
    const int64_t dp = g.pick(std::vector<int64_t>{1, 2, 3, 4, 8});
    s["tp"] = tp;
    s["pp"] = pp;
    s["gpus"] = tp * pp * dp;
  }
  if (training) {
    json t;
    t["optimizer"] =
        g.pick(std::vector<std::string>{"adamw", "adamw-8bit", "paged-adamw-8bit", "sgd", "adafactor"});
    t["master_weights"] = g.chance(0.7);
    t["grad_checkpointing"] = g.pick(std::vector<std::string>{"none", "selective", "full"});
    const int zero = static_cast<int>(g.below(4));
    t["zero"] = zero;
    if (zero >= 1 && g.chance(0.2)) t["offload_optimizer"] = true;
    if (zero == 3 && g.chance(0.3)) t["offload_params"] = true;
    if (task == "lora" || task == "qlora") {
      t["lora_rank"] = g.pick(std::vector<int64_t>{1, 4, 8, 16, 64, 256});
      t["lora_targets"] = g.pick(std::vector<std::string>{"all-linear", "attention", "qv"});
    }
    t["grad_accum"] = g.log_between(1, 64);
    if (g.chance(0.5)) t["tokens"] = static_cast<double>(g.log_between(1'000'000, 1'000'000'000'000));
    s["training"] = t;
  }
  if (g.chance(0.1))
    s["efficiency"] = {{"mfu", static_cast<double>(g.between(1, 100)) / 100},
                       {"bandwidth", static_cast<double>(g.between(1, 100)) / 100}};
  return s;
}

// Collects failures per property with the first few scenarios that show them, so that one bug
// gives one readable report instead of thousands of CHECK lines.
struct Failures {
  std::map<std::string, int> count;
  std::map<std::string, std::vector<std::string>> examples;
  void add(const std::string& property, const json& scenario, const std::string& detail) {
    if (++count[property] <= 3) examples[property].push_back(scenario.dump() + "\n    " + detail);
  }
  void report() const {
    for (const auto& [property, n] : count) {
      std::string text = property + ": " + std::to_string(n) + " failing scenarios, e.g.";
      for (const std::string& e : examples.at(property)) text += "\n  " + e;
      FAIL_CHECK(text);
    }
  }
};

// Every number of the JSON is finite (a NaN set into nlohmann::json stays a float NaN until dumped).
bool all_finite(const json& j, std::string* where, const std::string& path = "") {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) {
    *where = path;
    return false;
  }
  if (j.is_null()) {  // JSON's spelling of NaN after a round trip; the core never emits null
    *where = path + " (null)";
    return false;
  }
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!all_finite(*it, where, path + "." + it.key())) return false;
    }
  }
  if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) {
      if (!all_finite(j[i], where, path + "[" + std::to_string(i) + "]")) return false;
    }
  }
  return true;
}

bool close(double a, double b, double rel) {
  return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b));
}

double memory_of(const json& scenario) {
  const Scenario s = parse_scenario(scenario);
  return estimate_memory(s, s.gpu ? find_gpu(*s.gpu) : nullptr).per_gpu_bytes;
}

// a < b by more than rounding: sums that differ only in the order of their terms (a paged
// optimizer's spill caps the total at the card's size, minus and plus) differ in the last bits.
bool less_beyond_rounding(double a, double b) { return a < b * (1 - 1e-12); }

std::string bytes_pair(double a, double b) {
  return nlohmann::json(a).dump() + " then " + nlohmann::json(b).dump();
}

// `larger` is a preset of the same family at least as large in every size the memory model
// reads (so more parameters can only mean more memory). Pairs like Llama-2-13B (MHA) and
// Llama-2-70B (GQA: a smaller KV cache per token) are not ordered and are left out.
bool dominates(const Architecture& larger, const Architecture& smaller) {
  const Architecture& b = larger;
  const Architecture& a = smaller;
  if (b.id == a.id || b.family != a.family || b.encoder != a.encoder || b.mlp != a.mlp) return false;
  if (b.tied_embeddings && !a.tied_embeddings) return false;
  if ((b.experts == 0) != (a.experts == 0) || (b.mla.kv_lora_rank == 0) != (a.mla.kv_lora_rank == 0))
    return false;
  if (b.sliding_window != a.sliding_window) return false;
  // Interleaved dense layers (Llama 4 Maverick) replace MoE layers: not more of everything.
  if (b.experts > 0 && b.dense_layers != a.dense_layers) return false;
  return b.layers >= a.layers && b.hidden >= a.hidden && b.heads * b.head_dim >= a.heads * a.head_dim &&
         b.kv_heads * b.head_dim >= a.kv_heads * a.head_dim && b.head_dim >= a.head_dim &&
         b.intermediate >= a.intermediate && b.vocab >= a.vocab && b.experts >= a.experts &&
         b.experts_per_token >= a.experts_per_token && b.shared_experts >= a.shared_experts &&
         b.expert_intermediate >= a.expert_intermediate && b.dense_layers >= a.dense_layers &&
         b.layers - b.sliding_window_layers >= a.layers - a.sliding_window_layers &&
         b.sliding_window_layers >= a.sliding_window_layers && b.mla.q_lora_rank >= a.mla.q_lora_rank &&
         b.mla.kv_lora_rank >= a.mla.kv_lora_rank && b.mla.qk_rope_head_dim >= a.mla.qk_rope_head_dim &&
         b.mla.qk_nope_head_dim >= a.mla.qk_nope_head_dim && b.mla.v_head_dim >= a.mla.v_head_dim;
}

// Preset id -> the presets that dominate it.
std::map<std::string, std::vector<const Architecture*>> larger_presets() {
  std::map<std::string, std::vector<const Architecture*>> out;
  for (const Architecture& a : model_presets()) {
    for (const Architecture& b : model_presets()) {
      if (dominates(b, a)) out[a.id].push_back(&b);
    }
  }
  return out;
}

// Weight formats ordered by size: the first of each pair needs at least the memory of the second
// to serve the same model the same way.
const std::vector<std::pair<std::string, std::string>> kSmallerFormats = {
    {"fp32", "bf16"},     {"bf16", "fp8"},       {"bf16", "int8"},
    {"int8", "int4"},     {"bf16", "gptq-int8"}, {"gptq-int8", "gptq-int4"},
    {"bf16", "awq-int4"}, {"bf16", "nf4"},       {"bf16", "q8_0"},
    {"q8_0", "q6_k"},     {"q6_k", "q5_k_m"},    {"q5_k_m", "q4_k_m"},
    {"q4_k_m", "q3_k_m"}, {"q3_k_m", "q2_k"}};

bool is_gguf_id(const std::string& f) {
  return std::find(kGgufFormats.begin(), kGgufFormats.end(), f) != kGgufFormats.end();
}

void check_monotone(const json& base, double base_bytes, Gen& g, Failures& f,
                    const std::map<std::string, std::vector<const Architecture*>>& larger) {
  // Batch and sequence length: more work, never less memory.
  json more = base;
  more["batch"] = base["batch"].get<int64_t>() + g.log_between(1, 256);
  const double with_batch = memory_of(more);
  if (less_beyond_rounding(with_batch, base_bytes))
    f.add("memory non-decreasing in batch", base,
          "batch " + more["batch"].dump() + ": " + bytes_pair(base_bytes, with_batch));

  json shorter = base, longer = base;  // the prompt split follows seq_len when not given
  shorter.erase("prompt_tokens");
  longer.erase("prompt_tokens");
  longer["seq_len"] = base["seq_len"].get<int64_t>() + g.log_between(1, 32768);
  const double a = memory_of(shorter), b = memory_of(longer);
  if (less_beyond_rounding(b, a))
    f.add("memory non-decreasing in seq_len", shorter,
          "seq_len " + longer["seq_len"].dump() + ": " + bytes_pair(a, b));

  // Parameters: a larger preset of the same family, under the same layout.
  if (base["model"].is_string()) {
    const auto it = larger.find(base["model"].get<std::string>());
    if (it != larger.end()) {
      const Architecture& big = *g.pick(it->second);
      const int64_t tp = base.value("tp", int64_t{1}), pp = base.value("pp", int64_t{1});
      if (big.heads % tp == 0 && pp <= big.layers) {
        json bigger = base;
        bigger["model"] = big.id;
        const double m = memory_of(bigger);
        if (less_beyond_rounding(m, base_bytes))
          f.add("memory non-decreasing in parameters", base, big.id + ": " + bytes_pair(base_bytes, m));
      }
    }
  }

  const Scenario s = parse_scenario(base);
  // ZeRO at a fixed data-parallel degree above one: each higher stage shards more, so the sharded
  // states (gradients, optimizer) never grow. The total may, by design: the core adds what a
  // stage allocates besides (ZeRO-3's gathered units: a whole 150k-row embedding for a small
  // model), which for a small model or LoRA outweighs the saving. Between stages 0, 1 and 2, which
  // add the same buffers, the total never grows either. Without a card:
  // paged optimizers spill to host by the card's size, which would hide the sharding.
  if (is_training(s.task) && s.dp() > 1 && !s.training.offload_params) {
    json staged = base;
    staged.erase("gpu");
    MemoryBreakdown previous;
    for (int zero = s.training.offload_optimizer ? 1 : 0; zero <= 3; ++zero) {
      staged["training"]["zero"] = zero;
      const MemoryBreakdown m = estimate_memory(parse_scenario(staged), nullptr).breakdown;
      if (zero > (s.training.offload_optimizer ? 1 : 0)) {
        const std::string step = "stage " + std::to_string(zero - 1) + " to " + std::to_string(zero) + ": ";
        if (less_beyond_rounding(previous.gradients + previous.optimizer, m.gradients + m.optimizer)) {
          f.add("sharded states non-increasing in ZeRO stage", staged,
                step + bytes_pair(previous.gradients + previous.optimizer, m.gradients + m.optimizer));
        }
        const bool same_buffers = zero <= 2;
        if (same_buffers && less_beyond_rounding(previous.total(), m.total())) {
          f.add("memory non-increasing in ZeRO stage", staged,
                step + bytes_pair(previous.total(), m.total()));
        }
      }
      previous = m;
    }
  }
  // Weight precision, serving: a smaller format never needs more memory.
  if (s.task == Task::Inference) {
    for (const auto& [big, small] : kSmallerFormats) {
      if (is_gguf_id(small) && s.engine != Engine::LlamaCpp) continue;
      json x = base, y = base;
      x["weights"] = big;
      y["weights"] = small;
      const double mx = memory_of(x), my = memory_of(y);
      if (less_beyond_rounding(mx, my))
        f.add("memory non-increasing with lower weight precision", x, small + ": " + bytes_pair(mx, my));
    }
  }
}

// The ranking's documented order (docs/planner.md, planner.cpp `better`): fitting plans first;
// among them job cost, else cost per million tokens, else price per hour, ties to fewer paid
// GPUs, then the instance name; plans that do not fit closest to fitting first (need / usable),
// then by price per hour, then the instance name.
double cost_key(const Plan& p) {
  if (p.load) return p.load->cost_per_million_tokens;
  if (p.cost) return *p.cost;
  if (p.cost_per_million_tokens) return *p.cost_per_million_tokens;
  return p.price_per_hour;
}
bool ordered(const Plan& q, const Plan& p) {
  if (q.fits != p.fits) return q.fits;
  if (!q.fits) {
    const double rq = q.per_gpu_bytes / q.usable_bytes, rp = p.per_gpu_bytes / p.usable_bytes;
    if (rq != rp) return rq < rp;
    if (q.price_per_hour != p.price_per_hour) return q.price_per_hour < p.price_per_hour;
    return q.instance->instance <= p.instance->instance;
  }
  if (q.load.has_value() != p.load.has_value()) return q.load.has_value();
  if (cost_key(q) != cost_key(p)) return cost_key(q) < cost_key(p);
  const int64_t paid_q = q.instances * q.instance->gpus, paid_p = p.instances * p.instance->gpus;
  if (paid_q != paid_p) return paid_q < paid_p;
  return q.instance->instance <= p.instance->instance;
}

void check_ranking(json scenario, Gen& g, Failures& f) {
  // Mostly let the planner choose the layout; sometimes keep the scenario's own.
  if (g.chance(0.7)) {
    for (const char* key : {"gpu", "gpus", "tp", "pp"}) scenario.erase(key);
  }
  if (g.chance(0.3)) scenario["headroom"] = static_cast<double>(g.between(0, 30)) / 100;
  if (g.chance(0.2)) scenario["filters"] = {{"max_gpus", g.pick(std::vector<int64_t>{1, 2, 8, 64})}};
  const Scenario s = parse_scenario(scenario);
  const std::vector<Plan> plans = rank_plans(s);
  for (size_t i = 0; i < plans.size(); ++i) {
    const Plan& p = plans[i];
    const Gpu& gpu = *find_gpu(p.instance->gpu_id);
    if (i > 0 && !ordered(plans[i - 1], p))
      f.add("rankings sorted", scenario,
            "plan " + std::to_string(i) + " (" + p.instance->instance +
                ") before it: " + plans[i - 1].instance->instance);
    if (p.fits && p.per_gpu_bytes > (1 - s.headroom) * gpu.memory_bytes)
      f.add("fitting plans fit", scenario, p.instance->instance);
    json config = scenario;
    config["gpu"] = gpu.id;
    config["gpus"] = p.gpus;
    config["tp"] = p.tp;
    config["pp"] = p.pp;
    if (p.ep > 1) config["ep"] = p.ep;
    if (is_training(s.task)) config["training"]["zero"] = p.zero;
    double estimated = 0;
    try {
      // A plan's figure is the peak on the card: steady state, or the load of a checkpoint
      // quantized as it loads (memory.h, load_peak_bytes).
      const Scenario t = parse_scenario(config);
      estimated = std::max(estimate(t).memory.per_gpu_bytes, load_peak_bytes(t, &gpu));
    } catch (const InputError& err) {
      f.add("a plan's configuration is a valid scenario", config,
            p.instance->instance + ": " + err.field + ": " + err.what());
      continue;
    }
    if (!close(estimated, p.per_gpu_bytes, 1e-9))
      f.add("estimate agrees with the plan", config,
            p.instance->instance + ": plan " + bytes_pair(p.per_gpu_bytes, estimated));
  }
}

}  // namespace

TEST_CASE("Random valid scenarios: finite, consistent, monotone; rankings sorted and agreeing with estimate",
          "[properties]") {
  const auto larger = larger_presets();
  size_t ordered_pairs = 0;
  for (const auto& [id, list] : larger) ordered_pairs += list.size();
  REQUIRE(ordered_pairs >= 20);  // the parameter property has pairs to compare in most families

  Gen g;
  Failures f;
  for (int i = 0; i < kScenarios; ++i) {
    const json scenario = random_scenario(g);
    Estimate e;
    try {
      e = estimate(parse_scenario(scenario));
    } catch (const InputError& err) {
      f.add("generated scenarios are valid", scenario, err.field + ": " + err.what());
      continue;
    }
    std::string where;
    if (!all_finite(to_json(e), &where)) f.add("no NaN or infinity in the estimate", scenario, where);
    const MemoryBreakdown& b = e.memory.breakdown;
    const double sum = b.weights + b.gradients + b.optimizer + b.activations + b.kv_cache + b.runtime;
    if (!close(sum, e.memory.per_gpu_bytes, 1e-12))
      f.add("breakdown sums to per_gpu_bytes", scenario, bytes_pair(sum, e.memory.per_gpu_bytes));
    check_monotone(scenario, e.memory.per_gpu_bytes, g, f, larger);
    if (i % kRankEvery == 0) {
      check_ranking(scenario, g, f);
    }
  }
  f.report();
}
