// Training memory: model states per engine and optimizer, ZeRO sharding and CPU offload, LoRA and
// QLoRA adapters, ZeRO-3 live parameters, runtime buffers. Activations: memory_activations.cpp.
#include <algorithm>

#include "memory/element_bytes.h"
#include "memory/lora.h"
#include "memory/memory.h"
#include "memory/memory_finetune_stack.h"
#include "memory/memory_training.h"

namespace gpusizer {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
// bitsandbytes 8-bit optimizers: one byte per state value, blockwise quantised in blocks of 256
// with an fp32 absmax per block (bitsandbytes functional.optimizer_update_8bit_blockwise).
constexpr double kBnb8bitStateBytes = 1 + kFp32 / 256;
// DeepSpeed's estimators reserve 1.5x the offloaded bytes in CPU RAM for pinned and staging
// buffers (stage_1_and_2.py / stage3.py estimate_zero*_model_states_mem_needs,
// additional_buffer_factor=1.5).
constexpr double kHostBufferFactor = 1.5;
// NCCL keeps NCCL_BUFFSIZE (4 MiB default, NCCL env docs) per channel and direction; assumption:
// 32 channels (NVLink/NVSwitch systems) x 2 directions = 256 MiB per communicator a rank uses.
constexpr double kNcclBytesPerGroup = 4 * kMiB * 32 * 2;
// Assumption (not measured): the caching allocator's fragmentation at the training peak is 5 % of
// the per-step allocations (activations, gradients); memory_reserved - memory_allocated.
constexpr double kFragmentationShare = 0.05;

// 16-bit or fp32 bytes of the training dtype (full/pretrain are validated to these formats).
double dtype_bytes(WeightFormat f) { return f == WeightFormat::Fp32 ? kFp32 : kHalf; }

// Share of the parameters' elements that Adafactor keeps for its factored second moment: rows +
// columns per matrix (Shazeer & Stern 2018, sec. 3), full size for vectors (norms, biases).
double adafactor_share(const Architecture& a) {
  const ParamCounts p = count_params(a);
  double kept = p.other;
  for (const LinearModule& m : linear_modules(a)) kept += d(m.count) * d(m.in + m.out);
  kept += d(a.vocab + a.hidden) * ((p.lm_head > 0) ? 2 : 1);  // embedding and untied head
  return p.total > 0 ? kept / p.total : 0;
}

// Optimizer state bytes (no master copy) for `params` values of state dtype `state_bytes`.
double optimizer_states(Optimizer o, double params, double state_bytes, double factored_share) {
  switch (o) {
    case Optimizer::Adamw:
      return params * 2 * state_bytes;  // m and v (Loshchilov & Hutter)
    case Optimizer::Adamw8bit:
    case Optimizer::PagedAdamw8bit:
      return params * 2 * kBnb8bitStateBytes;
    case Optimizer::Sgd:
      return params * state_bytes;  // momentum buffer
    case Optimizer::Adafactor:
      return params * factored_share * state_bytes;  // beta1 = None (HF default)
  }
  return 0;
}

// Parameters of the largest unit ZeRO-3 gathers at once. DeepSpeed fetches leaf modules (its
// estimator's largest_layer_params is the largest module's own parameters: one Linear or the
// embedding); FSDP gathers a wrapped unit (a transformer block, or the embedding or head).
double largest_unit_params(const Scenario& s) {
  const ParamCounts p = count_params(s.model);
  double unit = p.per_layer_linear_max + p.other / d(s.model.layers);
  if (s.engine == Engine::Deepspeed) {
    unit = 0;
    for (const LinearModule& m : linear_modules(s.model)) unit = std::max(unit, d(m.in) * d(m.out));
  }
  return std::max({unit, p.embedding, p.lm_head}) / d(s.tp);
}

bool is_lora(const Scenario& s) { return s.task == Task::Lora || s.task == Task::Qlora; }

}  // namespace

