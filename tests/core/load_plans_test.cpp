// Serving at a load that holds: every plan that meets a load is checked against the estimate of
// one of its replicas at the plan's concurrency, as a user would check it with `estimate`.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "api_answer.h"
#include "gpusizer/api.h"

using namespace gpusizer;
using json = nlohmann::json;

namespace {

// The estimate's curve point of one replica of `plan` at its concurrency.
json replica_point(const json& scenario, const json& plan) {
  json one = scenario;
  one.erase("load");
  one["gpu"] = plan.at("gpu");
  one["tp"] = plan.at("tp");
  one["pp"] = plan.at("pp");
  one["gpus"] = plan.at("tp").get<int64_t>() * plan.at("pp").get<int64_t>();
  // A plan with SGLang's DP attention was sized with it: the user's check sets it too.
  if (plan.value("dp_attention", false)) one["engine_options"]["dp_attention"] = true;
  const int64_t c = plan.at("load").at("concurrency_per_replica");
  one["batch"] = c;
  const json e = value_of("estimate", one);
  for (const json& p : e.at("throughput").at("curve")) {
    if (p.at("batch").get<double>() != static_cast<double>(c)) continue;
    // The estimate's headline at the plan's concurrency is the point the plan was sized on
    // (review reject: under DP attention it read 52 ms where the plan said 40 ms).
    CHECK(e.at("throughput").at("time_per_output_token_s").get<double>() ==
          Approx(p.at("tpot_s").get<double>()).epsilon(1e-9));
    return p;
  }
  FAIL("no curve point at the plan's concurrency " << c << ": " << one.dump());
  return json();
}

// Checks every plan of `scenario` that meets its load; returns how many there were.
int check_load_plans(const json& scenario, size_t most = 6) {
  const json out = value_of("rank", scenario);
  const json& load = scenario.at("load");
  const double rate = load.at("requests_per_s");
  const double output = scenario.at("output_tokens");
  int checked = 0;
  for (const json& plan : out.at("plans")) {
    if (!plan.contains("load") || !plan.at("fits").get<bool>()) continue;
    if (static_cast<size_t>(checked) >= most) break;
    INFO(scenario.dump() << "\nplan " << plan.dump());
    const json p = replica_point(scenario, plan);
    const double replicas = plan.at("load").at("replicas");
    if (load.contains("tpot_s"))
      CHECK(p.at("tpot_s").get<double>() <= load.at("tpot_s").get<double>() + 1e-9);
    if (load.contains("ttft_s"))
      CHECK(p.at("ttft_joining_s").get<double>() <= load.at("ttft_s").get<double>() + 1e-9);
    // The replicas together produce the output the request rate asks for.
    CHECK(p.at("output_tokens_per_s").get<double>() * replicas >= rate * output * (1 - 1e-3));
    ++checked;
  }
  return checked;
}

}  // namespace

TEST_CASE("Llama-3.1-8B at 10 requests/s on A100s: the replicas' own estimate carries the load", "[load]") {
  // Issue judgement: one A100 at concurrency 256 was credited with 24.7 requests/s at TPOT 40 ms
  // while the estimate at 256 gave TPOT 133 ms and 1,919 output tokens/s (2,560 needed).
  const json s = {{"model", "llama-3.1-8b"},
                  {"gpu", "a100-80gb"},
                  {"prompt_tokens", 1024},
                  {"output_tokens", 256},
                  {"load", {{"requests_per_s", 10}, {"ttft_s", 1.0}, {"tpot_s", 0.05}}}};
  CHECK(check_load_plans(s) >= 1);
  const json top = value_of("rank", s).at("plans").at(0);
  REQUIRE(top.contains("load"));
  CHECK(top.at("load").at("concurrency_per_replica").get<int64_t>() < 256);
  CHECK(top.at("gpus").get<int64_t>() >= 2);
}

