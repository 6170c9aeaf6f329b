// Engine terms of the speed model: CUDA graphs on/off, chunked prefill inside decode steps, and
// pipeline stages that run a prompt one after another (llama.cpp layer split). Behaviour only:
// no assertion on the published figures the constants came from (those are in speed_test.cpp,
// labelled [validation], and docs/validation.md scores the held-out data).
#include <catch2/catch.hpp>

#include "gpusizer/error.h"
#include "gpusizer/speed.h"

using namespace gpusizer;
using nlohmann::json;

namespace {
Throughput run(json j, const char* gpu = "a100-80gb") { return estimate_throughput(parse_scenario(j), *find_gpu(gpu)); }
}  // namespace

TEST_CASE("CUDA graphs off adds per-layer host time to each decode step", "[speed][engine]") {
  const json base = {{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"prompt_tokens", 128}, {"output_tokens", 128}};
  json eager = base;
  eager["efficiency"] = {{"cuda_graphs", false}};
  json graphs = base;
  graphs["efficiency"] = {{"cuda_graphs", true}};
  const double step_graphs = 1 / run(graphs).decode_tokens_per_s;
  const double step_eager = 1 / run(eager).decode_tokens_per_s;
  CHECK(run(base).decode_tokens_per_s == Approx(run(graphs).decode_tokens_per_s));  // vLLM default: graphs on
  // Eager: the host launches 32 layers at 0.88 ms (longer than the GPU's ~10 ms), plus the 3 ms step.
  CHECK(step_eager == Approx(32 * 0.88e-3 + 3e-3).epsilon(0.01));
  CHECK(step_eager > 2 * step_graphs);
  // transformers is eager by default; a compiled static cache drops the per-layer time.
  json hf = base;
  hf["engine"] = "transformers";
  json hf_graphs = hf;
  hf_graphs["efficiency"] = {{"cuda_graphs", true}};
  CHECK(run(hf_graphs).decode_tokens_per_s > 1.3 * run(hf).decode_tokens_per_s);
}

TEST_CASE("Chunked prefill: a burst's prompts stretch each request's time per output token", "[speed][engine]") {
  auto t = [&](int batch) {
    return run({{"model", "qwen2.5-7b"}, {"batch", batch}, {"prompt_tokens", 1024}, {"output_tokens", 128}});
  };
  // One request: TPOT is the decode step.
  CHECK(t(1).time_per_output_token_s == Approx(1 / t(1).decode_tokens_per_s));
  // 64 requests at once: the step plus 63/64 of the batch's prefill over 128 tokens.
  const Throughput b = t(64);
  CHECK(b.time_per_output_token_s == Approx(64 / b.decode_tokens_per_s + 63.0 / 64 * b.time_to_first_token_s / 128));
  CHECK(b.time_per_output_token_s > 2 * 64 / b.decode_tokens_per_s);
}

TEST_CASE("Layer-split prefill runs the stages one after another", "[speed][engine]") {
  auto prefill = [&](const char* engine, int gpus) {
    return run({{"model", "llama-3-8b"}, {"engine", engine}, {"weights", "fp16"}, {"gpus", gpus}, {"pp", gpus},
                {"prompt_tokens", 512}, {"output_tokens", 1}},
               "rtx3090")
        .prefill_tokens_per_s;
  };
  CHECK(prefill("llama.cpp", 4) == Approx(prefill("llama.cpp", 1)).epsilon(0.05));
  CHECK(prefill("vllm", 4) > 3 * prefill("vllm", 1));
}

TEST_CASE("efficiency.cuda_graphs must be a boolean", "[speed][engine]") {
  std::string field;
  try {
    parse_scenario(json{{"model", "qwen2.5-7b"}, {"efficiency", {{"cuda_graphs", 1}}}});
  } catch (const InputError& e) {
    field = e.field;
  }
  CHECK(field == "efficiency.cuda_graphs");
}
