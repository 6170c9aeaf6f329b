// The planner: per instance type, the cheapest configuration that fits and that an engineer could
// launch there; then the ranking. docs/planner.md gives the rules and their sources.
//
// Every candidate is built from the caller's scenario, which is never changed: what the scenario
// sets (gpus, tp, pp, training.zero, engine, filters) is read from it alone and kept in every plan.
#include "plan/planner.h"

#include "base/error.h"
#include "base/format.h"
#include "base/messages.h"
#include "plan/estimate.h"
#include "scenario/engines.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

#include "memory/memory.h"

namespace gpusizer {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// Largest deployment searched without a max_gpus filter: 1024 GPUs (full fine-tuning of
// DeepSeek-V3, 671B parameters at 16 bytes each, needs about 150 cards of 80 GB).
constexpr int64_t kMaxSearchGpus = 1024;
// ZeRO-3 moves 3x the parameters every step (ZeRO paper, section 7); the seeds' rule of thumb
// (peers.md) and DeepSpeed's multi-node tutorials ask for at least 100 Gbit/s between nodes.
constexpr double kZeroNetworkGbps = 100;
// A layout spans instances only over a cluster network of at least this much: the seeds' rule for
// multi-node ZeRO (peers.md), and vLLM's distributed-serving docs ask for a fast interconnect
// (InfiniBand-class) between nodes; an expert rejects pipelines and ZeRO over 10-25 Gbit/s VM NICs.
constexpr double kSpanMinGbps = 100;
// A price older than this is flagged: cloud GPU prices move within a year.
constexpr int kStalePriceDays = 365;
// "What it takes" assumes nodes of 8 GPUs, the size of every HGX/DGX/OAM board in the catalog.
constexpr int64_t kNodeGpus = 8;
// The largest concurrency the load search tries when the engine sets no limit (SGLang, llama.cpp
// slots): vLLM's default max_num_seqs of 256 times 4.
constexpr int64_t kMaxLoadBatch = 1024;

struct Config {
  int64_t tp = 1, pp = 1;
  int zero = 0;
  int64_t gpus = 1;
  bool dp_attention = false;  // DP attention (SGLang, vLLM), where the planner chooses it
};

using ConfigKey = std::tuple<int64_t, int64_t, int, int64_t, bool>;
ConfigKey key_of(const Config& c) { return {c.tp, c.pp, c.zero, c.gpus, c.dp_attention}; }

// Where a layout may run: GPUs per instance and whether several instances can form one cluster.
struct Shape {
  int64_t per_instance = 1;
  bool can_span = false;
  bool operator<(const Shape& o) const {
    return std::tie(per_instance, can_span) < std::tie(o.per_instance, o.can_span);
  }
};

// Memory is evaluated once per configuration without a card and reused for every GPU type:
// the card enters the estimate only through runtime_bytes() (planner_test checks this), except
// for paged optimizers (per_gpu_bytes).
struct Search {
  const Scenario& s;  // the caller's scenario: every constraint is read from here
  Scenario base;      // the same, without the model as given (which can be megabytes of config.json)
  Scenario scratch;   // base with one candidate's layout applied (at())
  ModelCosts costs;
  EngineCaps caps;
  int64_t max_gpus = kMaxSearchGpus;
  std::map<ConfigKey, double> memory_less_runtime;
  std::map<std::tuple<const Gpu*, ConfigKey, double, double, int64_t, bool>, Throughput> speed;
  std::map<std::tuple<const Gpu*, Shape>, std::vector<Config>> layouts;
  std::map<std::pair<const Gpu*, ConfigKey>, int64_t> max_batch;

