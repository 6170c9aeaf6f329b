// The three memory figures (memory_runtime.cpp) and vLLM/SGLang start-up accounting
// (engine_accounting.cpp): reference values worked by hand from the cited constants.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <catch2/catch.hpp>

#include "base/error.h"
#include "memory/memory.h"
#include "plan/estimate.h"
#include "scenario/scenario.h"

using namespace gpusizer;

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;
Estimate run(const char* json) { return estimate(parse_scenario(nlohmann::json::parse(json))); }
}  // namespace

TEST_CASE("allocated < reserved < nvidia-smi, each step a named term", "[memory_runtime]") {
  const Estimate e = run(
      R"({"model":"llama-3.1-8b","engine":"transformers","gpu":"a100-80gb","prompt_tokens":64,"output_tokens":64})");
  const MemoryEstimate& m = e.memory;
  // allocated = the breakdown without its runtime share
  CHECK(m.figures.allocated_bytes == Approx(m.per_gpu_bytes - m.breakdown.runtime));
  // reserved adds the cuBLAS workspace (in the allocator) and half a 2 MiB block per large tensor:
  // 7 x 32 + 2 = 226 tensors
  CHECK(m.figures.reserved_bytes - m.figures.allocated_bytes == Approx(8519680 + 226 * kMiB));
  // nvidia-smi adds the A100's CUDA context (400 MiB in core/data/gpus.json), no NCCL at 1 GPU
  CHECK(m.figures.nvidia_smi_bytes - m.figures.reserved_bytes == Approx(400 * kMiB));
  CHECK_FALSE(m.engine.has_value());  // transformers: no engine budget
}

TEST_CASE("NCCL buffers count for nvidia-smi only, once per communicator", "[memory_runtime]") {
  const Estimate one = run(R"({"model":"llama-3.1-8b","engine":"transformers","gpu":"a100-80gb"})");
  const Estimate two =
      run(R"({"model":"llama-3.1-8b","engine":"transformers","gpu":"a100-80gb","gpus":2,"tp":2})");
  const double outside_one = one.memory.figures.nvidia_smi_bytes - one.memory.figures.reserved_bytes;
  const double outside_two = two.memory.figures.nvidia_smi_bytes - two.memory.figures.reserved_bytes;
  CHECK(outside_two - outside_one == Approx(256 * kMiB));  // 4 MiB x 32 channels x 2 directions
}

TEST_CASE("vLLM budget: Llama-3.1-8B on H100, vLLM 0.11's PyTorch-native sampler", "[engine_accounting]") {
  const Estimate e = run(
      R"({"model":"llama-3.1-8b","gpu":"h100-80gb","engine_options":{"max_model_len":16000,"sampler":"pytorch-native"}})");
  REQUIRE(e.memory.engine.has_value());
  const EngineBudget& b = *e.memory.engine;
  CHECK(b.engine == "vllm");
  CHECK(b.fraction == 0.9);
  CHECK(b.max_num_batched_tokens == 8192);  // H100 (>= 70 GiB, not A100): 8192 / 1024
  CHECK(b.max_num_seqs == 1024);
  // sampler: 1024 x 128256 x 38 B (the sort path) beside the forward's output hidden states
  // ((8192 + 1024) x 4096 x 2 B); forward: 8192 x (3 x 4096 + 3 x 14336) x 2 B. profile_run frees
  // the forward's intermediates before _dummy_sampler_run: the peak is the larger phase.
  const double sampler = 1024.0 * 128256 * 38 + (8192.0 + 1024) * 4096 * 2;
  const double forward = 8192.0 * (3 * 4096 + 3 * 14336) * 2;
  CHECK(b.activation_peak_bytes == Approx(std::max(sampler, forward)));
  CHECK(b.budget_bytes == Approx(0.9 * 85029027840.0));  // torch total_memory of the H100 80GB
  CHECK(b.kv_cache_bytes ==
        Approx(b.budget_bytes - b.weights_bytes - b.activation_peak_bytes - b.non_torch_bytes));
  // 128 KiB per token (32 layers x 8 KV heads x 128 x 2 x 2 B), whole 16-token blocks
  const double tokens = std::floor(b.kv_cache_bytes / (131072.0 * 16)) * 16;
  CHECK(b.kv_tokens == tokens);
  CHECK(b.max_concurrency == Approx(tokens / 16000));
  // vLLM 0.11 printed 51.38 GiB for this start-up and an activation peak of 4.76 GiB (llm-d
  // results, a calibration source): within 3 %
  CHECK(b.kv_cache_bytes / kGiB == Approx(51.38).epsilon(0.03));
  CHECK(b.activation_peak_bytes / kGiB == Approx(4.76).epsilon(0.03));
  // nvidia-smi shows the budget plus the CUDA graphs, whatever the batch
  CHECK(e.memory.figures.nvidia_smi_bytes == Approx(b.budget_bytes + b.cuda_graph_bytes));
}