TEST_CASE("Qwen2.5-72B AWQ at 2 requests/s: prefill and decode both fit in each replica", "[load]") {
  const json s = {{"model", "Qwen/Qwen2.5-72B-Instruct-AWQ"},
                  {"prompt_tokens", 4096},
                  {"output_tokens", 512},
                  {"load", {{"requests_per_s", 2}, {"ttft_s", 3.0}, {"tpot_s", 0.08}}}};
  CHECK(check_load_plans(s) >= 1);
}

TEST_CASE("DeepSeek-V3 on SGLang at 4 requests/s: DP attention replicas hold at their concurrency",
          "[load][dp_attention]") {
  const json s = {{"model", "deepseek-v3"},
                  {"engine", "sglang"},
                  {"prompt_tokens", 1024},
                  {"output_tokens", 1024},
                  {"filters", {{"gpus", {"h200", "b200"}}}},
                  {"load", {{"requests_per_s", 4}, {"ttft_s", 5.0}, {"tpot_s", 0.1}}}};
  CHECK(check_load_plans(s) >= 1);
}

TEST_CASE(
    "DeepSeek-V3 on SGLang, long prompts at 1 request/s: a DP attention plan is sized on the "
    "estimate's own time per output token",
    "[load][dp_attention]") {
  // Review reject: a V3 plan sized for TPOT 40 ms read 52 ms in the estimate at its concurrency
  // (229): the curve the planner read left out the passes other prompts take under DP attention.
  const json s = {{"model", "deepseek-v3"},          {"engine", "sglang"},
                  {"prompt_tokens", 8192},           {"output_tokens", 2048},
                  {"filters", {{"gpus", {"h200"}}}}, {"load", {{"requests_per_s", 1}, {"tpot_s", 0.2}}}};
  const json top = value_of("rank", s).at("plans").at(0);
  CHECK(top.value("dp_attention", false));
  CHECK(check_load_plans(s) >= 1);
}

TEST_CASE(
    "DeepSeek-V3 on H20s at 1 request/s of 6k-token prompts: one replica over two nodes, not four "
    "KV-bound replicas",
    "[load]") {
  // Review reject: four TP8 replicas on 8-GPU H20 instances at 10 sequences each (1,629 CNY/h),
  // where one TP8 x PP2 replica over two nodes holds the weights once and ~160 sequences in the
  // rest, carrying the load for half the price by the tool's own estimate.
  const json s = {{"model", "deepseek-v3"},
                  {"engine", "vllm"},
                  {"seq_len", 8192},
                  {"prompt_tokens", 6144},
                  {"output_tokens", 2048},
                  {"load", {{"requests_per_s", 1}, {"ttft_s", 5.0}, {"tpot_s", 0.08}}},
                  {"pricing", {{"currency", "CNY"}}},
                  {"filters", {{"providers", {"alibaba"}}, {"gpus", {"h20"}}}}};
  const json plans = value_of("rank", s).at("plans");
  const json& top = plans.at(0);
  REQUIRE(top.contains("load"));
  CHECK(top.at("load").at("replicas").get<int64_t>() == 1);
  CHECK(top.at("gpus").get<int64_t>() == 16);
  // Cheaper per token than the cheapest plan of several one-node replicas.
  for (const json& p : plans) {
    if (!p.contains("load") || p.at("tp").get<int64_t>() * p.at("pp").get<int64_t>() > 8) continue;
    CHECK(top.at("load").at("cost_per_million_tokens").get<double>() <
          p.at("load").at("cost_per_million_tokens").get<double>());
  }
  CHECK(check_load_plans(s) >= 1);
}

TEST_CASE("Every plan that meets a random load holds at its own concurrency", "[load]") {
  const char* models[] = {"llama-3.1-8b", "qwen2.5-7b",   "qwen2.5-32b", "Qwen/Qwen2.5-72B-Instruct-AWQ",
                          "mixtral-8x7b", "qwen3-30b-a3b"};
  const double rates[] = {0.5, 2, 10, 40};
  const int64_t prompts[] = {256, 1024, 4096};
  const int64_t outputs[] = {64, 256, 1024};
  const double ttfts[] = {0.5, 1, 3};
  const double tpots[] = {0.03, 0.05, 0.1};
  uint64_t state = 20261202;  // a fixed sequence: the same scenarios every run
  auto pick = [&](size_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<size_t>((state >> 33) % n);
  };
  int checked = 0;
  for (int i = 0; i < 24; ++i) {
    const json s = {
        {"model", models[pick(6)]},
        {"prompt_tokens", prompts[pick(3)]},
        {"output_tokens", outputs[pick(3)]},
        {"load",
         {{"requests_per_s", rates[pick(4)]}, {"ttft_s", ttfts[pick(3)]}, {"tpot_s", tpots[pick(3)]}}}};
    checked += check_load_plans(s, 3);
  }
  CHECK(checked >= 30);
}

