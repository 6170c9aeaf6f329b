// Weight and KV-cache byte counts against hand-derived golden numbers.
#include <catch2/catch.hpp>

#include <cmath>

#include "model/architecture.h"
#include "model/precision.h"

using namespace gpusizer;

namespace {
const Architecture& preset(const char* id) {
  const Architecture* a = find_preset(id);
  REQUIRE(a != nullptr);
  return *a;
}
}  // namespace

TEST_CASE("KV bytes per token follow the attention layout", "[precision]") {
  // 2 (K,V) x 32 layers x 8 KV heads x 128 x 2 bytes (facts_models.md, "KV-cache bytes per token").
  CHECK(kv_bytes_per_token(preset("llama-3-8b"), KvFormat::Bf16) == 131072);
  // Qwen2.5-7B: 2 x 28 x 4 x 128 x 2 = 57344 (GQA with 4 KV heads).
  CHECK(kv_bytes_per_token(preset("qwen2.5-7b"), KvFormat::Bf16) == 57344);
  // DeepSeek-V3 MLA: 61 layers x (kv_lora_rank 512 + rope 64) x 2 bytes = 70272.
  CHECK(kv_bytes_per_token(preset("deepseek-v3"), KvFormat::Bf16) == 70272);
  // MHA: Llama-2-7B 2 x 32 x 32 x 128 x 2 = 524288; fp8 halves it.
  CHECK(kv_bytes_per_token(preset("llama-2-7b"), KvFormat::Bf16) == 524288);
  CHECK(kv_bytes_per_token(preset("llama-2-7b"), KvFormat::Fp8) == 262144);
  // int4 cache: half a byte per element + fp16 scale and zero per head and token (4 B / 128).
  CHECK(kv_bytes_per_token(preset("llama-2-7b"), KvFormat::Int4) == Approx(524288 / 4.0 * (1 + 4.0 / 64)));
  // Encoders keep no cache.
  CHECK(kv_bytes_per_token(preset("bert-base"), KvFormat::Bf16) == 0);
}

TEST_CASE("NF4 weights of a 65B model: double-quantised blocks, 16-bit embeddings", "[precision]") {
  const Architecture& a = preset("llama-65b");
  const WeightBytes w = weight_bytes(a, WeightFormat::Nf4);
  // Linear weights: 80 x (4 x 8192^2 + 3 x 8192 x 22016) = 64,760,053,760 at 4.127 bits
  // (QLoRA paper section 3: 4 + 8/64 + 32/(64*256) bits).
  const double linear = 80.0 * (4.0 * 8192 * 8192 + 3.0 * 8192 * 22016);
  CHECK(w.linear == Approx(linear * (4 + 8.0 / 64 + 32.0 / 16384) / 8).epsilon(1e-12));
  // Embeddings and the untied LM head stay bf16: 2 x 32000 x 8192 x 2 bytes.
  CHECK(w.embedding + w.lm_head == Approx(2.0 * 32000 * 8192 * 2).epsilon(1e-12));
  // About 32.1 GiB in all: the 4-bit weights of a 65B model alone exceed a 24 GB card.
  CHECK(w.total() / (1024.0 * 1024 * 1024) == Approx(32.1).margin(0.05));
  CHECK(w.total() > 24e9);
}

TEST_CASE("GGUF files: block layouts and llama.cpp's mixes", "[precision]") {
  // The validation set's CodeLlama-7B Q4_0 file is 3.56 GiB (llama.cpp PR #4766 table); the same
  // layout on Llama-2-7B (vocab 32000 instead of 32016) lands within 0.5 % of it.
  const double q4_0 = weight_bytes(preset("llama-2-7b"), WeightFormat::Q4_0).total() / (1024.0 * 1024 * 1024);
  CHECK(q4_0 == Approx(3.56).epsilon(0.005));
  const double q8_0 = weight_bytes(preset("llama-2-7b"), WeightFormat::Q8_0).total() / (1024.0 * 1024 * 1024);
  CHECK(q8_0 == Approx(6.67).epsilon(0.005));
  // Q4_K_M sits between Q4_K (4.5 bpw) and Q6_K (6.5625 bpw).
  const double q4km = weight_bytes(preset("llama-2-7b"), WeightFormat::Q4_K_M).linear;
  const double q4ks = weight_bytes(preset("llama-2-7b"), WeightFormat::Q4_K_S).linear;
  CHECK(q4km > q4ks);
}

TEST_CASE("GPTQ and AWQ int4 carry group scales and zeros", "[precision]") {
  const Architecture& a = preset("qwen2.5-7b");
  const WeightBytes gptq = weight_bytes(a, WeightFormat::GptqInt4);
  const WeightBytes awq = weight_bytes(a, WeightFormat::AwqInt4);
  const WeightBytes bf16 = weight_bytes(a, WeightFormat::Bf16);
  // 4 + (16 + 4)/128 bits per weight vs 16: ratio 0.2598 (+ GPTQ's g_idx).
  CHECK(awq.linear / bf16.linear == Approx((4 + 20.0 / 128) / 16).epsilon(1e-9));
  CHECK(gptq.linear > awq.linear);
  CHECK(gptq.embedding == bf16.embedding);
}

