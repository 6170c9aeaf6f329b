// Block-scaled fp8 checkpoints under SGLang need fp8 tensor cores: no plan on Ampere ranks as
// fitting, and the estimate says why (second senior review, Kimi K2 on A100).
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "api_answer.h"
#include "catalog/catalog.h"

using nlohmann::json;

TEST_CASE("SGLang ranks no Ampere plan for a block-fp8 checkpoint", "[plan]") {
  const json s = json::parse(
      R"({"model":"moonshotai/Kimi-K2-Instruct","engine":"sglang","prompt_tokens":4000,"output_tokens":1000,
          "batch":32})");
  const json plans = value_of("rank", s).at("plans");
  int fitting = 0;
  for (const json& p : plans) {
    if (!p.value("fits", false)) continue;
    ++fitting;
    INFO(p["instance"]);
    CHECK(gpusizer::find_gpu(p["gpu"].get<std::string>())->supports_fp8);
  }
  CHECK(fitting > 0);
  // The A100 run says why: the format, not the memory.
  json a100 = s;
  a100["filters"] = {{"gpus", {"a100-80gb", "a800-80gb"}}};
  const json a100_plans = value_of("rank", a100).at("plans");
  for (const json& p : a100_plans) {
    CHECK_FALSE(p.value("fits", false));
  }
  json at = json::parse(
      R"({"model":"deepseek-ai/DeepSeek-V3","engine":"sglang","seq_len":4096,"batch":8,"gpu":"a100-80gb",
          "gpus":32,"tp":32})");
  bool said = false;
  const json sglang = value_of("estimate", at).at("warning_details");
  for (const json& w : sglang) {
    said |= w.at("code") == "format_unsupported" && w.at("values").at("kind") == "fp8_blocks_sglang";
  }
  CHECK(said);
  // vLLM's Marlin path runs fp8 weight-only on Ampere: not refused there.
  at["engine"] = "vllm";
  const json vllm = value_of("estimate", at).at("warning_details");
  for (const json& w : vllm) {
    CHECK(w.at("code") != "format_unsupported");
  }
}
