// Model names as people type them: preset ids, Hub and ModelScope ids, URLs, loose spellings,
// the weight format a checkpoint name carries, and "did you mean" on a miss.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "catalog/model_names.h"
#include "gpusizer/api.h"
#include "scenario/scenario.h"

using gpusizer::InputError;
using gpusizer::match_model_name;
using gpusizer::ModelNameMatch;
using nlohmann::json;

namespace {

struct Spelling {
  const char* typed;
  const char* id;
  const char* weights;  // nullptr: the name carries no format
};

// Each as a user would type or paste it: Hub ids (with the -Instruct/-Chat/-it/-AWQ suffixes),
// ModelScope ids (qwen/, LLM-Research/, ZhipuAI/), URLs, Ollama tags and loose spellings.
const Spelling kSpellings[] = {
    {"llama-3.1-8b", "llama-3.1-8b", nullptr},
    {"llama 3.1 8b", "llama-3.1-8b", nullptr},
    {"Llama 3.1 8B", "llama-3.1-8b", nullptr},
    {"llama3.1:8b", "llama-3.1-8b", nullptr},
    {"meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b", nullptr},
    {"meta-llama/Meta-Llama-3.1-8B-Instruct", "llama-3.1-8b", nullptr},
    {"LLM-Research/Meta-Llama-3.1-8B-Instruct", "llama-3.1-8b", nullptr},
    {"https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/tree/main", "llama-3.1-8b", nullptr},
    {"lama 3.1 8b", "llama-3.1-8b", nullptr},  // one-letter typo, same numbers
    {"Llama-3.3-70B-Instruct", "llama-3.3-70b", nullptr},
    {"meta-llama/Llama-3.3-70B-Instruct", "llama-3.3-70b", nullptr},
    {"meta-llama/Meta-Llama-3-8B-Instruct", "llama-3-8b", nullptr},
    {"Llama-2-7b-chat-hf", "llama-2-7b", nullptr},
    {"Qwen/Qwen2.5-72B-Instruct-AWQ", "qwen2.5-72b", "awq-int4"},
    {"qwen2.5 72b instruct", "qwen2.5-72b", nullptr},
    {"qwen2.5 72b instrcut", "qwen2.5-72b", nullptr},  // misspelt noise word
    {"Qwen2.5-72B-Instruct", "qwen2.5-72b", nullptr},
    {"qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b", nullptr},  // ModelScope
    {"https://modelscope.cn/models/qwen/Qwen2.5-14B-Instruct", "qwen2.5-14b", nullptr},
    {"Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8", "qwen2.5-7b", "gptq-int8"},
    {"Qwen/Qwen2.5-32B-Instruct-GPTQ-Int4", "qwen2.5-32b", "gptq-int4"},
    {"unsloth/Qwen2.5-7B-Instruct-bnb-4bit", "qwen2.5-7b", "nf4"},
    {"Qwen2.5-7B-Instruct-Q4_K_M.gguf", "qwen2.5-7b", "q4_k_m"},
    {"Qwen/Qwen3-30B-A3B-Instruct-2507", "qwen3-30b-a3b", nullptr},
    {"qwen3 30b", "qwen3-30b-a3b", nullptr},  // a unique prefix
    {"Qwen/Qwen3-235B-A22B-FP8", "qwen3-235b-a22b", "fp8"},
    {"Qwen/Qwen3-Coder-480B-A35B-Instruct", "qwen3-coder-480b-a35b", nullptr},
    {"Qwen/Qwen2.5-VL-7B-Instruct", "qwen2.5-vl-7b", nullptr},
    {"Qwen/Qwen2.5-VL-72B-Instruct-AWQ", "qwen2.5-vl-72b", "awq-int4"},
    {"deepseek-ai/DeepSeek-R1", "deepseek-r1", "fp8"},
    {"deepseek r1", "deepseek-r1", "fp8"},
    {"deepseek-ai/DeepSeek-R1-0528", "deepseek-r1", "fp8"},
    {"DeepSeek-R1-Distill-Qwen-32B", "deepseek-r1-distill-qwen-32b", nullptr},
    {"deepseek-ai/DeepSeek-R1-Distill-Llama-70B", "deepseek-r1-distill-llama-70b", nullptr},
    {"deepseek-ai/DeepSeek-V3.1", "deepseek-v3.1", "fp8"},
    {"deepseek v3", "deepseek-v3", "fp8"},
    {"moonshotai/Kimi-K2-Instruct", "kimi-k2", "fp8"},
    {"kimi k2", "kimi-k2", "fp8"},
    {"zai-org/GLM-4.5-Air", "glm-4.5-air", nullptr},
    {"ZhipuAI/GLM-4.5", "glm-4.5", nullptr},
    {"zai-org/GLM-4.5-FP8", "glm-4.5", "fp8"},
    {"ZhipuAI/glm-4-9b-chat", "glm-4-9b", nullptr},
    {"openai/gpt-oss-20b", "gpt-oss-20b", "mxfp4"},  // released in MXFP4 only
    {"gpt-oss:120b", "gpt-oss-120b", "mxfp4"},
    {"google/gemma-3-27b-it", "gemma-3-27b", nullptr},
    {"gemma3:4b", "gemma-3-4b", nullptr},
    {"meta-llama/Llama-4-Scout-17B-16E-Instruct", "llama-4-scout", nullptr},
    {"Llama-4-Maverick-17B-128E-Instruct-FP8", "llama-4-maverick", "fp8"},
    {"mistralai/Mistral-Small-24B-Instruct-2501", "mistral-small-3-24b", nullptr},
    {"mistralai/Mixtral-8x7B-Instruct-v0.1", "mixtral-8x7b", nullptr},
    {"microsoft/phi-4", "phi-4", nullptr},
    {"phi4", "phi-4", nullptr},
    {"bert-base-uncased", "bert-base", nullptr},
    {"01-ai/Yi-34B-Chat", "yi-34b", nullptr},
    {"THUDM/chatglm3-6b", "chatglm3-6b", nullptr},
    {"mistralai/Mistral-Small-3.2-24B-Instruct-2506", "mistral-small-3.1-24b", nullptr},
    {"Qwen/Qwen3-Next-80B-A3B-Instruct-FP8", "qwen3-next-80b-a3b", "fp8"},
};

}  // namespace

