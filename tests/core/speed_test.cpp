// IN-SAMPLE REPORT: the [validation] cases below are the calibration measurements the speed
// constants were fitted to (shared/validation/public.json; data/validation/ files with split
// "calibration"). They guard the fit, they do not show accuracy: the out-of-sample errors are
// in docs/validation.md (held-out split) and the out-of-sample curve test in speed_engine_test.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "speed/speed.h"

using namespace gpusizer;
using nlohmann::json;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct VllmCase {
  const char* model;
  const char* weights;
  int prompt;
  int gpus;
  double tokens_per_s;
};

// Qwen2.5 speed benchmark, vLLM 0.6.3 on A100-SXM 80GB, batch 1, 2048 output tokens; speed is
// 2048 / wall time with prefill included (QwenLM/Qwen2.5 docs speed_benchmark.rst @010c37c).
const VllmCase kVllmCases[] = {
    {"qwen2.5-0.5b", "bf16", 1, 1, 311.55},
    {"qwen2.5-0.5b", "gptq-int8", 1, 1, 257.07},
    {"qwen2.5-0.5b", "gptq-int4", 1, 1, 260.93},
    {"qwen2.5-0.5b", "awq-int4", 1, 1, 261.95},
    {"qwen2.5-0.5b", "bf16", 6144, 1, 304.79},
    {"qwen2.5-0.5b", "gptq-int8", 6144, 1, 254.1},
    {"qwen2.5-0.5b", "gptq-int4", 6144, 1, 257.33},
    {"qwen2.5-0.5b", "awq-int4", 6144, 1, 259.8},
    {"qwen2.5-0.5b", "bf16", 14336, 1, 290.28},
    {"qwen2.5-0.5b", "gptq-int8", 14336, 1, 243.69},
    {"qwen2.5-0.5b", "gptq-int4", 14336, 1, 247.01},
    {"qwen2.5-0.5b", "awq-int4", 14336, 1, 249.58},
    {"qwen2.5-0.5b", "bf16", 30720, 1, 264.51},
    {"qwen2.5-0.5b", "gptq-int8", 30720, 1, 223.86},
    {"qwen2.5-0.5b", "gptq-int4", 30720, 1, 226.5},
    {"qwen2.5-0.5b", "awq-int4", 30720, 1, 229.84},
    {"qwen2.5-1.5b", "bf16", 1, 1, 183.33},
    {"qwen2.5-1.5b", "gptq-int8", 1, 1, 201.67},
    {"qwen2.5-1.5b", "gptq-int4", 1, 1, 217.03},
    {"qwen2.5-1.5b", "awq-int4", 1, 1, 213.74},
    {"qwen2.5-1.5b", "bf16", 6144, 1, 176.68},
    {"qwen2.5-1.5b", "gptq-int8", 6144, 1, 192.83},
    {"qwen2.5-1.5b", "gptq-int4", 6144, 1, 206.63},
    {"qwen2.5-1.5b", "awq-int4", 6144, 1, 203.64},
    {"qwen2.5-1.5b", "bf16", 14336, 1, 168.69},
    {"qwen2.5-1.5b", "gptq-int8", 14336, 1, 183.69},
    {"qwen2.5-1.5b", "gptq-int4", 14336, 1, 195.88},
    {"qwen2.5-1.5b", "awq-int4", 14336, 1, 192.64},
    {"qwen2.5-1.5b", "bf16", 30720, 1, 152.04},
    {"qwen2.5-1.5b", "gptq-int8", 30720, 1, 162.82},
    {"qwen2.5-1.5b", "gptq-int4", 30720, 1, 173.57},
    {"qwen2.5-1.5b", "awq-int4", 30720, 1, 170.2},
    {"qwen2.5-3b", "bf16", 1, 1, 127.61},
    {"qwen2.5-3b", "gptq-int8", 1, 1, 150.02},
    {"qwen2.5-3b", "gptq-int4", 1, 1, 168.2},
    {"qwen2.5-3b", "awq-int4", 1, 1, 165.5},
    {"qwen2.5-3b", "bf16", 6144, 1, 123.15},
    {"qwen2.5-3b", "gptq-int8", 6144, 1, 143.09},
    {"qwen2.5-3b", "gptq-int4", 6144, 1, 159.85},
    {"qwen2.5-3b", "awq-int4", 6144, 1, 156.38},
    {"qwen2.5-3b", "bf16", 14336, 1, 117.35},
    {"qwen2.5-3b", "gptq-int8", 14336, 1, 135.5},
    {"qwen2.5-3b", "gptq-int4", 14336, 1, 149.35},
    {"qwen2.5-3b", "awq-int4", 14336, 1, 147.75},
    {"qwen2.5-3b", "bf16", 30720, 1, 105.88},
    {"qwen2.5-3b", "gptq-int8", 30720, 1, 118.38},
    {"qwen2.5-3b", "gptq-int4", 30720, 1, 129.28},
    {"qwen2.5-3b", "awq-int4", 30720, 1, 127.19},
    {"qwen2.5-7b", "bf16", 1, 1, 84.28},
    {"qwen2.5-7b", "gptq-int8", 1, 1, 122.01},
    {"qwen2.5-7b", "gptq-int4", 1, 1, 154.05},
    {"qwen2.5-7b", "awq-int4", 1, 1, 148.1},
    {"qwen2.5-7b", "bf16", 6144, 1, 80.7},
    {"qwen2.5-7b", "gptq-int8", 6144, 1, 112.38},
    {"qwen2.5-7b", "gptq-int4", 6144, 1, 141.98},
    {"qwen2.5-7b", "awq-int4", 6144, 1, 137.64},
    {"qwen2.5-7b", "bf16", 14336, 1, 77.69},
    {"qwen2.5-7b", "gptq-int8", 14336, 1, 105.25},
    {"qwen2.5-7b", "gptq-int4", 14336, 1, 129.35},
    {"qwen2.5-7b", "awq-int4", 14336, 1, 124.91},
    {"qwen2.5-7b", "bf16", 30720, 1, 70.33},
    {"qwen2.5-7b", "gptq-int8", 30720, 1, 90.71},
    {"qwen2.5-7b", "gptq-int4", 30720, 1, 108.3},
    {"qwen2.5-7b", "awq-int4", 30720, 1, 104.66},
    {"qwen2.5-7b", "bf16", 63488, 1, 50.86},
    {"qwen2.5-7b", "gptq-int8", 63488, 1, 60.52},
    {"qwen2.5-7b", "gptq-int4", 63488, 1, 67.97},
    {"qwen2.5-7b", "awq-int4", 63488, 1, 66.42},
    {"qwen2.5-7b", "bf16", 129024, 1, 28.94},
    {"qwen2.5-7b", "gptq-int8", 129024, 1, 25.97},
    {"qwen2.5-7b", "gptq-int4", 129024, 1, 26.37},
    {"qwen2.5-7b", "awq-int4", 129024, 1, 26.57},
    {"qwen2.5-14b", "bf16", 1, 1, 46.3},
    {"qwen2.5-14b", "gptq-int8", 1, 1, 70.4},
    {"qwen2.5-14b", "gptq-int4", 1, 1, 98.02},
    {"qwen2.5-14b", "awq-int4", 1, 1, 92.66},
    {"qwen2.5-14b", "bf16", 6144, 1, 43.83},
    {"qwen2.5-14b", "gptq-int8", 6144, 1, 64.33},
    {"qwen2.5-14b", "gptq-int4", 6144, 1, 86.1},
    {"qwen2.5-14b", "awq-int4", 6144, 1, 83.11},
    {"qwen2.5-14b", "bf16", 14336, 1, 41.91},
    {"qwen2.5-14b", "gptq-int8", 14336, 1, 59.21},
    {"qwen2.5-14b", "gptq-int4", 14336, 1, 76.85},
    {"qwen2.5-14b", "awq-int4", 14336, 1, 74.03},
    {"qwen2.5-14b", "bf16", 30720, 1, 37.18},
    {"qwen2.5-14b", "gptq-int8", 30720, 1, 49.23},
    {"qwen2.5-14b", "gptq-int4", 30720, 1, 60.91},
    {"qwen2.5-14b", "awq-int4", 30720, 1, 59.01},
    {"qwen2.5-14b", "bf16", 63488, 1, 26.85},
    {"qwen2.5-14b", "gptq-int8", 63488, 1, 32.83},
    {"qwen2.5-14b", "gptq-int4", 63488, 1, 37.67},
    {"qwen2.5-14b", "awq-int4", 63488, 1, 36.71},
    {"qwen2.5-14b", "bf16", 129024, 1, 14.53},
    {"qwen2.5-14b", "gptq-int8", 129024, 1, 15.1},
    {"qwen2.5-14b", "gptq-int4", 129024, 1, 15.13},
    {"qwen2.5-14b", "awq-int4", 129024, 1, 15.25},
    {"qwen2.5-32b", "bf16", 1, 1, 22.13},
    {"qwen2.5-32b", "gptq-int8", 1, 1, 37.57},
    {"qwen2.5-32b", "gptq-int4", 1, 1, 55.83},
    {"qwen2.5-32b", "awq-int4", 1, 1, 51.92},
    {"qwen2.5-32b", "bf16", 6144, 1, 21.05},
    {"qwen2.5-32b", "gptq-int8", 6144, 1, 34.67},
    {"qwen2.5-32b", "gptq-int4", 6144, 1, 49.96},
    {"qwen2.5-32b", "awq-int4", 6144, 1, 46.68},
    {"qwen2.5-32b", "bf16", 14336, 1, 19.91},
    {"qwen2.5-32b", "gptq-int8", 14336, 1, 31.89},
    {"qwen2.5-32b", "gptq-int4", 14336, 1, 44.79},
    {"qwen2.5-32b", "awq-int4", 14336, 1, 41.83},
    {"qwen2.5-32b", "bf16", 30720, 2, 31.82},
    {"qwen2.5-32b", "gptq-int8", 30720, 1, 26.88},
    {"qwen2.5-32b", "gptq-int4", 30720, 1, 35.66},
    {"qwen2.5-32b", "awq-int4", 30720, 1, 33.75},
    {"qwen2.5-32b", "bf16", 63488, 2, 24.45},
    {"qwen2.5-32b", "gptq-int8", 63488, 1, 18.6},
    {"qwen2.5-32b", "gptq-int4", 63488, 1, 22.72},
    {"qwen2.5-32b", "awq-int4", 63488, 1, 21.79},
    {"qwen2.5-32b", "bf16", 129024, 2, 14.31},
    {"qwen2.5-32b", "gptq-int8", 129024, 1, 9.77},
    {"qwen2.5-32b", "gptq-int4", 129024, 1, 10.39},
    {"qwen2.5-32b", "awq-int4", 129024, 1, 10.34},
    {"qwen2.5-72b", "bf16", 1, 2, 18.19},
    {"qwen2.5-72b", "bf16", 1, 4, 31.37},
    {"qwen2.5-72b", "gptq-int8", 1, 2, 31.4},
    {"qwen2.5-72b", "gptq-int4", 1, 1, 16.47},
    {"qwen2.5-72b", "gptq-int4", 1, 2, 46.3},
    {"qwen2.5-72b", "awq-int4", 1, 2, 44.3},
    {"qwen2.5-72b", "bf16", 6144, 4, 29.9},
    {"qwen2.5-72b", "gptq-int8", 6144, 2, 29.37},
    {"qwen2.5-72b", "gptq-int4", 6144, 1, 13.88},
    {"qwen2.5-72b", "gptq-int4", 6144, 2, 42.5},
    {"qwen2.5-72b", "awq-int4", 6144, 2, 40.67},
    {"qwen2.5-72b", "bf16", 14336, 4, 30.1},
    {"qwen2.5-72b", "gptq-int8", 14336, 2, 27.2},
    {"qwen2.5-72b", "gptq-int4", 14336, 2, 38.1},
    {"qwen2.5-72b", "awq-int4", 14336, 2, 36.63},
    {"qwen2.5-72b", "bf16", 30720, 4, 27.53},
    {"qwen2.5-72b", "gptq-int8", 30720, 2, 23.32},
    {"qwen2.5-72b", "gptq-int4", 30720, 2, 30.98},
    {"qwen2.5-72b", "awq-int4", 30720, 2, 30.02},
    {"qwen2.5-72b", "bf16", 63488, 4, 20.74},
    {"qwen2.5-72b", "gptq-int8", 63488, 2, 16.27},
    {"qwen2.5-72b", "gptq-int4", 63488, 2, 19.84},
    {"qwen2.5-72b", "awq-int4", 63488, 2, 19.32},
    {"qwen2.5-72b", "bf16", 129024, 4, 12.68},
    {"qwen2.5-72b", "gptq-int8", 129024, 4, 14.11},
    {"qwen2.5-72b", "gptq-int4", 129024, 2, 10.11},
    {"qwen2.5-72b", "awq-int4", 129024, 2, 9.88},
};

}  // namespace

