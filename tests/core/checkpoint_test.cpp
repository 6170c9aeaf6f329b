// The checkpoint a scenario names is the one sized and launched (scenario.h, Checkpoint): the
// repository as written, in the format its weights are stored in, on every serving engine.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "catalog/checkpoints.h"
#include "catalog/model_names.h"
#include "gpusizer/api.h"
#include "scenario/scenario.h"

using namespace gpusizer;
using json = nlohmann::json;

namespace {

struct Typed {
  const char* repo;
  const char* stored;  // the format the scenario must size by default
};

// Hub ids as people paste them (the current names, some not in the table: kept as written).
const Typed kTyped[] = {
    {"meta-llama/Llama-3.1-8B-Instruct", "bf16"},
    {"Qwen/Qwen2.5-32B-Instruct", "bf16"},
    {"Qwen/Qwen2.5-72B-Instruct-AWQ", "awq-int4"},
    {"Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", "gptq-int4"},
    {"Qwen/Qwen2.5-72B-Instruct-GPTQ-Int8", "gptq-int8"},
    {"meta-llama/Llama-3.1-405B-Instruct-FP8", "fp8"},
    {"Qwen/Qwen3-235B-A22B-Instruct-2507-FP8", "fp8"},
    {"Qwen/Qwen3-8B-FP8", "fp8"},
    {"hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4", "awq-int4"},
    {"deepseek-ai/DeepSeek-R1", "fp8"},
    {"deepseek-ai/DeepSeek-V3", "fp8"},
    {"deepseek-ai/DeepSeek-V3.1", "fp8"},
    {"moonshotai/Kimi-K2-Instruct", "fp8"},
    {"openai/gpt-oss-20b", "mxfp4"},
    {"openai/gpt-oss-120b", "mxfp4"},
    {"deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", "bf16"},
    {"deepseek-ai/DeepSeek-R1-Distill-Llama-70B", "bf16"},
    {"Qwen/Qwen2.5-7B-Instruct-GGUF", "q4_k_m"},
};

bool serving_format(const std::string& w) { return w != "q4_k_m" && w != "q8_0"; }

// The engines that load `weights` (launch.cpp engine_format_reason): GGUF on llama.cpp only.
std::vector<std::string> engines_for(const std::string& w) {
  if (!serving_format(w)) return {"llama.cpp"};
  if (w == "mxfp4") return {"vllm", "sglang"};
  return {"vllm", "sglang", "transformers"};
}

// The cheapest fitting plan's commands of `scenario`, or an empty list when none fits.
json commands_of(const json& scenario) {
  const ApiResult r = run_command("launch", scenario.dump());
  INFO(scenario.dump() << " -> " << r.error_field << ": " << r.error_message);
  if (!r.ok && r.error_code == "no_fitting_plan") return json::array();
  REQUIRE(r.ok);
  return r.value.at("commands");
}

void check_commands(const json& commands, const std::string& repo, const std::string& stored) {
  for (const json& c : commands) {
    const std::string text = c.at("text").get<std::string>();
    INFO(text);
    if (c.at("kind") != "shell") continue;
    CHECK(text.find(repo) != std::string::npos);  // the exact repository, as written
    // No conversion the checkpoint does not need: its config.json names its own method.
    if (stored != "bf16") CHECK(text.find("bitsandbytes") == std::string::npos);
    if (stored == "fp8" || stored == "mxfp4") CHECK(text.find("--quantization") == std::string::npos);
  }
}

}  // namespace

