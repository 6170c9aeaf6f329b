// Fine-tuning stack terms (memory_finetune_stack.cpp): reference values worked out from the code
// they model (LitGPT lora.py / utils.py, PyTorch native_dropout, bitsandbytes MatMul4Bit, Lightning
// Fabric's bitsandbytes plugin) for Llama 2 7B (layers 32, hidden 4096, intermediate 11008, vocab
// 32000, MHA) at micro-batch 2 x 512 tokens.
#include <catch2/catch.hpp>

#include "scenario_error.h"

#include <string>

#include "base/error.h"
#include "memory/memory.h"
#include "memory/memory_finetune_stack.h"
#include "memory/memory_training.h"
#include "plan/estimate.h"

using namespace gpusizer;
using nlohmann::json;

namespace {

constexpr double kTokens = 2 * 512;

json llama2_7b(const std::string& task, const json& options) {
  json s = {{"model", "llama-2-7b"},
            {"task", task},
            {"engine", "transformers"},
            {"weights", task == "qlora" ? "nf4" : "bf16"},
            {"gpu", "a10g"},
            {"batch", 2},
            {"seq_len", 512},
            {"training", {{"grad_checkpointing", "none"}, {"lora_rank", 32}, {"lora_targets", "qv"}}}};
  if (!options.is_null()) s["engine_options"] = options;
  return s;
}

Scenario scenario(const std::string& task, const json& options) {
  return parse_scenario(llama2_7b(task, options));
}

}  // namespace

TEST_CASE("LitGPT's chunked lm_head loss keeps bf16 logits and bf16 log-softmax: 4 bytes per entry",
          "[training][stack]") {
  // lora.py: model(input_ids, lm_head_chunk_size=128) -> bf16 chunks kept in `logits`;
  // chunked_cross_entropy: F.cross_entropy per bf16 chunk saves a bf16 log_softmax.
  CHECK(litgpt_loss_bytes_per_entry() == 4);
  const Scenario s = scenario("lora", {{"cross_entropy", "litgpt"}});
  CHECK(logits_bytes(s) == Approx(kTokens * 32000 * 4));
  // The default (HF ForCausalLMLoss) path is 12 bytes per entry: LitGPT's is a third of it.
  CHECK(logits_bytes(scenario("lora", nullptr)) == Approx(3 * logits_bytes(s)));
}

TEST_CASE("LoRA dropout keeps a 16-bit output and a 1-byte mask per adapted input", "[training][stack]") {
  // q and v adapted. LitGPT: one dropout on the fused qkv input (4096 wide); PEFT: one per module.
  const double per_layer_litgpt = kTokens * 4096 * (2 + 1);
  CHECK(lora_dropout_layer_bytes(scenario("lora", {{"lora_dropout", "litgpt"}}), kTokens) ==
        Approx(per_layer_litgpt));
  CHECK(lora_dropout_layer_bytes(scenario("lora", {{"lora_dropout", "per-module"}}), kTokens) ==
        Approx(2 * per_layer_litgpt));
  CHECK(lora_dropout_layer_bytes(scenario("lora", nullptr), kTokens) == 0);
  // All linears under LitGPT: qkv (4096) + proj (4096) + fc_1 (4096) + fc_2 (4096) + proj (11008).
  json all = llama2_7b("lora", {{"lora_dropout", "litgpt"}});
  all["training"]["lora_targets"] = "all-linear";
  CHECK(lora_dropout_layer_bytes(parse_scenario(all), kTokens) == Approx(kTokens * (4 * 4096 + 11008) * 3.0));
  // Full fine-tuning has no adapters.
  json full = llama2_7b("full", {{"lora_dropout", "litgpt"}});
  full.erase("training");
  CHECK(lora_dropout_layer_bytes(parse_scenario(full), kTokens) == 0);
}