ShardedStates shard_model_states(const ModelStateBytes& b, int zero, double dp) {
  // ZeRO paper (Rajbhandari et al. 2019, sec. 5): P_os shards the optimizer (stage 1), P_g the
  // gradients (stage 2), P_p the parameters (stage 3) over the data-parallel degree N_d.
  ShardedStates out;
  out.weights = b.weights / (zero >= 3 ? dp : 1) + b.compute_copy;
  out.gradients = b.grads / (zero >= 2 ? dp : 1) + b.grads_fp32 / (zero >= 1 ? dp : 1);
  out.optimizer = b.optimizer / (zero >= 1 ? dp : 1);
  return out;
}

ModelStateBytes full_model_states(const Scenario& s) {
  const double params = weights_per_gpu(s, WeightFormat::Fp32) / kFp32;  // this GPU's TP/PP share
  const double w = dtype_bytes(s.weights);
  const bool master = s.training.master_weights && w == kHalf;
  // Optimizer states follow the master (fp32) or, in pure 16-bit training, the parameters' dtype
  // (torch.optim creates its states with zeros_like(param)).
  const double state = master || w == kFp32 ? kFp32 : kHalf;
  const double states = optimizer_states(s.training.optimizer, params, state, adafactor_share(s.model));
  const double master_bytes = master ? kFp32 * params : 0;
  ModelStateBytes b;
  b.weights = w * params;
  b.grads = w * params;
  b.optimizer = master_bytes + states;
  if (!master) return b;
  switch (s.engine) {
    case Engine::Deepspeed:
      // DeepSpeed keeps an fp32 gradient partition beside the master (stage_1_and_2.py
      // single_partition_of_fp32_groups grads; estimator 2 + 18/N = 2 + (2 + 4 + 12)/N); under
      // ZeRO-3 the 16-bit gradients go straight into it (estimator 18/N = (2 + 4 + 12)/N).
      b.grads_fp32 = kFp32 * params;
      if (s.training.zero >= 3) b.grads = 0;
      break;
    case Engine::Megatron:
      b.grads = kFp32 * params;  // fp32 main_grad buffer: 18 B/param (theoretical_memory_usage.py)
      break;
    default:
      // FSDP mixed precision and HF Trainer AMP keep the fp32 parameters themselves (the master)
      // and fp32 gradients; autocast's 16-bit weight copies are saved for the backward (HF AMP:
      // 4 + 2 + 4 + 8 = 18 B/param, LLaMA-Factory's table). FSDP FULL_SHARD gathers them per unit.
      b.weights = kFp32 * params;
      b.grads = kFp32 * params;
      b.optimizer = states;
      b.compute_copy = (s.engine == Engine::Fsdp && s.training.zero >= 3) ? 0 : kHalf * params;
      break;
  }
  return b;
}

namespace {

// LoRA/QLoRA: the frozen base at its storage format (QLoRA: NF4 linear layers with double-quantised
// scales, 16-bit embeddings and head, per weight_bytes) and fp32 adapters with fp32 gradients and
// optimizer states (PEFT autocast_adapter_dtype=True keeps adapters in fp32).
ModelStateBytes lora_model_states(const Scenario& s, double* trainable) {
  const Architecture& a = s.model;
  *trainable = lora_params(a, s.training.lora_targets, s.training.lora_rank);
  const double adapters = *trainable * stage_layer_share(s);
  double factored = 0;  // Adafactor on an r x in matrix keeps r + in values
  for (const LinearModule& m : linear_modules(a)) {
    if (lora_targets_module(m, s.training.lora_targets))
      factored += d(m.count) * d(2 * s.training.lora_rank + m.in + m.out);
  }
  ModelStateBytes b;
  b.weights = weights_per_gpu(s, s.weights) + kFp32 * adapters;
  b.grads = kFp32 * adapters;
  const double share = *trainable > 0 ? factored / *trainable : 0;
  b.optimizer = optimizer_states(s.training.optimizer, adapters, kFp32, share);
  // bitsandbytes dequantises one linear weight to 16 bits for each matmul (forward and
  // backward, Linear4bit/MatMul4Bit): the largest module's buffer is alive at a time; under
  // Lightning's plugin the head is 4-bit too (memory_finetune_stack.cpp).
  b.weights += lightning_bnb_head_weight_delta(s) + bnb_single_quant_weight_delta(s);
  b.compute_copy = bnb_dequant_copy_bytes(s);
  return b;
}

}  // namespace

