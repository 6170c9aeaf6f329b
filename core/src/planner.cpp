// The planner: per instance type, the cheapest fitting configuration; then the ranking.
#include "gpusizer/planner.h"

#include "gpusizer/estimate.h"
#include "format.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

#include "gpusizer/memory.h"

namespace gpusizer {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// Largest deployment searched without a max_gpus filter: 1024 GPUs (full fine-tuning of
// DeepSeek-V3, 671B parameters at 16 bytes each, needs about 150 cards of 80 GB).
constexpr int64_t kMaxSearchGpus = 1024;

struct Config {
  int64_t tp = 1, pp = 1;
  int zero = 0;
  int64_t gpus = 1;
};

using ConfigKey = std::tuple<int64_t, int64_t, int, int64_t>;

// Memory is evaluated once per configuration without a card and reused for every GPU type:
// the card enters the estimate only through runtime_bytes() (planner_test checks this), except
// for paged optimizers (per_gpu_bytes).
struct Search {
  Scenario work;  // the scenario, its parallel layout rewritten per configuration
  ModelCosts costs;
  int64_t max_gpus = kMaxSearchGpus;
  std::map<ConfigKey, double> memory_less_runtime;
  std::map<std::pair<const Gpu*, ConfigKey>, Throughput> speed;
  std::map<std::pair<const Gpu*, int64_t>, std::vector<Config>> layouts;  // per GPU type and GPUs per instance
};

ConfigKey key_of(const Config& c) { return {c.tp, c.pp, c.zero, c.gpus}; }

void apply(Search& z, const Config& c) {
  z.work.tp = c.tp;
  z.work.pp = c.pp;
  z.work.gpus = c.gpus;
  z.work.training.zero = c.zero;
}

double per_gpu_bytes(Search& z, const Config& c, const Gpu& gpu) {
  // Paged optimizer states spill to host RAM when the card is full (memory_training.cpp), so
  // there the card shapes more than runtime_bytes(): estimate per card, as `estimate` does.
  if (is_training(z.work.task) && z.work.training.optimizer == Optimizer::PagedAdamw8bit) {
    apply(z, c);
    return estimate_memory(z.work, &gpu).per_gpu_bytes;
  }
  auto it = z.memory_less_runtime.find(key_of(c));
  if (it == z.memory_less_runtime.end()) {
    apply(z, c);
    const double bytes = estimate_memory(z.work, nullptr).per_gpu_bytes - runtime_bytes(z.work, nullptr);
    it = z.memory_less_runtime.emplace(key_of(c), bytes).first;
  }
  return it->second + runtime_bytes(z.work, &gpu);
}

double usable_bytes(const Search& z, const Gpu& gpu) { return (1 - z.work.headroom) * gpu.memory_bytes; }

bool fits(Search& z, const Config& c, const Gpu& gpu) { return per_gpu_bytes(z, c, gpu) <= usable_bytes(z, gpu); }

const Throughput& throughput_of(Search& z, const Config& c, const Gpu& gpu) {
  const auto key = std::make_pair(&gpu, key_of(c));
  auto it = z.speed.find(key);
  if (it == z.speed.end()) {
    apply(z, c);
    it = z.speed.emplace(key, estimate_throughput(z.work, gpu, z.costs)).first;
  }
  return it->second;
}

// Smallest n in [lo, hi] with ok(n), for ok monotone (false ... true); hi + 1 if none.
template <typename Ok>
int64_t first_true(int64_t lo, int64_t hi, Ok ok) {
  if (lo > hi || !ok(hi)) return hi + 1;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (ok(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// Fewest units n in [1, hi] (pipeline stages, instances) whose layout at(n) fits; hi + 1 if none.
// Beyond one unit, memory per GPU is a + b / n (the sharded part shrinks; the rest, communication
// buffers included, stays), so n = 2 and 4 predict n and one evaluation confirms that it fits;
// a wrong guess falls back to bisection.
template <typename At>
int64_t fewest_fitting(Search& z, const Gpu& gpu, int64_t hi, At at) {
  const double cap = usable_bytes(z, gpu);
  auto ok = [&](int64_t n) { return per_gpu_bytes(z, at(n), gpu) <= cap; };
  if (ok(1)) return 1;
  if (hi < 4) return first_true(2, hi, ok);
  const double m2 = per_gpu_bytes(z, at(2), gpu), m4 = per_gpu_bytes(z, at(4), gpu);
  const double b = 4 * (m2 - m4), a = m4 - b / 4;
  const double guess_units = cap > a && b > 0 ? std::ceil(b / (cap - a)) : static_cast<double>(hi);
  const int64_t guess = static_cast<int64_t>(std::clamp(guess_units, 2.0, static_cast<double>(hi)));
  return ok(guess) ? guess : first_true(guess + 1, hi, ok);
}

// Tensor-parallel degrees inside one instance: powers of two up to its GPUs (and the GPU count
// itself) that divide the attention heads; the scenario's tp when it set one.
std::vector<int64_t> tp_choices(const Scenario& s, int64_t gpus_per_instance) {
  if (s.tp_set) return {s.tp};
  std::vector<int64_t> out;
  for (int64_t t = 1; t <= gpus_per_instance; t *= 2) {
    if (s.model.heads % t == 0) out.push_back(t);
  }
  if (s.model.heads % gpus_per_instance == 0 && out.back() != gpus_per_instance) out.push_back(gpus_per_instance);
  return out;
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Serving: tp inside the instance, then the fewest pipeline stages that fit (stages may span
// instances); the scenario's gpus, when set, adds data-parallel replicas.
std::vector<Config> serving_configs(Search& z, const Gpu& gpu, int64_t per_instance) {
  const Scenario& s = z.work;
  std::vector<Config> out;
  for (const int64_t tp : tp_choices(s, per_instance)) {
    const int64_t max_pp = std::min<int64_t>(s.model.layers, z.max_gpus / tp);
    if (max_pp < 1) continue;
    int64_t pp = s.pp;
    if (!s.pp_set) {
      pp = std::min(max_pp, fewest_fitting(z, gpu, max_pp, [&](int64_t p) { return Config{tp, p, 0, tp * p}; }));
    }
    const int64_t gpus = s.gpus_set ? s.gpus : tp * pp;
    if (gpus % (tp * pp) == 0 && gpus <= z.max_gpus) out.push_back({tp, pp, 0, gpus});
  }
  return out;
}

// Training: the fewest whole instances that fit with the most sharding (ZeRO-3; ZeRO-1 with
// pipeline stages, which DeepSpeed does not combine with 2 and 3), then the lowest ZeRO stage
// that still fits at that size (less communication).
std::vector<Config> training_configs(Search& z, const Gpu& gpu, int64_t per_instance) {
  const Scenario& s = z.work;
  const int widest = s.zero_set ? s.training.zero : (s.pp > 1 ? 1 : 3);
  std::vector<Config> out;
  std::vector<int64_t> tps = tp_choices(s, per_instance);
  if (tps.size() > 2) tps = {tps.front(), tps.back()};  // no TP, or TP over the whole instance
  for (const int64_t tp : tps) {
    const int64_t replica = tp * s.pp;
    int64_t gpus = s.gpus;
    if (!s.gpus_set) {
      // Instances come in steps whose GPUs are a multiple of the replica.
      const int64_t step_gpus = per_instance * (replica / std::gcd(per_instance, replica));
      const int64_t max_steps = z.max_gpus / step_gpus;
      if (max_steps < 1) continue;
      const int64_t steps = fewest_fitting(z, gpu, max_steps, [&](int64_t k) { return Config{tp, s.pp, widest, k * step_gpus}; });
      gpus = std::min(steps, max_steps) * step_gpus;
    }
    if (gpus % replica != 0 || gpus > z.max_gpus) continue;
    const bool sharded = gpus > replica;  // ZeRO stages differ only with data parallelism
    int zero = s.zero_set || sharded ? widest : 0;
    for (int lower = 0; !s.zero_set && sharded && lower < widest; ++lower) {
      if (fits(z, {tp, s.pp, lower, gpus}, gpu)) {
        zero = lower;
        break;
      }
    }
    out.push_back({tp, s.pp, zero, gpus});
    if (gpus <= per_instance && fits(z, out.back(), gpu)) break;  // one instance without TP: nothing cheaper
  }
  return out;
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

Plan make_plan(Search& z, const Instance& instance, const Gpu& gpu, const Config& c) {
  Plan p;
  p.instance = &instance;
  p.tp = c.tp;
  p.pp = c.pp;
  p.zero = is_training(z.work.task) ? c.zero : 0;
  p.gpus = c.gpus;
  p.instances = ceil_div(c.gpus, instance.gpus);
  p.per_gpu_bytes = per_gpu_bytes(z, c, gpu);
  p.fits = p.per_gpu_bytes <= usable_bytes(z, gpu);
  p.currency = z.work.pricing.currency;
  p.price_per_hour = instance_price(instance, z.work) * static_cast<double>(p.instances);
  if (!p.fits) return p;
  p.throughput = throughput_of(z, c, gpu);
  price_plan(z.work, p);
  return p;
}

double metric(const Plan& p) {
  if (p.cost) return *p.cost;
  if (p.cost_per_million_tokens) return *p.cost_per_million_tokens;
  return p.price_per_hour;
}

// Fitting first; then job cost, cost per million tokens or price per hour; ties to fewer GPUs.
bool better(const Plan& a, const Plan& b) {
  if (a.fits != b.fits) return a.fits;
  if (!a.fits) return a.per_gpu_bytes / a.instance->gpus < b.per_gpu_bytes / b.instance->gpus;
  if (metric(a) != metric(b)) return metric(a) < metric(b);
  const int64_t paid_a = a.instances * a.instance->gpus, paid_b = b.instances * b.instance->gpus;
  if (paid_a != paid_b) return paid_a < paid_b;
  return a.instance->instance < b.instance->instance;
}

std::string gib(double bytes) { return fixed(bytes / kGiB, 1) + " GiB"; }

std::string reason_for(const Search& z, const Plan& p, const Gpu& gpu) {
  std::string r = "needs " + gib(p.per_gpu_bytes) + " per GPU at tp " + std::to_string(p.tp) + ", pp " +
                  std::to_string(p.pp) + (is_training(z.work.task) ? ", ZeRO-" + std::to_string(p.zero) : "") +
                  " on " + std::to_string(p.gpus) + " GPUs; " + gpu.id + " has " + gib(usable_bytes(z, gpu)) +
                  " usable (" + std::to_string(static_cast<int>(std::lround(z.work.headroom * 100))) + " % headroom kept)";
  if (z.work.filters.max_gpus) r += "; max_gpus is " + std::to_string(*z.work.filters.max_gpus);
  return r;
}

const std::vector<Config>& layouts(Search& z, const Gpu& gpu, int64_t per_instance) {
  const auto key = std::make_pair(&gpu, per_instance);
  auto it = z.layouts.find(key);
  if (it == z.layouts.end()) {
    it = z.layouts.emplace(key, is_training(z.work.task) ? training_configs(z, gpu, per_instance)
                                                          : serving_configs(z, gpu, per_instance)).first;
  }
  return it->second;
}

Plan instance_plan(Search& z, const Instance& instance) {
  const Gpu& gpu = *find_gpu(instance.gpu_id);
  const std::vector<Config>& configs = layouts(z, gpu, instance.gpus);
  std::optional<Plan> best;
  for (const Config& c : configs) {
    Plan p = make_plan(z, instance, gpu, c);
    if (!best || better(p, *best)) best = p;
  }
  if (!best) {  // no layout is possible at all (max_gpus below one replica)
    // The scenario's own ZeRO stage: offload is only valid with it.
    best = make_plan(z, instance, gpu, {1, 1, z.work.zero_set ? z.work.training.zero : 0, 1});
  }
  if (!best->fits) best->reason = reason_for(z, *best, gpu);
  const std::string unsupported = unsupported_reason(z.work, gpu);
  if (!unsupported.empty()) {  // it may fit in memory, but the engine cannot run it on this card
    best->fits = false;
    best->throughput.reset();
    best->hours.reset();
    best->cost.reset();
    best->cost_per_million_tokens.reset();
    best->reason = unsupported;
  }
  return *best;
}

}  // namespace

std::vector<const Instance*> candidate_instances(const Scenario& s) {
  auto listed = [](const std::vector<std::string>& list, const std::string& id) {
    return list.empty() || std::find(list.begin(), list.end(), id) != list.end();
  };
  std::vector<const Instance*> out;
  auto consider = [&](const Instance& i) {
    if (i.billing != "on-demand" || !find_gpu(i.gpu_id)) return;  // capacity blocks are reserved ahead
    if (!listed(s.filters.providers, i.provider_id) || !listed(s.filters.gpus, i.gpu_id)) return;
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

std::vector<Plan> rank_plans(const Scenario& s) {
  Search z;
  z.work = s;
  z.costs = model_costs(s);
  z.max_gpus = s.filters.max_gpus.value_or(kMaxSearchGpus);
  std::vector<Plan> plans;
  // From `s`, not z.work: plans of custom instances point into the caller's scenario, which
  // outlives them; z.work dies here.
  for (const Instance* instance : candidate_instances(s)) plans.push_back(instance_plan(z, *instance));
  // Sort indices, then move each plan once: plans carry strings, and a merge sort moves often.
  std::vector<size_t> order(plans.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return better(plans[a], plans[b]); });
  std::vector<Plan> sorted;
  sorted.reserve(plans.size());
  for (size_t i : order) sorted.push_back(std::move(plans[i]));
  return sorted;
}

nlohmann::json to_json(const Plan& p) {
  const Instance& i = *p.instance;
  nlohmann::json j = {{"provider", i.provider}, {"provider_id", i.provider_id}, {"instance", i.instance},
                      {"region", i.region}, {"gpu", i.gpu_id}, {"gpus_per_instance", i.gpus},
                      {"instances", p.instances}, {"gpus", p.gpus}, {"tp", p.tp}, {"pp", p.pp},
                      {"zero", p.zero}, {"per_gpu_bytes", p.per_gpu_bytes}, {"fits", p.fits},
                      {"price_per_hour", p.price_per_hour}, {"currency", p.currency},
                      {"billing", i.billing}, {"price_date", i.price_date}, {"price_source", i.source}};
  if (p.hours) j["hours"] = *p.hours;
  if (p.cost) j["cost"] = *p.cost;
  if (p.cost_per_million_tokens) j["cost_per_million_tokens"] = *p.cost_per_million_tokens;
  if (p.throughput) j["throughput"] = to_json(*p.throughput);
  if (!p.reason.empty()) j["reason"] = p.reason;
  return j;
}

nlohmann::json rank_json(const Scenario& s) {
  nlohmann::json plans = nlohmann::json::array();
  for (const Plan& p : rank_plans(s)) plans.push_back(to_json(p));
  return {{"plans", plans}};
}

}  // namespace gpusizer