TEST_CASE("Format ids round-trip", "[precision]") {
  for (const std::string& id : weight_format_ids()) {
    WeightFormat f;
    REQUIRE(parse_weight_format(id, &f));
    CHECK(id == to_string(f));
  }
  for (const std::string& id : kv_format_ids()) {
    KvFormat f;
    REQUIRE(parse_kv_format(id, &f));
    CHECK(id == to_string(f));
  }
  WeightFormat f;
  CHECK_FALSE(parse_weight_format("int3", &f));
}

TEST_CASE("MXFP4 and NVFP4: block scales, and which modules stay 16-bit", "[precision]") {
  const Architecture& oss = preset("gpt-oss-20b");
  const ParamCounts p = count_params(oss);
  double experts = 0, router = 0;
  for (const LinearModule& m : linear_modules(oss)) {
    const double n = static_cast<double>(m.in) * static_cast<double>(m.out) * static_cast<double>(m.count);
    if (m.group == "experts") experts += n;
    if (m.group == "router") router += n;
  }
  // gpt-oss: experts at 4 + 8/32 bits (OCP MX: E8M0 scale per 32 E2M1 values); attention and
  // router in bf16 (modules_to_not_convert).
  const WeightBytes mx = weight_bytes(oss, WeightFormat::Mxfp4);
  CHECK(mx.linear == Approx(experts * 4.25 / 8 + (p.linear - experts) * 2));
  // The model card: gpt-oss-20b runs within 16 GB of memory, gpt-oss-120b on one 80 GB GPU.
  CHECK(mx.total() < 16e9);
  CHECK(mx.total() > 12e9);
  CHECK(weight_bytes(preset("gpt-oss-120b"), WeightFormat::Mxfp4).total() < 80e9);
  CHECK(weight_bytes(preset("gpt-oss-120b"), WeightFormat::Bf16).total() > 80e9);
  // NVFP4: 4 + 8/16 bits + two fp32 scales per tensor, router bf16.
  const Architecture& dense = preset("llama-3.1-8b");
  double tensors = 0, weights = 0;
  for (const LinearModule& m : linear_modules(dense)) {
    tensors += static_cast<double>(m.count);
    weights += static_cast<double>(m.in) * static_cast<double>(m.out) * static_cast<double>(m.count);
  }
  CHECK(weight_bytes(dense, WeightFormat::Nvfp4).linear == Approx(weights * 4.5 / 8 + 8 * tensors));
  // A dense model in MXFP4 quantizes every linear layer.
  CHECK(weight_bytes(dense, WeightFormat::Mxfp4).linear == Approx(weights * 4.25 / 8));
  CHECK(router > 0);
}

TEST_CASE("FP8 checkpoints: one fp32 scale per 128 x 128 block, the router in bf16", "[precision]") {
  const Architecture& ds = preset("deepseek-r1");
  double expected = 0;
  for (const LinearModule& m : linear_modules(ds)) {
    const double n = static_cast<double>(m.in) * static_cast<double>(m.out);
    const double blocks =
        std::ceil(static_cast<double>(m.in) / 128) * std::ceil(static_cast<double>(m.out) / 128);
    expected += static_cast<double>(m.count) * (m.group == "router" ? 2 * n : n + 4 * blocks);
  }
  CHECK(weight_bytes(ds, WeightFormat::Fp8).linear == Approx(expected).epsilon(1e-12));
  // The block scales cost 4 / 16384 bytes a weight: well under 0.1 % of the fp8 bytes.
  const double plain = count_params(ds).linear;
  CHECK(weight_bytes(ds, WeightFormat::Fp8).linear > plain);
  CHECK(weight_bytes(ds, WeightFormat::Fp8).linear < plain * 1.001);
}

TEST_CASE("Which architectures compute in which format", "[precision]") {
  CHECK(computes_natively(WeightFormat::Fp8, "hopper"));
  CHECK(computes_natively(WeightFormat::Fp8, "ada"));
  CHECK_FALSE(computes_natively(WeightFormat::Fp8, "ampere"));
  CHECK(computes_natively(WeightFormat::Mxfp4, "blackwell"));
  CHECK(computes_natively(WeightFormat::Mxfp4, "cdna4"));
  CHECK_FALSE(computes_natively(WeightFormat::Mxfp4, "hopper"));
  CHECK(computes_natively(WeightFormat::Nvfp4, "blackwell"));
  CHECK_FALSE(computes_natively(WeightFormat::Nvfp4, "cdna4"));
  CHECK_FALSE(computes_natively(WeightFormat::Bf16, "volta"));
  CHECK(format_unsupported_kind(WeightFormat::Mxfp4, "hopper").empty());  // Marlin / triton weight-only
  CHECK(format_unsupported_kind(WeightFormat::Mxfp4, "ampere").empty());
  CHECK_FALSE(format_unsupported_kind(WeightFormat::Mxfp4, "volta").empty());
  CHECK_FALSE(format_unsupported_kind(WeightFormat::Nvfp4, "turing").empty());
  CHECK_FALSE(format_unsupported_kind(WeightFormat::Nvfp4, "cdna3").empty());
  CHECK(format_unsupported_kind(WeightFormat::AwqInt4, "volta").empty());  // estimate.cpp owns that rule
}