TEST_CASE("typed names, Hub and ModelScope ids resolve to a preset with the checkpoint's format") {
  int checked = 0;
  for (const Spelling& s : kSpellings) {
    INFO(s.typed);
    const ModelNameMatch m = match_model_name(s.typed);
    REQUIRE(m.preset != nullptr);
    CHECK(m.preset->id == s.id);
    CHECK(m.has_weights == (s.weights != nullptr));
    if (s.weights) CHECK(std::string(gpusizer::to_string(m.weights)) == s.weights);
    ++checked;
  }
  CHECK(checked >= 30);
}

TEST_CASE("every preset's id, name and Hub repo resolve to itself") {
  for (const gpusizer::Architecture& a : gpusizer::model_presets()) {
    INFO(a.id);
    for (const std::string& name : {a.id, a.name, a.hf_repo}) {
      const ModelNameMatch m = match_model_name(name);
      REQUIRE(m.preset != nullptr);
      CHECK(m.preset->id == a.id);
    }
    for (const std::string& alias : a.aliases) {
      INFO(alias);
      const ModelNameMatch m = match_model_name(alias);
      REQUIRE(m.preset != nullptr);
      CHECK(m.preset->id == a.id);
    }
  }
}

TEST_CASE("the normaliser: tokens at separators and where letters meet digits, noise dropped") {
  CHECK(gpusizer::normalize_model_name("Qwen/Qwen2.5-72B-Instruct-AWQ") == "qwen 2.5 72b");
  CHECK(gpusizer::normalize_model_name("meta-llama/Meta-Llama-3.1-8B-Instruct") == "llama 3.1 8b");
  CHECK(gpusizer::normalize_model_name("Qwen3-30B-A3B-Instruct-2507") == "qwen 3 30b a 3b");
  CHECK(gpusizer::normalize_model_name("google/gemma-3-27b-it") == "gemma 3 27b");
  CHECK(gpusizer::normalize_model_name("  ") == "");
}