TEST_CASE("40+ Hub ids are sized in their stored format and launched as that repository", "[checkpoint]") {
  std::vector<Typed> ids(std::begin(kTyped), std::end(kTyped));
  // And a spread of the published table: every fifth entry, each format represented.
  const std::vector<PublishedCheckpoint>& all = published_checkpoints();
  // (A GGUF repository's first file is its default format.)
  for (size_t i = 0; i < all.size(); i += 5) {
    const PublishedCheckpoint* first = find_published_checkpoint(all[i].repo);
    ids.push_back({first->repo.c_str(), to_string(first->weights)});
  }
  REQUIRE(ids.size() >= 40);
  int launched = 0;
  for (const Typed& t : ids) {
    INFO(t.repo);
    const Scenario s = parse_scenario(json{{"model", t.repo}, {"engine", engines_for(t.stored).front()}});
    CHECK(s.checkpoint.repo == t.repo);
    CHECK(std::string(to_string(s.checkpoint.stored)) == t.stored);
    const std::string stored = t.stored;
    if (stored != "bf16" && stored != "fp16") CHECK(std::string(to_string(s.weights)) == t.stored);
    for (const std::string& engine : engines_for(t.stored)) {
      const json commands = commands_of(json{{"model", t.repo}, {"engine", engine}, {"seq_len", 4096}});
      if (!commands.empty()) ++launched;
      std::string repo = t.repo;
      check_commands(commands, repo, t.stored);
    }
  }
  CHECK(launched >= 60);
}

