// Serving-engine start-up options that change memory accounting (vLLM, SGLang): the scenario's
// "engine_options" object (docs/scenario.md). Unset fields take the engine's documented default.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/architecture.h"

namespace gpusizer {

// Speculative decoding (engine_options.speculative; speed_speculative.cpp, docs/speed.md
// "Speculative decoding"): a draft proposes `draft_tokens` tokens per step and the target verifies
// them in one pass. Serving on vLLM or SGLang only.
struct Speculative {
  // "mtp" (the checkpoint's multi-token-prediction modules: vLLM deepseek_mtp, SGLang NEXTN),
  // "eagle" / "eagle3" (an EAGLE head: one decoder layer of the target's width), "draft_model" (a
  // smaller model of the catalog: vLLM draft_model, SGLang STANDALONE).
  std::string method;
  int64_t draft_tokens = 1;        // k: vLLM num_speculative_tokens, SGLang --speculative-num-steps
  double acceptance_rate = 0;      // a: per draft token; stated, or the method's measured default
  bool acceptance_stated = false;  // the scenario gave acceptance_rate (else a cited default)
  // eagle / eagle3: the head's Hugging Face repository (launch lines only); draft_model: the draft's
  // catalog id or Hub id, which sizes its weights and KV cache.
  std::string draft_model;
  // draft_model: the catalog preset the name resolved to (model_names.cpp), which sizes it.
  const Architecture* draft_preset = nullptr;
};

struct EngineOptions {
  std::optional<double> gpu_memory_utilization;   // vLLM --gpu-memory-utilization (0, 1]
  std::optional<int64_t> max_model_len;           // vLLM --max-model-len (tokens)
  std::optional<int64_t> max_num_seqs;            // vLLM --max-num-seqs
  std::optional<int64_t> max_num_batched_tokens;  // vLLM --max-num-batched-tokens
  std::optional<bool> enforce_eager;              // vLLM --enforce-eager (no CUDA graphs)
  std::optional<int64_t> block_size;              // vLLM --block-size (tokens per KV block)
  std::optional<double> mem_fraction_static;      // SGLang --mem-fraction-static (0, 1)
  // Training: how the loss meets the logits. "materialized" (default: HF ForCausalLMLoss, full
  // bf16 logits + fp32 upcast + fp32 log-softmax), "chunked" (torchtune CEWithChunkedOutputLoss),
  // "fused" (Liger / unsloth fused linear cross-entropy: logits never held whole), "inplace"
  // (unsloth / fms-acceleration Fast_CrossEntropyLoss: the kernel writes the gradient into the logits).
  // "litgpt": LitGPT lora.py/adapter.py, bf16 lm_head output in 128-token chunks kept by the loop and
  // a bf16 cross-entropy per chunk (memory_finetune_stack.cpp).
  std::string cross_entropy = "materialized";
  // Training, LoRA/QLoRA: the adapters' dropout (p > 0) keeps its output and mask for the backward.
  // "none" (default: PEFT's lora_dropout=0.0, nn.Identity), "per-module" (PEFT: one nn.Dropout per
  // adapted linear), "litgpt" (LitGPT lora.py: one for the fused qkv, one per other adapted linear).
  std::string lora_dropout = "none";
  // Training, LoRA/QLoRA under PEFT with fp32 adapters and no autocast (autocast_adapter_dtype=True,
  // use_amp=False): what the adapted linears keep for the backward (memory_finetune_stack.cpp). When set,
  // the frozen base keeps only what the gradient of its inputs needs (a frozen linear keeps no input):
  // "fp32-input" (LoRA and kin: each adapted module casts its input to fp32 and a trainable matmul
  // keeps that copy), "fp32-input-and-delta" (LoHa, LoKr, FourierFT, PEANuT, WaveFT, MiSS "bat": also
  // the merged fp32 delta weight of each module), "ia3" (IA3: the 16-bit output of each scaled
  // attention module, the fp32 input of each scaled MLP module), "none" (the method keeps no copy of
  // a linear's input: frozen projections first, bias or embedding rows). Unset: the full-training
  // layer layout (gpusizer's default).
  std::optional<std::string> adapter_saves;
  // QLoRA prepared by peft's stock prepare_model_for_kbit_training (every non-4-bit parameter upcast
  // to fp32) followed by trl SFTTrainer's peft_module_casting_to_bf16 (embeddings and head back to
  // bf16, norms kept fp32), as trl does on one device: the norms' outputs are fp32 and bitsandbytes'
  // Linear4bit returns its output in its input's dtype, so the MLP and, after the first layer, the
  // residual stream are fp32 (default false; memory_activations.cpp).
  std::optional<bool> kbit_fp32_upcast;
  // QLoRA: who replaces the linears with bitsandbytes 4-bit ones. "transformers" (default:
  // from_pretrained(quantization_config), lm_head kept 16-bit) or "lightning" (Lightning Fabric's
  // BitsandbytesPrecision, as LitGPT uses it: every nn.Linear, lm_head included, quantised from fp16).
  std::string bnb_quantizer = "transformers";
  // QLoRA with bitsandbytes before 0.43.2 under a loop that keeps the last step's loss alive
  // (LitGPT): the previous step's 4-bit matmul inputs are alive through the next forward (default false).
  std::optional<bool> bnb_prev_step_inputs;
  // QLoRA NF4 scales: double-quantised (default true, the QLoRA paper's setting and gpusizer's nf4) or
  // one fp32 absmax per 64 weights (false: BitsAndBytesConfig bnb_4bit_use_double_quant=False,
  // LitGPT --quantize bnb.nf4 as against bnb.nf4-dq).
  std::optional<bool> bnb_double_quant;
  // Training: each batch padded to its own longest sample, so tensor shapes change from step to
  // step (default false: packed or fixed-length batches, every step the same shapes). Decides
  // whether the caching allocator keeps a spare set of loss-path blocks (memory_runtime.cpp).
  std::optional<bool> padded_batches;
  // Training under FSDP: transformers' gradient checkpointing (model.gradient_checkpointing_enable,
  // torch.utils.checkpoint with use_reentrant=True, its default) wraps each FSDP unit's __call__,
  // as HF Trainer --gradient_checkpointing does under accelerate FSDP (default false: checkpointing
  // inside the units, FSDP/accelerate apply_activation_checkpointing, torchtune, fsdp_qlora).
  std::optional<bool> checkpoint_wraps_fsdp;
  // AutoAWQ from_quantized(fuse_layers=True) under transformers: fused attention/MLP/norm modules
  // whose single-token step runs FasterTransformer's fused attention kernel (speed.cpp).
  std::optional<bool> fused_layers;
  // AutoAWQ kernel of the checkpoint ("gemm" or "gemv"), run through AutoAWQ's own awq_ext kernels
  // (split-K GEMM, 16-row tiles: speed.cpp). Unset: the engine's default AWQ path (GEMM-class).
  std::optional<std::string> awq_kernel;
  // vLLM's --disable-custom-all-reduce: tensor-parallel all-reduces through NCCL instead of the custom
  // one-shot kernel (also what engines without a custom all-reduce run, e.g. TurboMind v0.1.0): speed.cpp.
  std::optional<bool> disable_custom_all_reduce;
  // vLLM's top-p/top-k sampler path, which sets the profile run's sampler peak (engine_accounting.cpp):
  // "flashinfer" (V1 log "Using FlashInfer for top-p & top-k sampling"; the default on NVIDIA GPUs
  // since PR #40376, 2026-04: envs.py VLLM_USE_FLASHINFER_SAMPLER defaults to True), "pytorch-native"
  // (V1 log "Falling back to the PyTorch-native implementation of top-p & top-k sampling": the
  // full-vocabulary sort of v0.8-v0.11 and of VLLM_USE_FLASHINFER_SAMPLER=0 before the Triton path),
  // "v0" (the V0 engine's model_executor/layers/sampler.py, vLLM before 0.8). Unset here: the
  // scenario's engine version fixes it (engine_versions.cpp) unless engine_options names one.
  std::string sampler;
  // Which tensor-parallel worker's start-up log a vLLM figure is (engine_accounting.cpp): "driver"
  // (default: rank 0, the busiest GPU) or "non-driver" (a VllmWorkerProcess). Only the V0 engine
  // (sampler "v0") tells them apart: its ModelRunner.execute_model returns after compute_logits on
  // the non-driver workers ("Only perform sampling in the driver worker", vllm/worker/model_runner.py),
  // so their profile run holds no sampler. V1 workers all sample.
  std::string tp_worker = "driver";
  // SGLang's --enable-dp-attention for MLA models (speed_dp_attention.cpp, docs/speed.md "DP
  // attention"): each TP rank runs the attention of its own requests with the whole (replicated)
  // attention weights and its own MLA cache, the experts stay split over the TP ranks, and all ranks
  // step together at the MoE (default false: attention split by heads over the TP ranks). Under vLLM
  // the same group of tp GPUs runs --tensor-parallel-size 1 --data-parallel-size tp
  // --enable-expert-parallel: the dense layers are whole on each rank too, the routed experts split.
  std::optional<bool> dp_attention;
  // Quantized-weight kernels under transformers and their own buffers (memory_quant.cpp,
  // docs/methodology.md "Quantized-kernel buffers"): "exllama" (AutoGPTQ / optimum exllama v1:
  // temp_dq, temp_state with act-order), "exllamav2" (AutoAWQ / AutoGPTQ ExLlamaV2 scratch space),
  // "cuda-old" (AutoGPTQ's CUDA-old kernel, torch dequantisation for >= 128 rows),
  // "exllama-standalone" (turboderp/exllama v1's ExLlama class: own buffers, fp16 attention).
  // Unset: no kernel buffers (the engine's default path).
  std::optional<std::string> quant_kernel;
  // GPTQ desc_act (act-order): exllama v1 then keeps temp_state for reordering the input.
  std::optional<bool> act_order;
  // GPTQ/AWQ group size of the checkpoint (default 128, precision.cpp); -1: one group per column.
  std::optional<int64_t> group_size;
  // Which linear modules the checkpoint quantizes: "all" (default: every linear in s.weights' format)
  // or "mlp-inner" (Meta's FBGEMM FP8 recipe for Llama 3.1 405B: the MLP linears of layers 1..L-2 only;
  // attention, the first and last layers and the lm_head stay 16-bit; memory_quant.cpp).
  std::optional<std::string> quant_scope;
  // max_input_len / max_batch_size the exllama kernels size their buffers for (default 2048 / 8).
  std::optional<int64_t> quant_max_input_len;
  std::optional<int64_t> quant_max_batch_size;
  // A figure summed over the N devices of a device_map split counted as one device: per-device
  // buffers and each device's own forward peak count N times (default 1).
  std::optional<int64_t> summed_devices;
  // Speculative decoding; unset: none (the engines' default).
  std::optional<Speculative> speculative;
};

}  // namespace gpusizer
