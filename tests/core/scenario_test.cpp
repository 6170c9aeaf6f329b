// Scenario parsing: defaults of the spec, and an error naming the field for each kind of bad input.
#include <catch2/catch.hpp>

#include "scenario_error.h"

#include "base/error.h"
#include "scenario/scenario.h"

using namespace gpusizer;
using nlohmann::json;

TEST_CASE("Defaults follow the spec", "[scenario]") {
  const Scenario s = parse_scenario(json{{"model", "llama-3.1-8b"}});
  CHECK(s.task == Task::Inference);
  CHECK(s.engine == Engine::Vllm);
  CHECK(s.weights == WeightFormat::Bf16);
  CHECK(s.kv_cache == KvFormat::Bf16);
  CHECK(s.batch == 1);
  CHECK(s.seq_len == 2048);
  CHECK(s.prompt_tokens == 1024);
  CHECK(s.output_tokens == 1024);
  CHECK(s.flash_attention);
  CHECK(s.gpus == 1);
  CHECK(s.tp == 1);
  CHECK(s.pp == 1);
  CHECK(s.training.optimizer == Optimizer::Adamw);
  CHECK(s.training.master_weights);
  CHECK(s.training.zero == 0);
  CHECK(s.training.lora_rank == 8);
  CHECK(s.headroom == Approx(0.10));

  const Scenario q = parse_scenario(json{{"model", "llama-3.1-8b"}, {"task", "qlora"}});
  CHECK(q.weights == WeightFormat::Nf4);
  CHECK(q.engine == Engine::Deepspeed);
  CHECK(q.training.grad_checkpointing == Checkpointing::Full);
  const Scenario f = parse_scenario(json{{"model", "llama-3.1-8b"}, {"task", "full"}});
  CHECK(f.training.grad_checkpointing == Checkpointing::None);
}

TEST_CASE("Prompt and output split seq_len", "[scenario]") {
  const Scenario a =
      parse_scenario(json{{"model", "qwen2.5-7b"}, {"prompt_tokens", 1000}, {"output_tokens", 24}});
  CHECK(a.seq_len == 1024);
  const Scenario b = parse_scenario(json{{"model", "qwen2.5-7b"}, {"seq_len", 4096}, {"output_tokens", 96}});
  CHECK(b.prompt_tokens == 4000);
  CHECK(scenario_error_field(
            json{{"model", "qwen2.5-7b"}, {"seq_len", 10}, {"prompt_tokens", 6}, {"output_tokens", 6}}) ==
        "output_tokens");
}

TEST_CASE("Bad input names its field", "[scenario]") {
  const json base = {{"model", "llama-3.1-8b"}};
  auto with = [&](const char* key, json value) {
    json j = base;
    j[key] = std::move(value);
    return j;
  };
  CHECK(scenario_error_field(json::array()) == "scenario");
  CHECK(scenario_error_field(json("llama")) == "scenario");
  CHECK(scenario_error_field(json::object()) == "model");
  CHECK(scenario_error_field(json{{"model", "no-such-model"}}) == "model");
  CHECK(scenario_error_field(json{{"model", 7}}) == "model");
  CHECK(scenario_error_field(with("task", "finetune")) == "task");
  CHECK(scenario_error_field(with("engine", "ollama")) == "engine");
  CHECK(scenario_error_field(with("weights", "int3")) == "weights");
  CHECK(scenario_error_field(with("kv_cache", "fp4")) == "kv_cache");
  CHECK(scenario_error_field(with("batch", 0)) == "batch");
  CHECK(scenario_error_field(with("batch", -4)) == "batch");
  CHECK(scenario_error_field(with("batch", 1.5)) == "batch");
  CHECK(scenario_error_field(with("batch", "8")) == "batch");
  CHECK(scenario_error_field(with("batch", 1e308)) == "batch");
  CHECK(scenario_error_field(with("seq_len", 0)) == "seq_len");
  CHECK(scenario_error_field(with("flash_attention", "yes")) == "flash_attention");
  CHECK(scenario_error_field(with("gpu", "gtx1080")) == "gpu");
  CHECK(scenario_error_field(with("gpus", 0)) == "gpus");
  CHECK(scenario_error_field(with("colour", "red")) == "colour");
  CHECK(scenario_error_field(with("", 4)) == "\"\"");  // found by fuzz_scenario: an empty key is named too
  CHECK(scenario_error_field(with("training", json{{"zero", 4}})) == "training.zero");
  CHECK(scenario_error_field(with("training", json{{"zero", "3"}})) == "training.zero");
  CHECK(scenario_error_field(with("training", json{{"optimizer", "lion"}})) == "training.optimizer");
  CHECK(scenario_error_field(with("training", json{{"lora_rank", 0}})) == "training.lora_rank");
  CHECK(scenario_error_field(with("training", json{{"tokens", -1}})) == "training.tokens");
  CHECK(scenario_error_field(with("training", json{{"learning_rate", 1e-4}})) == "training.learning_rate");
  CHECK(scenario_error_field(with("training", 3)) == "training");
  CHECK(scenario_error_field(with("efficiency", json{{"mfu", 1.5}})) == "efficiency.mfu");
  CHECK(scenario_error_field(with("efficiency", json{{"mfu", 0}})) == "efficiency.mfu");
  CHECK(scenario_error_field(with("headroom", 0.95)) == "headroom");
}

