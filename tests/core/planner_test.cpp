// The planner: fit with headroom, search, prices, currencies and the ranking order.
#include <catch2/catch.hpp>

#include <functional>

#include "base/error.h"
#include "plan/estimate.h"
#include "plan/planner.h"

using namespace gpusizer;
using nlohmann::json;

namespace {

std::vector<Plan> plans_of(const json& scenario) { return rank_plans(parse_scenario(scenario)); }

double ranking_key(const Plan& p) {
  if (p.cost) return *p.cost;
  if (p.cost_per_million_tokens) return *p.cost_per_million_tokens;
  return p.price_per_hour;
}

void check_sorted_and_within_cards(const std::vector<Plan>& plans, double headroom) {
  REQUIRE_FALSE(plans.empty());
  for (size_t i = 0; i < plans.size(); ++i) {
    const Plan& p = plans[i];
    if (p.fits) {
      CHECK(p.per_gpu_bytes <= (1 - headroom) * find_gpu(p.instance->gpu_id)->memory_bytes);
      CHECK(p.reason.empty());
    } else {
      CHECK_FALSE(p.reason.empty());
    }
    if (i == 0) continue;
    const Plan& q = plans[i - 1];
    CHECK((q.fits || !p.fits));  // fitting plans come first
    if (q.fits && p.fits) CHECK(ranking_key(q) <= ranking_key(p));
  }
}

}  // namespace

TEST_CASE("A 70B model under QLoRA fits no single 24 GB card", "[planner]") {
  for (const char* gpu : {"a10", "a10g", "l4", "rtx3090", "rtx4090"}) {
    const Estimate e =
        estimate(parse_scenario(json{{"model", "llama-3.1-70b"}, {"task", "qlora"}, {"gpu", gpu}}));
    CHECK_FALSE(e.gpu->fits);
  }
  const auto plans = plans_of(json{{"model", "llama-3.1-70b"},
                                   {"task", "qlora"},
                                   {"filters", {{"gpus", {"a10", "a10g", "l4"}}, {"max_gpus", 1}}}});
  REQUIRE_FALSE(plans.empty());
  for (const Plan& p : plans) CHECK_FALSE(p.fits);
}

TEST_CASE("A 7B QLoRA job ranks a T4-, A10- or L4-class instance cheapest", "[planner]") {
  const auto plans = plans_of(json{{"model", "qwen2.5-7b"}, {"task", "qlora"}});
  REQUIRE(plans.front().fits);
  const std::string gpu = plans.front().instance->gpu_id;
  // One small card; a 24 GB consumer card counts (RunPod RTX 4090 Community, 0.34 USD on 2026-09-25).
  CHECK((gpu == "t4" || gpu == "a10" || gpu == "a10g" || gpu == "l4" || gpu == "rtx4090"));
  CHECK(plans.front().instances == 1);
}

TEST_CASE("Plans keep the headroom and come sorted", "[planner]") {
  const json scenarios[] = {
      {{"model", "qwen2.5-72b"}, {"batch", 8}},
      {{"model", "qwen2.5-7b"}, {"task", "lora"}, {"headroom", 0.2}},
      {{"model", "llama-3.1-70b"}, {"task", "full"}, {"training", {{"tokens", 1e9}}}},
      {{"model", "deepseek-v3"}, {"weights", "fp8"}, {"seq_len", 8192}},
  };
  for (const json& s : scenarios) check_sorted_and_within_cards(plans_of(s), parse_scenario(s).headroom);
}

TEST_CASE("Training plans shard with ZeRO across whole instances", "[planner]") {
  const auto plans =
      plans_of(json{{"model", "llama-3.1-70b"}, {"task", "full"}, {"filters", {{"gpus", {"a100-80gb"}}}}});
  REQUIRE(plans.front().fits);
  CHECK(plans.front().gpus >= 8);
  CHECK(plans.front().gpus % plans.front().instance->gpus == 0);
  CHECK(plans.front().zero == 3);
  // The scenario's own ZeRO stage is kept.
  for (const Plan& p : plans_of(json{{"model", "qwen2.5-7b"}, {"task", "full"}, {"training", {{"zero", 2}}}}))
    CHECK(p.zero == 2);
}

TEST_CASE("Serving plans use tensor parallelism inside an instance, then pipeline stages", "[planner]") {
  const auto plans = plans_of(json{{"model", "llama-3.1-405b"}, {"filters", {{"gpus", {"h100-80gb"}}}}});
  REQUIRE(plans.front().fits);
  CHECK(plans.front().tp == 8);
  CHECK(plans.front().pp >= 2);
  CHECK(plans.front().instances == (plans.front().tp * plans.front().pp + 7) / 8);
}

