// The hub a launch fetches the checkpoint from is the one its id names (review reject: a
// ModelScope id launched by vllm serve, which fetches from the Hugging Face Hub, unreachable from
// many machines in mainland China; and ms-swift, which fetches from ModelScope unless --use_hf).
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "api_answer.h"

using json = nlohmann::json;

namespace {

// `resolve` reads the typed name as text, not JSON.
std::string hub_of(const std::string& name) {
  const gpusizer::ApiResult r = gpusizer::run_command("resolve", name);
  REQUIRE(r.ok);
  return r.value.at("hub").get<std::string>();
}

}  // namespace

TEST_CASE("A ModelScope id is fetched from ModelScope by every serving tool", "[launch][hub]") {
  // ModelScope spells Qwen's organisation "qwen" (scenario.md's example); a modelscope.cn address
  // says so whatever the case.
  for (const char* model :
       {"qwen/Qwen2.5-7B-Instruct", "https://modelscope.cn/models/Qwen/Qwen2.5-7B-Instruct"}) {
    INFO(model);
    CHECK(hub_of(model) == "modelscope");
    const json vllm = value_of("launch", {{"model", model}, {"gpu", "a10"}});
    // vllm/envs.py: VLLM_USE_MODELSCOPE compared lower-case with "true".
    CHECK(command_text(vllm, "vllm").rfind("VLLM_USE_MODELSCOPE=true vllm serve ", 0) == 0);
    // ms-swift's own default hub is ModelScope: no --use_hf.
    CHECK(command_text(vllm, "ms-swift").find("--use_hf") == std::string::npos);
    const json sglang = value_of("launch", {{"model", model}, {"gpu", "a10"}, {"engine", "sglang"}});
    CHECK(command_text(sglang, "sglang").find("SGLANG_USE_MODELSCOPE=true python -m sglang.launch_server") !=
          std::string::npos);
  }
}

TEST_CASE("A Hugging Face id is fetched from the Hugging Face Hub, ms-swift included", "[launch][hub]") {
  for (const char* model : {"Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b"}) {
    INFO(model);
    const json l = value_of("launch", {{"model", model}, {"gpu", "a10"}});
    CHECK(command_text(l, "vllm").find("MODELSCOPE") == std::string::npos);
    CHECK(command_text(l, "ms-swift").find("--use_hf true") != std::string::npos);
  }
  CHECK(hub_of("Qwen/Qwen2.5-7B-Instruct") == "huggingface");
}

TEST_CASE("A LoRA of a ModelScope id: LLaMA-Factory is told to use the ModelScope hub", "[launch][hub]") {
  const json l = value_of("launch", {{"model", "qwen/Qwen2.5-7B-Instruct"},
                                     {"task", "lora"},
                                     {"gpu", "a100-80gb"},
                                     {"training", {{"tokens", 1e7}}}});
  // LLaMA-Factory's use_modelscope(): is_env_enabled("USE_MODELSCOPE_HUB") takes "true".
  bool found = false;
  for (const json& c : l.at("commands"))
    if (c.at("tool") == "llama-factory" && c.at("kind") == "shell")
      found = c.at("text").get<std::string>().find("USE_MODELSCOPE_HUB=true ") != std::string::npos;
  CHECK(found);
  CHECK(command_text(l, "ms-swift").find("--use_hf") == std::string::npos);
}
