// Training memory: golden numbers from the ZeRO paper, Korthikanti et al. 2022 and DeepSpeed's
// estimators; monotonicity properties; refused and warned combinations.
#include <catch2/catch.hpp>

#include "scenario_error.h"

#include <string>

#include "base/error.h"
#include "memory/memory_training.h"
#include "plan/estimate.h"

using namespace gpusizer;
using nlohmann::json;

namespace {
constexpr double kGB = 1e9;

MemoryEstimate memory_of(const json& scenario) { return estimate(parse_scenario(scenario)).memory; }

bool has_warning(const MemoryEstimate& m, const std::string& code) {
  for (const Warning& w : m.warnings) {
    if (w.code == code) return true;
  }
  return false;
}

// A GPT-style model of Korthikanti et al. (4h GELU MLP, MHA): GPT-3 175B's width (Table 3).
Architecture gpt3_175b() {
  return parse_scenario(json{{"model",
                              {{"name", "gpt3"},
                               {"layers", 96},
                               {"hidden", 12288},
                               {"heads", 96},
                               {"kv_heads", 96},
                               {"head_dim", 128},
                               {"intermediate", 49152},
                               {"vocab", 51200},
                               {"mlp", "plain"}}}})
      .model;
}

ActivationLayout korthikanti_layout(double tp, bool sp, bool flash) {
  ActivationLayout l;
  l.tokens = 2048;  // s = 2048, b = 1
  l.seq_len = 2048;
  l.tp = tp;
  l.sequence_parallel = sp;
  l.flash_attention = flash;
  l.dropout = true;
  return l;
}
}  // namespace

TEST_CASE("ZeRO paper: model states of 7.5B params on 64 GPUs", "[training]") {
  // Rajbhandari et al. 2019, Figure 1: 120, 31.4, 16.6 and 1.9 GB for stages 0-3 (K = 12).
  // Tolerance 0.05 GB: the paper rounds to one decimal.
  const double psi = 7.5e9;
  ModelStateBytes b;
  b.weights = 2 * psi;
  b.grads = 2 * psi;
  b.optimizer = 12 * psi;
  const double expected[] = {120, 31.4, 16.6, 1.9};
  for (int stage = 0; stage <= 3; ++stage) {
    CHECK(shard_model_states(b, stage, 64).total() / kGB == Approx(expected[stage]).margin(0.05));
  }
}

TEST_CASE("Korthikanti et al. 2022: per-layer activations of a GPT-style layer", "[training]") {
  const Architecture a = gpt3_175b();
  const double s = 2048, h = 12288, heads = 96, t = 8;
  const double sbh = s * h;
  // Eq. 1 (no parallelism): sbh(34 + 5as/h). Exact up to rounding.
  CHECK(layer_activation_bytes(a, korthikanti_layout(1, false, false)) ==
        Approx(sbh * (34 + 5 * heads * s / h)).epsilon(1e-12));
  // Eq. 2 (tensor parallel): sbh(10 + 24/t + 5as/(ht)).
  CHECK(layer_activation_bytes(a, korthikanti_layout(t, false, false)) ==
        Approx(sbh * (10 + 24 / t + 5 * heads * s / (h * t))).epsilon(1e-12));
  // Eq. 4 (tensor + sequence parallel): sbh/t (34 + 5as/h).
  CHECK(layer_activation_bytes(a, korthikanti_layout(t, true, false)) ==
        Approx(sbh / t * (34 + 5 * heads * s / h)).epsilon(1e-12));
  // Selective recomputation (= FlashAttention): sbh(10 + 24/t).
  CHECK(layer_activation_bytes(a, korthikanti_layout(t, false, true)) ==
        Approx(sbh * (10 + 24 / t)).epsilon(1e-12));
  // Full recomputation keeps the layer input: 2sbh.
  CHECK(checkpoint_activation_bytes(a, korthikanti_layout(t, false, false)) ==
        Approx(2 * sbh).epsilon(1e-12));
}

