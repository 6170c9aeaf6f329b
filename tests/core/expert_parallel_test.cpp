// Expert parallelism in Megatron-LM training of MoE models, as an experienced training engineer
// would judge it: the experts are split over EP ranks carved out of data parallelism, the
// distributed optimizer shards the states, the all-to-all traffic costs time over the links it
// crosses, and the launch line sets the degree the plan was sized with.
#include <catch2/catch.hpp>

#include <string>

#include "api_answer.h"
#include "gpusizer/api.h"
#include "memory/memory.h"
#include "model/precision.h"
#include "plan/estimate.h"
#include "plan/planner.h"
#include "scenario_error.h"

using namespace gpusizer;
using nlohmann::json;

namespace {

double weights_of(const json& j) { return estimate(parse_scenario(j)).memory.breakdown.weights; }

double tokens_per_s(const json& j) {
  const Estimate e = estimate(parse_scenario(j));
  REQUIRE(e.throughput);
  return e.throughput->train_tokens_per_s;
}

json megatron(const std::string& model, int64_t gpus, int64_t tp, int64_t ep) {
  json j = {{"model", model},  {"task", "pretrain"},       {"engine", "megatron"},
            {"seq_len", 4096}, {"gpu", "h100-80gb"},       {"gpus", gpus},
            {"tp", tp},        {"training", {{"zero", 1}}}};
  if (ep > 1) j["ep"] = ep;
  return j;
}

}  // namespace

TEST_CASE("Expert: ep splits the routed experts only, each whole on its rank", "[expert][ep]") {
  const Scenario s = parse_scenario(megatron("mixtral-8x7b", 8, 1, 1));
  const WeightBytes w = weight_bytes(s.model, WeightFormat::Bf16);
  REQUIRE(w.routed > 0.9 * w.linear);  // Mixtral's experts are most of its weights
  const double one = weights_of(megatron("mixtral-8x7b", 8, 1, 1));
  const double four = weights_of(megatron("mixtral-8x7b", 8, 1, 4));
  const double eight = weights_of(megatron("mixtral-8x7b", 8, 1, 8));
  CHECK(one - four == Approx(w.routed * 3 / 4).epsilon(1e-9));
  CHECK(one - eight == Approx(w.routed * 7 / 8).epsilon(1e-9));
  // With TP 2 the rest is split over TP, the experts over EP alone (expert TP 1).
  const double tp2 = weights_of(megatron("mixtral-8x7b", 8, 2, 4));
  CHECK(tp2 == Approx((one - w.routed) / 2 + w.routed / 4).epsilon(1e-9));
  const double tp2_ep1 = weights_of(megatron("mixtral-8x7b", 8, 2, 1));
  CHECK(tp2_ep1 == Approx(one / 2).epsilon(1e-9));
}

TEST_CASE("Expert: the distributed optimizer's states per GPU do not change with ep", "[expert][ep]") {
  const Estimate one = estimate(parse_scenario(megatron("mixtral-8x7b", 16, 1, 1)));
  const Estimate eight = estimate(parse_scenario(megatron("mixtral-8x7b", 16, 1, 8)));
  // dense states over dp ranks, expert states over dp / ep ranks of 1/ep of the experts each
  CHECK(eight.memory.breakdown.optimizer == Approx(one.memory.breakdown.optimizer).epsilon(1e-9));
  CHECK(eight.memory.breakdown.gradients < one.memory.breakdown.gradients / 4);  // fp32 main_grad, local
}

TEST_CASE("Expert: ep is checked against the engine, the model, the experts and the GPUs", "[expert][ep]") {
  CHECK(scenario_error_field(megatron("mixtral-8x7b", 8, 1, 8)).empty());
  CHECK(scenario_error_field(megatron("llama-3.1-8b", 8, 1, 2)) == "ep");    // a dense model
  CHECK(scenario_error_field(megatron("mixtral-8x7b", 16, 1, 16)) == "ep");  // 8 experts
  CHECK(scenario_error_field(megatron("mixtral-8x7b", 8, 2, 8)).empty());    // 8 ranks, dp 4: expert TP 1
  json staged = megatron("mixtral-8x7b", 8, 1, 8);
  staged["pp"] = 2;
  CHECK(scenario_error_field(staged) == "ep");  // 4 GPUs per stage
  json serving = {{"model", "mixtral-8x7b"}, {"engine", "vllm"}, {"tp", 2}, {"ep", 2}};
  CHECK(scenario_error_field(serving) == "ep");
  json deepspeed = megatron("mixtral-8x7b", 8, 1, 2);
  deepspeed["engine"] = "deepspeed";
  CHECK(scenario_error_field(deepspeed) == "ep");
  // gpus defaults to the stage's ranks (tp and ep over them) x pp when only the layout is given
  const Scenario s = parse_scenario({{"model", "mixtral-8x7b"},
                                     {"task", "pretrain"},
                                     {"engine", "megatron"},
                                     {"tp", 2},
                                     {"ep", 4},
                                     {"pp", 2}});
  CHECK(s.gpus == 8);
}