TEST_CASE("bitsandbytes before 0.43.2 keeps the previous step's 4-bit matmul inputs", "[training][stack]") {
  // Per layer the distinct inputs: attention (4096), output projection (4096), MLP (4096), down
  // projection (11008); the first layer's attention input needs no grad; 2 bytes each.
  const double transformers = kTokens * 2 * (32.0 * (3 * 4096 + 11008) - 4096);
  CHECK(transformers == 1518338048.0);
  CHECK(bnb_prev_step_input_bytes(scenario("qlora", {{"bnb_prev_step_inputs", true}})) ==
        Approx(transformers));
  // Lightning's plugin quantises the lm_head, which keeps its (hidden-wide) input too.
  CHECK(bnb_prev_step_input_bytes(
            scenario("qlora", {{"bnb_prev_step_inputs", true}, {"bnb_quantizer", "lightning"}})) ==
        Approx(kTokens * 2 * 32.0 * (3 * 4096 + 11008)));
  CHECK(bnb_prev_step_input_bytes(scenario("qlora", nullptr)) == 0);
  CHECK(bnb_prev_step_input_bytes(scenario("lora", {{"bnb_prev_step_inputs", true}})) == 0);
}

TEST_CASE("Lightning's bitsandbytes plugin: 4-bit head and fp16-then-bf16 dequantised copies",
          "[training][stack]") {
  const Scenario hf = scenario("qlora", nullptr);
  const Scenario lightning = scenario("qlora", {{"bnb_quantizer", "lightning"}});
  // transformers keeps lm_head 16-bit; the largest 4-bit linear is an MLP matrix, one bf16 copy.
  CHECK(lightning_bnb_head_weight_delta(hf) == 0);
  CHECK(bnb_dequant_copy_bytes(hf) == Approx(2.0 * 11008 * 4096));
  // Lightning: the 32000 x 4096 head is NF4 (4 + 8/64 + 32/(64*256) bits) instead of 2 bytes...
  CHECK(lightning_bnb_head_weight_delta(lightning) == Approx(-194528000.0));
  // ...and its dequantised fp16 copy and bf16 cast are alive together: 2 x 2 bytes x 32000 x 4096.
  CHECK(bnb_dequant_copy_bytes(lightning) == Approx(4.0 * 32000 * 4096));
  CHECK(bnb_dequant_copy_bytes(scenario("lora", {{"bnb_quantizer", "lightning"}})) == 0);
}

TEST_CASE("Stack options add exactly their terms to the training estimate", "[training][stack]") {
  const MemoryEstimate base = estimate(scenario("qlora", nullptr)).memory;
  const json opts = {{"lora_dropout", "litgpt"}, {"bnb_prev_step_inputs", true}};
  const MemoryEstimate with = estimate(scenario("qlora", opts)).memory;
  const double added = 32 * kTokens * 4096 * 3.0 + 1518338048.0;
  CHECK(with.breakdown.activations - base.breakdown.activations == Approx(added));
  CHECK(with.breakdown.weights == Approx(base.breakdown.weights));
  // Under full recomputation only the layer being rebuilt holds its dropout tensors.
  json ckpt = llama2_7b("lora", {{"lora_dropout", "litgpt"}});
  ckpt["training"]["grad_checkpointing"] = "full";
  json ckpt_base = ckpt;
  ckpt_base.erase("engine_options");
  const double diff = estimate(parse_scenario(ckpt)).memory.breakdown.activations -
                      estimate(parse_scenario(ckpt_base)).memory.breakdown.activations;
  CHECK(diff == Approx(kTokens * 4096 * 3.0));
}

TEST_CASE("Stack options: bad values name their field", "[training][stack][bad_input]") {
  CHECK(scenario_error_field(llama2_7b("lora", {{"lora_dropout", "always"}})) ==
        "engine_options.lora_dropout");
  CHECK(scenario_error_field(llama2_7b("qlora", {{"bnb_quantizer", "peft"}})) ==
        "engine_options.bnb_quantizer");
  CHECK(scenario_error_field(llama2_7b("qlora", {{"bnb_prev_step_inputs", "yes"}})) ==
        "engine_options.bnb_prev_step_inputs");
  CHECK(scenario_error_field(llama2_7b("lora", {{"cross_entropy", "lit"}})) ==
        "engine_options.cross_entropy");
}

