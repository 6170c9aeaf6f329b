// One model of the serving engines' KV budget: the launch's KV note, its --gpu-memory-utilization and
// the load planner's concurrency agree with the estimate's memory.engine (vLLM's and SGLang's start-up
// accounting) at the flags the launch writes.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "api_answer.h"

using nlohmann::json;

namespace {

const json& note(const json& launch, const std::string& code) {
  for (const json& n : launch.at("note_details"))
    if (n.at("code") == code) return n;
  FAIL("no note " << code);
  static const json none;
  return none;
}

// The estimate's engine accounting at the launch's own flags.
json engine_at_launch(json scenario, const json& launch) {
  const std::string vllm = command_text(launch, "vllm");
  if (!vllm.empty()) {
    scenario["engine_options"]["max_num_seqs"] = std::stoll(flag_value(vllm, "--max-num-seqs"));
    scenario["engine_options"]["gpu_memory_utilization"] =
        std::stod(flag_value(vllm, "--gpu-memory-utilization"));
  } else {
    scenario["engine_options"]["mem_fraction_static"] =
        std::stod(flag_value(command_text(launch, "sglang"), "--mem-fraction-static"));
  }
  return value_of("estimate", scenario).at("memory").at("engine");
}

}  // namespace

TEST_CASE("The launch's KV note is the engine accounting of the estimate at the launch's flags", "[launch]") {
  // DeepSeek-V3 under vLLM's DP attention: per rank, as the estimate sizes it (second review, reject 2).
  const json dpa = json::parse(
      R"({"model":"deepseek-v3","engine":"vllm","prompt_tokens":1000,"output_tokens":1000,"gpu":"h200",
          "gpus":8,"tp":8,"batch":128,"engine_options":{"dp_attention":true}})");
  // Llama-3.1-405B-FP8 over 8 H100 (reject 6), gpt-oss-120b's sliding-window layers (reject 5), and
  // SGLang's static pool under its DP attention.
  const json llama = json::parse(
      R"({"model":"meta-llama/Llama-3.1-405B-Instruct-FP8","engine":"vllm","prompt_tokens":4096,
          "output_tokens":1024,"batch":32,"gpu":"h100-80gb","gpus":8,"tp":8})");
  const json oss = json::parse(
      R"({"model":"openai/gpt-oss-120b","engine":"vllm","prompt_tokens":2048,"output_tokens":2048,"batch":32,
          "gpu":"h100-80gb","gpus":1})");
  const json sglang = json::parse(
      R"({"model":"deepseek-v3","engine":"sglang","prompt_tokens":1000,"output_tokens":1000,"gpu":"h200",
          "gpus":8,"tp":8,"batch":128,"engine_options":{"dp_attention":true}})");
  for (const json& s : {dpa, llama, oss, sglang}) {
    INFO(s.dump());
    const json launch = value_of("launch", s);
    const json e = engine_at_launch(s, launch);
    const json& k = note(launch, "kv_capacity").at("values");
    CHECK(k.at("budget_bytes").get<double>() == Approx(e.at("kv_cache_bytes").get<double>()).epsilon(1e-9));
    const bool per_rank = s.contains("engine_options");
    const double ranks = per_rank ? s.at("tp").get<double>() : 1;
    CHECK(k.at("sequences").get<double>() ==
          std::floor(e.at("max_concurrency").get<double>() + 1e-9) * ranks);
    CHECK(k.at("sequences").get<int64_t>() >= s.at("batch").get<int64_t>());
  }
}

