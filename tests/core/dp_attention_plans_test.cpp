// Expert judgements on SGLang's data-parallel attention as a planned layout (docs/planner.md "DP
// attention"): an engineer serving DeepSeek-V3/R1 on one 8-GPU node at high concurrency starts
// SGLang with --tp 8 --enable-dp-attention --dp-size 8 (SGLang's DeepSeek guide and the LMSYS
// large-scale EP posts); at a handful of sequences plain TP attention reads fewer bytes per step.
// Written before the planner considered the option.
#include <catch2/catch.hpp>

#include <string>

#include "gpusizer/api.h"
#include "hf_configs.h"
#include "plan/estimate.h"
#include "plan/planner.h"

using namespace gpusizer;
using nlohmann::json;

namespace {

struct Ranked {
  Scenario s;
  std::vector<Plan> plans;
};

Ranked ranked(const json& j) {
  Ranked r{parse_scenario(j), {}};
  r.plans = rank_plans(r.s);
  return r;
}

const Plan& top(const Ranked& r) {
  REQUIRE_FALSE(r.plans.empty());
  REQUIRE(r.plans.front().fits);
  return r.plans.front();
}

// deepseek-ai/DeepSeek-V2.5 (236B, MLA): TP4 in fp8 fits 4 H200s.
const char* const kDeepSeekV2 = gpusizer_test::kDeepSeekV25Config;

json v3_on_h200(int64_t batch) {
  return json{{"model", "deepseek-v3"}, {"engine", "sglang"}, {"gpu", "h200"},
              {"batch", batch},         {"seq_len", 4096},    {"output_tokens", 1024}};
}

// The launch of the cheapest ranked plan on H200 instances (a scenario `gpu` would launch its own layout).
std::string launch_text(json scenario) {
  scenario.erase("gpu");
  scenario["filters"] = {{"gpus", {"h200"}}};
  const ApiResult r = run_command("launch", scenario.dump());
  INFO(r.error_field << ": " << r.error_message);
  REQUIRE(r.ok);
  const json& out = r.value;
  std::string text;
  for (const json& c : out["commands"]) text += c["text"].get<std::string>() + "\n";
  return text;
}

}  // namespace

TEST_CASE("Expert: SGLang serves DeepSeek-V3 at 256 sequences on 8 H200 with DP attention",
          "[expert][dp_attention]") {
  const Ranked r = ranked(v3_on_h200(256));
  const Plan& p = top(r);
  CHECK(p.instances == 1);
  CHECK(p.tp == 8);
  CHECK(p.pp == 1);
  CHECK(p.dp_attention);
  // The plan's own figures are the estimate's with the option on.
  Scenario t = r.s;
  t.gpus = p.gpus;
  t.tp = p.tp;
  t.engine_options.dp_attention = true;
  CHECK(estimate(t).memory.per_gpu_bytes == Approx(p.per_gpu_bytes).epsilon(1e-9));
  REQUIRE(p.throughput);
  CHECK(estimate(t).throughput->generation_tokens_per_s ==
        Approx(p.throughput->generation_tokens_per_s).epsilon(1e-9));
}

TEST_CASE("Expert: at one sequence SGLang keeps TP attention", "[expert][dp_attention]") {
  const Ranked r = ranked(v3_on_h200(1));
  const Plan& p = top(r);
  CHECK(p.tp == 8);
  CHECK_FALSE(p.dp_attention);
}

TEST_CASE("Expert: DP attention is planned only where it exists: SGLang and vLLM, MLA models, serving",
          "[expert][dp_attention]") {
  json lmdeploy = v3_on_h200(256);
  lmdeploy["engine"] = "lmdeploy";
  for (const Plan& p : ranked(lmdeploy).plans) CHECK_FALSE(p.dp_attention);
  json gqa = json{
      {"model", "qwen3-235b-a22b"}, {"engine", "sglang"}, {"gpu", "h200"}, {"batch", 256}, {"seq_len", 4096},
      {"output_tokens", 1024}};
  for (const Plan& p : ranked(gqa).plans) CHECK_FALSE(p.dp_attention);
  json off = v3_on_h200(256);
  off["engine_options"] = {{"dp_attention", false}};
  for (const Plan& p : ranked(off).plans) CHECK_FALSE(p.dp_attention);
}

TEST_CASE("Expert: the launch line sets the DP attention the plan was sized with", "[expert][dp_attention]") {
  const std::string on = launch_text(v3_on_h200(256));
  CHECK(on.find("--enable-dp-attention") != std::string::npos);
  CHECK(on.find("--dp-size 8") != std::string::npos);
  CHECK(on.find("--tp-size 8") != std::string::npos);
  CHECK(on.find("--max-running-requests 256") != std::string::npos);  // SGLang divides it by dp_size
  CHECK(on.find("--mem-fraction-static") != std::string::npos);  // its default does not hold under the flag
  const std::string off = launch_text(v3_on_h200(1));
  CHECK(off.find("--enable-dp-attention") == std::string::npos);
  CHECK(off.find("--dp-size") == std::string::npos);
}

TEST_CASE("Expert: DP attention replicas in one node are separate servers", "[expert][dp_attention]") {
  // 2 x TP4 on one 8-GPU node: SGLang's --dp-size is the attention's data parallelism under
  // --enable-dp-attention, so replicas cannot share one command.
  json j = {{"model", {{"hf_config", json::parse(kDeepSeekV2)}}},
            {"engine", "sglang"},
            {"weights", "fp8"},
            {"gpu", "h200"},
            {"gpus", 8},
            {"tp", 4},
            {"batch", 64},
            {"engine_options", {{"dp_attention", true}}}};
  const ApiResult r = run_command("launch", j.dump());
  INFO(r.error_field << ": " << r.error_message);
  REQUIRE(r.ok);
  const json& out = r.value;
  const std::string text = out["commands"][0]["text"].get<std::string>();
  CHECK(text.find("--dp-size 4") != std::string::npos);
  CHECK(text.find("CUDA_VISIBLE_DEVICES=0,1,2,3 ") != std::string::npos);
  bool note = false;
  for (const json& n : out["note_details"]) note = note || n["code"] == "replica_per_server";
  CHECK(note);
}

TEST_CASE("engine_options.dp_attention is SGLang's and vLLM's: other engines are told so", "[dp_attention]") {
  const ApiResult r = run_command(
      "estimate",
      R"({"model":"deepseek-v3","engine":"lmdeploy","gpu":"h200","gpus":8,"tp":8,"engine_options":{"dp_attention":true}})");
  REQUIRE_FALSE(r.ok);
  CHECK(r.error_field == "engine_options.dp_attention");
  CHECK(r.error_code == "dp_attention_engine");
}

TEST_CASE("Expert: what it takes counts the GPUs DP attention saves", "[expert][dp_attention]") {
  const Scenario s = parse_scenario(v3_on_h200(256));
  for (const GpuTakes& t : what_it_takes(s)) {
    if (t.gpu->id != "h200") continue;
    CHECK(t.fits);
    CHECK(t.gpus == 8);
    CHECK(t.dp_attention);
  }
  for (const GpuTakes& t : what_it_takes(parse_scenario(v3_on_h200(1)))) {
    if (t.gpu->id == "h200") CHECK_FALSE(t.dp_attention);
  }
}