TEST_CASE("NF4 without double quantisation: one fp32 absmax per 64 weights", "[training][stack]") {
  // Llama 2 7B block linears: 32 x (4 x 4096^2 + 3 x 4096 x 11008) = 6,476,005,376 parameters at
  // 4 + 32/64 bits instead of 4 + 8/64 + 32/(64 x 256) bits.
  const Scenario single = scenario("qlora", {{"bnb_double_quant", false}});
  CHECK(bnb_single_quant_weight_delta(single) == Approx(6476005376.0 * (0.5625 - 4.126953125 / 8)));
  CHECK(bnb_single_quant_weight_delta(scenario("qlora", nullptr)) == 0);
  CHECK(bnb_single_quant_weight_delta(scenario("qlora", {{"bnb_double_quant", true}})) == 0);
  // Lightning's 4-bit head is then stored at 0.5625 bytes per parameter too.
  CHECK(lightning_bnb_head_weight_delta(
            scenario("qlora", {{"bnb_double_quant", false}, {"bnb_quantizer", "lightning"}})) ==
        Approx(32000.0 * 4096 * (0.5625 - 2)));
  const double diff = estimate(single).memory.breakdown.weights -
                      estimate(scenario("qlora", nullptr)).memory.breakdown.weights;
  CHECK(diff == Approx(bnb_single_quant_weight_delta(single)));
}

// engine_options.adapter_saves (PEFT with fp32 adapters, no autocast: the method-comparison harness,
// default_training_params.json use_amp=false, autocast_adapter_dtype=true). Expected values worked out
// by hand from peft's layer.py forwards and autograd's saved tensors, Llama 2 7B, q and v adapted, r 32.
TEST_CASE("PEFT fp32-input adapters keep one fp32 copy of the input per adapted module",
          "[training][stack][peft]") {
  // lora/layer.py Linear.forward: x = self._cast_input_dtype(x, lora_A.weight.dtype) in each of q and v
  // (two fp32 copies of the 4096-wide input, 4 B each), lora_A's fp32 r-wide output kept by lora_B.
  const Scenario lora = scenario("lora", {{"adapter_saves", "fp32-input"}});
  CHECK(peft_frozen_base(lora));
  CHECK(peft_adapter_token_bytes(lora) == Approx(2 * 4 * 4096 + 2 * 4 * 32));
  CHECK(peft_delta_weight_layer_bytes(lora) == 0);
  // Unset: the default layout, no adapter term.
  CHECK_FALSE(peft_frozen_base(scenario("lora", nullptr)));
  CHECK(peft_adapter_token_bytes(scenario("lora", nullptr)) == 0);
  // Full training has no frozen base.
  json full = llama2_7b("full", {{"adapter_saves", "fp32-input"}});
  full["training"].erase("lora_rank");
  full["training"].erase("lora_targets");
  CHECK_FALSE(peft_frozen_base(parse_scenario(full)));
}

TEST_CASE("PEFT merged-delta methods also keep the fp32 delta weight of each module",
          "[training][stack][peft]") {
  // loha/lokr _get_delta_activations, fourierft/waveft/peanut forward: F.linear(x_fp32, delta_w), delta_w
  // out x in in fp32: q 4096 x 4096 + v 4096 x 4096 per layer.
  const Scenario s = scenario("lora", {{"adapter_saves", "fp32-input-and-delta"}});
  CHECK(peft_delta_weight_layer_bytes(s) == Approx(4.0 * 2 * 4096 * 4096));
  CHECK(peft_adapter_token_bytes(s) == Approx(2 * 4 * 4096 + 2 * 4 * 32));
}

TEST_CASE("IA3 keeps scaled attention outputs (16-bit) and scaled MLP inputs (fp32)",
          "[training][stack][peft]") {
  // ia3/layer.py: (result * ia3_l) saves the module's bf16 output; feed-forward x.to(fp32) * ia3_l saves x.
  CHECK(peft_adapter_token_bytes(scenario("lora", {{"adapter_saves", "ia3"}})) == Approx(2 * 2 * 4096));
  json all = llama2_7b("lora", {{"adapter_saves", "ia3"}});
  all["training"]["lora_targets"] = "all-linear";
  // q, k, v, o outputs (4 x 2 x 4096) + gate and up inputs (2 x 4 x 4096) + down input (4 x 11008).
  CHECK(peft_adapter_token_bytes(parse_scenario(all)) == Approx(4 * 2 * 4096 + 2 * 4 * 4096 + 4 * 11008));
}

