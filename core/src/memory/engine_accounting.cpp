// What vLLM and SGLang report at start-up: the budget they take (gpu_memory_utilization,
// mem_fraction_static), the weights, the profile run's peak, the KV cache left and the requests
// of max_model_len it holds (docs/methodology.md, "Serving engines' own accounting").
#include <algorithm>
#include <cmath>
#include <string>

#include "memory/element_bytes.h"
#include "memory/memory.h"

namespace gpusizer {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;
// vLLM V1 API-server defaults (arg_utils.py _set_default_args): GPUs with >= 70 GiB other than
// the A100 get max_num_batched_tokens 8192 and max_num_seqs 1024; the rest 2048 and 256.
constexpr double kVllmLargeGpuBytes = 70 * kGiB;
constexpr int64_t kVllmLargeBatchedTokens = 8192, kVllmLargeSeqs = 1024;
constexpr int64_t kVllmSmallBatchedTokens = 2048, kVllmSmallSeqs = 256;
// vLLM's default --block-size 16.
constexpr int64_t kVllmBlockTokens = 16;
// The profile run's sampler (vLLM V1 _dummy_sampler_run, v1/worker/gpu_model_runner.py: top_p 0.9,
// top_k vocab-1, max_num_logprobs None, no generators) on max_num_seqs rows of vocab entries; bytes
// per request and vocabulary entry at its peak, by path (engine_options.sampler; docs/methodology.md
// "vLLM's sampler paths"). Both V1 paths start from the model's bf16 logits (2, still referenced by
// _dummy_sampler_run) and Sampler.forward's fp32 copy `logits.to(torch.float32)` (4).
// "pytorch-native": apply_top_k_top_p's logits.sort() (v1/sample/ops/topk_topp_sampler.py) peaks in
// the sort: values 4 + int64 indices 8, segmented_sort_pairs' int64 reverse indices 8 (pytorch
// aten/src/ATen/native/cuda/SortStable.cu:200 @061531e, the branch for >= 128 rows) and cub's
// alternate key 4 and value 8 buffers (cub dispatch_radix_sort.cuh DispatchSegmentedRadixSort,
// "3rd keys/values buffer" when not is_overwrite_okay): 2 + 4 + 4 + 8 + 8 + 4 + 8 = 38.
constexpr double kSamplerNativeSortBytes = 2 + 4 + 4 + 8 + 8 + 4 + 8;
// "flashinfer": flashinfer_sample -> flashinfer.sampling.top_k_top_p_sampling_from_logits, branch
// "top_k_first": top_k_mask_logits' masked fp32 logits 4 and torch.softmax's fp32 probs 4
// (flashinfer/sampling.py); top_p_sampling_from_probs returns one int32 per row: 2 + 4 + 4 + 4 = 14.
constexpr double kSamplerFlashInferBytes = 2 + 4 + 4 + 4;
// "v0": the V0 engine's sampler (model_executor/layers/sampler.py, vLLM before 0.8), under the
// profile run's SamplingParams(top_p=0.99, top_k=vocab-1) (worker/model_runner.py profile_run), at the
// end of _apply_top_k_top_p, bytes per row and vocabulary entry: the bf16 logits the runner holds 2,
// their fp32 copy 4, logits_sort 4, logits_idx (int64) 8, top_k_mask 1, probs_sort 4, probs_sum 4,
// top_p_mask 1, the scattered result 4: 32.
constexpr double kSamplerV0Bytes = 2 + 4 + 4 + 8 + 1 + 4 + 4 + 1 + 4;
constexpr double kActivationBytes = 2;  // bf16/fp16 activations
// Memory outside PyTorch that vLLM's profile attributes to the worker ("non_torch_memory"):
// cuBLAS/cuBLASLt workspaces and kernel images loaded after the baseline snapshot. Assumption
// of 128 MiB, the order of the 0.13-0.14 GiB vLLM 0.11 logs print at TP 1 (llm-d results).
constexpr double kVllmNonTorchBytes = 128 * kMiB;
// With TP/PP > 1: NCCL buffers (NCCL_BUFFSIZE 4 MiB x 32 channels x 2 directions, NCCL env docs)
// and vLLM's custom all-reduce IPC buffers (2 x 8 MiB max_size, custom_all_reduce.py).
constexpr double kNcclBytes = 4 * kMiB * 32 * 2;
constexpr double kCustomAllReduceBytes = 2 * 8 * kMiB;
// CUDA graphs vLLM/SGLang capture for decode batch sizes: 0.21 GiB for Llama-3.2-1B in vLLM's
// own log (vllm-project/vllm PR #11349); as memory_inference.cpp's kCudaGraphBytes.
constexpr double kCudaGraphBytes = 0.25 * kGiB;
// SGLang --mem-fraction-static default when not given: 0.88 (sglang server_args.py for
// 80 GB-class GPUs at TP 1; smaller cards get lower values).
constexpr double kSglangMemFraction = 0.88;

// KV bytes of one token on the busiest GPU (layers of its stage, KV heads of its TP rank). Neither
// engine has an int8 or int4 KV cache: --kv-cache-dtype auto keeps the model's 16-bit one.
double kv_per_token_per_gpu(const Scenario& s) {
  const Architecture& a = s.model;
  const bool has_format = s.kv_cache != KvFormat::Int8 && s.kv_cache != KvFormat::Int4;
  double per = kv_bytes_per_token(a, has_format ? s.kv_cache : KvFormat::Bf16) *
               d(layers_on_busiest_stage(s)) / d(a.layers);
  if (a.mla.kv_lora_rank == 0) per *= std::ceil(d(a.kv_heads) / d(s.tp)) / d(a.kv_heads);
  return per;
}

// Tokens of KV one request of max_model_len takes per layer, averaged over the layers, as vLLM
// V1 counts them for its maximum concurrency (v1/core/kv_cache_utils.py
// get_max_concurrency_for_kv_cache_config): whole blocks of max_model_len on full-attention layers;
// on sliding-window layers SlidingWindowSpec.max_memory_usage_bytes, cdiv(min(window - 1 +
// max_num_batched_tokens, max_model_len), block) + 1 blocks (v1/kv_cache_interface.py). The hybrid
// allocator's groups of equal layer counts are taken as exact (gpt-oss: 18 + 18 layers).
double vllm_request_tokens(const Architecture& a, int64_t len, int64_t batched, int64_t block) {
  const auto blocks = [block](int64_t tokens) { return d((tokens + block - 1) / block); };
  const double full = blocks(len) * d(block);
  if (a.sliding_window <= 0 || a.sliding_window_layers <= 0) return full;
  const double window = (blocks(std::min(a.sliding_window - 1 + batched, len)) + 1) * d(block);
  const double share = d(a.sliding_window_layers) / d(a.layers);
  return (1 - share) * full + share * window;
}

// The profile run's forward pass over `tokens` tokens: the widest live set of one block.
double forward_bytes(const Scenario& s, int64_t tokens) {
  const Architecture& a = s.model;
  const double h3 = 3 * d(a.hidden);
  const double per_token = h3 + (live_elements_per_token(a) - h3) / d(s.tp);
  return d(tokens) * per_token * kActivationBytes;
}

}  // namespace

