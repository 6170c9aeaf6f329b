// What each published metric is compared with: its kind (the group-key suffix), the engine
// start-up figures read from the estimate, the figures not modelled yet, and units.

export const GiB = 2 ** 30;

// What each metric is compared with. `kind` is the group-key suffix, so speed and memory (and
// within memory, peaks vs engine accounting) are never pooled in one row.
export const METRICS = {
  // calibration set (public.json names)
  peak_gpu_memory_allocated_total: 'memory (peak allocated)',
  peak_gpu_memory_per_gpu: 'memory (peak allocated)',
  peak_memory_active: 'memory (peak allocated)',
  // data/validation schema names
  peak_memory_allocated: 'memory (peak allocated)',
  max_sampled_memory_allocated: 'memory (peak allocated)',
  peak_memory_reserved: 'memory (peak reserved)',
  nvidia_smi_used: 'memory (peak nvidia-smi)',
  peak_allocated_plus_context: 'memory (peak nvidia-smi)',
  gpu_memory_reported: 'memory (peak, counter not stated)',
  // Memory figures of the mem-train-* files (maintainers' per-GPU VRAM notes, DeepSpeed's estimator):
  // memory, not speed, so they are never counted among the unscored speed cases.
  reported_memory_per_gpu: 'memory (peak, counter not stated)',
  zero_model_states_estimate_per_gpu: 'memory (peak, counter not stated)',
  vllm_weights_loaded: 'memory (weights)',
  sglang_weights_loaded: 'memory (weights)',
  model_file_size: 'memory (weights)',
  llamacpp_kv_buffer: 'memory (KV cache)',
  vllm_kv_cache_tokens: 'memory (KV tokens)',
  vllm_gpu_blocks: 'memory (KV tokens)',
  sglang_kv_tokens: 'memory (KV tokens)',
  vllm_kv_cache_available: 'memory (engine budget)',
  vllm_max_concurrency: 'memory (engine budget)',
  vllm_non_torch: 'memory (engine budget)',
  vllm_activation_peak: 'memory (engine budget)',
  vllm_cuda_graph: 'memory (engine budget)',
  vllm_peak_torch: 'memory (engine budget)',
  sglang_k_size: 'memory (engine budget)',
  sglang_v_size: 'memory (engine budget)',
  llamacpp_model_buffer: 'memory (engine budget)',
  llamacpp_compute_buffer: 'memory (engine budget)',
  load_peak_memory_allocated: 'memory (engine budget)',
};
export const kindOf = (metric) => METRICS[metric] || 'speed';
export const isMemory = (kind) => kind.startsWith('memory');

// Why an engine-budget figure is listed but not scored: the estimate has no such quantity yet.
// Engine start-up figures read from the estimate's memory.engine (engine_accounting.cpp).
export const ENGINE_READS = {
  vllm_kv_cache_available: (e) => e.kv_cache_bytes,
  vllm_max_concurrency: (e) => e.max_concurrency,
  vllm_non_torch: (e) => e.non_torch_bytes,
  vllm_activation_peak: (e) => e.activation_peak_bytes,
  vllm_cuda_graph: (e) => e.cuda_graph_bytes,
  vllm_peak_torch: (e) => e.weights_bytes + e.activation_peak_bytes,
  sglang_k_size: (e) => e.kv_cache_bytes / 2,
  sglang_v_size: (e) => e.kv_cache_bytes / 2,
};
export const NOT_MODELLED = {
  load_peak_memory_allocated: 'not scored: no model of the loading transient (shards, on-the-fly quantization) yet',
  gpu_memory_reported: 'not scored: the source does not say which counter (allocated, reserved, nvidia-smi) or which sequence length',
  reported_memory_per_gpu: 'not scored: the source does not say which counter (allocated, reserved, nvidia-smi) it read',
  zero_model_states_estimate_per_gpu: "not scored: DeepSpeed's closed-form estimate of model states, not a measurement",
  vllm_kv_cache_available: "not scored: no model of vLLM's KV budget (gpu_memory_utilization minus weights, non-torch and activation peak) yet",
  vllm_max_concurrency: "not scored: no model of vLLM's KV budget yet (concurrency = KV tokens / max_model_len)",
  vllm_non_torch: 'not scored: no model of non-torch memory (CUDA context, NCCL, cuBLAS workspaces as vLLM counts them) yet',
  vllm_activation_peak: "not scored: no model of vLLM's profile-run activation peak (max_num_batched_tokens) yet",
  vllm_cuda_graph: 'not scored: no model of CUDA-graph memory yet',
  vllm_peak_torch: "not scored: no model of vLLM's profile-run peak yet",
  sglang_k_size: "not scored: no model of SGLang's mem_fraction_static budget yet",
  sglang_v_size: "not scored: no model of SGLang's mem_fraction_static budget yet",
  sglang_cuda_graph: 'not scored: no model of CUDA-graph memory yet',
  llamacpp_model_buffer: "not scored: the CUDA buffer excludes the tensors llama.cpp keeps on the CPU (token embeddings); compare model_file_size",
  llamacpp_compute_buffer: "not scored: no model of llama.cpp's compute buffer (n_batch/n_ubatch graph) yet",
};

export function unitScale(unit) {
  if (/^GiB/.test(unit)) return GiB;
  if (/^MiB/.test(unit)) return 2 ** 20;
  if (/^GB/.test(unit)) return 1e9;
  if (/^MB/.test(unit)) return 1e6;
  if (/^(tokens|blocks|x|requests)\b/.test(unit)) return 1;
  return null;
}