TEST_CASE("vLLM sampler paths: bytes per request and vocabulary entry from the kernels",
          "[engine_accounting]") {
  // pytorch-native: bf16 logits 2 + fp32 copy 4 + sort values 4 + int64 indices 8 + reverse
  // indices 8 (SortStable.cu) + cub double buffers 4 + 8
  CHECK(vllm_sampler_bytes_per_entry("pytorch-native") == 38);
  // flashinfer: bf16 logits 2 + fp32 copy 4 + top_k_mask_logits 4 + softmax 4
  CHECK(vllm_sampler_bytes_per_entry("flashinfer") == 14);
  CHECK(vllm_sampler_bytes_per_entry("v0") == 32);  // 8 fp32 vocabulary-wide tensors (V0 sampler)
  // The scenario's default is its engine version's: the newest checked (vLLM 0.11, PyTorch-native);
  // an older one names its own, and engine_options.sampler (VLLM_USE_FLASHINFER_SAMPLER) wins.
  const auto sampler_of = [](const char* text) {
    return parse_scenario(nlohmann::json::parse(text)).engine_options.sampler;
  };
  CHECK(sampler_of(R"({"model":"llama-3.1-8b"})") == "pytorch-native");
  CHECK(parse_scenario(nlohmann::json::parse(R"({"model":"llama-3.1-8b"})")).engine_version == "0.11");
  CHECK(sampler_of(R"({"model":"llama-3.1-8b","engine_version":"vllm 0.6.5"})") == "v0");
  CHECK(sampler_of(R"({"model":"llama-3.1-8b","engine_options":{"sampler":"flashinfer"}})") == "flashinfer");
  // The sampler phase is the peak at 256 sequences x 152064 vocab (Qwen2.5-7B on an A100 at the
  // small-GPU defaults, 2048 batched tokens): the paths differ by exactly their bytes per entry.
  const char* base =
      R"({"model":"qwen2.5-7b","gpu":"a100-80gb","engine_options":{"max_model_len":16384,"sampler":"%s"}})";
  auto peak = [&](const char* path) {
    char buf[256];
    std::snprintf(buf, sizeof buf, base, path);
    return run(buf).memory.engine->activation_peak_bytes;
  };
  const double entries = 256.0 * 152064;
  CHECK(peak("pytorch-native") - peak("flashinfer") == Approx(entries * (38 - 14)));
  CHECK(peak("v0") - peak("flashinfer") == Approx(entries * (32 - 14)));
  // dennislee22 vLLM-benchmarking, v0.10.1.1 with FlashInfer sampling, Qwen2-7B, A100 80GB,
  // gpu_memory_utilization 0.25: "Available KV cache memory: 5.01 GiB"; within 3 %
  const Estimate e = run(
      R"({"model":"qwen2.5-7b","gpu":"a100-80gb","engine_options":{"gpu_memory_utilization":0.25,"max_model_len":16384,"sampler":"flashinfer"}})");
  CHECK(e.memory.engine->kv_cache_bytes / kGiB == Approx(5.01).epsilon(0.03));
}