TEST_CASE("DeepSpeed estimators: ZeRO-2 and ZeRO-3 model states", "[training]") {
  // deepspeed/runtime/zero/stage_1_and_2.py estimate_zero2_model_states_mem_needs: GPU 2P + 18P/N,
  // offload_optimizer: GPU 2P, CPU P * max(4n, 16) * 1.5 per node. stage3.py
  // estimate_zero3_model_states_mem_needs: GPU 4 * largest_layer + 18P/N; offload optimizer:
  // 4 * largest_layer + 2P/N, CPU 16P * 1.5 / nodes; offload both: 4 * largest_layer, CPU 18P * 1.5 / nodes.
  // One node of 8 GPUs, fp16 mixed precision with AdamW; tolerance 1e-9 (same arithmetic).
  const json base = {{"model", "llama-2-7b"}, {"task", "full"}, {"weights", "fp16"}, {"gpus", 8}};
  const double p = count_params(parse_scenario(base).model).total;
  const double n = 8;
  const double largest = 32000.0 * 4096;  // the embedding, the largest leaf module
  auto states = [](const MemoryEstimate& m) {
    return m.breakdown.weights + m.breakdown.gradients + m.breakdown.optimizer;
  };
  auto with = [&](const json& training) {
    json s = base;
    s["training"] = training;
    return memory_of(s);
  };

  CHECK(states(with({{"zero", 2}})) == Approx(2 * p + 18 * p / n).epsilon(1e-9));
  const MemoryEstimate z2_off = with({{"zero", 2}, {"offload_optimizer", true}});
  CHECK(states(z2_off) == Approx(2 * p).epsilon(1e-9));
  CHECK(z2_off.host_bytes * n == Approx(p * 16 * 1.5).epsilon(1e-9));
  CHECK(states(with({{"zero", 3}})) == Approx(4 * largest + 18 * p / n).epsilon(1e-9));
  const MemoryEstimate z3_off = with({{"zero", 3}, {"offload_optimizer", true}});
  CHECK(states(z3_off) == Approx(4 * largest + 2 * p / n).epsilon(1e-9));
  CHECK(z3_off.host_bytes * n == Approx(p * 16 * 1.5).epsilon(1e-9));
  const MemoryEstimate z3_all = with({{"zero", 3}, {"offload_optimizer", true}, {"offload_params", true}});
  CHECK(states(z3_all) == Approx(4 * largest).epsilon(1e-9));
  CHECK(z3_all.host_bytes * n == Approx(p * 18 * 1.5).epsilon(1e-9));
}

TEST_CASE("Bytes per parameter per engine and optimizer", "[training]") {
  const json base = {{"model", "llama-3.1-8b"}, {"task", "full"}};
  const double p = count_params(parse_scenario(base).model).total;
  auto per_param = [&](json s) {
    s.update(base);
    const MemoryEstimate m = memory_of(s);
    return (m.breakdown.weights + m.breakdown.gradients + m.breakdown.optimizer) / p;
  };
  // Megatron (theoretical_memory_usage.py): 18 B/param; with the distributed optimizer 6 + 12/DP.
  CHECK(per_param({{"engine", "megatron"}}) == Approx(18));
  CHECK(per_param({{"engine", "megatron"}, {"gpus", 4}, {"training", {{"zero", 1}}}}) ==
        Approx(6 + 12.0 / 4));
  // HF Trainer AMP: fp32 weights 4 + bf16 autocast copies 2 + fp32 grads 4 + Adam 8 (LLaMA-Factory 18),
  // + torch's foreach AdamW temporary (sqrt(v), fp32: 4) at the optimizer step, which at 2048 tokens
  // outweighs the backward's activations (they are freed while the gradients are written).
  CHECK(per_param({{"engine", "transformers"}}) == Approx(18 + 4));
  // Pure bf16 (LLaMA-Factory "pure bf16"): 2 + 2 + 2 x 2 Adam states, + the bf16 temporary 2.
  CHECK(per_param({{"engine", "transformers"}, {"training", {{"master_weights", false}}}}) == Approx(8 + 2));
  // 8-bit AdamW: 2 bytes + an fp32 absmax per 256 values per state; SGD momentum: 4.
  CHECK(per_param({{"engine", "transformers"},
                   {"training", {{"master_weights", false}, {"optimizer", "adamw-8bit"}}}}) ==
        Approx(2 + 2 + 2 * (1 + 4.0 / 256)));
  CHECK(per_param({{"engine", "transformers"}, {"training", {{"optimizer", "sgd"}}}}) ==
        Approx(4 + 2 + 4 + 4));
  // Adafactor's factored second moment is a small fraction of a parameter.
  CHECK(per_param({{"engine", "transformers"}, {"training", {{"optimizer", "adafactor"}}}}) < 10.1);
}