  explicit Search(const Scenario& in) : s(in), base(in) {
    base.model_input = nullptr;
    base.pricing.custom_instances.clear();
    scratch = base;
    costs = model_costs(in);
    caps = engine_caps(in.engine);
    max_gpus = in.filters.max_gpus.value_or(kMaxSearchGpus);
  }
};

// The scenario of one candidate layout: the input with the layout applied. One scratch copy is
// reused (a copy per candidate was most of the planner's time in wasm); every call sets all four
// layout fields, so the result never depends on an earlier candidate, and constraints are only
// ever read from the input `z.s`. Use the result at once: the next call overwrites it.
// Expert-parallel degree of a layout: the scenario's when it set one; for Megatron-LM training of
// an MoE model the widest power of two dividing both a pipeline stage's GPUs and the routed experts
// (each doubling halves the experts a rank holds: docs/planner.md "Expert parallelism"); 1
// otherwise (serving engines place experts over their TP ranks).
bool auto_expert_parallel(const Search& z) {
  return !z.s.ep_set && z.s.engine == Engine::Megatron && z.s.model.experts > 0 && is_training(z.s.task);
}

int64_t expert_parallel(const Search& z, const Config& c) {
  if (z.s.ep_set) return z.s.ep;
  if (!auto_expert_parallel(z)) return 1;
  const int64_t ranks = c.gpus / c.pp;
  int64_t ep = 1;
  while (ranks % (ep * 2) == 0 && z.s.model.experts % (ep * 2) == 0) ep *= 2;
  return ep;
}

// Whether the planner weighs DP attention (docs/planner.md "DP attention"): serving an MLA model on
// SGLang or vLLM with the option unset; the scenario's own setting is kept otherwise.
bool auto_dp_attention(const Search& z) {
  return !z.s.engine_options.dp_attention && (z.s.engine == Engine::Sglang || z.s.engine == Engine::Vllm) &&
         !is_training(z.s.task) && z.s.model.mla.kv_lora_rank > 0;
}

const Scenario& at(Search& z, const Config& c) {
  z.scratch.tp = c.tp;
  z.scratch.pp = c.pp;
  z.scratch.gpus = c.gpus;
  z.scratch.training.zero = c.zero;
  z.scratch.ep = expert_parallel(z, c);
  if (auto_dp_attention(z)) z.scratch.engine_options.dp_attention = c.dp_attention;
  apply_layout_defaults(z.scratch);
  return z.scratch;
}

double per_gpu_bytes(Search& z, const Config& c, const Gpu& gpu) {
  // Paged optimizer states spill to host RAM when the card is full (memory_training.cpp), so
  // there the card shapes more than runtime_bytes(): estimate per card, as `estimate` does.
  if (is_training(z.s.task) && z.s.training.optimizer == Optimizer::PagedAdamw8bit) {
    return estimate_memory(at(z, c), &gpu).per_gpu_bytes;
  }
  auto it = z.memory_less_runtime.find(key_of(c));
  if (it == z.memory_less_runtime.end()) {
    const Scenario& t = at(z, c);
    const double bytes = estimate_memory(t, nullptr).per_gpu_bytes - runtime_bytes(t, nullptr);
    it = z.memory_less_runtime.emplace(key_of(c), bytes).first;
  }
  return std::max(it->second + runtime_bytes(z.base, &gpu), load_peak_bytes(at(z, c), &gpu));
}

bool fits(Search& z, const Config& c, const Gpu& gpu) {
  return per_gpu_bytes(z, c, gpu) <= usable_bytes(z.s, gpu);
}

const Throughput& throughput_of(Search& z, const Config& c, const Gpu& gpu, const Links& links) {
  const auto key = std::make_tuple(&gpu, key_of(c), links.intra_bytes_per_s, links.inter_bytes_per_s,
                                   links.gpus_per_node, links.rdma);
  auto it = z.speed.find(key);
  if (it == z.speed.end())
    it = z.speed.emplace(key, estimate_throughput(at(z, c), gpu, z.costs, links)).first;
  return it->second;
}

// Smallest n in [lo, hi] with ok(n), for ok monotone (false ... true); hi + 1 if none.
template <typename Ok>
int64_t first_true(int64_t lo, int64_t hi, Ok ok) {
  if (lo > hi || !ok(hi)) return hi + 1;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (ok(mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

// Fewest units n in [1, hi] (pipeline stages, instances) whose layout at(n) fits; hi + 1 if none.
// Beyond one unit, memory per GPU is a + b / n (the sharded part shrinks; the rest, communication
// buffers included, stays), so n = 2 and 4 predict n and one evaluation confirms that it fits;
// a wrong guess falls back to bisection.
template <typename At>
int64_t fewest_fitting(Search& z, const Gpu& gpu, int64_t hi, At layout) {
  const double cap = usable_bytes(z.s, gpu);
  auto ok = [&](int64_t n) { return per_gpu_bytes(z, layout(n), gpu) <= cap; };
  if (hi < 1) return 1;
  if (ok(1)) return 1;
  if (hi < 4) return first_true(2, hi, ok);
  const double m2 = per_gpu_bytes(z, layout(2), gpu), m4 = per_gpu_bytes(z, layout(4), gpu);
  const double b = 4 * (m2 - m4), a = m4 - b / 4;
  const double guess_units = cap > a && b > 0 ? std::ceil(b / (cap - a)) : static_cast<double>(hi);
  const int64_t guess = static_cast<int64_t>(std::clamp(guess_units, 2.0, static_cast<double>(hi)));
  if (!ok(guess)) return first_true(guess + 1, hi, ok);
  return guess == 2 || !ok(guess - 1) ? guess : first_true(2, guess - 1, ok);
}

// Tensor-parallel degrees inside one node of `per_node` GPUs: powers of two up to it (and the GPU
// count itself) over which the engine splits the attention (tp_splits_attention), where the engine
// does TP; the scenario's tp when it set one.
std::vector<int64_t> tp_choices(const Search& z, int64_t per_node) {
  if (z.s.tp_set) return {z.s.tp};
  if (!z.caps.tensor_parallel) return {1};
  auto splits = [&](int64_t t) { return tp_splits_attention(z.s, t); };
  std::vector<int64_t> out;
  for (int64_t t = 1; t <= per_node; t *= 2) {
    if (splits(t)) out.push_back(t);
  }
  if (splits(per_node) && out.back() != per_node) out.push_back(per_node);
  return out;
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Whether a serving replica at tensor parallelism `tp` may add pipeline stages: on cards linked by
// NVLink/xGMI only at the node's widest TP, the stages then spanning nodes (vLLM's distributed
// serving guide: the tensor parallel size is the GPUs of a node, the pipeline parallel size the
// nodes); PCIe-only cards and engines without TP split layers inside a node too. A scenario that
// sets tp or pp keeps its layout.
bool serving_pipeline_allowed(const Search& z, const Gpu& gpu, int64_t tp, int64_t widest_tp) {
  if (z.s.tp_set || z.s.pp_set || !z.caps.tensor_parallel) return true;
  return gpu.interconnect_bytes_per_s <= 0 || tp == widest_tp;
}

// Instances a layout occupies: replicas pack into an instance when they fit in it; a replica
// larger than an instance takes whole instances of its own.
int64_t instances_for(const Config& c, int64_t per_instance) {
  const int64_t replica = c.tp * c.pp;
  const int64_t replicas = c.gpus / replica;
  if (replica <= per_instance) return ceil_div(replicas, per_instance / replica);
  return replicas * ceil_div(replica, per_instance);
}

// Whether a layout's traffic crosses instances: a serving replica larger than an instance, or a
// training job's data-parallel group over more than one instance.
bool spans(const Search& z, const Config& c, int64_t per_instance) {
  return is_training(z.s.task) ? c.gpus > per_instance : c.tp * c.pp > per_instance;
}

// Serving: tp inside the instance, then the fewest pipeline stages that fit (across instances only
// where the shape can span and the engine runs across machines); the scenario's gpus, when set,
// adds data-parallel replicas.
std::vector<Config> serving_configs(Search& z, const Gpu& gpu, const Shape& shape) {
  const Scenario& s = z.s;
  std::vector<Config> out;
  const std::vector<int64_t> tps = tp_choices(z, shape.per_instance);
  for (const int64_t tp : tps) {
    if (tp > shape.per_instance) continue;  // tensor parallelism stays inside an instance
    const int64_t node_stages = std::max<int64_t>(1, shape.per_instance / tp);
    int64_t max_pp = shape.can_span ? z.max_gpus / tp : node_stages;
    if (!z.caps.pipeline_parallel || !serving_pipeline_allowed(z, gpu, tp, tps.back())) max_pp = 1;
    max_pp = std::min<int64_t>(max_pp, s.model.layers);
    if (max_pp < 1) continue;
    int64_t pp = s.pp;
    if (!s.pp_set) {
      pp = std::min(max_pp, fewest_fitting(z, gpu, max_pp, [&](int64_t p) {
                      return Config{tp, p, 0, tp * p};
                    }));
      // With a GPU count set, the replica must divide it: the next stage count that does.
      while (s.gpus_set && s.gpus % (tp * pp) != 0 && pp < max_pp) ++pp;
    }
    const int64_t gpus = s.gpus_set ? s.gpus : tp * pp;
    const Config c{tp, pp, 0, gpus};
    if (gpus % (tp * pp) != 0 || gpus > z.max_gpus) continue;
    if (spans(z, c, shape.per_instance) && !shape.can_span) continue;
    out.push_back(c);
    // At a load, a replica with twice the stages holds the weights once over twice the GPUs and
    // leaves the rest to KV cache: where the load is KV-bound one such replica can carry what
    // several of the smallest would (review reject: DeepSeek-V3 on H20 at 1 request/s, four TP8
    // replicas at 10 sequences each where one TP8 x PP2 over two nodes holds 160 for half the price).
    // plan_load prices both; the ranking keeps the cheaper.
    const Config wider{tp, 2 * pp, 0, 2 * tp * pp};
    if (s.load && !s.pp_set && !s.gpus_set && wider.pp <= max_pp && wider.gpus <= z.max_gpus &&
        (!spans(z, wider, shape.per_instance) || shape.can_span))
      out.push_back(wider);
    // The same replica with DP attention (SGLang's, or vLLM's DP x EP at TP 1): each rank keeps only its own
    // requests' latents (more sequences fit) and reads the whole attention weights (slower at a few
    // sequences); the ranking keeps whichever serves cheaper. Without pipeline stages, as SGLang's guides run
    // it: one replica of tp GPUs, which may fit where TP attention needed stages.
    if (auto_dp_attention(z) && tp > 1 && s.pp == 1) {
      const Config d{tp, 1, 0, s.gpus_set ? s.gpus : tp, true};
      if (d.gpus % tp == 0 && d.gpus <= z.max_gpus && (!spans(z, d, shape.per_instance) || shape.can_span))
        out.push_back(d);
    }
  }
  return out;
}

// ZeRO stage with the most sharding the engine and the layout allow: ZeRO-3, or ZeRO-1 with
// pipeline stages (DeepSpeed combines neither 2 nor 3 with pipelines); the scenario's stage if set.
int widest_zero(const Search& z) {
  if (z.s.zero_set) return z.s.training.zero;
  if (!z.caps.zero) return 0;
  // Megatron-LM's only sharding of model states is its distributed optimizer (ZeRO-1).
  if (z.s.engine == Engine::Megatron) return 1;
  return z.s.pp > 1 ? 1 : 3;
}

// The lowest ZeRO stage that still fits at this size (less communication), unless the scenario set one.
int lowest_zero(Search& z, const Gpu& gpu, const Config& c) {
  const int widest = widest_zero(z);
  const bool sharded = c.gpus > c.tp * c.pp;  // ZeRO stages differ only with data parallelism
  if (z.s.zero_set) return widest;
  if (!sharded) return 0;
  // Megatron's distributed optimizer moves what data parallelism's all-reduce moves (a
  // reduce-scatter and an all-gather: docs/source/api-guide/dist_optimizer.md): no cheaper stage.
  if (z.s.engine == Engine::Megatron) return widest;
  for (int lower = 0; lower < widest; ++lower) {
    if (fits(z, {c.tp, c.pp, lower, c.gpus}, gpu)) return lower;
  }
  return widest;
}

// Training: the fewest whole instances that fit with the most sharding, then the lowest ZeRO stage
// that still fits at that size. Several instances only where the shape can span.
std::vector<Config> training_configs(Search& z, const Gpu& gpu, const Shape& shape) {
  const Scenario& s = z.s;
  const int widest = widest_zero(z);
  std::vector<Config> out;
  // Every TP degree inside the instance: on a small hidden size TP over the whole node costs more
  // in all-reduces than data parallelism over its halves (review reject: Llama-3.1-8B pre-training on
  // 8 H100s at TP8, where TP4 x DP2 trains 14 % faster by the same model).
  const std::vector<int64_t> tps = tp_choices(z, shape.per_instance);
  for (const int64_t tp : tps) {
    if (tp > shape.per_instance) continue;
    const int64_t replica = std::lcm(tp, s.ep) * s.pp;  // with ep set, ep ranks per stage at least
    int64_t gpus = s.gpus;
    if (!s.gpus_set) {
      // Instances come in steps whose GPUs are a multiple of the replica.
      const int64_t step_gpus = shape.per_instance * (replica / std::gcd(shape.per_instance, replica));
      int64_t max_steps = z.max_gpus / step_gpus;
      if (!shape.can_span) max_steps = std::min<int64_t>(max_steps, step_gpus <= shape.per_instance ? 1 : 0);
      if (max_steps < 1) continue;
      int64_t steps = 0;
      if (auto_expert_parallel(z)) {
        // The expert-parallel degree follows the power of two in dp, so memory falls with the
        // doublings of the instance count, not with each instance: try those.
        int64_t k = 1;
        while (k < max_steps && !fits(z, {tp, s.pp, widest, k * step_gpus}, gpu)) k *= 2;
        steps = std::min(k, max_steps);
      } else {
        steps = fewest_fitting(z, gpu, max_steps, [&](int64_t k) {
          return Config{tp, s.pp, widest, k * step_gpus};
        });
      }
      gpus = std::min(steps, max_steps) * step_gpus;
    }
    Config c{tp, s.pp, widest, gpus};
    if (gpus % replica != 0 || gpus > z.max_gpus) continue;
    if (spans(z, c, shape.per_instance) && !shape.can_span) continue;
    c.zero = lowest_zero(z, gpu, c);
    out.push_back(c);
    if (gpus <= shape.per_instance && tp == 1 && fits(z, c, gpu))
      break;  // one instance without TP: nothing cheaper
  }
  return out;
}

const std::vector<Config>& layouts(Search& z, const Gpu& gpu, const Shape& shape) {
  const auto key = std::make_tuple(&gpu, shape);
  auto it = z.layouts.find(key);
  if (it == z.layouts.end()) {
    it = z.layouts
             .emplace(key, is_training(z.s.task) ? training_configs(z, gpu, shape)
                                                 : serving_configs(z, gpu, shape))
             .first;
  }
  return it->second;
}

// ---- prices, links, warnings ------------------------------------------------------------------

// Days since 0000-03-01 of a civil date (H. Hinnant's days_from_civil), for price ages.
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe;
}

// Digits of text[from, from + n) as a number; -1 if any is not a digit. (No scanf: it would pull
// the C library's formatted input into the wasm module.)
int digits(const std::string& text, size_t from, size_t n) {
  int v = 0;
  for (size_t i = from; i < from + n; ++i) {
    if (i >= text.size() || text[i] < '0' || text[i] > '9') return -1;
    v = v * 10 + (text[i] - '0');
  }
  return v;
}

// "YYYY-MM-DD" or "YYYY-MM" (first of the month); nullopt for anything else ("snapshot date not shown").
std::optional<int64_t> parse_day(const std::string& text) {
  if (text.size() != 7 && text.size() != 10) return std::nullopt;
  if (text[4] != '-' || (text.size() == 10 && text[7] != '-')) return std::nullopt;
  const int y = digits(text, 0, 4), m = digits(text, 5, 2), d = text.size() == 10 ? digits(text, 8, 2) : 1;
  if (y < 1990 || m < 1 || m > 12 || d < 1 || d > 31) return std::nullopt;
  return days_from_civil(y, m, d);
}

std::optional<int64_t> price_age_days(const Scenario& s, const Instance& i) {
  if (!s.today) return std::nullopt;
  const auto today = parse_day(*s.today), priced = parse_day(i.price_date);
  if (!today || !priced) return std::nullopt;
  return *today - *priced;
}

bool can_span(const Search& z, const Instance& i) {
  return i.cluster && i.network_gbps >= kSpanMinGbps && z.caps.multi_node;
}

Links links_of(const Instance& i, const Gpu& gpu) {
  return instance_links(gpu, i.gpus, i.gpu_link_bytes_per_s, i.network_gbps, !i.rdma.empty());
}

PlanLinks plan_links(const Search& z, const Instance& i, const Config& c) {
  PlanLinks l;
  const int64_t used_in_one = std::min<int64_t>(c.gpus, i.gpus);
  if (used_in_one > 1 && (c.tp * c.pp > 1 || is_training(z.s.task))) {
    l.inside = i.gpu_link;
    l.inside_bytes_per_s = i.gpu_link_bytes_per_s;
  }
  l.spans_instances = spans(z, c, i.gpus);
  if (l.spans_instances) {
    l.between = i.rdma.empty() ? "tcp" : i.rdma;
    l.between_gbps = i.network_gbps;
  }
  return l;
}

void add_plan_warnings(const Search& z, Plan& p) {
  const Instance& i = *p.instance;
  if (p.links.spans_instances && i.rdma.empty()) {
    p.warnings.push_back(message_warning("no_rdma", "gpus",
                                         {{"instances", p.instances}, {"gbps", i.network_gbps}},
                                         {{"network", fixed(i.network_gbps, 0)}}));
  }
  if (p.links.spans_instances && is_training(z.s.task) && i.network_gbps < kZeroNetworkGbps) {
    p.warnings.push_back(
        message_warning("slow_network", "training.zero",
                        {{"zero", p.zero}, {"gbps", i.network_gbps}, {"min_gbps", kZeroNetworkGbps}},
                        {{"network", fixed(i.network_gbps, 0)}, {"min", fixed(kZeroNetworkGbps, 0)}}));
  }
  if (const auto age = price_age_days(z.s, i); age && *age > kStalePriceDays) {
    p.warnings.push_back(
        message_warning("price_stale", "pricing.overrides",
                        {{"instance", i.instance}, {"date", i.price_date}, {"months", *age / 30}}));
  }
}

void price_plan(const Scenario& s, Plan& p) {
  const Throughput& t = *p.throughput;
  if (is_training(s.task)) {
    if (!s.training.tokens || t.train_tokens_per_s <= 0) return;
    p.hours = *s.training.tokens / t.train_tokens_per_s / 3600;
    p.cost = p.price_per_hour * *p.hours;
  } else if (t.generation_tokens_per_s > 0) {
    p.cost_per_million_tokens = p.price_per_hour / (t.generation_tokens_per_s * 3600) * 1e6;
  }
}

// ---- serving at a load --------------------------------------------------------------------------

// Largest concurrency of one replica that fits the card (memory is monotone in the batch).
int64_t max_replica_batch(Search& z, const Config& c, const Gpu& gpu) {
  const auto key = std::make_pair(&gpu, key_of(c));
  auto it = z.max_batch.find(key);
  if (it != z.max_batch.end()) return it->second;
  Scenario t = at(z, c);
  t.gpus = c.tp * c.pp;
  const double cap = usable_bytes(z.s, gpu);
  const int64_t limit = z.caps.max_batch > 0 ? z.caps.max_batch : kMaxLoadBatch;
  auto ok = [&](int64_t b) {
    t.batch = b;
    const MemoryEstimate m = estimate_memory(t, &gpu);
    if (m.per_gpu_bytes > cap) return false;
    // vLLM's KV cache at its default (or the stated) utilization: the server its launch starts.
    if (t.engine != Engine::Vllm) return true;
    const auto e = launched_engine_budget(t, &gpu, m, std::nullopt);
    return !e || server_sequences(t, *e) >= b;
  };
  const int64_t first_bad = first_true(1, limit, [&](int64_t b) { return !ok(b); });
  const int64_t best = first_bad - 1;  // 0 when even one sequence does not fit
  return z.max_batch.emplace(key, best).first->second;
}

// The replica's concurrency under the latency targets, its capacity, and the replicas the load needs.
std::optional<PlanLoad> plan_load(Search& z, const Instance& i, const Gpu& gpu,
                                  const Config& replica_layout) {
  const Load& load = *z.s.load;
  const Links links = links_of(i, gpu);
  Scenario t = at(z, replica_layout);
  const double output = static_cast<double>(std::max<int64_t>(z.s.output_tokens, 1));
  // The replica at b sequences as the estimate's serving curve gives it (speed.cpp serving_point):
  // TPOT with the other requests' prompts chunked into the steps, TTFT of a request joining them.
  auto point = [&](int64_t b) { return serving_point(t, gpu, z.costs, links, static_cast<double>(b)); };
  auto meets = [&](int64_t b) {
    const ServingPoint p = point(b);
    return (!load.tpot_s || p.tpot_s <= *load.tpot_s) && (!load.ttft_s || p.ttft_joining_s <= *load.ttft_s);
  };
  const int64_t most = max_replica_batch(z, replica_layout, gpu);
  if (most < 1 || !meets(1)) return std::nullopt;
  // Step time grows with the batch: the largest batch that still meets the targets.
  const int64_t b = first_true(1, most, [&](int64_t n) { return !meets(n); }) - 1;
  PlanLoad l;
  const ServingPoint at_b = point(b);
  l.concurrency_per_replica = b;
  l.tpot_s = at_b.tpot_s;
  l.ttft_s = at_b.ttft_joining_s;
  // Little's law: b sequences, each in the replica for its first token and its output.
  l.requests_per_s_capacity = static_cast<double>(b) / (l.ttft_s + output * l.tpot_s);
  l.replicas = static_cast<int64_t>(std::ceil(load.requests_per_s / l.requests_per_s_capacity - 1e-9));
  l.replicas = std::max<int64_t>(l.replicas, 1);
  const int64_t replica = replica_layout.tp * replica_layout.pp;
  l.instances = instances_for({replica_layout.tp, replica_layout.pp, 0, l.replicas * replica}, i.gpus);
  // Replicas that each sit inside one instance fill every GPU paid for: the spare ones are
  // headroom at no cost, and each instance then runs whole servers.
  if (replica <= i.gpus && i.gpus % replica == 0) l.replicas = l.instances * (i.gpus / replica);
  l.price_per_hour = instance_price(i, z.s) * static_cast<double>(l.instances);
  l.cost_per_million_tokens = l.price_per_hour / (load.requests_per_s * output * 3600) * 1e6;
  return l;
}

// ---- plans ------------------------------------------------------------------------------------

Plan make_plan(Search& z, const Instance& instance, const Gpu& gpu, const Config& c) {
  Plan p;
  p.instance = &instance;
  p.tp = c.tp;
  p.pp = c.pp;
  p.ep = expert_parallel(z, c);
  p.dp_attention = dp_attention(at(z, c));
  p.zero = is_training(z.s.task) ? c.zero : 0;
  p.gpus = c.gpus;
  p.replicas = c.gpus / (c.tp * c.pp);
  p.instances = instances_for(c, instance.gpus);
  p.per_gpu_bytes = per_gpu_bytes(z, c, gpu);
  p.usable_bytes = usable_bytes(z.s, gpu);
  p.fits = p.per_gpu_bytes <= p.usable_bytes;
  p.currency = z.s.pricing.currency;
  p.price_per_instance_hour = instance_price(instance, z.s);
  p.price_per_hour = p.price_per_instance_hour * static_cast<double>(p.instances);
  p.links = plan_links(z, instance, c);
  if (!p.fits) return p;
  const Links links = links_of(instance, gpu);
  p.throughput = throughput_of(z, c, gpu, links);
  price_plan(z.s, p);
  if (!is_training(z.s.task) && z.s.output_tokens > 0 && !z.s.model.encoder) {
    const ServingPoint alone = serving_point(at(z, c), gpu, z.costs, links, 1);
    if (auto w = slow_first_token_warning(z.s, gpu, alone.ttft_joining_s)) p.warnings.push_back(*w);
  }
  if (z.s.load && !is_training(z.s.task)) {
    p.load = plan_load(z, instance, gpu, c);
    if (p.load) {
      p.replicas = p.load->replicas;
      p.gpus = p.load->replicas * c.tp * c.pp;
      p.instances = p.load->instances;
      p.price_per_hour = p.load->price_per_hour;
      p.links = plan_links(z, instance, {c.tp, c.pp, 0, p.gpus});
    } else {
      p.warnings.push_back(
          message_warning("latency_target_unmet", "load", {{"gpu", gpu.name}}, {{"gpu_id", gpu.id}}));
    }
  }
  add_plan_warnings(z, p);
  return p;
}

// The measure a fitting plan is ranked by (docs/planner.md "Ranking").
double metric(const Plan& p) {
  if (p.load) return p.load->cost_per_million_tokens;
  if (p.cost) return *p.cost;
  if (p.cost_per_million_tokens) return *p.cost_per_million_tokens;
  return p.price_per_hour;
}

// Fitting first (with a load: those meeting its latency target first); then the measure; ties to
// fewer paid GPUs. Plans that do not fit: closest to fitting (need / usable) first, then price.
bool better(const Plan& a, const Plan& b) {
  if (a.fits != b.fits) return a.fits;
  if (!a.fits) {
    const double ra = a.per_gpu_bytes / a.usable_bytes, rb = b.per_gpu_bytes / b.usable_bytes;
    if (ra != rb) return ra < rb;
    if (a.price_per_hour != b.price_per_hour) return a.price_per_hour < b.price_per_hour;
    return a.instance->instance < b.instance->instance;
  }
  if (a.load.has_value() != b.load.has_value()) return a.load.has_value();
  if (metric(a) != metric(b)) return metric(a) < metric(b);
  const int64_t paid_a = a.instances * a.instance->gpus, paid_b = b.instances * b.instance->gpus;
  if (paid_a != paid_b) return paid_a < paid_b;
  return a.instance->instance < b.instance->instance;
}

std::string gib(double bytes) { return fixed(bytes / kGiB, 1) + " GiB"; }

std::string layout_text(const Search& z, const Config& c) {
  const int64_t ep = expert_parallel(z, c);
  return "tp " + std::to_string(c.tp) + ", pp " + std::to_string(c.pp) +
         (ep > 1 ? ", ep " + std::to_string(ep) : "") +
         (is_training(z.s.task) ? ", ZeRO-" + std::to_string(c.zero) : "") + " on " + std::to_string(c.gpus) +
         " GPUs";
}

std::string reason_for(const Search& z, const Plan& p, const Gpu& gpu, nlohmann::json* values) {
  *values = nlohmann::json({{"gpu", gpu.name}, {"headroom", z.s.headroom}});
  nlohmann::json text = {{"per_gpu", gib(p.per_gpu_bytes)},
                         {"layout", layout_text(z, {p.tp, p.pp, p.zero, p.gpus})},
                         {"gpu_id", gpu.id},
                         {"usable", gib(p.usable_bytes)},
                         {"headroom_pct", std::lround(z.s.headroom * 100)}};
  if (!can_span(z, *p.instance) && p.gpus >= p.instance->gpus) {
    const std::string span = !p.instance->cluster                      ? "no_cluster"
                             : p.instance->network_gbps < kSpanMinGbps ? "slow_network"
                                                                       : "single_machine";
    (*values)["span"] = span;
    (*values)["instance"] = p.instance->instance;
    (*values)["network_gbps"] = p.instance->network_gbps;
    (*values)["engine"] = to_string(z.s.engine);
    if (span == "slow_network") text["network"] = fixed(p.instance->network_gbps, 0);
    text["one_machine"] = span == "single_machine";
  }
  if (z.s.filters.max_gpus) (*values)["max_gpus"] = *z.s.filters.max_gpus;
  return message_text("too_large", *values, text);
}

// The layout to show when none can be planned (max_gpus below one replica, or the scenario's
// own layout does not suit the instance): the scenario's own degrees on one instance.
Config fallback_config(const Search& z, const Instance& i) {
  Config c{z.s.tp, z.s.pp, z.s.zero_set ? z.s.training.zero : 0, z.s.gpus_set ? z.s.gpus : z.s.tp * z.s.pp};
  if (!z.s.gpus_set && is_training(z.s.task))
    c.gpus = std::max<int64_t>(c.gpus, std::min<int64_t>(i.gpus, z.max_gpus));
  if (c.gpus % (c.tp * c.pp) != 0) c.gpus = c.tp * c.pp;
  return c;
}

// A plan that cannot run: no speed, time or cost, and why.
void not_runnable(Plan& p, std::string reason) {
  p.fits = false;
  p.throughput.reset();
  p.hours.reset();
  p.cost.reset();
  p.cost_per_million_tokens.reset();
  p.load.reset();
  p.reason = std::move(reason);
}

// `explain`: write why a plan does not fit or cannot run (strings: the ranking shows them; the
// table needs only its best plan's, and builds that one afterwards).
Plan instance_plan(Search& z, const Instance& instance, bool explain) {
  const Gpu& gpu = *find_gpu(instance.gpu_id);
  const std::vector<Config>& configs = layouts(z, gpu, {instance.gpus, can_span(z, instance)});
  std::optional<Plan> best;
  for (const Config& c : configs) {
    Plan p = make_plan(z, instance, gpu, c);
    if (!best || better(p, *best)) best = std::move(p);
  }
  if (!best) best = make_plan(z, instance, gpu, fallback_config(z, instance));
  if (explain && !best->fits && !configs.empty()) {
    best->reason = reason_for(z, *best, gpu, &best->reason_values);
    best->reason_code = "too_large";
  }
  if (configs.empty()) {
    nlohmann::json values = {{"instance", instance.instance},
                             {"per_instance", instance.gpus},
                             {"cluster", instance.cluster},
                             {"engine", to_string(z.s.engine)},
                             {"multi_node", z.caps.multi_node}};
    if (z.s.gpus_set) values["gpus"] = z.s.gpus;
    if (z.s.filters.max_gpus) values["max_gpus"] = *z.s.filters.max_gpus;
    not_runnable(*best, explain ? message_text("no_layout", values) : std::string());
    if (explain) {
      best->reason_code = "no_layout";
      best->reason_values = std::move(values);
    }
  }
  std::string kind;
  const std::string unsupported = unsupported_reason(z.s, gpu, &kind);
  // It may fit in memory, but the engine cannot run it on this card.
  if (!unsupported.empty()) {
    not_runnable(*best, unsupported);
    best->reason_code = "format_unsupported";
    best->reason_values =
        nlohmann::json({{"gpu", gpu.name}, {"weights", to_string(z.s.weights)}, {"kind", kind}});
  }
  return std::move(*best);
}

// The fewest GPUs in nodes of 8 with the card's own links: TP inside a node, pipeline stages or
// data-parallel ranks across nodes where the engine runs across machines.
GpuTakes takes_on(Search& z, const Gpu& gpu) {
  GpuTakes out;
  out.gpu = &gpu;
  out.usable_bytes = usable_bytes(z.s, gpu);
  const bool multi = z.caps.multi_node;
  std::optional<Config> best, closest;
  double closest_bytes = 0;
  auto consider = [&](const Config& c) {
    const double bytes = per_gpu_bytes(z, c, gpu);
    if (bytes <= out.usable_bytes) {
      // Fewest GPUs, then fewest stages, then TP attention (fewer bytes per step at a few sequences).
      if (!best || c.gpus < best->gpus || (c.gpus == best->gpus && c.pp < best->pp) ||
          (c.gpus == best->gpus && c.pp == best->pp && best->dp_attention && !c.dp_attention))
        best = c;
    } else if (!closest || bytes < closest_bytes) {
      closest = c;
      closest_bytes = bytes;
    }
  };
  const std::vector<int64_t> tps = tp_choices(z, kNodeGpus);
  for (const int64_t tp : tps) {
    if (tp > kNodeGpus) continue;
    const int64_t hi_units = (multi ? z.max_gpus : kNodeGpus) / tp;
    if (hi_units < 1) continue;
    if (is_training(z.s.task)) {
      const int64_t replica = std::lcm(tp, z.s.ep) * z.s.pp;
      const int64_t hi = (multi ? z.max_gpus : kNodeGpus) / replica;
      if (hi < 1) continue;
      const int widest = widest_zero(z);
      int64_t k = 1;
      if (auto_expert_parallel(z)) {  // as in training_configs: the doublings
        while (k < hi && !fits(z, {tp, z.s.pp, widest, k * replica}, gpu)) k *= 2;
        k = std::min(k, hi);
      } else {
        k = std::min(hi, fewest_fitting(z, gpu, hi, [&](int64_t n) {
                       return Config{tp, z.s.pp, widest, n * replica};
                     }));
      }
      Config c{tp, z.s.pp, widest, k * replica};
      c.zero = lowest_zero(z, gpu, c);
      consider(c);
    } else {
      int64_t hi = z.caps.pipeline_parallel ? std::min<int64_t>(hi_units, z.s.model.layers) : 1;
      if (!serving_pipeline_allowed(z, gpu, tp, tps.back())) hi = 1;
      if (z.s.pp_set) {
        consider({tp, z.s.pp, 0, tp * z.s.pp});
        continue;
      }
      const int64_t pp = std::min(hi, fewest_fitting(z, gpu, hi, [&](int64_t p) {
                                    return Config{tp, p, 0, tp * p};
                                  }));
      consider({tp, pp, 0, tp * pp});
      // As serving_configs: the replica of tp GPUs with DP attention, which may fit where
      // TP attention needs stages.
      if (auto_dp_attention(z) && tp > 1) consider({tp, 1, 0, tp, true});
    }
  }
  const std::optional<Config>& shown = best ? best : closest;
  if (shown) {
    out.fits = best.has_value();
    out.gpus = shown->gpus;
    out.tp = shown->tp;
    out.pp = shown->pp;
    out.ep = expert_parallel(z, *shown);
    out.dp_attention = dp_attention(at(z, *shown));
    out.zero = is_training(z.s.task) ? shown->zero : 0;
    out.per_gpu_bytes = per_gpu_bytes(z, *shown, gpu);
  }
  if (!out.fits) {
    out.reason = shown ? message_text("too_large", nlohmann::json::object(),
                                      {{"per_gpu", gib(out.per_gpu_bytes)},
                                       {"layout", layout_text(z, *shown)},
                                       {"usable", gib(out.usable_bytes)}})
                       : message_text("no_layout", nlohmann::json::object());
    out.reason_code = shown ? "too_large" : "no_layout";
  }
  std::string kind;
  const std::string unsupported = unsupported_reason(z.s, gpu, &kind);
  if (!unsupported.empty()) {
    out.fits = false;
    out.reason = unsupported;
    out.reason_code = "format_unsupported";
    out.reason_values =
        nlohmann::json({{"gpu", gpu.name}, {"weights", to_string(z.s.weights)}, {"kind", kind}});
  }
  return out;
}

// Whether with_planned_layout() lays the scenario out: Megatron training on a stated card and
// count with some of the degrees the planner chooses (tp, ep for an MoE model, training.zero) unstated.
bool plans_layout(const Scenario& s) {
  return s.engine == Engine::Megatron && is_training(s.task) && s.gpu && s.gpus_set &&
         (!s.tp_set || !s.zero_set || (!s.ep_set && s.model.experts > 0));
}

// Of the training layouts on `gpu` at the scenario's count, the one rank_plans would rank first on
// nodes of 8 of that card: fitting first; then the fastest (one card type and count: the same price per
// hour, so the cheapest job); of those that do not fit, the closest.
std::optional<Config> planned_config(Search& z, const Gpu& gpu) {
  const Links links = default_links(gpu);  // the links estimate() times the layout with
  const double usable = usable_bytes(z.s, gpu);
  std::optional<Config> best;
  double best_bytes = 0, best_rate = 0;
  for (const Config& c : training_configs(z, gpu, {kNodeGpus, z.caps.multi_node})) {
    const double bytes = per_gpu_bytes(z, c, gpu);
    const bool fit = bytes <= usable;
    const double rate = fit ? throughput_of(z, c, gpu, links).train_tokens_per_s : 0;
    const bool best_fits = best && best_bytes <= usable;
    if (!best || (fit && !best_fits) || (fit && best_fits && rate > best_rate) ||
        (!fit && !best_fits && bytes < best_bytes)) {
      best = c;
      best_bytes = bytes;
      best_rate = rate;
    }
  }
  return best;
}

}  // namespace

std::vector<const Instance*> candidate_instances(const Scenario& s) {
  auto listed = [](const std::vector<std::string>& list, const std::string& id) {
    return list.empty() || std::find(list.begin(), list.end(), id) != list.end();
  };
  std::vector<const Instance*> out;
  auto consider = [&](const Instance& i) {
    if (!find_gpu(i.gpu_id)) return;
    // filters.billing (default on-demand); the scenario's own instances are priced by the user.
    if (i.provider_id != "custom" && !listed(s.filters.billing, i.billing)) return;
    if (!listed(s.filters.providers, i.provider_id) || !listed(s.filters.gpus, i.gpu_id)) return;
    if (i.marketplace && !s.filters.marketplaces) return;
    if (s.gpu && *s.gpu != i.gpu_id) return;
    if (s.filters.max_gpus && i.gpus > *s.filters.max_gpus) return;
    out.push_back(&i);
  };
  for (const Instance& i : instance_catalog()) consider(i);
  for (const Instance& i : s.pricing.custom_instances) consider(i);  // provider id "custom"
  return out;
}

double instance_price(const Instance& instance, const Scenario& s) {
  const auto o = s.pricing.overrides.find(instance.instance);
  const double price = o != s.pricing.overrides.end() ? o->second : instance.price_per_hour;
  if (instance.currency == s.pricing.currency) return price;
  const double cny_per_usd = s.pricing.cny_per_usd.value_or(default_cny_per_usd());
  return instance.currency == "USD" ? price * cny_per_usd : price / cny_per_usd;
}

namespace {

// A load sets the GPU count through its replicas (estimate ignores the load, so both may be given there).
void refuse_load_with_gpus(const Scenario& s) {
  if (s.load && s.gpus_set) throw_error("load", "load_with_gpus");
}

}  // namespace

std::vector<Plan> rank_plans(const Scenario& s) {
  refuse_load_with_gpus(s);
  Search z(s);
  const std::vector<const Instance*> candidates = candidate_instances(s);
  std::vector<Plan> plans;
  plans.reserve(candidates.size());  // a plan carries strings and vectors: no regrowth copies
  // From `s`, not a copy: plans of custom instances point into the caller's scenario.
  for (const Instance* instance : candidates) plans.push_back(instance_plan(z, *instance, true));
  // Sort indices, then move each plan once: plans carry strings, and a merge sort moves often.
  std::vector<size_t> order(plans.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  // The index as the last key: a stable order for plans that compare equal.
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (better(plans[a], plans[b])) return true;
    return !better(plans[b], plans[a]) && a < b;
  });
  std::vector<Plan> sorted;
  sorted.reserve(plans.size());
  for (size_t i : order) sorted.push_back(std::move(plans[i]));
  return sorted;
}

std::optional<Warning> no_plan_fits_warning(const Scenario& s, const std::vector<Plan>& plans) {
  for (const Plan& p : plans) {
    if (p.fits) return std::nullopt;
  }
  struct Change {
    const char* field;
    nlohmann::json value;
    void (*apply)(Scenario&);
  };
  std::vector<Change> changes;
  if (is_training(s.task)) {
    if (s.training.grad_checkpointing != Checkpointing::Full)
      changes.push_back({"training.grad_checkpointing", "full",
                         [](Scenario& t) { t.training.grad_checkpointing = Checkpointing::Full; }});
  } else {
    if (s.kv_cache == KvFormat::Bf16 || s.kv_cache == KvFormat::Fp16)
      changes.push_back({"kv_cache", "fp8", [](Scenario& t) { t.kv_cache = KvFormat::Fp8; }});
    if (s.batch > 1) changes.push_back({"batch", 1, [](Scenario& t) { t.batch = 1; }});
  }
  for (const Change& c : changes) {
    Scenario t = s;
    t.model_input = nullptr;  // an imported config.json is not read again
    c.apply(t);
    try {
      validate_scenario(t);
    } catch (const InputError&) {
      continue;
    }
    const std::vector<Plan> ranked = rank_plans(t);
    if (ranked.empty() || !ranked.front().fits) continue;
    const Plan& p = ranked.front();
    const Gpu* gpu = find_gpu(p.instance->gpu_id);
    const std::string value = c.value.is_string() ? c.value.get<std::string>() : c.value.dump();
    return message_warning("no_plan_fits", c.field,
                           {{"setting", c.field},
                            {"value", c.value},
                            {"gpus", p.gpus},
                            {"gpu", gpu ? gpu->name : p.instance->gpu_id},
                            {"instance", p.instance->instance}},
                           {{"value_text", value}});
  }
  return std::nullopt;
}

std::optional<Plan> best_plan(const Scenario& s) {
  refuse_load_with_gpus(s);
  Search z(s);
  std::optional<Plan> best;
  const Instance* best_instance = nullptr;
  for (const Instance* instance : candidate_instances(s)) {
    Plan p = instance_plan(z, *instance, false);
    if (!best || better(p, *best)) {
      best = std::move(p);
      best_instance = instance;
    }
  }
  if (best && !best->fits) best = instance_plan(z, *best_instance, true);  // its reason, in words
  return best;
}

Scenario with_planned_layout(const Scenario& s) {
  if (!plans_layout(s)) return s;
  const Gpu* gpu = find_gpu(*s.gpu);
  if (!gpu) return s;
  Search z(s);
  const std::optional<Config> c = planned_config(z, *gpu);
  if (!c) return s;  // no layout of the stated count on this card: the scenario as given
  const int64_t ep = expert_parallel(z, *c);
  // The scenario's own layout (one GPU, say): nothing chosen, nothing to say.
  if (c->tp == s.tp && c->pp == s.pp && ep == s.ep && c->zero == s.training.zero) return s;
  Scenario out = s;
  out.tp = c->tp;
  out.pp = c->pp;
  out.ep = ep;
  out.training.zero = c->zero;
  apply_layout_defaults(out);
  out.warnings.push_back(message_warning("megatron_layout_planned", "tp",
                                         {{"tp", out.tp},
                                          {"pp", out.pp},
                                          {"ep", out.ep},
                                          {"zero", out.training.zero},
                                          {"gpus", out.gpus},
                                          {"gpu", gpu->id}},
                                         {{"gpu_name", gpu->name}}));
  return out;
}

std::vector<GpuTakes> what_it_takes(const Scenario& s) {
  Search z(s);
  std::vector<GpuTakes> out;
  for (const Gpu& gpu : gpu_catalog()) out.push_back(takes_on(z, gpu));
  return out;
}

}  // namespace gpusizer
