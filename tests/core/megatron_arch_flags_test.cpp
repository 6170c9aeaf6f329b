// The Megatron-LM pretrain_gpt.py line builds the model from flags: the RoPE base, Llama 3.1's
// rope scaling and the norm epsilon come from the model (a preset or a pasted config.json), not
// from Megatron-LM's defaults (--rotary-base 10000, no scaling, --norm-epsilon 1e-5).
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "api_answer.h"
#include "gpusizer/api.h"

using namespace gpusizer;
using json = nlohmann::json;

namespace {

json launch(const json& input) { return value_of("launch", input); }

json pretrain(const json& model) {
  return json{
      {"model", model},     {"task", "pretrain"}, {"engine", "megatron"},
      {"batch", 2},         {"seq_len", 8192},    {"training", {{"tokens", 1e11}, {"grad_accum", 16}}},
      {"gpu", "h100-80gb"}, {"gpus", 8},          {"tp", 8}};
}

std::string megatron(const json& out) { return command_text(out, "megatron-lm"); }

bool has(const std::string& text, const std::string& flag) { return text.find(flag) != std::string::npos; }

std::string error_field(const json& input) {
  const ApiResult r = run_command("launch", input.dump());
  return r.ok ? "no error" : r.error_field;
}

// A Llama-style config.json with the given RoPE base and epsilon.
json llama_config(const json& theta, const json& eps) {
  json c = {{"architectures", {"LlamaForCausalLM"}},
            {"model_type", "llama"},
            {"hidden_size", 4096},
            {"intermediate_size", 14336},
            {"num_attention_heads", 32},
            {"num_key_value_heads", 8},
            {"num_hidden_layers", 32},
            {"vocab_size", 128256},
            {"max_position_embeddings", 8192}};
  if (!theta.is_null()) c["rope_theta"] = theta;
  if (!eps.is_null()) c["rms_norm_eps"] = eps;
  return c;
}

}  // namespace

TEST_CASE("Llama-3.1-8B trains with rope base 500000 and Llama 3.1's rope scaling", "[megatron]") {
  const json out = launch(pretrain("llama-3.1-8b"));
  const std::string m = megatron(out);
  REQUIRE(!m.empty());
  CHECK(has(m, "--rotary-base 500000 \\"));
  CHECK(has(m, "--use-rope-scaling \\"));
  CHECK(!has(m, "--norm-epsilon"));  // 1e-5, Megatron-LM's default
  CHECK(!has_note(out, "megatron_rotary_base"));
  CHECK(!has_note(out, "megatron_rope_scaling"));
}

TEST_CASE("Mixtral-8x7B trains with rope base 1e6, no scaling", "[megatron]") {
  const std::string m = megatron(launch(pretrain("mixtral-8x7b")));
  CHECK(has(m, "--rotary-base 1000000 \\"));
  CHECK(!has(m, "--use-rope-scaling"));
  CHECK(!has(m, "--norm-epsilon"));
}

TEST_CASE("Qwen3-8B trains with rope base 1e6 and norm epsilon 1e-6", "[megatron]") {
  const std::string m = megatron(launch(pretrain("qwen3-8b")));
  CHECK(has(m, "--rotary-base 1000000 \\"));
  CHECK(has(m, "--norm-epsilon 1e-6 \\"));
  CHECK(!has(m, "--use-rope-scaling"));
}

TEST_CASE("Llama-2-7B states its rope base 10000 though it is Megatron-LM's default", "[megatron]") {
  json input = pretrain("llama-2-7b");
  input["seq_len"] = 4096;  // its window
  const json out = launch(input);
  CHECK(has(megatron(out), "--rotary-base 10000 \\"));
  CHECK(!has_note(out, "megatron_rotary_base"));
}

TEST_CASE("Llama-3.2-1B's rope scaling (factor 32) is not what --use-rope-scaling applies", "[megatron]") {
  const json out = launch(pretrain("llama-3.2-1b"));
  const std::string m = megatron(out);
  CHECK(has(m, "--rotary-base 500000 \\"));
  CHECK(!has(m, "--use-rope-scaling"));
  CHECK(has_note(out, "megatron_rope_scaling"));
}

TEST_CASE("A pasted config.json's rope_theta and rms_norm_eps reach the flags", "[megatron]") {
  const json out = launch(pretrain({{"hf_config", llama_config(2e6, 1e-6)}}));
  const std::string m = megatron(out);
  CHECK(has(m, "--rotary-base 2000000 \\"));
  CHECK(has(m, "--norm-epsilon 1e-6 \\"));
  CHECK(!has_note(out, "megatron_rotary_base"));
}

TEST_CASE("A pasted config.json with Llama 3.1's rope_scaling gets --use-rope-scaling", "[megatron]") {
  json c = llama_config(500000.0, 1e-5);
  c["rope_scaling"] = {{"factor", 8.0},
                       {"low_freq_factor", 1.0},
                       {"high_freq_factor", 4.0},
                       {"original_max_position_embeddings", 8192},
                       {"rope_type", "llama3"}};
  CHECK(has(megatron(launch(pretrain({{"hf_config", c}}))), "--use-rope-scaling \\"));
  c["rope_scaling"]["factor"] = 32.0;
  const json out = launch(pretrain({{"hf_config", c}}));
  CHECK(!has(megatron(out), "--use-rope-scaling"));
  CHECK(has_note(out, "megatron_rope_scaling"));
}

TEST_CASE("A config.json without a RoPE base of its own is noted, not guessed", "[megatron]") {
  json c = llama_config(nullptr, 1e-5);
  c["model_type"] = "some_new_model";
  c["architectures"] = {"SomeNewForCausalLM"};
  const json out = launch(pretrain({{"hf_config", c}}));
  CHECK(!has(megatron(out), "--rotary-base"));
  CHECK(has_note(out, "megatron_rotary_base"));
  // LlamaConfig's own default is 10000.0 (meta-llama/Llama-2-7b-hf's config.json names none).
  CHECK(has(megatron(launch(pretrain({{"hf_config", llama_config(nullptr, 1e-5)}}))),
            "--rotary-base 10000 \\"));
}

TEST_CASE("A bad rope_theta or norm epsilon in config.json is an error naming the field", "[megatron]") {
  CHECK(error_field(pretrain({{"hf_config", llama_config(-1, 1e-5)}})) == "model.hf_config.rope_theta");
  CHECK(error_field(pretrain({{"hf_config", llama_config("500000", 1e-5)}})) == "model.hf_config.rope_theta");
  CHECK(error_field(pretrain({{"hf_config", llama_config(1, 1e-5)}})) == "model.hf_config.rope_theta");
  CHECK(error_field(pretrain({{"hf_config", llama_config(1e4, 0)}})) == "model.hf_config.rms_norm_eps");
  CHECK(error_field(pretrain({{"hf_config", llama_config(1e4, "1e-5")}})) == "model.hf_config.rms_norm_eps");
  json c = llama_config(5e5, 1e-5);
  c["rope_scaling"] = {{"rope_type", "llama3"}, {"factor", 8.0}};
  CHECK(error_field(pretrain({{"hf_config", c}})) == "model.hf_config.rope_scaling.low_freq_factor");
  c["rope_scaling"] = "llama3";
  CHECK(error_field(pretrain({{"hf_config", c}})) == "model.hf_config.rope_scaling");
}
