// Serving memory: the spec's KV example, sharding, and the breakdown's invariants.
#include <catch2/catch.hpp>

#include "gpusizer/estimate.h"

using namespace gpusizer;
using nlohmann::json;

namespace {
MemoryEstimate memory_of(const json& scenario) {
  const Scenario s = parse_scenario(scenario);
  return estimate(s).memory;
}
constexpr double kGiB = 1024.0 * 1024 * 1024;
}  // namespace

TEST_CASE("The spec's KV-cache example", "[memory]") {
  // 2 x 32 layers x 8 KV heads x 128 x 2 bytes x 8192 tokens x 4 sequences (scenario.md issue #2).
  const MemoryEstimate m = memory_of(json{{"model", "llama-3.1-8b"}, {"seq_len", 8192}, {"batch", 4}});
  CHECK(m.breakdown.kv_cache == 4294967296.0);
  CHECK(m.kv_bytes_per_token == 131072);
}

TEST_CASE("Breakdown sums to the per-GPU total", "[memory]") {
  const MemoryEstimate m = memory_of(json{{"model", "qwen2.5-72b"}, {"gpus", 4}, {"tp", 4}, {"batch", 16}});
  CHECK(m.per_gpu_bytes == Approx(m.breakdown.total()).epsilon(1e-15));
  CHECK(m.breakdown.gradients == 0);
  CHECK(m.breakdown.optimizer == 0);
}

TEST_CASE("Tensor parallelism splits weights and KV heads", "[memory]") {
  const MemoryEstimate one = memory_of(json{{"model", "llama-3.1-70b"}, {"batch", 8}, {"seq_len", 4096}});
  const MemoryEstimate four = memory_of(json{{"model", "llama-3.1-70b"}, {"batch", 8}, {"seq_len", 4096}, {"tp", 4}});
  CHECK(four.breakdown.weights == Approx(one.breakdown.weights / 4).epsilon(1e-12));
  CHECK(four.breakdown.kv_cache == Approx(one.breakdown.kv_cache / 4).epsilon(1e-12));
  // 8 KV heads over 16 ranks: each keeps one head, so KV stops shrinking past tp = 8.
  const MemoryEstimate eight = memory_of(json{{"model", "llama-3.1-405b"}, {"tp", 8}, {"gpus", 8}});
  const MemoryEstimate sixteen = memory_of(json{{"model", "llama-3.1-405b"}, {"tp", 16}, {"gpus", 16}});
  CHECK(sixteen.breakdown.kv_cache == Approx(eight.breakdown.kv_cache));
}

TEST_CASE("MLA's latent cache is replicated across TP ranks", "[memory]") {
  const MemoryEstimate one = memory_of(json{{"model", "deepseek-v3"}, {"tp", 8}, {"seq_len", 4096}});
  // 61 x 576 x 2 bytes x 4096 tokens, on every rank.
  CHECK(one.breakdown.kv_cache == Approx(70272.0 * 4096));
}

TEST_CASE("Pipeline stages split the layers", "[memory]") {
  const MemoryEstimate one = memory_of(json{{"model", "llama-3.1-70b"}, {"seq_len", 4096}});
  const MemoryEstimate two = memory_of(json{{"model", "llama-3.1-70b"}, {"seq_len", 4096}, {"pp", 2}});
  CHECK(two.breakdown.kv_cache == Approx(one.breakdown.kv_cache / 2));
  CHECK(two.breakdown.weights < 0.55 * one.breakdown.weights);
  CHECK(two.breakdown.weights > 0.45 * one.breakdown.weights);
}

TEST_CASE("Qwen2.5-7B under transformers matches the published peak", "[memory][validation]") {
  // Qwen2.5 speed benchmark (transformers 4.46, A100 80GB, FlashAttention 2): BF16 with a
  // 30720-token prompt and 2048 generated tokens peaks at 19.97 GiB of max_memory_allocated.
  // Tolerance 10 %: allocated memory excludes the runtime share, so compare without it.
  const MemoryEstimate m = memory_of(json{{"model", "qwen2.5-7b"}, {"engine", "transformers"},
                                          {"prompt_tokens", 30720}, {"output_tokens", 2048}});
  const double allocated = m.per_gpu_bytes - m.breakdown.runtime;
  CHECK(allocated / kGiB == Approx(19.97).epsilon(0.10));
  // Same benchmark, 1-token prompt: 14.38 GiB, dominated by the 15.2 GB of bf16 weights.
  const MemoryEstimate s = memory_of(json{{"model", "qwen2.5-7b"}, {"engine", "transformers"},
                                          {"prompt_tokens", 1}, {"output_tokens", 2048}});
  CHECK((s.per_gpu_bytes - s.breakdown.runtime) / kGiB == Approx(14.38).epsilon(0.05));
}

TEST_CASE("Fit verdict and capability warnings", "[memory]") {
  const Estimate fits = estimate(parse_scenario(json{{"model", "qwen2.5-7b"}, {"gpu", "a100-80gb"}}));
  REQUIRE(fits.gpu);
  CHECK(fits.gpu->fits);
  const Estimate no = estimate(parse_scenario(json{{"model", "llama-3.1-70b"}, {"gpu", "rtx4090"}}));
  REQUIRE(no.gpu);
  CHECK_FALSE(no.gpu->fits);
  const Estimate t4 = estimate(parse_scenario(json{{"model", "qwen2.5-0.5b"}, {"gpu", "t4"}}));
  bool bf16_warned = false;
  for (const Warning& w : t4.warnings) bf16_warned |= w.code == "bf16_unsupported";
  CHECK(bf16_warned);
}

TEST_CASE("Sliding-window layers cap their cache at the window", "[memory]") {
  // Gemma-2-9B: 21 of 42 layers attend over a 4096-token window (config.json sliding_window).
  const MemoryEstimate short_ctx = memory_of(json{{"model", "gemma-2-9b"}, {"seq_len", 4096}});
  const MemoryEstimate long_ctx = memory_of(json{{"model", "gemma-2-9b"}, {"seq_len", 8192}});
  // Doubling the context past the window grows only the global half of the cache: x 1.5.
  CHECK(long_ctx.breakdown.kv_cache == Approx(1.5 * short_ctx.breakdown.kv_cache));
  CHECK(short_ctx.breakdown.kv_cache == Approx(short_ctx.kv_bytes_per_token * 4096));
}
