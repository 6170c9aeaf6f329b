// Quantized-kernel buffers, the GPTQ/AWQ group size and figures summed over device_map devices
// (core/src/memory/memory_quant.cpp). Reference values are the buffer shapes of the cited code.
#include <catch2/catch.hpp>

#include "scenario_error.h"

#include "base/error.h"
#include "model/architecture.h"
#include "model/precision.h"
#include "plan/estimate.h"

using namespace gpusizer;
using nlohmann::json;

namespace {
MemoryEstimate memory_of(const json& scenario) { return estimate(parse_scenario(scenario)).memory; }

json gptq_13b(int64_t batch, int64_t prompt, int64_t output) {
  return json{{"model", "llama-2-13b"}, {"engine", "transformers"}, {"weights", "gptq-int4"},
              {"batch", batch},         {"prompt_tokens", prompt},  {"output_tokens", output}};
}
}  // namespace

TEST_CASE("AutoGPTQ exllama v1: temp_dq of the largest layer, temp_state only with act-order",
          "[memory][quant]") {
  json s = gptq_13b(1, 512, 512);
  const double plain = memory_of(s).breakdown.activations;
  s["engine_options"] = {{"quant_kernel", "exllama"}};
  // temp_dq = qweight.numel() * 8 fp16 of gate/up/down: 5120 x 13824 x 2 bytes.
  CHECK(memory_of(s).breakdown.activations - plain == Approx(5120.0 * 13824 * 2));
  s["engine_options"]["act_order"] = true;
  // + temp_state (EXLLAMA_DEFAULT_MAX_INPUT_LENGTH 2048, max(in, out) = 13824) fp16.
  CHECK(memory_of(s).breakdown.activations - plain == Approx(5120.0 * 13824 * 2 + 2048.0 * 13824 * 2));
  s["engine_options"]["quant_max_input_len"] = 4096;
  CHECK(memory_of(s).breakdown.activations - plain == Approx(5120.0 * 13824 * 2 + 4096.0 * 13824 * 2));
}

TEST_CASE("AutoGPTQ cuda-old: torch dequantisation from 128 prompt rows", "[memory][quant]") {
  json s = gptq_13b(1, 127, 1);
  const double below_plain = memory_of(s).breakdown.activations;
  s["engine_options"] = {{"quant_kernel", "cuda-old"}};
  CHECK(memory_of(s).breakdown.activations == Approx(below_plain));  // the kernel path: no scratch
  json t = gptq_13b(2, 64, 1);                                       // 128 rows
  const double plain = memory_of(t).breakdown.activations;
  t["engine_options"] = {{"quant_kernel", "cuda-old"}};
  // int32 shift output (4 B) + its int8 copy (1 B) per weight of the largest layer.
  CHECK(memory_of(t).breakdown.activations - plain == Approx(5.0 * 5120 * 13824));
}

TEST_CASE("ExLlamaV2 scratch space under transformers AWQ (AutoAWQ exllamav2_post_init)", "[memory][quant]") {
  json s = {{"model", "llama-3.1-8b"},
            {"engine", "transformers"},
            {"weights", "awq-int4"},
            {"prompt_tokens", 64},
            {"output_tokens", 1}};
  const double plain = memory_of(s).breakdown.activations;
  s["engine_options"] = {{"quant_kernel", "exllamav2"}};
  // gate/up: in 4096, out 14336: 4096 x 14336 x 2 + 128 + 14336 x 2048 x 8 x 4 + 128 = 1,056,964,864 B.
  CHECK(memory_of(s).breakdown.activations - plain == Approx(1056964864.0));
  s["engine_options"]["quant_max_batch_size"] = 1;
  CHECK(memory_of(s).breakdown.activations - plain == Approx(4096.0 * 14336 * 2 + 14336.0 * 2048 * 4 + 256));
}

TEST_CASE("Group size: scales and zeros per group against the default 128", "[memory][quant]") {
  json s = {
      {"model", "llama-2-70b"}, {"engine", "transformers"}, {"weights", "gptq-int4"}, {"seq_len", 2048}};
  // The preset's GPTQ checkpoint (TheBloke/Llama-2-70B-GPTQ, main branch) is quantized without groups.
  const double published = memory_of(s).breakdown.weights;
  s["engine_options"] = {{"group_size", 128}};
  const double g128 = memory_of(s).breakdown.weights;
  s["engine_options"] = {{"group_size", -1}};
  CHECK(memory_of(s).breakdown.weights == Approx(published));
  s["engine_options"] = {{"group_size", 32}};
  // Linear weights 80 x (2 x 8192^2 + 2 x 8192 x 1024 + 3 x 8192 x 28672) = 68,451,041,280, each
  // with (16 + 4) bits x (1/32 - 1/128) more: x 0.05859375 bytes.
  CHECK(memory_of(s).breakdown.weights - g128 == Approx(68451041280.0 * 0.05859375));
  // One group per column: (16 + 4) bits per column and linear instead of per 128 input rows; the
  // columns: 80 x (8192 + 1024 + 1024 + 8192 + 2 x 28672 + 8192) = 6,717,440.
  CHECK(g128 - published == Approx((68451041280.0 / 128 - 6717440.0) * 20 / 8));
  s["engine_options"] = {{"group_size", 0}};
  CHECK(scenario_error_field(s) == "engine_options.group_size");
  s["engine_options"] = {{"quant_kernel", "marlin-xyz"}};
  CHECK(scenario_error_field(s) == "engine_options.quant_kernel");
}

