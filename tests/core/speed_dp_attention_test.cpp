// SGLang's DP attention for MLA models (engine_options.dp_attention, speed_dp_attention.cpp): each TP
// rank runs the attention of its own requests with the whole attention weights and its own latent
// cache, and every rank steps together, so another request's prompt holds the decode steps for a
// one-prompt prefill. Each expected value below is rebuilt from the model's own costs and the card's
// peaks (the mechanism), not from a measurement.
#include <catch2/catch.hpp>

#include "base/error.h"
#include "catalog/catalog.h"
#include "memory/memory.h"
#include "model/precision.h"
#include "speed/speed.h"

using namespace gpusizer;
using nlohmann::json;

namespace {
json dsv3(int batch, int prompt, int output, bool dp) {
  json j = {{"model", "deepseek-v3"},
            {"weights", "fp8"},
            {"engine", "sglang"},
            {"gpu", "h200"},
            {"gpus", 8},
            {"tp", 8},
            {"batch", batch},
            {"prompt_tokens", prompt},
            {"output_tokens", output}};
  if (dp) j["engine_options"] = {{"dp_attention", true}};
  return j;
}
const Gpu& h200() { return *find_gpu("h200"); }
Throughput run(const json& j) { return estimate_throughput(parse_scenario(j), h200()); }
double step_s(const json& j) { return j["batch"].get<double>() / run(j).decode_tokens_per_s; }
}  // namespace

TEST_CASE("MLA prompts are costed over the non-absorbed heads", "[speed][dp_attention]") {
  // DeepSeek-V3: 128 heads, q.k over 128 + 64 dims, p.v over 128: mean width 160 per head.
  const ModelCosts mla = model_costs(parse_scenario(dsv3(1, 1024, 1, false)));
  CHECK(mla.prefill_attn_width == Approx(128.0 * 160));
  CHECK(mla.attn_width == Approx(128.0 * 576));  // decode: absorbed, over the 512 + 64 latent
  // Models without MLA: the same width in both phases.
  const ModelCosts gqa = model_costs(parse_scenario(json{{"model", "llama-3.1-70b"}}));
  CHECK(gqa.prefill_attn_width == Approx(gqa.attn_width));
  // The attention projections: q_a, q_b, kv_a, kv_b and o of 61 layers, part of the dense bytes.
  const double per_layer =
      7168.0 * 1536 + 1536.0 * 128 * 192 + 7168.0 * 576 + 512.0 * 128 * 256 + 128.0 * 128 * 7168;
  CHECK(mla.attn_flops == Approx(2 * 61 * per_layer));
  CHECK(mla.attn_bytes < mla.dense_bytes);
}

TEST_CASE("DP attention reads the whole attention weights on every rank", "[speed][dp_attention]") {
  // Batch 1, a bandwidth-bound step: the attention projections are read whole instead of 1/8 each;
  // the one request's latent cache is read once either way (MLA's cache is whole on every TP rank).
  const Scenario s = parse_scenario(dsv3(1, 1024, 256, true));
  const ModelCosts c = model_costs(s);
  const double bw = h200().bandwidth_bytes_per_s * engine_efficiency(s, h200()).bandwidth;
  const double extra = c.attn_bytes * (1 - 1.0 / 8) / bw;
  CHECK(step_s(dsv3(1, 1024, 256, true)) - step_s(dsv3(1, 1024, 256, false)) == Approx(extra).epsilon(1e-6));
  CHECK(extra > 2e-3);  // ~10 GB of FP8 attention weights per rank: milliseconds, not noise
}

TEST_CASE("DP attention reads only each rank's own requests' latents", "[speed][dp_attention]") {
  // Batch 64 over 8 ranks: 8 requests' latents per rank instead of all 64, and the attention weights
  // whole; the attention FLOPs spread over the same 8 ranks either way. Still bandwidth-bound.
  const int batch = 64, prompt = 4096, output = 512;
  const Scenario s = parse_scenario(dsv3(batch, prompt, output, true));
  const ModelCosts c = model_costs(s);
  const double bw = h200().bandwidth_bytes_per_s * engine_efficiency(s, h200()).bandwidth;
  const double context = prompt + output / 2.0;
  const double expected =
      (c.attn_bytes * (1 - 1.0 / 8) - c.kv_bytes_per_token * context * (batch - batch / 8.0)) / bw;
  CHECK(step_s(dsv3(batch, prompt, output, true)) - step_s(dsv3(batch, prompt, output, false)) ==
        Approx(expected).epsilon(1e-6));
  CHECK(expected < 0);  // at 4k-token contexts the smaller cache read outweighs the replicated weights
}