TEST_CASE("vLLM decode speed of the Qwen2.5 family on an A100", "[speed][validation]") {
  std::vector<double> errors;
  for (const VllmCase& c : kVllmCases) {
    const Scenario s = parse_scenario(json{{"model", c.model},
                                           {"weights", c.weights},
                                           {"gpu", "a100-80gb"},
                                           {"prompt_tokens", c.prompt},
                                           {"output_tokens", 2048},
                                           {"tp", c.gpus}});
    const Throughput t = estimate_throughput(s, *find_gpu("a100-80gb"));
    errors.push_back(std::fabs(t.generation_tokens_per_s / c.tokens_per_s - 1));
  }
  // Measured: median 8.6 % over the 147 cases (the 72B GPTQ-Int4 single-GPU runs are the outliers).
  CHECK(median(errors) < 0.25);
}

TEST_CASE("transformers generate is host-bound at batch 1", "[speed][validation]") {
  // Qwen2.5 speed benchmark, transformers 4.46: 7B BF16 40.38 t/s, 32B 17.54 t/s (1-token prompt).
  const std::pair<const char*, double> cases[] = {{"qwen2.5-7b", 40.38}, {"qwen2.5-32b", 17.54}};
  for (const auto& [model, measured] : cases) {
    const Scenario s = parse_scenario(json{{"model", model},
                                           {"engine", "transformers"},
                                           {"gpu", "a100-80gb"},
                                           {"prompt_tokens", 1},
                                           {"output_tokens", 2048}});
    const Throughput t = estimate_throughput(s, *find_gpu("a100-80gb"));
    CHECK(t.generation_tokens_per_s == Approx(measured).epsilon(0.25));
  }
}

