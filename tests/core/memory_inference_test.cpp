// Serving memory: the spec's KV example, sharding, and the breakdown's invariants.
#include <catch2/catch.hpp>

#include "base/error.h"
#include "plan/estimate.h"

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
  const MemoryEstimate four =
      memory_of(json{{"model", "llama-3.1-70b"}, {"batch", 8}, {"seq_len", 4096}, {"tp", 4}});
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
  const MemoryEstimate m = memory_of(json{{"model", "qwen2.5-7b"},
                                          {"engine", "transformers"},
                                          {"prompt_tokens", 30720},
                                          {"output_tokens", 2048}});
  const double allocated = m.per_gpu_bytes - m.breakdown.runtime;
  CHECK(allocated / kGiB == Approx(19.97).epsilon(0.10));
  // Same benchmark, 1-token prompt: 14.38 GiB, dominated by the 15.2 GB of bf16 weights.
  const MemoryEstimate s = memory_of(json{
      {"model", "qwen2.5-7b"}, {"engine", "transformers"}, {"prompt_tokens", 1}, {"output_tokens", 2048}});
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

TEST_CASE("Local/global mixes of 2025 models: only the global layers keep the whole context", "[memory]") {
  // gpt-oss-120b: 36 layers x 8 KV heads x 64 x 2 (K, V) x 2 bytes = 73,728 B a token; 18 layers
  // keep a 128-token window (config.json layer_types, sliding_window 128).
  const MemoryEstimate oss = memory_of(json{{"model", "gpt-oss-120b"}, {"seq_len", 131072}, {"batch", 1}});
  CHECK(oss.kv_bytes_per_token == 73728);
  CHECK(oss.breakdown.kv_cache == 73728.0 * (0.5 * 131072 + 0.5 * 128));
  // Gemma-3-27B: 52 of 62 layers keep 1024 tokens; at 128K the cache is ~1/5 of a full one.
  const MemoryEstimate gemma = memory_of(json{{"model", "gemma-3-27b"}, {"seq_len", 131072}});
  const double full = gemma.kv_bytes_per_token * 131072;
  CHECK(gemma.breakdown.kv_cache == Approx(full * (10.0 / 62 + 52.0 / 62 * 1024 / 131072)));
  // Llama 4 Scout: chunked attention (8192) on 36 of 48 layers.
  const MemoryEstimate scout =
      memory_of(json{{"model", "llama-4-scout"}, {"seq_len", 1048576}, {"weights", "fp8"}});
  CHECK(scout.breakdown.kv_cache ==
        Approx(scout.kv_bytes_per_token * (12.0 / 48 * 1048576 + 36.0 / 48 * 8192)));
}

TEST_CASE("Hybrid linear attention: a KV cache in 12 of 48 layers, a fixed state in 36", "[memory]") {
  // Qwen3-Next-80B-A3B: full attention every 4th layer (2 KV heads x 256), Gated DeltaNet in the
  // rest: 32 value heads x 128 x 128 recurrent values + 3 x (2 x 16 x 128 + 32 x 128) conv inputs.
  const MemoryEstimate m = memory_of(json{{"model", "qwen3-next-80b-a3b"}, {"seq_len", 65536}, {"batch", 2}});
  CHECK(m.kv_bytes_per_token == 2.0 * 12 * 2 * 256 * 2);
  const double state = 36.0 * (32 * 128 * 128 + 3 * (2 * 16 * 128 + 32 * 128)) * 2;
  CHECK(m.breakdown.kv_cache == Approx(m.kv_bytes_per_token * 65536 * 2 + state * 2));
  // The state does not grow with the context.
  const MemoryEstimate longer =
      memory_of(json{{"model", "qwen3-next-80b-a3b"}, {"seq_len", 131072}, {"batch", 2}});
  CHECK(longer.breakdown.kv_cache - m.breakdown.kv_cache == Approx(m.kv_bytes_per_token * 65536 * 2));
}

TEST_CASE("Released formats: gpt-oss in mxfp4, vision towers and fp8 KV", "[memory]") {
  // gpt-oss-120b serves from its MXFP4 checkpoint by default: experts at 4.25 bits, the rest
  // bf16; the model card's claim is that it fits one 80 GB GPU.
  const MemoryEstimate mx = memory_of(json{{"model", "gpt-oss-120b"}, {"seq_len", 4096}});
  const MemoryEstimate bf =
      memory_of(json{{"model", "gpt-oss-120b"}, {"seq_len", 4096}, {"weights", "bf16"}});
  CHECK(mx.breakdown.weights < 66e9);
  CHECK(mx.breakdown.weights > 60e9);
  CHECK(bf.breakdown.weights > 3 * mx.breakdown.weights);
  // The vision tower loads in 16 bits next to the 4-bit language model.
  const MemoryEstimate vl = memory_of(json{{"model", "Qwen/Qwen2.5-VL-7B-Instruct-AWQ"}});
  const MemoryEstimate text = memory_of(json{{"model", "qwen2.5-7b"}, {"weights", "awq-int4"}});
  CHECK(vl.breakdown.weights - text.breakdown.weights == Approx(676550144.0 * 2));
  // fp8 KV halves the cache of a bf16 one.
  const MemoryEstimate kv8 =
      memory_of(json{{"model", "deepseek-r1"}, {"kv_cache", "fp8"}, {"seq_len", 32768}});
  const MemoryEstimate kv16 = memory_of(json{{"model", "deepseek-r1"}, {"seq_len", 32768}});
  CHECK(kv8.breakdown.kv_cache == Approx(kv16.breakdown.kv_cache / 2));
}