TEST_CASE("Filters, overrides and currencies", "[planner]") {
  const auto aws =
      plans_of(json{{"model", "qwen2.5-7b"}, {"filters", {{"providers", {"aws"}}, {"max_gpus", 4}}}});
  for (const Plan& p : aws) {
    CHECK(p.instance->provider_id == "aws");
    CHECK(p.instance->billing == "on-demand");
    CHECK(p.instance->gpus <= 4);
  }
  const Instance& t4 =
      *plans_of(json{{"model", "qwen2.5-0.5b"}, {"filters", {{"providers", {"alibaba"}}, {"gpus", {"t4"}}}}})
           .front()
           .instance;
  const Scenario usd = parse_scenario(json{{"model", "qwen2.5-0.5b"}, {"pricing", {{"cny_per_usd", 7.0}}}});
  CHECK(instance_price(t4, usd) == Approx(t4.price_per_hour / 7.0));
  const Scenario cny = parse_scenario(json{
      {"model", "qwen2.5-0.5b"}, {"pricing", {{"currency", "CNY"}, {"overrides", {{t4.instance, 1.0}}}}}});
  CHECK(instance_price(t4, cny) == 1.0);
  const auto overridden =
      plans_of(json{{"model", "qwen2.5-0.5b"}, {"pricing", {{"overrides", {{t4.instance, 0.001}}}}}});
  CHECK(overridden.front().instance == &t4);
}

TEST_CASE("Memory depends on the card only through its runtime share", "[planner]") {
  // The planner evaluates memory once per layout and reuses it across GPU types.
  const json scenarios[] = {
      {{"model", "qwen2.5-14b"}, {"batch", 4}},
      {{"model", "qwen2.5-14b"}, {"task", "full"}, {"gpus", 8}, {"training", {{"zero", 3}}}},
      {{"model", "qwen2.5-14b"}, {"task", "qlora"}}};
  for (const json& j : scenarios) {
    const Scenario s = parse_scenario(j);
    const double generic = estimate_memory(s, nullptr).per_gpu_bytes - runtime_bytes(s, nullptr);
    for (const char* id : {"t4", "a100-80gb", "h100-80gb", "mi300x"}) {
      const Gpu* gpu = find_gpu(id);
      CHECK(estimate_memory(s, gpu).per_gpu_bytes - runtime_bytes(s, gpu) == Approx(generic).epsilon(1e-12));
    }
  }
}

TEST_CASE("Serving is ranked by cost per million output tokens", "[planner]") {
  const auto plans = plans_of(json{{"model", "qwen2.5-7b"}, {"batch", 16}});
  REQUIRE(plans.front().cost_per_million_tokens);
  CHECK(*plans.front().cost_per_million_tokens > 0);
  const json j = to_json(plans.front());
  for (const char* key :
       {"provider", "instance", "region", "gpu", "gpus_per_instance", "instances", "tp", "pp", "zero",
        "per_gpu_bytes", "fits", "price_per_hour", "currency", "cost_per_million_tokens", "throughput"}) {
    CHECK(j.contains(key));
  }
}

// best_plan() (the table's cells) is rank_plans().front() without the others: same plan, same
// figures, same reason, for fitting, non-fitting, filtered and loaded scenarios.
TEST_CASE("best_plan is the ranking's first plan", "[planner]") {
  const json scenarios[] = {
      {{"model", "qwen2.5-72b"}, {"batch", 8}},
      {{"model", "mistral-7b"}, {"gpus", 2}, {"filters", {{"gpus", {"a100-80gb"}}}}},
      {{"model", "llama-3.1-70b"}, {"task", "full"}, {"training", {{"tokens", 1e9}}}},
      {{"model", "llama-3.1-70b"}, {"task", "qlora"}, {"filters", {{"max_gpus", 1}}}},
      {{"model", "deepseek-v3"}, {"filters", {{"max_gpus", 1}}}},  // fits nowhere: the closest, explained
      {{"model", "llama-3.1-8b"},
       {"prompt_tokens", 1000},
       {"output_tokens", 200},
       {"load", {{"requests_per_s", 4}, {"tpot_s", 0.05}}}},
      {{"model", "qwen2.5-7b"},
       {"filters", {{"providers", {"alibaba"}}}},
       {"pricing", {{"currency", "CNY"}}}},
  };
  for (const json& in : scenarios) {
    INFO(in.dump());
    const Scenario s = parse_scenario(in);
    const std::vector<Plan> all = rank_plans(s);
    const std::optional<Plan> best = best_plan(s);
    REQUIRE(best.has_value() == !all.empty());
    if (!best) continue;
    const Plan& first = all.front();
    CHECK(best->instance == first.instance);
    CHECK(best->fits == first.fits);
    CHECK(best->gpus == first.gpus);
    CHECK(best->tp == first.tp);
    CHECK(best->pp == first.pp);
    CHECK(best->zero == first.zero);
    CHECK(best->per_gpu_bytes == first.per_gpu_bytes);
    CHECK(best->price_per_hour == first.price_per_hour);
    CHECK(best->reason == first.reason);
    CHECK(to_json(*best) == to_json(first));
  }
  // Refused alike, with the same code (the page words the error from it).
  const Scenario both =
      parse_scenario({{"model", "llama-3.1-8b"}, {"gpus", 2}, {"load", {{"requests_per_s", 4}}}});
  for (auto plan :
       {std::function<void()>([&] { rank_plans(both); }), std::function<void()>([&] { best_plan(both); })}) {
    try {
      plan();
      FAIL("load with gpus was not refused");
    } catch (const InputError& e) {
      CHECK(e.field == "load");
      CHECK(e.code == "load_with_gpus");
    }
  }
}