TEST_CASE("LoRA adapters and the QLoRA base", "[training]") {
  // Llama-3-8B, r = 8 on all linear layers: 20,971,520 trainable parameters (PEFT
  // print_trainable_parameters).
  const MemoryEstimate lora = memory_of(json{{"model", "llama-3.1-8b"}, {"task", "lora"}});
  CHECK(lora.trainable_params == 20971520);
  const MemoryEstimate qv =
      memory_of(json{{"model", "llama-3.1-8b"}, {"task", "lora"}, {"training", {{"lora_targets", "qv"}}}});
  CHECK(qv.trainable_params == 32.0 * 8 * ((4096 + 4096) + (4096 + 1024)));
  // QLoRA keeps embeddings and head in 16 bits (QLoRA base ~ 4.127/8 P_linear + 2 (P_emb + P_head)).
  const MemoryEstimate qlora = memory_of(json{{"model", "llama-3.1-8b"}, {"task", "qlora"}});
  const ParamCounts p = count_params(parse_scenario(json{{"model", "llama-3.1-8b"}}).model);
  const double base = p.linear * 4.127 / 8 + 2 * (p.embedding + p.lm_head);
  CHECK(qlora.breakdown.weights == Approx(base + 4 * 20971520.0 + 2 * 4096.0 * 14336).epsilon(0.002));
  // LoRA does not remove activation memory (peft#1514): same activations as a full fine-tune.
  const MemoryEstimate full = memory_of(
      json{{"model", "llama-3.1-8b"}, {"task", "full"}, {"training", {{"grad_checkpointing", "full"}}}});
  CHECK(lora.breakdown.activations >= full.breakdown.activations);
}

TEST_CASE("Per-GPU memory never rises with more sharding, GPUs, lower precision or checkpointing",
          "[training]") {
  const json base = {{"model", "llama-3.1-8b"}, {"task", "full"}, {"gpus", 8}, {"flash_attention", false}};
  auto with = [&](const json& extra) {
    json s = base;
    s.update(extra);
    return memory_of(s).per_gpu_bytes;
  };
  double previous = with({{"training", {{"zero", 0}}}});
  for (int zero = 1; zero <= 3; ++zero) {
    const double now = with({{"training", {{"zero", zero}}}});
    CHECK(now <= previous);
    previous = now;
  }
  CHECK(with({{"gpus", 16}, {"training", {{"zero", 3}}}}) <=
        with({{"gpus", 8}, {"training", {{"zero", 3}}}}));
  // Storing in fewer bits: pure bf16 vs fp32 (mixed precision adds an fp32 master on purpose).
  CHECK(with({{"weights", "bf16"}, {"training", {{"master_weights", false}}}}) < with({{"weights", "fp32"}}));
  CHECK(memory_of(json{{"model", "llama-3.1-8b"}, {"task", "lora"}, {"weights", "int8"}}).per_gpu_bytes <
        memory_of(json{{"model", "llama-3.1-8b"}, {"task", "lora"}}).per_gpu_bytes);
  CHECK(memory_of(json{{"model", "llama-3.1-8b"}, {"task", "qlora"}}).per_gpu_bytes <=
        memory_of(json{{"model", "llama-3.1-8b"}, {"task", "lora"}}).per_gpu_bytes);
  const double none = with({{"training", {{"grad_checkpointing", "none"}}}});
  const double selective = with({{"training", {{"grad_checkpointing", "selective"}}}});
  const double full = with({{"training", {{"grad_checkpointing", "full"}}}});
  CHECK(selective < none);
  CHECK(full < selective);
  CHECK(with({{"tp", 2}}) <= with({{"tp", 1}}));
}