TEST_CASE("A load plan launches each replica at the concurrency its capacity assumes", "[load][launch]") {
  // Review reject: Qwen3-32B-FP8 at 5 requests/s was planned at 15 sequences per replica and
  // launched with --max-num-seqs 1 (the scenario's default batch), a twelfth of the capacity.
  const auto flag_value = [](const std::string& text, const std::string& flag) {
    const size_t at = text.find(flag + " ");
    REQUIRE(at != std::string::npos);
    return std::stoll(text.substr(at + flag.size() + 1));
  };
  for (const char* engine : {"vllm", "sglang"}) {
    INFO(engine);
    const json s = {{"model", "Qwen/Qwen3-32B-FP8"},
                    {"engine", engine},
                    {"prompt_tokens", 4096},
                    {"output_tokens", 1024},
                    {"load", {{"requests_per_s", 5}, {"ttft_s", 3.0}, {"tpot_s", 0.05}}}};
    const json l = value_of("launch", s);
    const json& plan = l.at("plan");
    REQUIRE(plan.contains("concurrency_per_replica"));
    const int64_t c = plan.at("concurrency_per_replica");
    CHECK(c > 1);
    // The same concurrency as the ranked plan of that instance type.
    const json ranked = value_of("rank", s);  // held: a range over a temporary's member dangles
    for (const json& p : ranked.at("plans")) {
      if (p.value("instance", "") != plan.at("instance").get<std::string>()) continue;
      CHECK(p.at("load").at("concurrency_per_replica").get<int64_t>() == c);
      break;
    }
    const std::string text = l.at("commands").at(0).at("text");
    CHECK(flag_value(text, std::string(engine) == "vllm" ? "--max-num-seqs" : "--max-running-requests") == c);
  }
}

TEST_CASE("A load plan runs a replica on every GPU it pays for, and launches", "[load][launch]") {
  // Review reject: Qwen3-235B-A22B FP8 at 1 request/s was planned as 7 TP4 replicas on four 8-GPU
  // B200 instances (4 GPUs paid and idle), and that spread (7 GPUs per node) could not be launched.
  const json s = {{"model", "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8"},
                  {"engine", "sglang"},
                  {"prompt_tokens", 16384},
                  {"output_tokens", 16384},
                  {"load", {{"requests_per_s", 1}, {"ttft_s", 5.0}, {"tpot_s", 0.1}}}};
  const json out = value_of("rank", s);
  int whole = 0;
  for (const json& p : out.at("plans")) {
    if (!p.contains("load") || !p.at("fits").get<bool>()) continue;
    const int64_t replica = p.at("tp").get<int64_t>() * p.at("pp").get<int64_t>();
    const int64_t per_instance = p.at("gpus_per_instance");
    if (replica > per_instance || per_instance % replica != 0) continue;
    INFO(p.dump());
    CHECK(p.at("gpus").get<int64_t>() == p.at("instances").get<int64_t>() * per_instance);
    CHECK(p.at("replicas").get<int64_t>() * replica == p.at("gpus").get<int64_t>());
    CHECK(p.at("load").at("replicas").get<int64_t>() == p.at("replicas").get<int64_t>());
    ++whole;
  }
  CHECK(whole >= 3);
  // The cheapest plan is the one launched, with no note that it cannot be.
  const json l = value_of("launch", s);
  for (const json& n : l.at("note_details")) CHECK(n.at("code") != "cheapest_not_launchable");
  CHECK(check_load_plans(s) >= 1);
}