TEST_CASE("Cross-field rules", "[scenario]") {
  // tp * pp must divide gpus.
  CHECK(scenario_error_field(json{{"model", "llama-3.1-8b"}, {"gpus", 6}, {"tp", 4}}) == "tp");
  // tp must divide the heads (Qwen2.5-7B has 28).
  CHECK(scenario_error_field(json{{"model", "qwen2.5-7b"}, {"gpus", 8}, {"tp", 8}}) == "tp");
  // pp cannot exceed the layers.
  CHECK(scenario_error_field(json{{"model", "gpt2"}, {"gpus", 16}, {"pp", 16}}) == "pp");
  // Serving engine for training and the reverse.
  CHECK(scenario_error_field(json{{"model", "llama-3.1-8b"}, {"task", "full"}, {"engine", "vllm"}}) ==
        "engine");
  CHECK(scenario_error_field(json{{"model", "llama-3.1-8b"}, {"engine", "deepspeed"}}) == "engine");
  // QLoRA needs a 4-bit base.
  CHECK(scenario_error_field(json{{"model", "llama-3.1-8b"}, {"task", "qlora"}, {"weights", "fp32"}}) ==
        "weights");
  // GGUF only on llama.cpp.
  CHECK(scenario_error_field(json{{"model", "llama-3.1-8b"}, {"weights", "q4_k_m"}}) == "weights");
  CHECK(scenario_error_field(
            json{{"model", "llama-3.1-8b"}, {"weights", "q4_k_m"}, {"engine", "llama.cpp"}}) == "");
  // Offload needs ZeRO.
  CHECK(scenario_error_field(
            json{{"model", "llama-3.1-8b"}, {"task", "full"}, {"training", {{"offload_optimizer", true}}}}) ==
        "training.zero");
  CHECK(scenario_error_field(json{{"model", "llama-3.1-8b"},
                                  {"task", "full"},
                                  {"training", {{"zero", 2}, {"offload_params", true}}}}) ==
        "training.offload_params");
  // tp alone implies one replica of tp GPUs.
  CHECK(parse_scenario(json{{"model", "llama-3.1-8b"}, {"tp", 4}}).gpus == 4);
}

TEST_CASE("Model objects: explicit fields, params only, hf_config", "[scenario]") {
  const Scenario p = parse_scenario(json{{"model", {{"params", 7e9}}}});
  REQUIRE_FALSE(p.warnings.empty());
  CHECK(p.warnings[0].code == "params_only_model");
  CHECK(scenario_error_field(json{{"model", {{"params", -7e9}}}}) == "model.params");
  CHECK(scenario_error_field(json{{"model", {{"params", 7e9}, {"layers", 3}}}}) == "model");
  CHECK(scenario_error_field(json{{"model", {{"hf_config", 5}}}}).rfind("model.hf_config", 0) == 0);
  const Scenario e = parse_scenario(json{{"model",
                                          {{"name", "tiny"},
                                           {"layers", 2},
                                           {"hidden", 64},
                                           {"heads", 4},
                                           {"intermediate", 256},
                                           {"vocab", 1000}}}});
  CHECK(e.model.kv_heads == 4);
  CHECK(e.model.head_dim == 16);
}

TEST_CASE("scenario_to_json round-trips", "[scenario]") {
  const Scenario s = parse_scenario(json{{"model", "qwen2.5-7b"},
                                         {"task", "lora"},
                                         {"batch", 4},
                                         {"training", {{"lora_rank", 16}, {"zero", 2}}}});
  const Scenario t = parse_scenario(scenario_to_json(s));
  CHECK(scenario_to_json(t) == scenario_to_json(s));
  CHECK(t.training.lora_rank == 16);
}