// ZeRO-3 / FSDP FULL_SHARD: the gathered 16-bit parameters of the unit being computed and, while
// it runs its backward, its unsharded 16-bit gradients. DeepSpeed's estimator counts
// 4 x largest_layer_params (param + grad, stage3.py estimate_zero3_model_states_mem_needs).
// FSDP (transformer-block wrapping) holds two blocks, the one computing and the next one
// prefetched (backward_prefetch=BACKWARD_PRE; limit_all_gathers allows two in flight), and the root
// unit, which owns what no block wraps (embeddings, final norm, LM head): FSDP1 does not reshard
// the root after its forward, so it stays gathered through the loss into the backward
// (torch/distributed/fsdp/_runtime_utils.py _post_forward_reshard: free_unsharded_flat_param =
// not state._is_root and ...).
double zero3_live_bytes(const Scenario& s) {
  const double stored =
      is_lora(s) ? weight_bytes(s.model, s.weights).total() / count_params(s.model).total : kHalf;
  const double grads = is_lora(s) ? 0 : kHalf;
  if (s.engine != Engine::Fsdp) {
    const double gathered = s.engine == Engine::Deepspeed ? 1 : 2;
    return largest_unit_params(s) * (gathered * stored + grads);
  }
  const ParamCounts p = count_params(s.model);
  const WeightBytes w = weight_bytes(s.model, s.weights);
  const double block = (p.per_layer_linear_max + p.other / d(s.model.layers)) / d(s.tp);
  // LoRA / QLoRA gather the stored format (NF4 blocks, 16-bit embeddings and head); full training
  // gathers FSDP's 16-bit compute copy (MixedPrecision param_dtype).
  const double block_bytes = is_lora(s) ? linear_bytes_per_weight(s.model, s.weights) : kHalf;
  const double root_bytes =
      is_lora(s) ? (w.embedding + w.lm_head) / d(s.tp) : kHalf * (p.embedding + p.lm_head) / d(s.tp);
  return root_bytes + block * (2 * block_bytes + grads);
}