double vllm_sampler_bytes_per_entry(const std::string& sampler) {
  if (sampler == "pytorch-native") return kSamplerNativeSortBytes;
  if (sampler == "v0") return kSamplerV0Bytes;
  return kSamplerFlashInferBytes;
}

std::optional<EngineBudget> engine_budget(const Scenario& s, const Gpu* gpu, const MemoryEstimate& m) {
  if (!gpu || s.task != Task::Inference || s.model.encoder) return std::nullopt;
  if (s.engine != Engine::Vllm && s.engine != Engine::Sglang) return std::nullopt;
  const EngineOptions& o = s.engine_options;
  EngineBudget e;
  const double total = gpu->memory_bytes;
  // A speculative draft loads with the target and keeps its KV beside the target's for every
  // token of the pool (vLLM's KV cache groups hold the drafter's layers; SGLang's draft worker
  // shares the token pool): both come out of the same budget.
  e.weights_bytes = m.breakdown.weights + m.breakdown.draft_weights;
  // The scenario's own context: the launch commands start the engine with --max-model-len seq_len
  // (SGLang --context-length), so its start-up log reports the concurrency of that length.
  e.max_model_len = o.max_model_len.value_or(s.seq_len);
  const bool eager = o.enforce_eager.value_or(false);
  e.cuda_graph_bytes = eager ? 0 : kCudaGraphBytes;
  const bool multi = s.tp > 1 || s.pp > 1;
  const double draft_share = m.breakdown.kv_cache > 0 ? m.breakdown.draft_kv_cache / m.breakdown.kv_cache : 0;
  const double per_token = kv_per_token_per_gpu(s) * (1 + draft_share);
  if (s.engine == Engine::Vllm) {
    e.engine = "vllm";
    e.fraction = o.gpu_memory_utilization.value_or(kVllmDefaultUtilization);
    const bool large = total >= kVllmLargeGpuBytes && gpu->id.rfind("a100", 0) != 0;
    e.max_num_batched_tokens =
        o.max_num_batched_tokens.value_or(large ? kVllmLargeBatchedTokens : kVllmSmallBatchedTokens);
    e.max_num_seqs = o.max_num_seqs.value_or(large ? kVllmLargeSeqs : kVllmSmallSeqs);
    const int64_t seqs = std::min(e.max_num_seqs, e.max_num_batched_tokens);
    // profile_run (v1/worker/gpu_model_runner.py): _dummy_run's forward, then _dummy_sampler_run on
    // the last position of each request; the forward's intermediates are freed in between and only
    // its output hidden states (and the sampled rows) stay alive: the peak is the larger of the two.
    // V0's execute_model runs forward, logits and sampler in the same order.
    const double hidden = d(e.max_num_batched_tokens + seqs) * d(s.model.hidden) * kActivationBytes;
    double sampler = d(seqs) * d(s.model.vocab) * vllm_sampler_bytes_per_entry(o.sampler);
    // V0's non-driver tensor-parallel workers stop after compute_logits ("Only perform sampling in
    // the driver worker", vllm/worker/model_runner.py execute_model): what they hold past the forward
    // is their lm_head shard of the sampled rows, seqs x vocab / tp in the model dtype, before
    // LogitsProcessor gathers it to the driver (tensor_model_parallel_gather).
    if (o.sampler == "v0" && o.tp_worker == "non-driver" && s.tp > 1) {
      sampler = d(seqs) * std::ceil(d(s.model.vocab) / d(s.tp)) * kActivationBytes;
    }
    e.activation_peak_bytes = std::max(forward_bytes(s, e.max_num_batched_tokens), hidden + sampler);
    e.non_torch_bytes = kVllmNonTorchBytes + (multi ? kNcclBytes + kCustomAllReduceBytes : 0);
    // vLLM 0.6.3-0.6.4 (worker.py determine_num_available_blocks): non_torch = device used
    // (mem_get_info) - torch.cuda.memory_stats()["allocated_bytes.all.current"] after the profile
    // and empty_cache, which holds the process's CUDA context as well (catalog cuda_context_bytes).
    if (s.version_facts.non_torch_accounting == "device") e.non_torch_bytes += gpu->cuda_context_bytes;
    e.budget_bytes = e.fraction * total;
    // vLLM: available KV = requested memory - (weights + peak activation + non-torch).
    e.kv_cache_bytes =
        std::max(0.0, e.budget_bytes - e.weights_bytes - e.activation_peak_bytes - e.non_torch_bytes);
    const int64_t block = o.block_size.value_or(kVllmBlockTokens);
    const double blocks = per_token > 0 ? std::floor(e.kv_cache_bytes / (per_token * d(block))) : 0;
    e.kv_tokens = blocks * d(block);
    const double request = vllm_request_tokens(s.model, e.max_model_len, e.max_num_batched_tokens, block);
    e.max_concurrency = request > 0 ? e.kv_tokens / request : 0;
  } else {
    e.engine = "sglang";
    e.fraction = o.mem_fraction_static.value_or(kSglangMemFraction);
    // SGLang's static pool (weights + KV) is mem_fraction_static of the card: the KV pool gets
    // what is free after loading minus (1 - fraction) x total (model_runner.py profile_max_num_token).
    const double ctx = gpu->cuda_context_bytes;
    e.budget_bytes = e.fraction * total;
    e.non_torch_bytes = ctx + (multi ? kNcclBytes : 0);
    e.kv_cache_bytes = std::max(0.0, e.budget_bytes - e.weights_bytes - e.non_torch_bytes);
    e.kv_tokens = per_token > 0 ? std::floor(e.kv_cache_bytes / per_token) : 0;
    // The forward's working set lives outside the static pool.
    e.max_num_batched_tokens = o.max_num_batched_tokens.value_or(8192);  // --chunked-prefill-size 8192
    e.activation_peak_bytes = forward_bytes(s, e.max_num_batched_tokens);
    e.max_concurrency = e.max_model_len > 0 ? e.kv_tokens / d(e.max_model_len) : 0;
  }
  return e;
}

std::optional<EngineBudget> launched_engine_budget(const Scenario& s, const Gpu* gpu, const MemoryEstimate& m,
                                                   std::optional<double> fraction) {
  Scenario t = s;
  t.engine_options.max_num_seqs = engine_core_sequences(s);
  if (fraction && s.engine == Engine::Vllm) t.engine_options.gpu_memory_utilization = fraction;
  if (fraction && s.engine == Engine::Sglang) t.engine_options.mem_fraction_static = fraction;
  return engine_budget(t, gpu, m);
}

int64_t server_sequences(const Scenario& s, const EngineBudget& e) {
  return static_cast<int64_t>(std::floor(e.max_concurrency + 1e-9)) * (dp_attention(s) ? s.tp : 1);
}

}  // namespace gpusizer