TEST_CASE("llama.cpp decode and prefill on an RTX 3090", "[speed][validation]") {
  // llama-bench, CodeLlama-7B-shaped llama 7B (ggml-org/llama.cpp PR #4766): tg128 Q4_0 121.82 t/s, pp512 F16
  // 4184.85 t/s.
  const json model = {{"layers", 32},    {"hidden", 4096},        {"heads", 32},   {"kv_heads", 32},
                      {"head_dim", 128}, {"intermediate", 11008}, {"vocab", 32016}};
  const Gpu& gpu = *find_gpu("rtx3090");
  const Scenario decode = parse_scenario(json{{"model", model},
                                              {"engine", "llama.cpp"},
                                              {"weights", "q4_0"},
                                              {"prompt_tokens", 1},
                                              {"output_tokens", 128}});
  CHECK(estimate_throughput(decode, gpu).decode_tokens_per_s == Approx(121.82).epsilon(0.25));
  const Scenario prefill = parse_scenario(json{{"model", model},
                                               {"engine", "llama.cpp"},
                                               {"weights", "fp16"},
                                               {"prompt_tokens", 512},
                                               {"output_tokens", 0}});
  CHECK(estimate_throughput(prefill, gpu).prefill_tokens_per_s == Approx(4184.85).epsilon(0.25));
}