TEST_CASE("Older transformers generate(): full-prompt fp32 logits and the tuple KV cache", "[memory]") {
  // Llama-2-13B, 16 prompts of 512 tokens + 512 new (optimum's 2023-08 GPTQ benchmark shape).
  json base = {{"model", "llama-2-13b"}, {"engine", "transformers"}, {"weights", "fp16"}, {"batch", 16},
               {"prompt_tokens", 512},   {"output_tokens", 512}};
  const MemoryEstimate now = memory_of(base);
  // transformers 4.36 to 4.44: every prompt position's logits, DynamicCache.
  base["engine_version"] = "transformers 4.44";
  const MemoryEstimate logits = memory_of(base);
  // transformers < 4.45: bf16 logits + fp32 upcast of every prompt position, 16 x 512 x 32000 x
  // (2 + 4), beside the final hidden states (8192 tokens x 5120 x 2): larger than the last block's
  // working set, which is freed before the head runs.
  CHECK(logits.breakdown.activations == Approx(16.0 * 512 * 32000 * 6 + 8192.0 * 5120 * 2));
  CHECK(logits.breakdown.activations > now.breakdown.activations);
  CHECK(logits.breakdown.kv_cache == Approx(now.breakdown.kv_cache));
  base["engine_version"] = "transformers 4.35";
  const MemoryEstimate tuple = memory_of(base);
  // transformers < 4.36: the new cache (1024 tokens) beside the previous step's (1023 tokens).
  CHECK(tuple.breakdown.kv_cache == Approx(now.breakdown.kv_cache * (1 + 1023.0 / 1024)));
  CHECK(tuple.breakdown.activations == Approx(logits.breakdown.activations));
  CHECK(tuple.per_gpu_bytes == Approx(tuple.breakdown.total()).epsilon(1e-15));
  // AutoAWQ's fused modules keep their own cache whatever the transformers version.
  json fused = base;
  fused["weights"] = "awq-int4";
  fused["engine_options"] = {{"fused_layers", true}};
  json fused_now = fused;
  fused_now.erase("engine_version");
  CHECK(memory_of(fused).breakdown.kv_cache == Approx(memory_of(fused_now).breakdown.kv_cache));
  // These are facts of a version, not settings: engine_options refuses them, naming the field.
  for (const char* key : {"full_prompt_logits", "legacy_kv_cache"}) {
    INFO(key);
    json given = base;
    given["engine_options"] = {{key, true}};
    try {
      parse_scenario(given);
      FAIL("accepted engine_options." << key);
    } catch (const InputError& e) {
      CHECK(e.field == std::string("engine_options.") + key);
      CHECK(e.code == "engine_option_version_fact");
      CHECK(std::string(e.what()).find("\"4.35\"") != std::string::npos);
    }
  }
}

TEST_CASE("AutoAWQ fused layers: max_new_tokens cache, eager fp32 softmax, the fuser's qkv copy",
          "[memory]") {
  // Mistral-7B AWQ, 8 prompts of 2048 tokens + 2048 new (AutoAWQ README benchmark shape).
  json base = {{"model", "mistral-7b"}, {"engine", "transformers"}, {"weights", "awq-int4"}, {"batch", 8},
               {"prompt_tokens", 2048}, {"output_tokens", 2048}};
  const MemoryEstimate plain = memory_of(base);
  base["engine_options"] = {{"fused_layers", true}};
  const MemoryEstimate fused = memory_of(base);
  // WindowedCache: max_new_tokens (2048) positions x 8 sequences x 32 layers x 2 x 8 KV heads x 128 x 2 B.
  CHECK(fused.breakdown.kv_cache == Approx(2.0 * kGiB));
  CHECK(plain.breakdown.kv_cache == Approx(4.0 * kGiB));
  // Prefill scores 8 x 32 heads x 2048 x 2048 x (2 + 4 + 4) bytes = 10 GiB on top of the block.
  base["engine_options"] = json::object();
  base["flash_attention"] = false;
  const MemoryEstimate eager = memory_of(base);  // plain eager: (2 + 4) bytes per score
  CHECK(fused.breakdown.activations - eager.breakdown.activations == Approx(8.0 * 32 * 2048 * 2048 * 4));
  // A short prompt: the loading peak (every layer's q, k, v copied by fuse_qkv) dominates.
  json shortp = {{"model", "mistral-7b"}, {"engine", "transformers"},
                 {"weights", "awq-int4"}, {"prompt_tokens", 64},
                 {"output_tokens", 64},   {"engine_options", {{"fused_layers", true}}}};
  const MemoryEstimate s = memory_of(shortp);
  // q, k, v: 32 layers x 4096 x (4096 + 1024 + 1024) weights at awq-int4's bytes per linear weight.
  const Scenario sc = parse_scenario(shortp);
  const ParamCounts p = count_params(sc.model);
  const double per_param = weight_bytes(sc.model, WeightFormat::AwqInt4).linear / p.linear;
  CHECK(s.breakdown.activations == Approx(32.0 * 4096 * 6144 * per_param));
  CHECK(s.per_gpu_bytes == Approx(s.breakdown.total()).epsilon(1e-15));
}