TEST_CASE("Expert: the all-to-all costs time, more once it leaves the node", "[expert][ep]") {
  // 16 B200s in two nodes of 8, the same compute per token in each layout; 64 micro-batches per
  // step, so that the gradient reduction (once per step, smaller with ep) is not what differs.
  auto on_b200 = [](int64_t tp, int64_t ep) {
    json j = megatron("qwen3-30b-a3b", 16, tp, ep);
    j["gpu"] = "b200";
    j["training"]["grad_accum"] = 64;
    return tokens_per_s(j);
  };
  CHECK(on_b200(2, 4) < on_b200(2, 1));   // tp x ep = 8: the all-to-all stays on NVLink
  CHECK(on_b200(1, 16) < on_b200(1, 8));  // 16 ranks: half of each all-to-all crosses the NICs
}

TEST_CASE(
    "Expert: DeepSeek-V3-class training with Megatron-LM runs expert-parallel on the distributed optimizer",
    "[expert][ep]") {
  const Scenario s = parse_scenario(json{{"model", "deepseek-v3"},
                                         {"task", "full"},
                                         {"engine", "megatron"},
                                         {"seq_len", 4096},
                                         {"training", {{"tokens", 1e9}}},
                                         {"filters", {{"gpus", {"h100-80gb", "h200", "b200"}}}}});
  const std::vector<Plan> plans = rank_plans(s);
  REQUIRE_FALSE(plans.empty());
  const Plan& p = plans.front();
  REQUIRE(p.fits);
  INFO(p.instance->instance << ": " << p.gpus << " GPUs, tp " << p.tp << ", ep " << p.ep);
  CHECK(p.ep >= 8);
  CHECK((p.gpus / p.pp) % p.ep == 0);
  CHECK(p.zero == 1);               // Megatron shards states only with its distributed optimizer
  CHECK(p.tp <= p.instance->gpus);  // TP inside a node
  CHECK(p.gpus <= 1024);            // DeepSeek-V3 itself trained on 2048 H800 in FP8
  for (const Plan& q : plans) CHECK(q.zero <= 1);
}

TEST_CASE("Expert: no Megatron-LM plan claims ZeRO-2 or 3, dense or MoE", "[expert][ep]") {
  for (const char* model : {"llama-3.1-70b", "qwen3-235b-a22b"}) {
    const Scenario s = parse_scenario(
        json{{"model", model}, {"task", "pretrain"}, {"engine", "megatron"}, {"seq_len", 4096}});
    for (const Plan& p : rank_plans(s)) {
      INFO(model << " on " << p.instance->instance);
      CHECK(p.zero <= 1);
      if (p.fits && p.gpus > p.tp * p.pp) CHECK(p.zero == 1);
    }
  }
}

TEST_CASE("Expert: the Megatron launch line sets the expert-parallel degree the plan was sized with",
          "[expert][ep]") {
  for (const char* model : {"mixtral-8x7b", "qwen3-235b-a22b"}) {
    const ApiResult r = run_command("launch", json{{"model", model},
                                                   {"task", "pretrain"},
                                                   {"engine", "megatron"},
                                                   {"seq_len", 4096},
                                                   {"training", {{"tokens", 1e10}}}}
                                                  .dump());
    REQUIRE(r.ok);
    const json& plan = r.value.at("plan");
    REQUIRE(plan.value("ep", 1) > 1);
    std::string text;
    for (const json& c : r.value.at("commands")) {
      if (c.at("tool") == "megatron-lm") text = c.at("text");
    }
    INFO(model << "\n" << text);
    CHECK(flag_value(text, "--expert-model-parallel-size") == std::to_string(plan.at("ep").get<int64_t>()));
    CHECK(flag_value(text, "--tensor-model-parallel-size") == std::to_string(plan.at("tp").get<int64_t>()));
    CHECK(flag_value(text, "--expert-tensor-parallel-size") == "1");
    CHECK(text.find("--use-distributed-optimizer") != std::string::npos);
    // The estimate of the launched layout is the plan's.
    json scenario = {{"model", model},       {"task", "pretrain"},
                     {"engine", "megatron"}, {"seq_len", 4096},
                     {"gpu", plan["gpu"]},   {"gpus", plan["gpus"]},
                     {"tp", plan["tp"]},     {"pp", plan["pp"]},
                     {"ep", plan["ep"]},     {"training", {{"zero", plan["zero"]}}}};
    CHECK(estimate(parse_scenario(scenario)).memory.per_gpu_bytes <=
          0.9 * find_gpu(plan.at("gpu").get<std::string>())->memory_bytes);
  }
}