TEST_CASE("turboderp ExLlama: per-device buffers and fp16 scores; summed devices", "[memory][quant]") {
  json s = {{"model", "llama-7b"},
            {"engine", "transformers"},
            {"weights", "gptq-int4"},
            {"prompt_tokens", 1920},
            {"output_tokens", 128}};
  const double plain = memory_of(s).breakdown.activations;
  s["engine_options"] = {{"quant_kernel", "exllama-standalone"}};
  // temp_state 2048 x 11008 + temp_mlp 4 x 11008 fp16, temp_zeros_float 65536 fp32, temp_dq 4096 x 11008
  // fp16.
  const double buffers = 2048.0 * 11008 * 2 + 4.0 * 11008 * 2 + 65536.0 * 4 + 4096.0 * 11008 * 2;
  // Scores of 32 heads over the 1920-token prompt: fp16 matmul output + fp16 softmax.
  const double scores = 32.0 * 1920 * 1920 * 4;
  const MemoryEstimate one = memory_of(s);
  CHECK(one.breakdown.activations - plain == Approx(buffers + scores));
  s["engine_options"]["summed_devices"] = 2;
  const MemoryEstimate two = memory_of(s);
  // Both devices hold their buffers and peak at their own layers; weights and KV are counted once.
  CHECK(two.breakdown.weights == Approx(one.breakdown.weights));
  CHECK(two.breakdown.kv_cache == Approx(one.breakdown.kv_cache));
  // The second device adds its buffers and its own layer peak (the block's working set and scores);
  // the last position's fp32 logits and probabilities (2 x 32000 x 4 B) stay on one device.
  const double working = plain - 2.0 * 32000 * 4;
  CHECK(two.breakdown.activations - one.breakdown.activations == Approx(working + scores + buffers));
}

TEST_CASE("Legacy tuple KV cache: no copy when generate() stops after the prefill", "[memory][quant]") {
  json s = {{"model", "llama-2-13b"},
            {"engine", "transformers"},
            {"batch", 16},
            {"prompt_tokens", 512},
            {"output_tokens", 1}};
  const double modern = memory_of(s).breakdown.kv_cache;
  s["engine_version"] = "transformers 4.35";
  CHECK(memory_of(s).breakdown.kv_cache == Approx(modern));
  s["output_tokens"] = 2;
  const double seq = 514;
  s.erase("engine_version");
  const double modern2 = memory_of(s).breakdown.kv_cache;
  s["engine_version"] = "transformers 4.35";
  CHECK(memory_of(s).breakdown.kv_cache == Approx(modern2 * (1 + (seq - 1) / seq)));
}

TEST_CASE("quant_scope mlp-inner: Meta's FP8 405B keeps attention and the first and last layers 16-bit",
          "[memory][quant]") {
  // transformers' FBGEMM FP8 conversion of Llama 3.1 405B: modules_to_not_convert = model.layers.0,
  // model.layers.125, lm_head, model.layers.{1..124}.self_attn. Attention per layer: q, o 16384 x 16384,
  // k, v 16384 x 1024 (8 KV heads of 128); MLP: gate, up, down 16384 x 53248.
  json s = {{"model", "llama-3.1-405b"},
            {"engine", "vllm"},
            {"weights", "fp8"},
            {"gpu", "h100-80gb"},
            {"gpus", 8},
            {"tp", 8},
            {"batch", 1},
            {"seq_len", 4096}};
  // The preset in fp8 is Meta's FP8 checkpoint, which records the scope (checkpoints.json): stated
  // "all" is the uniform layout.
  s["engine_options"] = {{"quant_scope", "all"}};
  const Estimate all = estimate(parse_scenario(s));
  s["engine_options"] = {{"quant_scope", "mlp-inner"}};
  const Estimate scoped = estimate(parse_scenario(s));
  const Architecture& a = *find_preset("llama-3.1-405b");
  const double fp8_per_weight = weight_bytes(a, WeightFormat::Fp8).linear / count_params(a).linear;
  const double kept = 126 * 16384.0 * (2 * 16384 + 2 * 1024) + 2 * 3 * 16384.0 * 53248;
  CHECK(scoped.memory.breakdown.weights - all.memory.breakdown.weights ==
        Approx(kept * (2 - fp8_per_weight) / 8));
  // The 16-bit modules are read every decode step too.
  CHECK(scoped.throughput->decode_tokens_per_s < all.throughput->decode_tokens_per_s);
  s.erase("engine_options");
  CHECK(estimate(parse_scenario(s)).memory.breakdown.weights == Approx(scoped.memory.breakdown.weights));
  // 16-bit weights have nothing to keep.
  s["weights"] = "bf16";
  s["engine_options"]["quant_scope"] = "mlp-inner";
  s["gpus"] = 16;
  s["pp"] = 2;
  json bf16_all = s;
  bf16_all.erase("engine_options");
  CHECK(estimate(parse_scenario(s)).memory.breakdown.weights ==
        Approx(estimate(parse_scenario(bf16_all)).memory.breakdown.weights));
  s["engine_options"]["quant_scope"] = "attention";
  CHECK(scenario_error_field(s) == "engine_options.quant_scope");
}