TEST_CASE("Megatron's achieved TFLOP/s per GPU", "[speed][validation]") {
  struct Run {
    int layers, hidden, heads, gpus, tp, pp, batch;
    double tflops;
  };
  // Narayanan et al. 2021, Table 1 (GPT, seq 2048, vocab 51200, full recomputation, A100 80GB).
  const Run runs[] = {{24, 2304, 24, 32, 1, 1, 512, 137},        {30, 3072, 32, 64, 2, 1, 512, 138},
                      {36, 4096, 32, 128, 4, 1, 512, 142},       {40, 6144, 48, 256, 8, 1, 1024, 135},
                      {48, 8192, 64, 512, 8, 2, 1536, 138},      {60, 10240, 80, 1024, 8, 4, 1792, 140},
                      {80, 12288, 96, 1536, 8, 8, 2304, 148},    {96, 16384, 128, 1920, 8, 16, 2160, 155},
                      {105, 20480, 128, 2520, 8, 35, 2520, 163}, {128, 25600, 160, 3072, 8, 64, 3072, 163}};
  const Gpu& gpu = *find_gpu("a100-80gb");
  std::vector<double> errors;
  for (const Run& r : runs) {
    const int dp = r.gpus / (r.tp * r.pp);
    const json model = {{"layers", r.layers},
                        {"hidden", r.hidden},
                        {"heads", r.heads},
                        {"kv_heads", r.heads},
                        {"head_dim", r.hidden / r.heads},
                        {"intermediate", 4 * r.hidden},
                        {"vocab", 51200},
                        {"mlp", "plain"},
                        {"tied_embeddings", true}};
    const Scenario s =
        parse_scenario(json{{"model", model},
                            {"task", "pretrain"},
                            {"engine", "megatron"},
                            {"seq_len", 2048},
                            {"gpus", r.gpus},
                            {"tp", r.tp},
                            {"pp", r.pp},
                            {"training", {{"grad_checkpointing", "full"}, {"grad_accum", r.batch / dp}}}});
    const double achieved =
        estimate_throughput(s, gpu).train_tokens_per_s * training_flops_per_token(s) / r.gpus / 1e12;
    errors.push_back(achieved / r.tflops - 1);
    CHECK(achieved == Approx(r.tflops).epsilon(0.20));
  }
  CHECK(std::fabs(median(errors)) < 0.10);
}