TEST_CASE("vLLM options move the budget the documented way", "[engine_accounting]") {
  const Estimate small = run(
      R"({"model":"qwen2.5-7b","gpu":"a100-80gb","engine_options":{"gpu_memory_utilization":0.25,"max_model_len":16384}})");
  const Estimate half = run(
      R"({"model":"qwen2.5-7b","gpu":"a100-80gb","engine_options":{"gpu_memory_utilization":0.5,"max_model_len":16384}})");
  REQUIRE(small.memory.engine);
  REQUIRE(half.memory.engine);
  CHECK(small.memory.engine->max_num_seqs == 256);  // A100: the small-GPU defaults
  CHECK(half.memory.engine->kv_cache_bytes - small.memory.engine->kv_cache_bytes ==
        Approx(0.25 * 85095088128.0).epsilon(0.01));
  const Estimate eager =
      run(R"({"model":"qwen2.5-7b","gpu":"a100-80gb","engine_options":{"enforce_eager":true}})");
  CHECK(eager.memory.engine->cuda_graph_bytes == 0);
  const Estimate seqs =
      run(R"({"model":"qwen2.5-7b","gpu":"a100-80gb","engine_options":{"max_num_seqs":16}})");
  CHECK(seqs.memory.engine->activation_peak_bytes < half.memory.engine->activation_peak_bytes);
}

TEST_CASE("SGLang: K and V pools fill mem_fraction_static after the weights", "[engine_accounting]") {
  const Estimate e = run(
      R"({"model":"llama-3.1-8b","engine":"sglang","gpu":"h100-80gb","engine_options":{"mem_fraction_static":0.8}})");
  REQUIRE(e.memory.engine);
  const EngineBudget& b = *e.memory.engine;
  CHECK(b.kv_cache_bytes == Approx(0.8 * 85029027840.0 - b.weights_bytes - b.non_torch_bytes));
  CHECK(b.kv_tokens == std::floor(b.kv_cache_bytes / 131072.0));
}