TEST_CASE("DeepSeek-R1, V3, Kimi K2 and gpt-oss are sized in their released formats", "[checkpoint]") {
  for (const char* id : {"deepseek-r1", "deepseek-v3", "deepseek-v3.1", "kimi-k2"}) {
    INFO(id);
    CHECK(parse_scenario(json{{"model", id}}).weights == WeightFormat::Fp8);
    // They train from 16-bit weights.
    CHECK(parse_scenario(json{{"model", id}, {"task", "lora"}}).weights == WeightFormat::Bf16);
  }
  CHECK(parse_scenario(json{{"model", "gpt-oss-120b"}}).weights == WeightFormat::Mxfp4);
  // gpt-oss-20b against its safetensors index (model.safetensors.index.json metadata.total_size,
  // core/data/checkpoints.json): the sized weights within 3 %.
  const PublishedCheckpoint* oss = find_published_checkpoint("openai/gpt-oss-20b");
  REQUIRE(oss != nullptr);
  REQUIRE(oss->total_size_bytes.has_value());
  const ApiResult r = run_command("estimate", R"({"model":"openai/gpt-oss-20b","gpu":"h100-80gb"})");
  REQUIRE(r.ok);
  const double weights = r.value.at("memory").at("breakdown").at("weights").get<double>();
  CHECK(weights == Approx(*oss->total_size_bytes).epsilon(0.03));
  // The others against what their publishers state (their safetensors indexes are not among the
  // sources this repository holds). gpt-oss model card (OpenAI, 2025-08), table 1: gpt-oss-120b's
  // checkpoint is 60.8 GiB (MXFP4 experts, bf16 elsewhere).
  const auto weights_of = [](const char* input) {
    const ApiResult e = run_command("estimate", input);
    REQUIRE(e.ok);
    return e.value.at("memory").at("breakdown").at("weights").get<double>();
  };
  CHECK(weights_of(R"({"model":"openai/gpt-oss-120b"})") == Approx(60.8 * 1024 * 1024 * 1024).epsilon(0.005));
  // DeepSeek-V3 README_WEIGHTS.md: main model 671B parameters (the MTP module's 11.5B are loaded
  // only for speculative decoding); FP8 is one byte each, plus the 16-bit embeddings, norms, gates
  // and the fp32 scale of every 128 x 128 block: within 1 % of 671 GB.
  for (const char* id : {"deepseek-ai/DeepSeek-R1", "deepseek-ai/DeepSeek-V3"}) {
    INFO(id);
    const ApiResult e = run_command("estimate", std::string(R"({"model":")") + id + R"("})");
    REQUIRE(e.ok);
    CHECK(e.value.at("model").at("params").get<double>() == Approx(671e9).epsilon(0.005));
    CHECK(e.value.at("memory").at("breakdown").at("weights").get<double>() == Approx(671e9).epsilon(0.01));
  }
  // Against the tensors themselves: public tensor listings of the two checkpoints' safetensors
  // (a model-information report per repository, each tensor's shape, dtype and bytes; sizes in GiB).
  // DeepSeek-R1: 163 files, tensors 641.29 GiB, 684,531,386,000 parameters, of which layer 61 (the
  // MTP module vLLM and SGLang load only for speculative decoding) holds 1/59 of the MoE layers'
  // experts, scales and gates (622.27 GiB), 1/62 of the attention and norms (10.81 GiB) and its own
  // embed_tokens, shared_head (1.73 GiB each) and eh_proj (0.19 GiB): 14.37 GiB, so the main model
  // is 626.92 GiB.
  // V3 is the same architecture in the same format.
  const double gib = 1024.0 * 1024 * 1024;
  for (const char* id : {"deepseek-ai/DeepSeek-R1", "deepseek-ai/DeepSeek-V3"}) {
    INFO(id);
    CHECK(weights_of((std::string(R"({"model":")") + id + R"("})").c_str()) ==
          Approx(626.92 * gib).epsilon(0.005));
  }
  // moonshotai/Kimi-K2-Instruct: 61 files, tensors 958.49 GiB, 1,026,470,731,056 parameters, no MTP
  // layer (num_nextn_predict_layers 0): FP8 128 x 128 blocks with bf16 embeddings, head, norms, gates.
  CHECK(weights_of(R"({"model":"moonshotai/Kimi-K2-Instruct"})") == Approx(958.49 * gib).epsilon(0.005));
}

TEST_CASE("a preset asked for a format it is published in gets that checkpoint", "[checkpoint]") {
  const Scenario awq = parse_scenario(json{{"model", "qwen2.5-72b"}, {"weights", "awq-int4"}});
  CHECK(awq.checkpoint.repo == "Qwen/Qwen2.5-72B-Instruct-AWQ");
  CHECK(awq.checkpoint.preset_repo == "Qwen/Qwen2.5-72B");
  const Scenario fp8 = parse_scenario(json{{"model", "qwen3-235b-a22b"}, {"weights", "fp8"}});
  CHECK(fp8.checkpoint.stored == WeightFormat::Fp8);
  CHECK(fp8.checkpoint.repo.find("FP8") != std::string::npos);
  // None published: a placeholder for a checkpoint quantized beforehand, never the 16-bit repository.
  const Scenario none = parse_scenario(json{{"model", "gemma-2-9b"}, {"weights", "gptq-int4"}});
  CHECK(none.checkpoint.repo.empty());
  const ApiResult r =
      run_command("launch", R"({"model":"gemma-2-9b","weights":"gptq-int4","engine":"vllm"})");
  REQUIRE(r.ok);
  CHECK(r.value.at("commands")[0].at("text").get<std::string>().find("vllm serve /path/to/model") == 0);
}

TEST_CASE("weights that contradict the named checkpoint, or a format no name tells, are errors",
          "[checkpoint]") {
  const auto error_of = [](const json& scenario) {
    const ApiResult r = run_command("estimate", scenario.dump());
    REQUIRE_FALSE(r.ok);
    return r;
  };
  const ApiResult fp8_as_bf16 = error_of(json{{"model", "deepseek-ai/DeepSeek-R1"}, {"weights", "bf16"}});
  CHECK(fp8_as_bf16.error_field == "weights");
  CHECK(fp8_as_bf16.error_code == "checkpoint_weights");
  const ApiResult awq_on_16bit =
      error_of(json{{"model", "Qwen/Qwen2.5-72B-Instruct"}, {"weights", "awq-int4"}});
  CHECK(awq_on_16bit.error_message ==
        "Qwen/Qwen2.5-72B-Instruct stores bf16 weights: no engine loads them as awq-int4; "
        "Qwen/Qwen2.5-72B-Instruct-AWQ is published in awq-int4");
  const ApiResult unread = error_of(json{{"model", "unsloth/DeepSeek-R1"}});
  CHECK(unread.error_field == "model");
  CHECK(unread.error_code == "checkpoint_format_unknown");
  // Stating the format resolves it.
  CHECK(run_command("estimate", R"({"model":"unsloth/DeepSeek-R1","weights":"bf16"})").ok);
}

TEST_CASE("online fp8 holds the 16-bit weights while it loads", "[checkpoint]") {
  // Qwen2.5-72B in bf16 (~135 GiB) on one H200 (~126 GiB usable): fp8 fits after loading, the load does not.
  const ApiResult r =
      run_command("estimate", R"({"model":"Qwen/Qwen2.5-72B-Instruct","weights":"fp8","gpu":"h200"})");
  REQUIRE(r.ok);
  CHECK_FALSE(r.value.at("gpu").at("fits").get<bool>());
  bool warned = false;
  for (const json& w : r.value.at("warning_details")) warned = warned || w.at("code") == "online_fp8_load";
  CHECK(warned);
  // The pre-quantized checkpoint loads directly.
  const ApiResult fp8 = run_command("estimate", R"({"model":"qwen2.5-72b","weights":"fp8","gpu":"h200"})");
  REQUIRE(fp8.ok);
}

TEST_CASE("contexts beyond the native window launch with the model card's YaRN override or not at all",
          "[checkpoint]") {
  const ApiResult vllm =
      run_command("launch", R"({"model":"qwen2.5-7b","seq_len":65536,"engine":"vllm","gpu":"h100-80gb"})");
  REQUIRE(vllm.ok);
  const std::string text = vllm.value.at("commands")[0].at("text").get<std::string>();
  CHECK(text.find("--hf-overrides '{\"rope_scaling\":{\"factor\":4.0,\"original_max_position_embeddings\":"
                  "32768,\"rope_type\":\"yarn\"}}'") != std::string::npos);
  // LMDeploy's commands carry no override here: no command rather than one that refuses to start.
  const ApiResult lm = run_command(
      "launch", R"({"model":"qwen2.5-7b","seq_len":65536,"engine":"lmdeploy","gpu":"h100-80gb"})");
  REQUIRE(lm.ok);
  CHECK(lm.value.at("commands").empty());
  // Kimi K2 runs its repository's code.
  const ApiResult kimi = run_command("launch", R"({"model":"moonshotai/Kimi-K2-Instruct","engine":"vllm"})");
  REQUIRE(kimi.ok);
  CHECK(kimi.value.at("commands")[0].at("text").get<std::string>().find("--trust-remote-code") !=
        std::string::npos);
}

TEST_CASE("engine_version selects the release's accounting and is refused outside the versions checked",
          "[checkpoint]") {
  const auto engine_of = [](const std::string& version) {
    const ApiResult r = run_command(
        "estimate",
        json{{"model", "llama-3.1-8b"}, {"gpu", "h100-80gb"}, {"engine_version", version}}.dump());
    REQUIRE(r.ok);
    return r.value.at("memory").at("engine");
  };
  // vLLM 0.6.3 counted the CUDA context in its non-torch memory; 0.6.5 counts only what grew.
  CHECK(engine_of("vllm 0.6.3").at("non_torch_bytes").get<double>() >
        engine_of("vllm 0.6.5").at("non_torch_bytes").get<double>());
  // A patch release names its row; "v" and the engine's name are optional.
  CHECK(engine_of("v0.6.4.post1") == engine_of("0.6.3"));
  CHECK(engine_of("vLLM 0.11.1") == engine_of("0.11"));
  // What a version does is not a setting: engine_options refuses it, naming the versions.
  const ApiResult given = run_command(
      "estimate",
      R"({"model":"llama-3.1-8b","gpu":"h100-80gb","engine_version":"0.6.3","engine_options":{"non_torch_accounting":"increase"}})");
  REQUIRE_FALSE(given.ok);
  CHECK(given.error_field == "engine_options.non_torch_accounting");
  CHECK(given.error_code == "engine_option_version_fact");
  CHECK(given.error_message.find("\"0.6.3\", \"0.6.5\" or \"0.11\"") != std::string::npos);

  const ApiResult unknown = run_command("estimate", R"({"model":"llama-3.1-8b","engine_version":"0.9"})");
  REQUIRE_FALSE(unknown.ok);
  CHECK(unknown.error_field == "engine_version");
  CHECK(unknown.error_code == "engine_version_unknown");
  CHECK(unknown.error_message.find("\"0.6.3\", \"0.6.5\" or \"0.11\"") != std::string::npos);
  const ApiResult other =
      run_command("estimate", R"({"model":"llama-3.1-8b","engine_version":"sglang 0.5"})");
  REQUIRE_FALSE(other.ok);
  CHECK(other.error_code == "engine_version_engine");
  // An older release launches with the checked flags, and says so.
  const ApiResult old =
      run_command("launch", R"({"model":"llama-3.1-8b","gpu":"h100-80gb","engine_version":"0.6.5"})");
  REQUIRE(old.ok);
  CHECK(old.value.at("note_details").dump().find("version_not_launch_checked") != std::string::npos);
}

TEST_CASE("A checkpoint with its own window: Qwen3 -2507 Instruct holds 262,144 positions natively",
          "[checkpoint]") {
  const Scenario s = parse_scenario(json{{"model", "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8"}});
  CHECK(s.model.max_positions == 262144);
  const ApiResult r =
      run_command("launch", R"({"model":"Qwen/Qwen3-30B-A3B-Instruct-2507","seq_len":131072,"gpu":"h200"})");
  REQUIRE(r.ok);
  // No YaRN override: the context is inside the checkpoint's own window.
  CHECK(r.value.at("commands")[0].at("text").get<std::string>().find("--hf-overrides") == std::string::npos);
  CHECK(parse_scenario(json{{"model", "qwen3-30b-a3b"}}).model.max_positions == 40960);
}

TEST_CASE("A GGUF repository named by Hub id is a GGUF checkpoint, each quant type one of its files",
          "[checkpoint]") {
  const auto text_of = [](const std::string& input) {
    const ApiResult r = run_command("launch", input);
    INFO(r.error_field << ": " << r.error_message);
    REQUIRE(r.ok);
    return r.value.at("commands")[0].at("text").get<std::string>();
  };
  // Not in the table: llama-server's own pick (its Q4_K_M, else its first file) unless a quant
  // type is asked.
  CHECK(text_of(R"({"model":"bartowski/Qwen2.5-32B-Instruct-GGUF","engine":"llama.cpp","gpu":"rtx4090"})")
            .find("-hf bartowski/Qwen2.5-32B-Instruct-GGUF \\") != std::string::npos);
  CHECK(
      text_of(
          R"({"model":"bartowski/Qwen2.5-32B-Instruct-GGUF","engine":"llama.cpp","weights":"q8_0","gpu":"h100-80gb"})")
          .find("-hf bartowski/Qwen2.5-32B-Instruct-GGUF:Q8_0") != std::string::npos);
  // In the table with another file: that file of the same repository.
  CHECK(
      text_of(
          R"({"model":"Qwen/Qwen2.5-7B-Instruct-GGUF","engine":"llama.cpp","weights":"q8_0","gpu":"rtx4090"})")
          .find("-hf Qwen/Qwen2.5-7B-Instruct-GGUF:Q8_0") != std::string::npos);
  // On vLLM the GGUF format is refused at the field.
  const ApiResult vllm = run_command("estimate", R"({"model":"bartowski/Qwen2.5-32B-Instruct-GGUF"})");
  REQUIRE_FALSE(vllm.ok);
  CHECK(vllm.error_field == "weights");
}

TEST_CASE("resolve claims no format for another repository of a low-bit release", "[checkpoint]") {
  // Third review: resolve answered fp8 "from the checkpoint" for DeepSeek-V3.1-Terminus, a repository
  // the catalog does not list, while the estimate asks for `weights` (checkpoint_format_unknown).
  const json other = resolve_json("deepseek-ai/DeepSeek-V3.1-Terminus");
  CHECK(other["id"] == "deepseek-v3.1");
  CHECK(other["weights"].is_null());
  CHECK(other["weights_from"].is_null());
  // The preset's own repository and a bare preset id are its release.
  CHECK(resolve_json("deepseek-ai/DeepSeek-V3.1")["weights"] == "fp8");
  CHECK(resolve_json("deepseek-v3.1")["weights"] == "fp8");
}