TEST_CASE("GPU-hours of Llama 2 at the default MFU", "[speed][validation]") {
  // Llama 2 model card: 184,320 / 368,640 / 1,720,320 A100-80GB hours for 2T tokens at 4096.
  const std::pair<const char*, double> runs[] = {
      {"llama-2-7b", 184320}, {"llama-2-13b", 368640}, {"llama-2-70b", 1720320}};
  for (const auto& [model, hours] : runs) {
    const Scenario s = parse_scenario(
        json{{"model", model}, {"task", "pretrain"}, {"seq_len", 4096}, {"training", {{"tokens", 2e12}}}});
    const auto time = job_time(s, estimate_throughput(s, *find_gpu("a100-80gb")));
    REQUIRE(time);
    CHECK(time->gpu_hours == Approx(hours).epsilon(0.20));
  }
}

TEST_CASE("FSDP on A100: ZeRO-3's share; the fms-fsdp runs are a tuned recipe above it",
          "[speed][validation]") {
  // foundation-model-stack/fms-fsdp README table: 128 A100, seq 4096 (train_config default), tokens/s
  // per GPU. Shares on the FLOPs executed (training_flops_per_token): 0.555, 0.475, 0.727, 0.722. FSDP
  // FULL_SHARD moves ZeRO-3's bytes over the same kernels, so the engine takes DeepSpeed's 0.48
  // (review reject 5); these tuned runs stay above it (docs/speed.md).
  struct Run {
    json model;
    int batch;
    const char* checkpointing;
    double tokens_per_gpu;
  };
  const json llama2_34b = {{"hf_config",
                            {{"model_type", "llama"},
                             {"hidden_size", 8192},
                             {"num_hidden_layers", 48},
                             {"num_attention_heads", 64},
                             {"num_key_value_heads", 8},
                             {"intermediate_size", 22016},
                             {"vocab_size", 32000}}}};
  const Run runs[] = {{"llama-2-7b", 2, "none", 3760},
                      {"llama-2-13b", 1, "none", 1700},
                      {llama2_34b, 8, "full", 772},
                      {"llama-2-70b", 6, "full", 380}};
  const Gpu& a100 = *find_gpu("a100-80gb");
  std::vector<double> shares;
  for (const Run& r : runs) {
    const Scenario s =
        parse_scenario(json{{"model", r.model},
                            {"task", "pretrain"},
                            {"engine", "fsdp"},
                            {"gpus", 128},
                            {"batch", r.batch},
                            {"seq_len", 4096},
                            {"training", {{"zero", 3}, {"grad_checkpointing", r.checkpointing}}}});
    shares.push_back(r.tokens_per_gpu * training_flops_per_token(s) / (a100.bf16_tflops * 1e12));
    CHECK(engine_efficiency(s, a100).compute == Approx(0.48));
  }
  CHECK(shares[0] == Approx(0.555).epsilon(0.01));
  CHECK(shares[3] == Approx(0.722).epsilon(0.01));
  CHECK(median(shares) == Approx(0.64).epsilon(0.01));
  // The 70B run is compute-bound in the model (FSDP traffic hidden): 0.48 / 0.722 of its 380 tokens/s/GPU.
  const Scenario s70 = parse_scenario(json{{"model", "llama-2-70b"},
                                           {"task", "pretrain"},
                                           {"engine", "fsdp"},
                                           {"gpus", 128},
                                           {"batch", 6},
                                           {"seq_len", 4096},
                                           {"training", {{"zero", 3}, {"grad_checkpointing", "full"}}}});
  CHECK(estimate_throughput(s70, a100).train_tokens_per_s / 128 == Approx(380 * 0.48 / 0.722).epsilon(0.05));
  // DeepSpeed the same Ampere share (OPT-175B, FSDP blog); Hopper FSDP keeps KempnerForge's 0.40.
  const Scenario ds =
      parse_scenario(json{{"model", "llama-2-7b"}, {"task", "pretrain"}, {"engine", "deepspeed"}});
  CHECK(engine_efficiency(ds, a100).compute == Approx(0.48));
  CHECK(engine_efficiency(s70, *find_gpu("h100-80gb")).compute == Approx(0.40));
}