TEST_CASE("a miss is an error naming the field, with what the user may have meant") {
  SECTION("one family, several sizes: say which") {
    const ModelNameMatch m = match_model_name("gemma 3");
    CHECK(m.preset == nullptr);
    CHECK(m.ambiguous);
    CHECK(m.suggestions ==
          std::vector<std::string>{"gemma-3-1b", "gemma-3-4b", "gemma-3-12b", "gemma-3-27b"});
    try {
      gpusizer::resolve_model_name("gemma 3", "model");
      FAIL("gemma 3 resolved");
    } catch (const InputError& e) {
      CHECK(e.field == "model");
      CHECK(std::string(e.what()).find("did you mean gemma-3-1b, gemma-3-4b, gemma-3-12b or gemma-3-27b?") !=
            std::string::npos);
    }
  }
  SECTION("a size that no preset has is not rounded to a neighbour") {
    const ModelNameMatch m = match_model_name("llama 3.1 7b");
    CHECK(m.preset == nullptr);
    REQUIRE_FALSE(m.suggestions.empty());
    CHECK(m.suggestions.front() == "llama-3.1-8b");
  }
  SECTION("a Hub id that is no preset asks for its config.json") {
    try {
      gpusizer::resolve_model_name("someone/Totally-Unknown-Model", "model");
      FAIL("resolved");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find("not a preset, give its config.json") != std::string::npos);
    }
  }
  SECTION("a huge string is refused at once, not compared") {
    const std::string huge(10 * 1024 * 1024, 'a');
    try {
      gpusizer::resolve_model_name(huge, "model");
      FAIL("resolved");
    } catch (const InputError& e) {
      CHECK(e.field == "model");
      CHECK(std::string(e.what()).find("no model name has more than 256") != std::string::npos);
    }
    CHECK_FALSE(gpusizer::run_command("estimate", json{{"model", huge}}.dump()).ok);
    const gpusizer::ApiResult r = gpusizer::run_command("resolve", json(huge).dump());
    CHECK_FALSE(r.ok);
  }
  SECTION("nonsense gets no suggestion") {
    const ModelNameMatch m = match_model_name("zzzzzzzzzzzzzzzzzzzzzzzzzzzz");
    CHECK(m.preset == nullptr);
    CHECK(m.suggestions.empty());
  }
}

TEST_CASE("a scenario takes the typed name, and the name's format unless weights are given") {
  const gpusizer::Scenario awq =
      gpusizer::parse_scenario(json::parse(R"({"model": "Qwen/Qwen2.5-72B-Instruct-AWQ"})"));
  CHECK(awq.model.id == "qwen2.5-72b");
  CHECK(awq.weights == gpusizer::WeightFormat::AwqInt4);
  REQUIRE_FALSE(awq.warnings.empty());
  CHECK(awq.warnings.front().code == "model_name_resolved");
  // A named checkpoint is loaded as it is stored: other weights contradict it, and the error
  // names the field and the checkpoint that is published in them.
  try {
    gpusizer::parse_scenario(json::parse(R"({"model": "Qwen/Qwen2.5-72B-Instruct-AWQ", "weights": "bf16"})"));
    FAIL("no error");
  } catch (const gpusizer::InputError& e) {
    CHECK(e.field == "weights");
    CHECK(e.code == "checkpoint_weights");
    CHECK(std::string(e.what()) ==
          "Qwen/Qwen2.5-72B-Instruct-AWQ stores awq-int4 weights: no engine loads them as bf16; "
          "Qwen/Qwen2.5-72B-Instruct is published in bf16");
  }
  // The preset asked for bf16 is the preset's own repository.
  const gpusizer::Scenario given =
      gpusizer::parse_scenario(json::parse(R"({"model": "qwen2.5-72b", "weights": "bf16"})"));
  CHECK(given.weights == gpusizer::WeightFormat::Bf16);
  CHECK(given.checkpoint.repo == "Qwen/Qwen2.5-72B");
  const gpusizer::Scenario id = gpusizer::parse_scenario(json::parse(R"({"model": "llama-3.1-8b"})"));
  for (const gpusizer::Warning& w : id.warnings)
    CHECK(w.code != "model_name_resolved");  // an exact id needs no note
  // gpt-oss serves in its released mxfp4 and trains from 16-bit weights.
  CHECK(gpusizer::parse_scenario(json::parse(R"({"model": "gpt-oss-20b"})")).weights ==
        gpusizer::WeightFormat::Mxfp4);
  CHECK(gpusizer::parse_scenario(json::parse(R"({"model": "gpt-oss-20b", "task": "lora"})")).weights ==
        gpusizer::WeightFormat::Bf16);
  try {
    gpusizer::parse_scenario(json::parse(R"({"model": "llama 3.1"})"));
    FAIL("resolved");
  } catch (const InputError& e) {
    CHECK(e.field == "model");
    CHECK(std::string(e.what()).find("did you mean llama-3.1-8b, llama-3.1-70b or llama-3.1-405b?") !=
          std::string::npos);
  }
}