TEST_CASE("Per-GPU memory rises with batch, seq_len, rank and parameters", "[training]") {
  const json base = {{"model", "qwen2.5-7b"}, {"task", "lora"}};
  auto with = [&](const json& extra) {
    json s = base;
    s.update(extra);
    return memory_of(s).per_gpu_bytes;
  };
  CHECK(with({{"batch", 2}}) > with({{"batch", 1}}));
  CHECK(with({{"seq_len", 4096}}) > with({{"seq_len", 2048}}));
  CHECK(with({{"training", {{"lora_rank", 64}}}}) > with({{"training", {{"lora_rank", 8}}}}));
  CHECK(with({{"model", "qwen2.5-14b"}}) > with({{"model", "qwen2.5-7b"}}));
}

TEST_CASE("Pipeline stages keep in-flight micro-batches under 1F1B", "[training]") {
  const json base = {
      {"model", "llama-3.1-70b"}, {"task", "pretrain"}, {"engine", "megatron"}, {"pp", 4}, {"gpus", 4}};
  json one = base;
  one["training"] = {{"grad_accum", 1}};
  json eight = base;
  eight["training"] = {{"grad_accum", 8}};
  // The first stage holds min(pp, micro-batches) = 4 micro-batches of its 20 layers.
  CHECK(memory_of(eight).breakdown.activations > 3 * memory_of(one).breakdown.activations);
}

TEST_CASE("Refused and warned training combinations name their fields", "[training]") {
  const json llama = "llama-3.1-8b";
  CHECK(scenario_error_field(json{{"model", llama}, {"task", "lora"}, {"training", {{"lora_rank", 0}}}}) ==
        "training.lora_rank");
  CHECK(scenario_error_field(json{{"model", llama}, {"task", "qlora"}, {"weights", "fp32"}}) == "weights");
  CHECK(scenario_error_field(
            json{{"model", llama}, {"task", "full"}, {"training", {{"offload_optimizer", true}}}}) ==
        "training.zero");
  CHECK(scenario_error_field(json{{"model", llama}, {"task", "full"}, {"weights", "int4"}}) == "weights");
  const MemoryEstimate zero_pp = memory_of(
      json{{"model", llama}, {"task", "full"}, {"gpus", 4}, {"pp", 2}, {"training", {{"zero", 3}}}});
  CHECK(has_warning(zero_pp, "zero_with_pipeline"));
  CHECK(has_warning(memory_of(json{{"model", llama}, {"task", "full"}, {"training", {{"zero", 2}}}}),
                    "zero_without_dp"));
}

TEST_CASE("Training breakdown sums to the total and logits scale with the vocabulary", "[training]") {
  const MemoryEstimate m = memory_of(json{{"model", "qwen2.5-7b"}, {"task", "full"}, {"seq_len", 8192}});
  CHECK(m.per_gpu_bytes == Approx(m.breakdown.total()).epsilon(1e-15));
  CHECK(m.breakdown.kv_cache == 0);
  // 8192 tokens x 152064 vocabulary x (4 + 4 + 4) bytes at the loss's backward: the saved fp32
  // log-softmax, nll_loss's dense fp32 gradient and log_softmax_backward's fp32 result.
  const Scenario s = parse_scenario(json{{"model", "qwen2.5-7b"}, {"task", "full"}, {"seq_len", 8192}});
  CHECK(logits_bytes(s) == Approx(8192.0 * 152064 * 12));
}

