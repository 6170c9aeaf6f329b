// Kernel class of MLA + routed-expert models (a fact of engine_version "sglang 0.4.1", speed.cpp): SGLang
// v0.4.1's Triton MLA and fused-MoE path adds 0.41 ms of GPU time per layer per forward pass and runs
// the forward's FLOPs at 0.03 of the FP8 peak (docs/speed.md "DeepSeek-V3 on SGLang 0.4.1").
// Goldens recompute each term from the model's own costs; the in-sample check against the release
// figures the two constants were fitted to is labelled [validation].
#include <catch2/catch.hpp>

#include "base/error.h"
#include "catalog/catalog.h"
#include "speed/speed.h"

using namespace gpusizer;
using nlohmann::json;

namespace {
// `version`: the SGLang release (null: the newest checked, 0.5).
json dsv3(int batch, int prompt, int output, const char* version) {
  json j = {{"model", "deepseek-v3"},
            {"weights", "fp8"},
            {"engine", "sglang"},
            {"gpu", "h200"},
            {"gpus", 8},
            {"tp", 8},
            {"batch", batch},
            {"prompt_tokens", prompt},
            {"output_tokens", output}};
  if (version) j["engine_version"] = version;
  return j;
}
Throughput run(const json& j) { return estimate_throughput(parse_scenario(j), *find_gpu("h200")); }
constexpr double kLayerS = 0.41e-3;  // the constant under test (speed.cpp kTritonMlaMoeLayerS)
constexpr double kShare = 0.03;      // speed.cpp kTritonMlaMoeCompute
}  // namespace

TEST_CASE("Triton MLA/MoE kernels add their per-layer time to a bandwidth-bound decode step",
          "[speed][mla_moe]") {
  // Batch 1: the step reads the dense weights and 8 of 256 experts, far above its FLOPs even at 0.03
  // of the FP8 peak, so only the 61 layers x 0.41 ms are added.
  const double tuned = 1 / run(dsv3(1, 128, 256, nullptr)).decode_tokens_per_s;
  const double triton = 1 / run(dsv3(1, 128, 256, "0.4.1")).decode_tokens_per_s;
  CHECK(triton - tuned == Approx(61 * kLayerS).epsilon(1e-6));
  // The newest checked release (tuned kernels) is the default.
  CHECK(1 / run(dsv3(1, 128, 256, "0.5")).decode_tokens_per_s == Approx(tuned));
}

TEST_CASE("Triton MLA/MoE kernels run a prompt's FLOPs at 0.03 of the FP8 peak", "[speed][mla_moe]") {
  // 4,096-token prompt on 8 x H200: compute-bound under both kernel classes (the weights read,
  // 84 GB per GPU, takes ~23 ms; the FLOPs ~39 ms at the tuned 0.5 share). All-reduces and host time
  // are the same in both, so the difference is the compute at 0.03 instead of 0.5, plus 61 layers.
  const Scenario s = parse_scenario(dsv3(1, 4096, 1, "0.4.1"));
  const ModelCosts c = model_costs(s);
  const double prompt = 4096;
  const double flops = prompt * (c.matmul_flops - c.head_flops) + c.head_flops +
                       2 * 61 * prompt * prompt * c.prefill_attn_width;
  const double compute_triton = flops / 8 / (peak_flops(*find_gpu("h200"), WeightFormat::Fp8) * kShare);
  const double tuned = run(dsv3(1, 4096, 1, nullptr)).time_to_first_token_s;
  const double triton = run(dsv3(1, 4096, 1, "0.4.1")).time_to_first_token_s;
  CHECK(triton - tuned == Approx(compute_triton * (1 - kShare / 0.5) + 61 * kLayerS).epsilon(1e-6));
}

TEST_CASE("The Triton MLA/MoE kernel class leaves models without MLA and experts alone", "[speed][mla_moe]") {
  json dense = {{"model", "llama-3.1-70b"}, {"engine", "sglang"},  {"gpu", "h200"}, {"gpus", 4}, {"tp", 4},
                {"prompt_tokens", 1024},    {"output_tokens", 256}};
  json triton = dense;
  triton["engine_version"] = "sglang 0.4.1";
  CHECK(run(triton).decode_tokens_per_s == Approx(run(dense).decode_tokens_per_s));
  CHECK(run(triton).time_to_first_token_s == Approx(run(dense).time_to_first_token_s));
  // Experts without MLA (Mixtral) are not this kernel class either.
  json moe = {{"model", "mixtral-8x7b"}, {"engine", "sglang"}, {"gpu", "h200"}, {"gpus", 2}, {"tp", 2}};
  json moe_triton = moe;
  moe_triton["engine_version"] = "sglang 0.4.1";
  CHECK(run(moe_triton).decode_tokens_per_s == Approx(run(moe).decode_tokens_per_s));
}

TEST_CASE("The kernel class is the version's: engine_options.mla_moe_kernels is refused",
          "[speed][mla_moe]") {
  json j = dsv3(1, 128, 128, nullptr);
  j["engine_options"] = {{"mla_moe_kernels", "triton"}};
  std::string field, code;
  try {
    parse_scenario(j);
  } catch (const InputError& e) {
    field = e.field;
    code = e.code;
  }
  CHECK(field == "engine_options.mla_moe_kernels");
  CHECK(code == "engine_option_version_fact");
}

// In sample: the two constants were fitted to these figures (data/validation/
// speed-sglang-v041post2-release.json, calibration): SGLang v0.4.1.post2 release notes
// (sgl-project/sglang PR #2643), 8 x H200, 128 in / 256 out, output tokens/s of one batch.
TEST_CASE("v0.4.1.post2 release figures, DeepSeek-V3 batch 1 / 8 / 32 (in-sample)",
          "[speed][mla_moe][validation]") {
  const std::pair<int, double> published[] = {{1, 30.29}, {8, 206.32}, {32, 760.52}};
  for (const auto& [batch, tokens_per_s] : published) {
    INFO("batch " << batch);
    json j = dsv3(batch, 128, 256, "0.4.1");
    j["engine_options"]["dp_attention"] = true;  // the release runs' --enable-dp-attention
    CHECK(run(j).generation_tokens_per_s == Approx(tokens_per_s).epsilon(0.15));
  }
}