TEST_CASE("vLLM's utilization is raised until its own accounting holds the batch, and only then",
          "[launch]") {
  // 405B FP8 at 4096 + 1024: at 0.90 vLLM holds fewer than 36 sequences; the launch raises the
  // utilization and says why; at the value written the engine holds them all.
  json s = json::parse(
      R"({"model":"meta-llama/Llama-3.1-405B-Instruct-FP8","engine":"vllm","prompt_tokens":4096,
          "output_tokens":1024,"batch":44,"gpu":"h100-80gb","gpus":8,"tp":8})");
  json held = s;
  held["engine_options"] = {{"max_num_seqs", 44}};
  const double at_default = value_of("estimate", held)["memory"]["engine"]["max_concurrency"];
  REQUIRE(at_default < 44);
  const json launch = value_of("launch", s);
  const double util = std::stod(flag_value(command_text(launch, "vllm"), "--gpu-memory-utilization"));
  CHECK(util > 0.9);
  CHECK(util <= 0.95);
  CHECK(note(launch, "vllm_utilization").at("values").at("held") == static_cast<int64_t>(at_default));
  CHECK(engine_at_launch(s, launch).at("max_concurrency").get<double>() >= 44);
  // One hundredth less would not hold them.
  held["engine_options"]["gpu_memory_utilization"] = util - 0.01;
  CHECK(value_of("estimate", held)["memory"]["engine"]["max_concurrency"].get<double>() < 44);
  // The same at 32 sequences: the default holds, nothing is raised.
  s["batch"] = 32;
  const json fits = value_of("launch", s);
  CHECK(flag_value(command_text(fits, "vllm"), "--gpu-memory-utilization") == "0.90");
  CHECK_FALSE(has_note(fits, "vllm_utilization"));
  // A stated utilization is the one written, even where it holds fewer.
  s["batch"] = 44;
  s["engine_options"] = {{"gpu_memory_utilization", 0.88}};
  const json stated = value_of("launch", s);
  CHECK(flag_value(command_text(stated, "vllm"), "--gpu-memory-utilization") == "0.88");
  CHECK(flag_value(command_text(stated, "ms-swift"), "--vllm_gpu_memory_utilization") == "0.88");
  CHECK_FALSE(has_note(stated, "vllm_utilization"));
  bool short_warned = false;
  for (const json& w : stated.at("warning_details")) short_warned |= w.at("code") == "launch_kv_short";
  CHECK(short_warned);
}

TEST_CASE("vLLM counts a sliding-window layer's blocks of one request as its hybrid allocator does",
          "[memory]") {
  // gpt-oss-120b: 18 of 36 layers slide over 128 tokens. At 4096 tokens with 8192 batched tokens the
  // window's share is the whole request (min(127 + 8192, 4096)): the full per-token cost. At 65536
  // tokens a sliding layer takes cdiv(127 + 8192, 16) + 1 = 521 blocks against 4096 for a full one.
  json s = json::parse(R"({"model":"gpt-oss-120b","engine":"vllm","seq_len":4096,"batch":1,"gpu":"h200"})");
  const json short_ctx = value_of("estimate", s)["memory"]["engine"];
  CHECK(short_ctx["max_concurrency"].get<double>() ==
        Approx(short_ctx["kv_tokens"].get<double>() / (4096 + 16 * 0.5)).epsilon(1e-9));
  s["seq_len"] = 65536;
  const json long_ctx = value_of("estimate", s)["memory"]["engine"];
  const double request = 0.5 * 65536 + 0.5 * 521 * 16;
  CHECK(long_ctx["max_concurrency"].get<double>() ==
        Approx(long_ctx["kv_tokens"].get<double>() / request).epsilon(1e-9));
}

TEST_CASE("A load plan's concurrency is what vLLM's accounting holds at the launch's flags", "[plan]") {
  // DeepSeek-R1 FP8 at 2 requests/s on H200 (second review, reject 1).
  const json s = json::parse(
      R"({"model":"deepseek-ai/DeepSeek-R1","weights":"fp8","engine":"vllm","kv_cache":"bf16",
          "prompt_tokens":2000,"output_tokens":1000,"filters":{"gpus":["h200"]},
          "load":{"requests_per_s":2,"ttft_s":2,"tpot_s":0.05}})");
  const json plans = value_of("rank", s).at("plans");
  REQUIRE(!plans.empty());
  int checked = 0;
  for (const json& p : plans) {
    if (!p.contains("load") || checked == 5) continue;
    ++checked;
    const int64_t batch = p["load"]["concurrency_per_replica"];
    json at = {{"model", s["model"]},   {"weights", "fp8"},
               {"engine", "vllm"},      {"kv_cache", "bf16"},
               {"prompt_tokens", 2000}, {"output_tokens", 1000},
               {"gpu", p["gpu"]},       {"gpus", p["tp"].get<int64_t>() * p["pp"].get<int64_t>()},
               {"tp", p["tp"]},         {"pp", p["pp"]},
               {"batch", batch},        {"engine_options", {{"max_num_seqs", batch}}}};
    if (p.value("dp_attention", false)) continue;  // per-rank seqs: the launch test above covers DPA
    INFO(at.dump());
    CHECK(value_of("estimate", at)["memory"]["engine"]["max_concurrency"].get<double>() >= batch);
  }
  CHECK(checked > 0);
}