namespace {
std::string field_of(const char* json) {
  try {
    run(json);
  } catch (const InputError& e) {
    return e.field;
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("engine_options: bad values name their field", "[engine_accounting]") {
  CHECK(field_of(R"({"model":"llama-3.1-8b","engine_options":{"gpu_memory_utilization":0}})") ==
        "engine_options.gpu_memory_utilization");
  CHECK(field_of(R"({"model":"llama-3.1-8b","engine_options":{"mem_fraction_static":1}})") ==
        "engine_options.mem_fraction_static");
  CHECK(field_of(R"({"model":"llama-3.1-8b","engine_options":{"max_seqs":4}})") == "engine_options.max_seqs");
  CHECK(field_of(R"({"model":"llama-3.1-8b","engine_options":3})") == "engine_options");
  CHECK(field_of(R"({"model":"llama-3.1-8b","engine_options":{"sampler":"triton"}})") ==
        "engine_options.sampler");
}

TEST_CASE("ranges: the held-out error percentiles of core/data/ranges.json bracket each figure",
          "[memory_ranges]") {
  const Estimate e = run(R"({"model":"llama-3.1-8b","engine":"transformers","gpu":"a100-80gb"})");
  REQUIRE_FALSE(e.memory.ranges.empty());
  for (const MemoryRange& r : e.memory.ranges) {
    INFO(r.group);
    CHECK(r.group.rfind("inference.", 0) == 0);
    CHECK(r.cases >= 10);
    CHECK(r.low_bytes < r.high_bytes);
    CHECK_FALSE(r.far_from_data);  // 8 B parameters: inside every inference group's span
    const double value = r.figure == "allocated"  ? e.memory.figures.allocated_bytes
                         : r.figure == "reserved" ? e.memory.figures.reserved_bytes
                                                  : e.memory.figures.nvidia_smi_bytes;
    // low = value / (1 + p90), high = value / (1 + p10): the ratio is fixed by the two percentiles
    CHECK(r.high_bytes / r.low_bytes > 1);
    CHECK(value / r.high_bytes > 0.5);
  }
  // A 0.5 B model is far below the measured inference runs (3-70 B parameters).
  const Estimate tiny = run(R"({"model":"qwen2.5-0.5b","engine":"transformers","gpu":"a100-80gb"})");
  REQUIRE_FALSE(tiny.memory.ranges.empty());
  CHECK(tiny.memory.ranges.front().far_from_data);
  // Training scenarios use the training groups.
  const Estimate lora =
      run(R"({"model":"llama-3.1-8b","task":"lora","engine":"transformers","gpu":"a100-80gb"})");
  REQUIRE_FALSE(lora.memory.ranges.empty());
  CHECK(lora.memory.ranges.front().group.rfind("training.", 0) == 0);
}

TEST_CASE("Training: the allocator keeps a spare set of loss-path blocks, within the card",
          "[memory_runtime]") {
  // CUDACachingAllocator.cpp: freed segments stay cached; with the same shapes every step the next
  // step's loss path needs new segments beside the cached ones (memory_runtime.cpp). 1 x 2048 tokens
  // x 128256 vocabulary x 12 bytes (HF loss: logits_bytes in memory_training_test.cpp).
  nlohmann::json lora = nlohmann::json::parse(
      R"({"model":"llama-3-8b","task":"lora","engine":"transformers","gpu":"a100-80gb","batch":1,"seq_len":2048})");
  const MemoryFigures fixed = estimate(parse_scenario(lora)).memory.figures;
  lora["engine_options"] = {{"padded_batches", true}};
  const MemoryFigures padded = estimate(parse_scenario(lora)).memory.figures;
  CHECK(padded.allocated_bytes == Approx(fixed.allocated_bytes));
  CHECK(fixed.reserved_bytes - padded.reserved_bytes == Approx(2048.0 * 128256 * 12));
  // Beyond the card the allocator frees its cache and retries (release_cached_blocks): reserved
  // stops at the card's memory less the context (400 MiB on the A100): 12 x 4096 tokens with
  // Fast_CrossEntropyLoss allocate ~65 GiB and would cache 47 GiB of loss-path blocks besides.
  const nlohmann::json big = nlohmann::json::parse(
      R"({"model":"llama-3-8b","task":"qlora","weights":"nf4","engine":"transformers","gpu":"a100-80gb","batch":12,
          "seq_len":4096,"training":{"lora_rank":16,"lora_targets":"attention"},"engine_options":{"cross_entropy":"inplace"}})");
  const Estimate e = estimate(parse_scenario(big));
  CHECK(e.memory.figures.reserved_bytes == Approx(e.gpu->memory_bytes - 400 * kMiB));
  CHECK(e.memory.figures.nvidia_smi_bytes == Approx(e.gpu->memory_bytes));
  CHECK(e.memory.figures.reserved_bytes > e.memory.figures.allocated_bytes);
  lora["engine_options"] = {{"padded_batches", "yes"}};
  try {
    parse_scenario(lora);
    FAIL("a non-boolean padded_batches must be refused");
  } catch (const InputError& err) {
    CHECK(std::string(err.field) == "engine_options.padded_batches");
  }
  // Inference keeps no loss path
  const Estimate inf =
      run(R"({"model":"llama-3-8b","engine":"transformers","gpu":"a100-80gb","batch":1,"seq_len":2048})");
  const Estimate inf_padded = run(
      R"({"model":"llama-3-8b","engine":"transformers","gpu":"a100-80gb","batch":1,"seq_len":2048,"engine_options":{"padded_batches":true}})");
  CHECK(inf.memory.figures.reserved_bytes == Approx(inf_padded.memory.figures.reserved_bytes));
}