TEST_CASE("the resolve command answers the page: found, format, suggestions, config URLs") {
  const gpusizer::ApiResult hit = gpusizer::run_command("resolve", "\"Qwen/Qwen2.5-72B-Instruct-AWQ\"");
  REQUIRE(hit.ok);
  CHECK(hit.value["found"] == true);
  CHECK(hit.value["id"] == "qwen2.5-72b");
  CHECK(hit.value["weights"] == "awq-int4");
  CHECK(hit.value["hub_id"] == "Qwen/Qwen2.5-72B-Instruct-AWQ");
  CHECK(hit.value["config_urls"].empty());

  const gpusizer::ApiResult plain = gpusizer::run_command("resolve", "llama 3.1 8b");
  REQUIRE(plain.ok);
  CHECK(plain.value["id"] == "llama-3.1-8b");
  CHECK(plain.value["weights"].is_null());

  const gpusizer::ApiResult miss =
      gpusizer::run_command("resolve", R"({"model": "https://huggingface.co/SomeOrg/New-Model-9B"})");
  REQUIRE(miss.ok);
  CHECK(miss.value["found"] == false);
  CHECK(miss.value["hub_id"] == "SomeOrg/New-Model-9B");
  CHECK(miss.value["config_urls"] ==
        json::array({"https://huggingface.co/SomeOrg/New-Model-9B/resolve/main/config.json",
                     "https://modelscope.cn/models/SomeOrg/New-Model-9B/resolve/master/config.json"}));
  CHECK(miss.value["message"].get<std::string>().find("unknown preset id") == 0);

  for (const char* bad : {"", "  ", "{\"name\": \"x\"}", "{\"model\": 3}", "\"unterminated"}) {
    INFO(bad);
    const gpusizer::ApiResult r = gpusizer::run_command("resolve", bad);
    CHECK_FALSE(r.ok);
    CHECK((r.error_field == "model" || r.error_field == "input"));
  }
}

TEST_CASE("formats a card cannot run are named in the estimate", "[precision]") {
  const gpusizer::ApiResult v100 =
      gpusizer::run_command("estimate", R"({"model": "gpt-oss-20b", "gpu": "v100-32gb"})");
  REQUIRE(v100.ok);
  bool named = false;
  for (const json& w : v100.value["warning_details"]) named = named || w["code"] == "format_unsupported";
  CHECK(named);  // mxfp4 needs compute capability 8.0
  const gpusizer::ApiResult a100 =
      gpusizer::run_command("estimate", R"({"model": "gpt-oss-20b", "gpu": "a100-80gb"})");
  REQUIRE(a100.ok);
  for (const json& w : a100.value["warning_details"]) CHECK(w["code"] != "format_unsupported");
}
