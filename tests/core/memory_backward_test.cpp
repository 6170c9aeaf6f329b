// The recomputed layer's backward and Liger's fused linear cross-entropy: reference values derived
// from the code the terms read (torch.utils.checkpoint, autograd's MulBackward0, Liger's
// fused_linear_cross_entropy_forward), not from measurements.
#include <catch2/catch.hpp>

#include "memory/memory_backward.h"
#include "memory/memory_fused_ce.h"
#include "memory/memory_training.h"
#include "plan/estimate.h"

using namespace gpusizer;
using nlohmann::json;

namespace {

Scenario scenario_of(const json& j) { return parse_scenario(j); }

ActivationLayout bf16_layout(double tokens) {
  ActivationLayout l;
  l.tokens = tokens;
  l.seq_len = tokens;
  return l;
}

}  // namespace

TEST_CASE("Recomputed layer backward: output, its gradient and the gated MLP's factor gradients",
          "[memory][backward]") {
  // Llama-3-8B: h = 4096, i = 14336. Per token: the rebuilt output and the output's gradient
  // (2 x 2 x 4096 bytes) and, at MulBackward0, the gradients of act(gate) and up beyond the
  // saved set (2 x 2 x 14336 bytes).
  const Architecture a = scenario_of(json{{"model", "llama-3-8b"}}).model;
  CHECK(recompute_backward_transient_bytes(a, bf16_layout(16384)) ==
        Approx(16384.0 * (2 * 2 * 4096 + 2 * 2 * 14336)));
  // fp32 training doubles every tensor.
  ActivationLayout fp32 = bf16_layout(16384);
  fp32.element_bytes = 4;
  CHECK(recompute_backward_transient_bytes(a, fp32) == Approx(2 * 16384.0 * (2 * 2 * 4096 + 2 * 2 * 14336)));
}

TEST_CASE("Recomputed layer backward: plain MLP, tensor and sequence parallelism, MoE",
          "[memory][backward]") {
  // GELU MLP (GPT-2 small: h = 768, i = 3072): the activation output's gradient and its input's
  // gradient, the saved output freed: one i-wide tensor beyond the saved set.
  const Architecture gpt2 = scenario_of(json{{"model", "gpt2"}}).model;
  REQUIRE(gpt2.mlp == MlpKind::Plain);
  CHECK(recompute_backward_transient_bytes(gpt2, bf16_layout(1024)) ==
        Approx(1024.0 * (2 * 2 * 768 + 2 * 3072)));
  // TP 4: the MLP's gradients are split; the h-wide output and its gradient are replicated unless
  // sequence parallelism splits them too.
  const Architecture a = scenario_of(json{{"model", "llama-3-8b"}}).model;
  ActivationLayout tp = bf16_layout(8192);
  tp.tp = 4;
  CHECK(recompute_backward_transient_bytes(a, tp) == Approx(8192.0 * (2 * 2 * 4096 + 2 * 2 * 14336 / 4.0)));
  tp.sequence_parallel = true;
  CHECK(recompute_backward_transient_bytes(a, tp) == Approx(8192.0 * (2 * 2 * 4096 + 2 * 2 * 14336) / 4));
  // Mixtral 8x7B (8 experts, top-2, expert width 14336): HF's MixtralSparseMoeBlock runs one expert
  // at a time on 2/8 of the tokens on average: a 3584-wide share per token.
  const Architecture mixtral = scenario_of(json{{"model", "mixtral-8x7b"}}).model;
  REQUIRE(mixtral.experts == 8);
  CHECK(recompute_backward_transient_bytes(mixtral, bf16_layout(8192)) ==
        Approx(8192.0 * (2 * 2 * 4096 + 2 * 2 * 14336 * 2 / 8.0)));
}

TEST_CASE("Full recomputation: the rebuilt layer plus its backward's gradients", "[memory][backward]") {
  json j = {{"model", "llama-3-8b"},    {"task", "lora"},
            {"engine", "transformers"}, {"batch", 4},
            {"seq_len", 4096},          {"training", {{"grad_checkpointing", "full"}}}};
  Scenario s = scenario_of(j);
  const ActivationLayout l = activation_layout(s);
  const double layer = layer_activation_bytes(s.model, l);
  const double transient = recompute_backward_transient_bytes(s.model, l);
  CHECK(recompute_working_bytes(s) == Approx(layer + transient));
  // With the fused loss the rebuilt layer's backward, not the loss, sets the activation peak:
  // all layer inputs plus that working set.
  j["engine_options"] = {{"cross_entropy", "fused"}};
  s = scenario_of(j);
  REQUIRE(logits_bytes(s) < layer + transient);
  CHECK(training_activation_bytes(s) ==
        Approx(32 * checkpoint_activation_bytes(s.model, l) + layer + transient));
  // Without recomputation nothing is rebuilt.
  j["training"]["grad_checkpointing"] = "none";
  CHECK(recompute_working_bytes(scenario_of(j)) == 0);
}