TEST_CASE("Roofline behaviour", "[speed]") {
  const Gpu& a100 = *find_gpu("a100-80gb");
  auto decode = [&](json extra) {
    json j = {{"model", "qwen2.5-7b"}, {"prompt_tokens", 512}, {"output_tokens", 512}};
    j.update(extra);
    return estimate_throughput(parse_scenario(j), a100).decode_tokens_per_s;
  };
  // Batching amortises the weight reads: 32 sequences decode far faster than one, but less than 32x.
  CHECK(decode({{"batch", 32}}) > 10 * decode(json::object()));
  CHECK(decode({{"batch", 32}}) < 32 * decode(json::object()));
  CHECK(decode({{"weights", "awq-int4"}}) > 1.4 * decode(json::object()));
  CHECK(decode({{"efficiency", {{"bandwidth", 0.5}}}}) < decode(json::object()));
  // Full recomputation adds one forward: 8N instead of 6N per token (attention aside).
  const Scenario none = parse_scenario(json{{"model", "llama-2-7b"}, {"task", "full"}, {"seq_len", 16}});
  const Scenario full = parse_scenario(json{{"model", "llama-2-7b"},
                                            {"task", "full"},
                                            {"seq_len", 16},
                                            {"training", {{"grad_checkpointing", "full"}}}});
  CHECK(training_flops_per_token(full) / training_flops_per_token(none) == Approx(8.0 / 6).epsilon(0.01));
}

TEST_CASE("A MoE reads only the experts its batch touches", "[speed]") {
  const Gpu& h200 = *find_gpu("h200");
  auto tps = [&](int batch) {
    return estimate_throughput(parse_scenario(json{{"model", "qwen3-30b-a3b"}, {"batch", batch}}), h200)
        .decode_tokens_per_s;
  };
  const double dense_like =
      estimate_throughput(parse_scenario(json{{"model", "qwen2.5-32b"}}), h200).decode_tokens_per_s;
  CHECK(tps(1) > 3 * dense_like);  // 3B active of 30B
  CHECK(tps(64) / 64 < tps(1));    // more tokens touch more experts
}