TEST_CASE("engine_options.cross_entropy: chunked and fused losses hold less of the logits",
          "[memory][training]") {
  json base = {{"model", "llama-3.1-8b"},
               {"task", "lora"},
               {"engine", "transformers"},
               {"batch", 4},
               {"seq_len", 4096}};
  const double tokens = 4.0 * 4096;
  Scenario s = parse_scenario(base);
  CHECK(logits_bytes(s) == Approx(tokens * 128256 * 12));  // fp32 log-softmax + its gradient in and out
  base["engine_options"] = {{"cross_entropy", "chunked"}};
  s = parse_scenario(base);
  CHECK(logits_bytes(s) == Approx(tokens * 128256 * 3));  // bf16 whole, fp32 pair one chunk of 8
  base["engine_options"] = {{"cross_entropy", "fused"}};
  s = parse_scenario(base);
  // Liger FLCE (memory_fused_ce.cpp): BT = 4 x 4095 rows, chunks of next_pow2(ceil(16380 / 32)) =
  // 512 rows of bf16 + fp32 logits, the bf16 shifted hidden states and their gradient, fp32 loss_1d.
  CHECK(logits_bytes(s) == Approx(512.0 * 128256 * 6 + 16380.0 * (2 * 2 * 4096 + 4)));
  // unsloth / fms-acceleration Fast_CrossEntropyLoss writes the gradient into the logits it saved:
  // the fp32 upcast and its shifted copy, 4 + 4 bytes.
  base["engine_options"] = {{"cross_entropy", "inplace"}};
  CHECK(logits_bytes(parse_scenario(base)) == Approx(tokens * 128256 * 8));
  const double fused_total = memory_of(base).per_gpu_bytes;
  base.erase("engine_options");
  CHECK(memory_of(base).per_gpu_bytes > fused_total);
  base["engine_options"] = {{"cross_entropy", "liger"}};
  CHECK_THROWS_AS(parse_scenario(base), InputError);
}

TEST_CASE("The step peaks at the backward or at the foreach AdamW step, not both", "[training]") {
  // torch/optim/adam.py _multi_tensor_adam: exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs) is one
  // state-sized temporary; fused optimizers (DeepSpeed FusedAdam, bitsandbytes) have none.
  const json pure = {{"model", "mistral-7b"},
                     {"task", "full"},
                     {"engine", "fsdp"},
                     {"weights", "bf16"},
                     {"batch", 1},
                     {"seq_len", 512},
                     {"training", {{"master_weights", false}}}};
  const Scenario s = parse_scenario(pure);
  const double p = count_params(s.model).total;
  CHECK(optimizer_step_temp_bytes(s, p) == Approx(2 * p));
  json amp = pure;
  amp["training"]["master_weights"] = true;
  CHECK(optimizer_step_temp_bytes(parse_scenario(amp), p) == Approx(4 * p));
  json ds = pure;
  ds["engine"] = "deepspeed";
  CHECK(optimizer_step_temp_bytes(parse_scenario(ds), p) == 0);
  json bnb = pure;
  bnb["training"]["optimizer"] = "adamw-8bit";
  CHECK(optimizer_step_temp_bytes(parse_scenario(bnb), p) == 0);
  // zero_grad(set_to_none=True) frees gradients between steps unless micro-batches accumulate.
  CHECK(gradients_freed_between_steps(s));
  json accum = pure;
  accum["training"]["grad_accum"] = 4;
  CHECK_FALSE(gradients_freed_between_steps(parse_scenario(accum)));
  // Pure bf16 full fine-tune on one GPU at a short context: the peak is the optimizer step,
  // weights 2 + grads 2 + m, v 4 + sqrt(v) 2 = 10 bytes per parameter (fms-acceleration's
  // a100_80gb.csv records 72,434,837,504 B for Mistral-7B, 10.003 B/param, at 4 x 4096 tokens).
  const MemoryEstimate m = memory_of(pure);
  CHECK(m.figures.allocated_bytes / p == Approx(10).margin(0.25));
  CHECK(m.per_gpu_bytes == Approx(m.breakdown.total()).epsilon(1e-15));
}

TEST_CASE("FSDP keeps the root unit gathered beside two transformer blocks", "[training]") {
  // torch/distributed/fsdp/_runtime_utils.py _post_forward_reshard: the root FSDP unit (embeddings,
  // final norm, LM head under transformer-block wrapping) is not resharded after its forward.
  // Llama-3-8B: embedding and head 2 x 128256 x 4096; one block 218,103,808 linear weights + 2
  // norms of 4096 + its 1/32 share of the final norm; 16-bit, the block being computed and the one
  // prefetched (BACKWARD_PRE).
  json lora = {
      {"model", "llama-3-8b"}, {"task", "lora"},           {"engine", "fsdp"}, {"gpus", 2}, {"batch", 4},
      {"seq_len", 4096},       {"training", {{"zero", 3}}}};
  const double root = 2.0 * 128256 * 4096;
  const double block = 218103808.0 + 2 * 4096 + 4096.0 / 32;
  CHECK(zero3_live_bytes(parse_scenario(lora)) == Approx(2 * root + 2 * 2 * block));
  // full fine-tuning adds the block's unsharded 16-bit gradients
  json full = lora;
  full["task"] = "full";
  CHECK(zero3_live_bytes(parse_scenario(full)) == Approx(2 * root + 3 * 2 * block));
  // DeepSpeed fetches leaf modules: its estimator's 4 x largest_layer_params (the embedding here)
  json ds = full;
  ds["engine"] = "deepspeed";
  CHECK(zero3_live_bytes(parse_scenario(ds)) == Approx(128256.0 * 4096 * (2 + 2)));
}