TEST_CASE("Liger fused linear cross-entropy: chunk rows and buffers from its forward", "[memory][fused-ce]") {
  // The source's own example (fused_linear_cross_entropy.py): BT = 4096 x 4, V = 32000, H = 4096
  // gives inc_factor = 8 and chunk_size = 2048.
  CHECK(fused_ce_chunk_rows(4096.0 * 4, 32000, 4096) == 2048);
  // Llama-3 vocabulary: inc_factor = ceil(128256 / 4096) = 32, ceil(16380 / 32) = 512, a power of 2.
  CHECK(fused_ce_chunk_rows(16380, 128256, 4096) == 512);
  // A short batch: ceil(100 / 32) = 4 rows; a vocabulary narrower than H (inc_factor 1) rounds 5
  // rows up to 8, but a slice holds at most BT rows.
  CHECK(fused_ce_chunk_rows(100, 128256, 4096) == 4);
  CHECK(fused_ce_chunk_rows(5, 1000, 4096) == 5);
  // Mistral-7B LoRA, b = 4, s = 4096: 2048-row chunks of bf16 + fp32 logits (6 bytes), the bf16
  // shifted hidden states and grad_input (2 x 2 x 4096 per row), fp32 loss_1d (4 per row).
  json j = {{"model", "mistral-7b"},    {"task", "lora"},
            {"engine", "transformers"}, {"batch", 4},
            {"seq_len", 4096},          {"engine_options", {{"cross_entropy", "fused"}}}};
  const double rows = 4.0 * 4095;
  CHECK(fused_ce_bytes(scenario_of(j)) == Approx(2048.0 * 32000 * 6 + rows * (2 * 2 * 4096 + 4)));
  CHECK(logits_bytes(scenario_of(j)) == Approx(fused_ce_bytes(scenario_of(j))));
  // Full fine-tuning trains the lm_head: grad_weight = torch.zeros_like(weight), V x H in bf16.
  j["task"] = "full";
  CHECK(fused_ce_bytes(scenario_of(j)) ==
        Approx(2048.0 * 32000 * 6 + rows * (2 * 2 * 4096 + 4) + 32000.0 * 4096 * 2));
}

TEST_CASE("FSDP full fine-tuning: the step runs resharded, the gathered units' blocks stay reserved",
          "[memory][fsdp]") {
  // fms-acceleration's full fine-tuning shape: FSDP FULL_SHARD on 4 GPUs with fp32 flat parameters
  // (master weights), AdamW. At the step every unit is resharded: allocated = the sharded fp32
  // parameters, gradients and the two AdamW states (4 + 4 + 8 bytes per parameter) plus the foreach
  // step's state-sized fp32 temporary (4), over 4 GPUs: 20 P / 4.
  const json j = {{"model", "llama-3-8b"},
                  {"task", "full"},
                  {"engine", "fsdp"},
                  {"weights", "bf16"},
                  {"gpus", 4},
                  {"gpu", "a100-80gb"},
                  {"batch", 4},
                  {"seq_len", 4096},
                  {"engine_options", {{"cross_entropy", "fused"}, {"checkpoint_wraps_fsdp", true}}},
                  {"training", {{"zero", 3}, {"grad_checkpointing", "full"}, {"master_weights", true}}}};
  const Scenario s = scenario_of(j);
  const MemoryEstimate m = estimate(s).memory;
  const double p = count_params(s.model).total;
  CHECK(m.figures.allocated_bytes == Approx(20 * p / 4));
  // The gathered units were allocated on FSDP's unshard stream; the step on the default stream
  // cannot reuse their freed blocks, so the pool still holds them.
  CHECK(m.figures.reserved_bytes - m.figures.allocated_bytes >= zero3_live_bytes(s));
  // The per-GPU total (what `fits` uses) is the reserved pool's side of it: unchanged by the reshard.
  CHECK(m.per_gpu_bytes >= 20 * p / 4 + zero3_live_bytes(s));
}