TEST_CASE("A frozen base keeps neither the linears' inputs nor the down projection's input",
          "[training][stack][peft]") {
  // Default layout per token: fp32 RMSNorm inputs (2 x 4 x 4096), attention and MLP inputs (2 x 2 x 4096),
  // Q, K, V, attention output (4 x 2 x 4096), SwiGLU gate, up, act, product (4 x 2 x 11008), lora_A outputs
  // (2 x 2 x 32). Frozen base ("none"): no attention/MLP input, no product (derivatives.yaml: mm saves its
  // input only for the weight's gradient), fp32 r-wide outputs (2 x 4 x 32).
  const Scenario base = scenario("lora", nullptr);
  const Scenario none = scenario("lora", {{"adapter_saves", "none"}});
  CHECK(peft_adapter_token_bytes(none) == Approx(2 * 4 * 32));
  const double dflt = layer_activation_bytes(base.model, activation_layout(base));
  const double frozen = layer_activation_bytes(none.model, activation_layout(none));
  CHECK(dflt - frozen == Approx(kTokens * (2 * 2 * 4096 + 2 * 11008 + 2 * 2 * 32 - 2 * 4 * 32)));
  if (activation_layout(none).flash_attention) {
    CHECK(frozen == Approx(kTokens * (2 * 4 * 4096 + 4 * 2 * 4096 + 3 * 2 * 11008 + 2 * 4 * 32)));
  }
  // The per-layer delta weights join the stored activations on every layer of the stage (32 here).
  const Scenario delta = scenario("lora", {{"adapter_saves", "fp32-input-and-delta"}});
  const Scenario input = scenario("lora", {{"adapter_saves", "fp32-input"}});
  const double gap = training_memory(delta, nullptr).breakdown.activations -
                     training_memory(input, nullptr).breakdown.activations;
  CHECK(gap == Approx(32 * 4.0 * 2 * 4096 * 4096).epsilon(0.01));
}

TEST_CASE("adapter_saves refuses an unknown value and names the field", "[training][stack][peft]") {
  CHECK(scenario_error_field(llama2_7b("lora", {{"adapter_saves", "fp16-input"}})) ==
        "engine_options.adapter_saves");
}

TEST_CASE("With fp32 PEFT adapters the LoRA dropout adds only its masks", "[training][stack][peft]") {
  // The fp32 cast goes through nn.Dropout and lora_A keeps the dropped-out copy, which
  // peft_adapter_token_bytes counts (4 x in); the dropout adds its 1-byte mask per element (q and v).
  const Scenario s = scenario("lora", {{"lora_dropout", "per-module"}, {"adapter_saves", "fp32-input"}});
  CHECK(lora_dropout_layer_bytes(s, kTokens) == Approx(kTokens * 2 * 4096 * 1));
}

TEST_CASE("QLoRA after peft's prepare_model_for_kbit_training keeps an fp32 residual stream",
          "[training][stack][kbit]") {
  // peft 0.13.2 prepare_model_for_kbit_training upcasts non-4-bit parameters to fp32; trl 0.13.0
  // peft_module_casting_to_bf16 keeps the norms fp32; bitsandbytes 0.43.3 Linear4bit returns
  // out.to(inp_dtype). Under full recomputation each layer keeps its input: fp32 from layer 2 on.
  json on = llama2_7b("qlora", {{"kbit_fp32_upcast", true}});
  json off = llama2_7b("qlora", nullptr);
  on["training"]["grad_checkpointing"] = "full";
  off["training"]["grad_checkpointing"] = "full";
  const Scenario s_on = parse_scenario(on);
  const Scenario s_off = parse_scenario(off);
  // Llama 2 7B at 2 x 512: the logits (1024 x 32000 x 12 B = 393 MB) outweigh the rebuilt layer, so
  // only the stored inputs differ: 31 layers x 1024 tokens x 4096 x (4 - 2) bytes.
  CHECK(training_activation_bytes(s_on) - training_activation_bytes(s_off) ==
        Approx(31.0 * kTokens * 4096 * 2));
  // Without recomputation the norms' outputs (attention and MLP inputs) and the SwiGLU tensors are fp32:
  // per token 2 x 2 x 4096 + 4 x 2 x 11008 more bytes per layer.
  const Scenario n_on = scenario("qlora", {{"kbit_fp32_upcast", true}});
  const Scenario n_off = scenario("qlora", nullptr);
  CHECK(layer_activation_bytes(n_on.model, activation_layout(n_on)) -
            layer_activation_bytes(n_off.model, activation_layout(n_off)) ==
        Approx(kTokens * (2 * 2 * 4096 + 4 * 2 * 11008)));
  // Only QLoRA: a 16-bit LoRA base is not prepared for k-bit training.
  CHECK_FALSE(activation_layout(scenario("lora", {{"kbit_fp32_upcast", true}})).fp32_stream);
}