TEST_CASE("Reentrant checkpointing around frozen FSDP units keeps layer inputs and their gradients",
          "[training]") {
  // torch.utils.checkpoint (use_reentrant=True, transformers' default) reruns each FSDP-wrapped
  // decoder layer on detached leaf copies of its input; FSDP's _register_post_backward_reshard_only_hook
  // (frozen flat parameters) hooks those leaves with register_multi_grad_hook, whose closure owns
  // their AccumulateGrad node until _finalize_params at the end of the backward. Llama-3-8B LoRA,
  // 4 x 4096 tokens: 32 inputs and 31 input gradients of 4096 x 2 bytes per token.
  json lora = {{"model", "llama-3-8b"},
               {"task", "lora"},
               {"engine", "fsdp"},
               {"gpus", 2},
               {"batch", 4},
               {"seq_len", 4096},
               {"training", {{"zero", 3}, {"grad_checkpointing", "full"}}},
               {"engine_options", {{"checkpoint_wraps_fsdp", true}, {"cross_entropy", "fused"}}}};
  const double tokens = 4.0 * 4096;
  const double per_layer = tokens * 4096 * 2;
  CHECK(fsdp_retained_checkpoint_bytes(parse_scenario(lora)) == Approx((2 * 32 - 1) * per_layer));
  // The step peaks at the first layer's backward: retained tensors + that layer being rebuilt.
  const Scenario s = parse_scenario(lora);
  const MemoryEstimate m = memory_of(lora);
  CHECK(m.breakdown.activations + m.breakdown.gradients ==
        Approx(m.breakdown.gradients + (2 * 32 - 1) * per_layer + recompute_working_bytes(s)));
  // fms-acceleration a100_80gb_liger.csv: the same Llama-3-8B LoRA run with Liger's fused loss
  // allocates 21.78 / 33.59 / 57.23 GiB on 2 GPUs and 23.20 / 31.26 / 47.40 GiB on one (no FSDP) at
  // 4 / 8 / 16 x 4096 tokens: 0.937 GiB more per 4096-token sample; (32 - 1) x 4096 x 2 x 4096 B = 0.969 GiB.
  json more = lora;
  more["batch"] = 16;
  CHECK(fsdp_retained_checkpoint_bytes(parse_scenario(more)) - fsdp_retained_checkpoint_bytes(s) ==
        Approx(12 * 4096.0 * (2 * 32 - 1) * 4096 * 2));
  // Off: checkpointing inside the units (FSDP apply_activation_checkpointing, torchtune, fsdp_qlora),
  // full fine-tuning (trainable flat parameters take the AccumulateGrad hook instead), no recomputation.
  json inside = lora;
  inside["engine_options"].erase("checkpoint_wraps_fsdp");
  CHECK(fsdp_retained_checkpoint_bytes(parse_scenario(inside)) == 0);
  json full = lora;
  full["task"] = "full";
  CHECK(fsdp_retained_checkpoint_bytes(parse_scenario(full)) == 0);
  json none = lora;
  none["training"]["grad_checkpointing"] = "none";
  CHECK(fsdp_retained_checkpoint_bytes(parse_scenario(none)) == 0);
  json hf = lora;
  hf["engine"] = "transformers";
  hf["gpus"] = 1;
  hf["training"].erase("zero");
  CHECK(fsdp_retained_checkpoint_bytes(parse_scenario(hf)) == 0);
  // a non-boolean is refused by name
  json bad = lora;
  bad["engine_options"]["checkpoint_wraps_fsdp"] = "yes";
  CHECK(scenario_error_field(bad) == "engine_options.checkpoint_wraps_fsdp");
}