namespace {

// CPU offload (ZeRO-Offload / ZeRO-Infinity): moves the states off the GPU, returns host bytes.
double apply_offload(const Scenario& s, const ModelStateBytes& b, int zero, ShardedStates* st) {
  const double dp = d(s.dp());
  double host = 0;
  if (s.training.offload_optimizer) {
    // The optimizer partition, its fp32 gradients and (stage 2+) the 16-bit gradient partition
    // leave the GPU; 16-bit gradients land in the fp32 partition when there is one.
    const double fp32_grads = b.grads_fp32 / dp;
    const double grads16 = zero >= 2 ? b.grads / dp : 0;
    host += st->optimizer + fp32_grads + (b.grads_fp32 > 0 ? 0 : grads16);
    st->gradients -= fp32_grads + grads16;
    st->optimizer = 0;
  }
  if (s.training.offload_params) {
    const double shard = b.weights / dp;
    host += shard;
    st->weights -= shard;
  }
  return host * kHostBufferFactor;
}

// What training adds to the CUDA context and BLAS workspace: NCCL buffers per communicator in use,
// DeepSpeed's reduce buckets, allocator fragmentation.
double training_runtime_bytes(const Scenario& s, const Gpu* gpu, double transient) {
  double bytes = runtime_bytes(s, gpu);
  const int groups = (s.dp() > 1) + (s.tp > 1) + (s.pp > 1) + (s.ep > 1);
  bytes += groups * kNcclBytesPerGroup;
  if (s.engine == Engine::Deepspeed && s.dp() > 1 && s.training.zero <= 2) {
    // reduce_bucket_size "auto" = hidden^2 elements (transformers integrations/deepspeed.py), 16-bit,
    // double-buffered with overlap_comm; stage 0 buckets its gradient all-reduce the same way
    // (DeepSpeedEngine.allreduce_gradients), ZeRO-3 reduces through its own partitioned buffers.
    bytes += 2 * kHalf * d(s.model.hidden) * d(s.model.hidden);
  }
  return bytes + kFragmentationShare * transient;
}

std::vector<Warning> training_warnings(const Scenario& s) {
  std::vector<Warning> out;
  const Training& t = s.training;
  if (t.zero >= 2 && s.pp > 1) {
    out.push_back(message_warning("zero_with_pipeline", "training.zero"));
  }
  if (s.engine == Engine::Megatron && t.zero >= 2) {
    out.push_back(message_warning("megatron_zero", "training.zero"));
  }
  if (t.zero > 0 && s.dp() == 1 && !t.offload_optimizer && !t.offload_params) {
    out.push_back(message_warning("zero_without_dp", "training.zero"));
  }
  return out;
}

// Paged 8-bit AdamW keeps its states in CUDA unified memory: the driver evicts them to host RAM
// when the GPU is full (bitsandbytes paged optimizers), so they never push the card past its size.
void spill_paged_states(const Scenario& s, const Gpu* gpu, MemoryEstimate* m) {
  if (!gpu || s.training.optimizer != Optimizer::PagedAdamw8bit) return;
  const double over = m->breakdown.total() - gpu->memory_bytes;
  if (over <= 0) return;
  const double moved = std::min(over, m->breakdown.optimizer);
  m->breakdown.optimizer -= moved;
  m->host_bytes += moved;
  m->warnings.push_back(message_warning("paged_optimizer_spill", "training.optimizer"));
}

}  // namespace

// torch.optim.AdamW's default on CUDA is the foreach implementation (torch/optim/adam.py
// _multi_tensor_adam, shared by AdamW): after updating m and v in place it builds
// exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs), one state-sized temporary per parameter,
// alive until addcdiv_ writes the update. HF Trainer (adamw_torch), accelerate/FSDP and torchtune
// use torch.optim; DeepSpeed (FusedAdam), Megatron (apex/TE FusedAdam) and bitsandbytes 8-bit
// optimizers update in one fused kernel without it. `optimizer_params` counts this GPU's share.
double optimizer_step_temp_bytes(const Scenario& s, double optimizer_params) {
  if (s.training.optimizer != Optimizer::Adamw || s.training.offload_optimizer) return 0;
  if (s.engine != Engine::Transformers && s.engine != Engine::Fsdp) return 0;
  const bool fp32_states = is_lora(s) || s.weights == WeightFormat::Fp32 || s.training.master_weights;
  return optimizer_params * (fp32_states ? kFp32 : kHalf);
}

// torch's Optimizer.zero_grad(set_to_none=True) (the default since torch 2.0, used by HF Trainer,
// accelerate and torchtune) frees .grad after each step: without accumulation the backward starts
// with no gradients and allocates them as it frees activations. DeepSpeed's partitions and
// Megatron's main_grad buffer are allocated once and persist.
bool gradients_freed_between_steps(const Scenario& s) {
  return (s.engine == Engine::Transformers || s.engine == Engine::Fsdp) && s.training.grad_accum <= 1;
}

double nccl_bytes_per_communicator() { return kNcclBytesPerGroup; }