TEST_CASE("A named GPTQ/AWQ checkpoint is sized with its published group size and act-order",
          "[memory][quant]") {
  // core/data/checkpoints.json, from the model cards' "Provided files" tables and quantize configs.
  const auto weights_of = [](const json& scenario) { return memory_of(scenario).breakdown.weights; };
  const json grouped = {{"model", "TheBloke/Llama-2-13B-chat-GPTQ"}, {"engine", "transformers"}};
  const json ungrouped = {{"model", "TheBloke/Llama-2-70B-Chat-GPTQ"}, {"engine", "transformers"}};
  json stated = ungrouped;
  stated["engine_options"] = {{"group_size", -1}};
  CHECK(weights_of(ungrouped) == Approx(weights_of(stated)));  // GS "None" in its table
  stated["engine_options"] = {{"group_size", 128}};
  CHECK(weights_of(ungrouped) < weights_of(stated));
  json g128 = grouped;
  g128["engine_options"] = {{"group_size", 128}};
  CHECK(weights_of(grouped) == Approx(weights_of(g128)));
  // Act-order (desc_act true, hugging-quants' quantize config) makes exllama v1 keep temp_state.
  json act = {{"model", "hugging-quants/Meta-Llama-3.1-8B-Instruct-GPTQ-INT4"},
              {"engine", "transformers"},
              {"prompt_tokens", 64},
              {"output_tokens", 1},
              {"engine_options", {{"quant_kernel", "exllama"}}}};
  const double with_act = memory_of(act).breakdown.activations;
  act["engine_options"]["act_order"] = false;  // a user's statement wins over the checkpoint's
  // temp_state: EXLLAMA_DEFAULT_MAX_INPUT_LENGTH 2048 x max(in, out) 14336 fp16.
  CHECK(with_act - memory_of(act).breakdown.activations == Approx(2048.0 * 14336 * 2));
}

// Review reject 9 (case 20): meta-llama/Llama-3.1-405B-Instruct-FP8 stores Meta's FBGEMM recipe
// (checkpoints.json quant.scope "mlp-inner"), so the hub id is sized with it by default. From first
// principles (h 16384, 126 layers, MLP 53248, 8 KV heads of 128, vocab 128256): FP8 = the MLPs of
// layers 1..124, 124 x 3 x 16384 x 53248 = 324.5e9 weights x 1 B (row-wise scales: 4 B per output
// row, ~0.1 GB); bf16 = attention 126 x 16384 x 34816 = 71.9e9, the MLPs of layers 0 and 125
// 5.2e9, embedding and lm_head 4.2e9: 81.3e9 x 2 B = 162.7 GB. 487 GB in all, /8 = 56.7 GiB a GPU.
// The reviewer's figure, to the 0.1 GiB.
TEST_CASE("The Meta FP8 405B hub id is sized with its stored scope; others keep theirs", "[memory][quant]") {
  const double gib = 1024.0 * 1024 * 1024;
  json s = {{"model", "meta-llama/Llama-3.1-405B-Instruct-FP8"},
            {"gpu", "h100-80gb"},
            {"gpus", 8},
            {"tp", 8},
            {"batch", 32},
            {"seq_len", 5120}};
  const double meta = memory_of(s).breakdown.weights;
  CHECK(meta / gib == Approx(56.7).epsilon(0.01));
  CHECK(meta * 8 / 1e9 == Approx(487).epsilon(0.01));
  // Stated as "all", the option wins over the checkpoint's scope.
  s["engine_options"] = {{"quant_scope", "all"}};
  CHECK(memory_of(s).breakdown.weights / gib == Approx(47.75).epsilon(0.01));
  // neuralmagic's FP8 quantizes every block linear (its card): scope "all", the uniform layout.
  json nm = {
      {"model", "neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8"}, {"gpu", "h100-80gb"}, {"gpus", 2}, {"tp", 2}};
  const double nm_weights = memory_of(nm).breakdown.weights;
  nm["engine_options"] = {{"quant_scope", "all"}};
  CHECK(nm_weights == Approx(memory_of(nm).breakdown.weights));
}
