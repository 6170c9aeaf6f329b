// Fine-tuning terms that depend on the training stack rather than on the model: LoRA dropout's
// saved tensors, LitGPT's chunked lm_head loss, bitsandbytes 4-bit matmuls that keep their input
// on the autograd node, and Lightning Fabric's bitsandbytes plugin (memory_finetune_stack.cpp).
// Each is switched by a scenario engine option whose default leaves the estimate unchanged.
#pragma once

#include "scenario/scenario.h"

namespace gpusizer {

// Bytes per token and vocabulary entry of LitGPT's loss (engine_options.cross_entropy "litgpt").
double litgpt_loss_bytes_per_entry();

// LoRA dropout (engine_options.lora_dropout "per-module" or "litgpt"): bytes the adapters'
// dropouts keep for the backward per layer on this GPU's stage, 16-bit output + 1-byte mask per
// adapted input tensor, for `tokens` tokens. 0 for "none" (the default) and for full training.
double lora_dropout_layer_bytes(const Scenario& s, double tokens);

// PEFT adapters with fp32 weights and no autocast (engine_options.adapter_saves): whether the
// option is in effect (LoRA/QLoRA with the option set), then the frozen base keeps only what its
// inputs' gradients need (memory_activations.cpp).
bool peft_frozen_base(const Scenario& s);
// Bytes per token and layer (averaged over the layers) that the adapted modules keep of their
// inputs or outputs for the backward: fp32 input copies ("fp32-input", "fp32-input-and-delta"),
// IA3's scaled outputs / inputs ("ia3"), nothing ("none") - plus the r-wide fp32 outputs of the
// first adapter matmul (lora_rank). 0 unless peft_frozen_base.
double peft_adapter_token_bytes(const Scenario& s);
// Bytes per layer of the merged fp32 delta weights that "fp32-input-and-delta" methods build in
// the forward and whose matmul keeps them for the input gradient (one per adapted module).
double peft_delta_weight_layer_bytes(const Scenario& s);

// bitsandbytes before 0.43.2 (engine_options.bnb_prev_step_inputs): the inputs of every 4-bit
// matmul of the previous step, alive through the next forward. 0 unless QLoRA with the option.
double bnb_prev_step_input_bytes(const Scenario& s);

// Lightning Fabric's BitsandbytesPrecision (engine_options.bnb_quantizer "lightning"): the
// lm_head is 4-bit too. Bytes the head saves against the 16-bit head of weight_bytes (<= 0).
double lightning_bnb_head_weight_delta(const Scenario& s);
// QLoRA NF4 without double quantisation (engine_options.bnb_double_quant false): the bytes its
// fp32 per-block scales add to this GPU's 4-bit weights against gpusizer's double-quantised nf4.
double bnb_single_quant_weight_delta(const Scenario& s);
// The 16-bit dequantised copies alive during one 4-bit matmul: the largest 4-bit weight (the
// lm_head under the Lightning plugin) once, or twice under the Lightning plugin (dequantised in
// fp16, then cast to the bf16 compute dtype).
double bnb_dequant_copy_bytes(const Scenario& s);

}  // namespace gpusizer
