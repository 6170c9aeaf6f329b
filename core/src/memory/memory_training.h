// Training memory pieces: model states before and after ZeRO sharding, and the activations of
// one transformer layer. training_memory() (memory.h) assembles them; tests check each against
// its source (ZeRO paper, Korthikanti et al. 2022, DeepSpeed's estimators).
#pragma once

#include "scenario/scenario.h"

namespace gpusizer {

// Bytes of each model state on one GPU before data-parallel sharding (after TP/PP splits).
struct ModelStateBytes {
  double weights = 0;       // stored weights (sharded by ZeRO-3)
  double compute_copy = 0;  // 16-bit copies held for the backward (AMP autocast), never sharded
  double grads = 0;         // gradients in the training dtype (sharded by ZeRO-2 and 3)
  double grads_fp32 = 0;    // fp32 gradient partition beside the master (sharded by ZeRO-1+)
  double optimizer = 0;     // fp32 master copy + optimizer states (sharded by ZeRO-1+)
};

// The same states per GPU after ZeRO stage `zero` over `dp` ranks, in the spec's breakdown.
struct ShardedStates {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
  double total() const { return weights + gradients + optimizer; }
};
ShardedStates shard_model_states(const ModelStateBytes& b, int zero, double dp);

// Model states of a full fine-tune / pre-training scenario per GPU before sharding, per engine.
ModelStateBytes full_model_states(const Scenario& s);

// How one layer's activations are laid out (Korthikanti et al. 2022, sec. 4).
struct ActivationLayout {
  double tokens = 0;   // micro-batch tokens b * s
  double seq_len = 0;  // s, for the attention-score term
  double tp = 1;
  double element_bytes = 2;  // 16-bit activations (4 in fp32 training)
  bool sequence_parallel = false;
  bool flash_attention = true;   // no s x s scores kept
  bool dropout = false;          // 1-byte masks after attention, MLP and on the scores
  bool fp32_norm_input = false;  // RMSNorm that saves an fp32 copy of its input (HF modeling)
  double lora_rank = 0;          // adapter intermediates on the targeted modules
  LoraTargets lora_targets = LoraTargets::AllLinear;
  // PEFT with fp32 adapters and no autocast (engine_options.adapter_saves): the frozen base keeps no
  // linear's input, the adapters keep adapter_token_bytes per token (memory_finetune_stack.cpp).
  bool frozen_base = false;
  double adapter_token_bytes = 0;
  // QLoRA after peft's prepare_model_for_kbit_training on one device (engine_options.kbit_fp32_upcast):
  // fp32 norm outputs, MLP tensors and (after the first layer) residual stream.
  bool fp32_stream = false;
};
// Bytes one layer keeps for its backward with no recomputation (selective = flash: no scores).
double layer_activation_bytes(const Architecture& a, const ActivationLayout& l);
// Bytes one layer keeps under full recomputation: its 16-bit input (2sbh, split with SP).
double checkpoint_activation_bytes(const Architecture& a, const ActivationLayout& l);
ActivationLayout activation_layout(const Scenario& s);

// Logits and loss buffers of one micro-batch on the last pipeline stage (vocabulary split by TP).
double logits_bytes(const Scenario& s);
// Peak activations on the busiest GPU: all stage layers for the in-flight micro-batches, the
// recompute working set, the logits.
double training_activation_bytes(const Scenario& s);
// Under full recomputation, the one layer rebuilt at a time in the backward (0 otherwise).
double recompute_working_bytes(const Scenario& s);
// FSDP LoRA/QLoRA with reentrant checkpointing wrapped around the units
// (engine_options.checkpoint_wraps_fsdp): the layer inputs and input gradients that FSDP's
// reshard-only hooks keep alive until the end of the backward, (2L - 1) x 2sbh (0 otherwise).
double fsdp_retained_checkpoint_bytes(const Scenario& s);

// ZeRO-3 / FSDP FULL_SHARD: gathered parameters alive beside the shards (DeepSpeed: the largest
// leaf module; FSDP: the root unit held from forward to backward + two transformer blocks).
double zero3_live_bytes(const Scenario& s);

// When the step's transients peak (memory_training.cpp, docs/methodology.md "Peak over the step"):
// torch.optim's foreach AdamW temporaries and whether gradients exist before the backward.
double optimizer_step_temp_bytes(const Scenario& s, double optimizer_params);
bool gradients_freed_between_steps(const Scenario& s);

}  // namespace gpusizer