TEST_CASE("DP attention runs a lone prompt's attention on its own rank", "[speed][dp_attention]") {
  // One 4,096-token prompt, compute-bound: its attention projections and scores run on one GPU
  // instead of being split 8 ways; everything else (experts, all-reduces, host) is unchanged.
  const int prompt = 4096;
  const Scenario s = parse_scenario(dsv3(1, prompt, 1, true));
  const ModelCosts c = model_costs(s);
  const double flops = prompt * c.attn_flops + 2.0 * 61 * prompt * prompt * c.prefill_attn_width;
  const double rate = peak_flops(h200(), WeightFormat::Fp8) * engine_efficiency(s, h200()).compute;
  const double tp_s = run(dsv3(1, prompt, 1, false)).time_to_first_token_s;
  const double dp_s = run(dsv3(1, prompt, 1, true)).time_to_first_token_s;
  CHECK(dp_s - tp_s == Approx(flops * (1 - 1.0 / 8) / rate).epsilon(1e-6));
  // Eight prompts fill the eight ranks: the attention divides as under TP.
  CHECK(run(dsv3(8, prompt, 1, true)).time_to_first_token_s ==
        Approx(run(dsv3(8, prompt, 1, false)).time_to_first_token_s).epsilon(0.05));
}

TEST_CASE("Under DP attention each other request's prompt holds the decode steps for a one-prompt prefill",
          "[speed][dp_attention]") {
  const int batch = 48, prompt = 1024, output = 1024;
  const Throughput t = run(dsv3(batch, prompt, output, true));
  const double one_prompt = run(dsv3(1, prompt, output, true)).time_to_first_token_s;
  const double step = batch / t.decode_tokens_per_s;
  CHECK(t.time_per_output_token_s == Approx(step + (batch - 1) * one_prompt / output).epsilon(1e-9));
  // A lone request sees no other prompt.
  const Throughput lone = run(dsv3(1, prompt, output, true));
  CHECK(lone.time_per_output_token_s == Approx(1 / lone.decode_tokens_per_s));
  // TP attention keeps the chunked-prefill term: (B - 1) / B of the batch's prefill.
  const Throughput tp = run(dsv3(batch, prompt, output, false));
  CHECK(tp.time_per_output_token_s ==
        Approx(batch / tp.decode_tokens_per_s + (batch - 1.0) / batch * tp.time_to_first_token_s / output)
            .epsilon(1e-9));
}

TEST_CASE("DP attention leaves models without MLA, single GPUs and the default alone",
          "[speed][dp_attention]") {
  json llama = {{"model", "llama-3.1-70b"},
                {"engine", "sglang"},
                {"gpu", "h200"},
                {"gpus", 4},
                {"tp", 4},
                {"batch", 16},
                {"prompt_tokens", 1024},
                {"output_tokens", 256}};
  json llama_dp = llama;
  llama_dp["engine_options"] = {{"dp_attention", true}};
  CHECK(run(llama_dp).time_per_output_token_s == Approx(run(llama).time_per_output_token_s));
  CHECK(run(llama_dp).time_to_first_token_s == Approx(run(llama).time_to_first_token_s));
  // Off by default, and false is the default.
  json off = dsv3(16, 1024, 256, false);
  json off_explicit = off;
  off_explicit["engine_options"] = {{"dp_attention", false}};
  CHECK(run(off_explicit).time_per_output_token_s == Approx(run(off).time_per_output_token_s));
}

TEST_CASE("engine_options.dp_attention must be a boolean", "[speed][dp_attention]") {
  json j = dsv3(1, 128, 128, false);
  j["engine_options"] = {{"dp_attention", "yes"}};
  std::string field;
  try {
    parse_scenario(j);
  } catch (const InputError& e) {
    field = e.field;
  }
  CHECK(field == "engine_options.dp_attention");
}

TEST_CASE("DP attention's memory: each rank keeps its own requests' latents and the whole attention weights",
          "[memory][dp_attention]") {
  const Scenario tp = parse_scenario(dsv3(64, 1024, 1024, false));
  const Scenario dp = parse_scenario(dsv3(64, 1024, 1024, true));
  const MemoryEstimate a = estimate_memory(tp, &h200()), b = estimate_memory(dp, &h200());
  // The latent cache is whole on every TP rank under head splitting; 64 / 8 requests per rank here.
  CHECK(b.breakdown.kv_cache == Approx(a.breakdown.kv_cache / 8).epsilon(1e-9));
  const WeightBytes w = weight_bytes(tp.model, WeightFormat::Fp8);
  REQUIRE(w.attention > 0);
  CHECK(b.breakdown.weights - a.breakdown.weights == Approx(w.attention * 7 / 8).epsilon(1e-9));
  // An uneven batch: the busiest rank holds ceil(batch / tp) requests.
  const Scenario odd = parse_scenario(dsv3(9, 1024, 1024, true));
  const Scenario one = parse_scenario(dsv3(1, 1024, 1024, false));
  CHECK(estimate_memory(odd, &h200()).breakdown.kv_cache ==
        Approx(2 * estimate_memory(one, &h200()).breakdown.kv_cache).epsilon(1e-9));
}
