// vLLM start-up accounting by version and worker (engine_accounting.cpp): which TP worker's log a
// figure is (V0 samples on the driver only) and how vLLM 0.6.3-0.6.4 counted non-torch memory.
// Reference values worked by hand from the code paths cited in engine_accounting.cpp.
#include <cmath>

#include <catch2/catch.hpp>

#include "base/error.h"
#include "memory/memory.h"
#include "plan/estimate.h"
#include "scenario/scenario.h"

using namespace gpusizer;

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;
EngineBudget budget(const nlohmann::json& scenario) {
  const Estimate e = estimate(parse_scenario(scenario));
  REQUIRE(e.memory.engine.has_value());
  return *e.memory.engine;
}
// Qwen2.5-14B (DeepSeek-R1-Distill-Qwen-14B) on 2x RTX 4090 under V0, as vllm-project/vllm issue
// #13061 ran it: chunked prefill's 2048-token budget and 256 sequences in the profile run.
nlohmann::json qwen14b_tp2(const char* worker) {
  return {{"model", "qwen2.5-14b"},
          {"gpu", "rtx4090"},
          {"gpus", 2},
          {"tp", 2},
          {"engine_options",
           {{"gpu_memory_utilization", 0.98},
            {"max_model_len", 131072},
            {"max_num_batched_tokens", 2048},
            {"max_num_seqs", 256},
            {"sampler", "v0"},
            {"tp_worker", worker}}}};
}
}  // namespace

TEST_CASE("V0 non-driver worker: the forward's peak, no sampler", "[engine_accounting]") {
  const EngineBudget driver = budget(qwen14b_tp2("driver"));
  const EngineBudget other = budget(qwen14b_tp2("non-driver"));
  // Forward over 2048 tokens: 3 x 5120 replicated + (3 x 13824 gated MLP) / 2 per rank, bf16:
  // 2048 x (15360 + 20736) x 2 = 147,849,216 bytes. Past the forward the non-driver holds the
  // hidden states (2048 + 256) x 5120 x 2 = 23,592,960 and its lm_head shard 256 x 76032 x 2 =
  // 38,928,384 (62.5 MB in all): the forward is the peak.
  CHECK(other.activation_peak_bytes == Approx(147849216.0).epsilon(1e-12));
  // The driver samples: 256 x 152064 x 32 (V0 sampler) + the same hidden states = 1,269,301,248.
  CHECK(driver.activation_peak_bytes == Approx(1269301248.0).epsilon(1e-12));
  // Same non-torch memory on both workers; the KV memory differs by the sampler alone.
  CHECK(other.non_torch_bytes == driver.non_torch_bytes);
  CHECK(other.kv_cache_bytes - driver.kv_cache_bytes ==
        Approx(driver.activation_peak_bytes - other.activation_peak_bytes).epsilon(1e-12));
  // The non-driver log: "PyTorch activation peak memory takes 0.19GiB", KV 8.69 GiB.
  CHECK(other.kv_cache_bytes / kGiB == Approx(8.69).epsilon(0.05));
}

TEST_CASE("tp_worker changes nothing where every worker samples", "[engine_accounting]") {
  nlohmann::json v1 = qwen14b_tp2("non-driver");
  v1["engine_options"]["sampler"] = "flashinfer";  // V1: each worker runs the sampler
  nlohmann::json v1_driver = v1;
  v1_driver["engine_options"]["tp_worker"] = "driver";
  CHECK(budget(v1).activation_peak_bytes == budget(v1_driver).activation_peak_bytes);
  nlohmann::json tp1 = qwen14b_tp2("non-driver");  // one GPU: no other worker
  tp1["gpus"] = 1;
  tp1["tp"] = 1;
  tp1["gpu"] = "h100-80gb";
  nlohmann::json tp1_driver = tp1;
  tp1_driver["engine_options"]["tp_worker"] = "driver";
  CHECK(budget(tp1).activation_peak_bytes == budget(tp1_driver).activation_peak_bytes);
}

TEST_CASE("vLLM 0.6.3-0.6.4 counted the CUDA context as non-torch memory", "[engine_accounting]") {
  // Llama-3.1-8B on an RTX 3090, V0 at max_model_len 20000 (vllm-project/vllm issue #10517).
  nlohmann::json s = {{"model", "llama-3.1-8b"},
                      {"gpu", "rtx3090"},
                      {"engine_options",
                       {{"max_model_len", 20000},
                        {"max_num_batched_tokens", 20000},
                        {"max_num_seqs", 256},
                        {"sampler", "v0"}}}};
  const EngineBudget now = budget(s);
  s["engine_version"] = "vllm 0.6.3";
  const EngineBudget old = budget(s);
  // 128 MiB after the baseline snapshot, plus the catalog's 400 MiB context of the RTX 3090.
  CHECK(now.non_torch_bytes == Approx(128 * kMiB).epsilon(1e-12));
  CHECK(old.non_torch_bytes == Approx(528 * kMiB).epsilon(1e-12));
  CHECK(now.kv_cache_bytes - old.kv_cache_bytes == Approx(400 * kMiB).epsilon(1e-9));
  CHECK(old.activation_peak_bytes == now.activation_peak_bytes);
  // The log: "kv_cache_size=3.81GiB".
  CHECK(old.kv_cache_bytes / kGiB == Approx(3.81).epsilon(0.05));
}

TEST_CASE("engine_options.tp_worker names itself when wrong", "[bad-input]") {
  nlohmann::json s = {{"model", "llama-3.1-8b"}, {"engine_options", {{"tp_worker", "rank1"}}}};
  try {
    parse_scenario(s);
    FAIL("accepted tp_worker rank1");
  } catch (const InputError& e) {
    CHECK(e.field == "engine_options.tp_worker");
  }
  s = {{"model", "llama-3.1-8b"}, {"engine_options", {{"non_torch_accounting", "device"}}}};
  try {
    parse_scenario(s);
    FAIL("accepted non_torch_accounting, a fact of vLLM 0.6.3");
  } catch (const InputError& e) {
    CHECK(e.field == "engine_options.non_torch_accounting");
    CHECK(e.code == "engine_option_version_fact");
  }
  CHECK(parse_scenario(nlohmann::json{{"model", "llama-3.1-8b"}}).engine_options.tp_worker == "driver");
  CHECK(parse_scenario(nlohmann::json{{"model", "llama-3.1-8b"}}).version_facts.non_torch_accounting ==
        "increase");
  CHECK(parse_scenario(nlohmann::json{{"model", "llama-3.1-8b"}, {"engine_version", "0.6.3"}})
            .version_facts.non_torch_accounting == "device");
}