MemoryEstimate training_memory(const Scenario& s, const Gpu* gpu) {
  MemoryEstimate m;
  // Megatron's distributed optimizer is its only ZeRO-like sharding (stage 1).
  const int zero = s.engine == Engine::Megatron ? std::min(s.training.zero, 1) : s.training.zero;
  ModelStateBytes b;
  if (is_lora(s)) {
    b = lora_model_states(s, &m.trainable_params);
  } else {
    b = full_model_states(s);
    m.trainable_params = count_params(s.model).total;
  }
  if (s.ep > 1 && zero >= 1 && !is_lora(s)) {
    // Megatron's distributed optimizer shards the expert states over the expert data-parallel
    // group (gpus / (ep x pp) ranks, megatron/core/parallel_state.py) and the rest over dp: per GPU
    // the states of the ep = 1 layout (experts split over TP) over dp, the same bytes whatever ep.
    b.optimizer *= weights_per_gpu(s, WeightFormat::Fp32, 1) / weights_per_gpu(s, WeightFormat::Fp32);
  }
  ShardedStates st = shard_model_states(b, zero, d(s.dp()));
  const double live = zero >= 3 ? zero3_live_bytes(s) : 0;
  st.weights += live;
  m.host_bytes = apply_offload(s, b, zero, &st);
  m.breakdown.weights = st.weights;
  m.breakdown.gradients = st.gradients;
  m.breakdown.optimizer = st.optimizer;
  // The transient part of the step peaks at one of three moments (docs/methodology.md, "Peak over
  // the step"): the start of the backward (activations and logits; gradients only if they persist),
  // its end under recomputation (all gradients + the layer being rebuilt), or the optimizer step
  // (all gradients + AdamW's foreach temporary). The breakdown keeps the gradients whole and shows
  // the rest as activations (the backward) or as optimizer (the step's temporary).
  // Stack terms (memory_finetune_stack.cpp): LoRA dropout's saved outputs and masks per stored
  // layer (one layer, rebuilt, under full recomputation), and the previous step's 4-bit matmul
  // inputs that old bitsandbytes keeps alive through the next forward.
  const double dropout_layers =
      s.training.grad_checkpointing == Checkpointing::Full ? 1 : d(layers_on_busiest_stage(s));
  const double stack = dropout_layers * lora_dropout_layer_bytes(s, d(s.batch) * d(s.seq_len)) / d(s.tp) +
                       dropout_layers * peft_delta_weight_layer_bytes(s) + bnb_prev_step_input_bytes(s);
  const double acts = training_activation_bytes(s) + stack;
  const double grads = st.gradients;
  // FSDP LoRA/QLoRA with reentrant checkpointing around the units keeps every layer's input and
  // input gradient to the end of the backward (memory_activations.cpp fsdp_retained_checkpoint_bytes).
  const double end = recompute_working_bytes(s) + fsdp_retained_checkpoint_bytes(s);
  const double backward =
      gradients_freed_between_steps(s) ? std::max(acts, grads + end) : grads + std::max(acts, end);
  const double params =
      is_lora(s) ? m.trainable_params * stage_layer_share(s) : weights_per_gpu(s, WeightFormat::Fp32) / kFp32;
  const double step = grads + optimizer_step_temp_bytes(s, params / (zero >= 1 ? d(s.dp()) : 1));
  // FSDP has resharded every unit by the step (FULL_SHARD frees each unsharded flat parameter in
  // its post-backward hook, the root's too: torch/distributed/fsdp/_runtime_utils.py
  // _post_backward_hook, _should_free_in_backward), so the gathered units counted in the weights
  // are not allocated while the optimizer runs. Their blocks stay reserved: FSDP gathers on its
  // unshard stream and the caching allocator hands a freed block only to its own stream
  // (c10/cuda/CUDACachingAllocator.cpp get_free_block: BlockPool keyed by stream), so the
  // step on the default stream cannot reuse them; the runtime share keeps them.
  const double resharded = s.engine == Engine::Fsdp ? live : 0;
  const double step_allocated = step - resharded;
  const double cached_resharded = std::max(0.0, step - std::max(backward, step_allocated));
  m.breakdown.activations = backward - grads;
  m.breakdown.optimizer += std::max(0.0, step_allocated - backward);
  m.breakdown.runtime = training_runtime_bytes(s, gpu, std::max(backward, step)) + cached_resharded;
  m.warnings = training_warnings(s);
  spill_paged_states(s, gpu, &m);
  m.per_gpu_bytes = m.breakdown.total();
  return m;
}

}  // namespace gpusizer
