// Serving memory: weights, KV cache, the activations of the largest forward step, runtime.
#include <algorithm>
#include <cmath>

#include "memory/memory.h"
#include "memory/memory_quant.h"
#include "model/precision.h"
#include "scenario/speculative.h"

namespace gpusizer {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;
constexpr double kActivationBytes = 2;  // bf16/fp16 activations in every engine modelled
constexpr double kLogitBytes = 4;  // logits are upcast to fp32 before sampling (vLLM Sampler, HF generate)

// vLLM allocates the KV cache in blocks of 16 tokens (PagedAttention, default --block-size 16).
constexpr int64_t kVllmBlockTokens = 16;
// Prompt tokens one forward step processes at most: vLLM/SGLang/LMDeploy/TensorRT-LLM chunk long
// prefills to a token budget of 8192 (vLLM V1 max_num_batched_tokens for the API server on large
// GPUs, SGLang --chunked-prefill-size 8192, LMDeploy max_prefill_token_num 8192, TRT-LLM
// max_num_tokens 8192); llama.cpp's physical batch n_ubatch defaults to 512; transformers does not chunk.
constexpr int64_t kServingChunkTokens = 8192;
constexpr int64_t kLlamaCppUbatch = 512;

// CUDA graphs captured by vLLM/SGLang for decode batch sizes: 0.21 GiB for Llama-3.2-1B in
// vLLM's own log (vllm-project/vllm PR #11349), kept per GPU.
constexpr double kCudaGraphBytes = 0.25 * kGiB;
// Used when no GPU is chosen: Ampere-class CUDA context with lazy loading (~400 MiB per
// pytorch/pytorch#109888) and the pre-Hopper cuBLAS workspace (:4096:2:16:8 = 8,519,680 B).
constexpr double kDefaultContextBytes = 400 * kMiB;
constexpr double kDefaultWorkspaceBytes = 8519680;

// AutoAWQ from_quantized(fuse_layers=True) under transformers (engine_options.fused_layers): the
// fused blocks of AutoAWQ @5c7e368 (the commit of its README benchmarks, v0.1.6+3).
bool awq_fused(const Scenario& s) {
  return s.engine == Engine::Transformers && s.weights == WeightFormat::AwqInt4 &&
         s.engine_options.fused_layers.value_or(false);
}

// Bytes per score element at the fused prefill's attention peak (awq/modules/fused/attn.py
// QuantAttentionFused.forward, seqlen > 1): the fp16 scores (2), their .float() copy (4) and the
// fp32 softmax output (4) are alive together before .type_as(xq); no SDPA or FlashAttention path.
constexpr double kAwqFusedScoreBytes = 2 + 4 + 4;

int64_t prefill_chunk_tokens(const Scenario& s) {
  const int64_t prompt_total = s.batch * std::max<int64_t>(s.prompt_tokens, 1);
  switch (s.engine) {
    case Engine::Transformers:
      return prompt_total;
    case Engine::LlamaCpp:
      return std::min(prompt_total, kLlamaCppUbatch);
    default:
      return std::min(prompt_total, kServingChunkTokens);
  }
}

}  // namespace

// Elements alive per token at the peak of one block's forward pass (no autograd): three
// hidden-size tensors (residual, normed input, sub-layer output) plus the wider of the attention
// projections and the MLP (gated: gate/up output, activation, product = 3 x intermediate).
double live_elements_per_token(const Architecture& a) {
  const double h = static_cast<double>(a.hidden);
  const double mlp_width = a.mlp == MlpKind::Gated ? 3 : 2;
  double mlp = mlp_width * static_cast<double>(a.intermediate);
  if (a.experts > 0) {
    const double shared_i = static_cast<double>(
        a.shared_expert_intermediate > 0 ? a.shared_expert_intermediate : a.expert_intermediate);
    const double moe = mlp_width * (static_cast<double>(a.experts_per_token * a.expert_intermediate) +
                                    static_cast<double>(a.shared_experts) * shared_i) +
                       static_cast<double>(a.experts);  // router logits
    mlp = a.dense_layers > 0 ? std::max(mlp, moe) : moe;
  }
  double attn = 0;
  if (a.mla.kv_lora_rank > 0) {
    const double qk = static_cast<double>(a.mla.qk_nope_head_dim + a.mla.qk_rope_head_dim);
    attn = static_cast<double>(a.heads) * (2 * qk + 2 * static_cast<double>(a.mla.v_head_dim));
  } else {
    attn = static_cast<double>(2 * a.heads * a.head_dim + 2 * a.kv_heads * a.head_dim);
  }
  return 3 * h + std::max(mlp, attn);
}

namespace {

double activation_bytes(const Scenario& s) {
  const Architecture& a = s.model;
  const double tp = static_cast<double>(s.tp);
  const double chunk = static_cast<double>(prefill_chunk_tokens(s));
  // Sharded projections split across TP; the hidden-size tensors are replicated (Megatron TP).
  const double h3 = 3 * static_cast<double>(a.hidden);
  const double per_token = h3 + (live_elements_per_token(a) - h3) / tp;
  double bytes = chunk * per_token * kActivationBytes;
  // Quantized kernels' dequantisation scratch inside a layer (memory_quant.cpp).
  bytes += quant_dequant_scratch_bytes(s);
  if (exllama_standalone(s)) {
    bytes += exllama_standalone_score_bytes(s);
  } else if (awq_fused(s)) {
    const double p = static_cast<double>(s.prompt_tokens);
    bytes += static_cast<double>(s.batch) * static_cast<double>(a.heads) / tp * p * p * kAwqFusedScoreBytes;
  } else if (!s.flash_attention && s.engine == Engine::Transformers) {
    // Eager attention materialises the scores (bf16) and their fp32 softmax for one layer:
    // batch x heads x prompt x prompt x (2 + 4) bytes.
    const double p = static_cast<double>(s.prompt_tokens);
    bytes += static_cast<double>(s.batch) * static_cast<double>(a.heads) / tp * p * p * (2 + 4);
  }
  // A figure summed over the devices of a device_map split (engine_options.summed_devices): each
  // device peaks with its own layers' working set; the logits live on the last device only.
  const double layer_bytes = bytes;
  const double devices = summed_devices(s);
  bytes = layer_bytes * devices;
  // Logits of the last position of each sequence, fp32, and the sampler's probabilities; a
  // speculative verify pass scores each sequence's k drafts and the next token (k + 1 rows).
  const double logit_rows =
      static_cast<double>(s.batch) *
      (speculative(s) ? static_cast<double>(s.engine_options.speculative->draft_tokens + 1) : 1);
  if (!a.encoder) bytes += 2 * logit_rows * static_cast<double>(a.vocab) / tp * kLogitBytes;
  if (!a.encoder && s.engine == Engine::Transformers && s.version_facts.full_prompt_logits) {
    // transformers before 4.45 (LlamaForCausalLM.forward: logits = self.lm_head(hidden_states).float()
    // for every position; logits_to_keep arrived in 4.45): the prefill holds the bf16 logits of the
    // whole prompt and their fp32 upcast, (2 + 4) bytes per prompt token and vocabulary entry.
    // They are computed after the last block returns, whose working set (and attention scores)
    // is freed by then: the prefill peaks at the larger of the two, beside the final hidden states.
    const double logits = static_cast<double>(s.batch) * static_cast<double>(s.prompt_tokens) *
                          static_cast<double>(a.vocab) / tp * (kActivationBytes + kLogitBytes);
    const double hidden = chunk * static_cast<double>(a.hidden) * kActivationBytes;
    bytes = std::max(bytes, (devices - 1) * layer_bytes + hidden + logits);
  }
  return bytes;
}

// The quantized q, k and v weights on the busiest GPU (AutoAWQ's fused-qkv copy).
double awq_qkv_bytes(const Scenario& s) {
  const Architecture& a = s.model;
  const ParamCounts p = count_params(a);
  if (p.linear <= 0) return 0;
  const double per_param = linear_bytes_per_weight(a, s.weights);
  double qkv = 0;
  for (const LinearModule& m : linear_modules(a)) {
    if (m.name == "q" || m.name == "k" || m.name == "v") {
      qkv += static_cast<double>(m.in) * static_cast<double>(m.out) * static_cast<double>(m.count);
    }
  }
  const double share = static_cast<double>(layers_on_busiest_stage(s)) / static_cast<double>(a.layers);
  return qkv * per_param * share / static_cast<double>(s.tp);
}

double kv_cache_bytes(const Scenario& s, double* per_token_whole_model) {
  const Architecture& a = s.model;
  *per_token_whole_model = kv_bytes_per_token(a, s.kv_cache);
  if (a.encoder) return 0;
  const double layer_share = static_cast<double>(layers_on_busiest_stage(s)) / static_cast<double>(a.layers);
  double per_token = *per_token_whole_model * layer_share;
  if (a.mla.kv_lora_rank == 0) {
    // KV heads split across TP; with fewer KV heads than ranks each rank keeps one (replicated).
    const double heads_per_gpu = std::ceil(static_cast<double>(a.kv_heads) / static_cast<double>(s.tp));
    per_token *= heads_per_gpu / static_cast<double>(a.kv_heads);
  }  // MLA's latent cache is not split by heads: every TP rank holds all of it (vLLM MLA backend).
  auto cached = [&](int64_t tokens) {
    // AutoAWQ's fused blocks pre-allocate an fp16 WindowedCache of max_new_tokens positions per
    // layer (awq/modules/fused/cache.py; LlamaLikeBlock max_seq_len=config.max_new_tokens), rolled
    // when the sequence outgrows it; the prompt has to fit in it (update_kv writes it whole).
    if (awq_fused(s)) return static_cast<double>(std::max(s.output_tokens, s.prompt_tokens));
    if (s.engine != Engine::Vllm) return static_cast<double>(tokens);
    return static_cast<double>((tokens + kVllmBlockTokens - 1) / kVllmBlockTokens * kVllmBlockTokens);
  };
  // Sliding-window layers keep only the last `sliding_window` tokens (vLLM's hybrid KV-cache
  // manager, llama.cpp's SWA cache, transformers' HybridCache); the other layers keep them all.
  const double window_share =
      a.sliding_window > 0 ? static_cast<double>(a.sliding_window_layers) / static_cast<double>(a.layers) : 0;
  const double tokens =
      (1 - window_share) * cached(s.seq_len) + window_share * cached(std::min(s.seq_len, a.sliding_window));
  // Gated DeltaNet layers: a fixed state per sequence, heads split over TP like the KV heads.
  const double state = linear_state_bytes_per_sequence(a) * layer_share *
                       std::ceil(static_cast<double>(a.linear_value_heads) / static_cast<double>(s.tp)) /
                       std::max<double>(1, static_cast<double>(a.linear_value_heads));
  // DP attention: each rank keeps the latents of its own requests only (its batch share, the busiest
  // rank's; speed_dp_attention.cpp), not every request's: SGLang's TP ranks, vLLM's DP ranks alike.
  const double sequences = dp_attention(s)
                               ? std::ceil(static_cast<double>(s.batch) / static_cast<double>(s.tp))
                               : static_cast<double>(s.batch);
  return per_token * tokens * sequences + state * sequences;
}

// The draft of speculative decoding on the busiest GPU (speculative.cpp draft_scenario): its weights
// without the embedding and LM head it shares with the target, its linears beside the layer (MTP
// eh_proj, EAGLE fc), and the KV cache of its layers over the same sequences and context as the target's.
void add_draft_bytes(const Scenario& s, MemoryBreakdown* b) {
  if (!speculative(s)) return;
  const Draft d = draft_scenario(s);
  Scenario ds = d.scenario;
  // vLLM's DP attention runs the draft at TP 1 on every DP rank for that rank's own requests: an MTP
  // block as the target's layers (vllm_dp_attention), a dense draft (EAGLE, draft model) whole.
  if (vllm_dp_attention(s) && !vllm_dp_attention(ds)) {
    ds.batch = (s.batch + s.tp - 1) / s.tp;
    ds.tp = ds.gpus = 1;
  }
  const double tp = vllm_dp_attention(s) ? 1 : static_cast<double>(s.tp);
  double weights = weights_per_gpu(ds, ds.weights);
  const WeightBytes w = weight_bytes(ds.model, ds.weights);
  if (d.shares_embedding) weights -= w.embedding / tp;
  if (d.shares_head) weights -= w.lm_head / tp;
  weights += d.extra_params * linear_bytes_per_weight(ds.model, ds.weights) / tp;
  b->draft_weights = d.weight_copies * weights;
  double per_token = 0;
  b->draft_kv_cache = d.kv_copies * kv_cache_bytes(ds, &per_token);
}

}  // namespace

int64_t layers_on_busiest_stage(const Scenario& s) { return (s.model.layers + s.pp - 1) / s.pp; }

double stage_layer_share(const Scenario& s) {
  return static_cast<double>(layers_on_busiest_stage(s)) / static_cast<double>(s.model.layers) /
         static_cast<double>(s.tp);
}

double weights_per_gpu(const Scenario& s, WeightFormat format, int64_t ep) {
  const WeightBytes w = weight_bytes(s.model, format);
  const double tp = static_cast<double>(s.tp);
  const double stage_layers = static_cast<double>(layers_on_busiest_stage(s));
  // Embedding and LM head are vocabulary-parallel across TP (Megatron VocabParallelEmbedding).
  // With pipeline stages the first holds the embedding, the last the head (a tied head is a
  // second copy of the embedding there).
  // A VLM's vision tower sits with the embedding on the first stage.
  const double head = s.model.tied_embeddings ? w.embedding : w.lm_head;
  const double ends = s.pp == 1 ? w.embedding + w.lm_head + w.vision : std::max(w.embedding + w.vision, head);
  // Expert parallelism (Megatron --expert-model-parallel-size with --expert-tensor-parallel-size 1)
  // puts 1/ep of the routed experts, whole, on each rank; the attention, dense and shared-expert
  // layers stay split over TP. Without it the experts are split over TP like the rest.
  // SGLang's DP attention replicates the attention projections on every TP rank (ReplicatedLinear).
  const double layers_all = static_cast<double>(std::max<int64_t>(s.model.layers, 1));
  const double replicated = dp_attention(s) ? stage_layers * w.attention / layers_all * (1 - 1 / tp) : 0;
  const double layers = static_cast<double>(std::max<int64_t>(s.model.layers, 1));
  const double routed = stage_layers * w.routed / layers;
  // vLLM's DP attention runs TP 1: only the routed experts are split, over EP = DP x TP ranks
  // (vllm/model_executor/layers/fused_moe/config.py FusedMoEParallelConfig.make: use_ep, ep_size =
  // dp_size x tp_size, tp_size 1); deepseek_v2.py builds the attention, dense MLP, shared experts,
  // embedding and LM head over the TP group, of size 1: whole on every rank.
  if (vllm_dp_attention(s)) return stage_layers * w.per_layer - routed + ends + routed / tp;
  if (ep <= 1) return (stage_layers * w.per_layer + ends) / tp + replicated;
  return (stage_layers * w.per_layer - routed + ends) / tp + routed / static_cast<double>(ep);
}

double weights_per_gpu(const Scenario& s, WeightFormat format) { return weights_per_gpu(s, format, s.ep); }

bool online_fp8(const Scenario& s) {
  return s.task == Task::Inference && (s.engine == Engine::Vllm || s.engine == Engine::Sglang) &&
         s.weights == WeightFormat::Fp8 && s.checkpoint.stored != WeightFormat::Fp8;
}

// vLLM's online fp8 (Fp8LinearMethod, process_weights_after_loading) and SGLang's quantize each
// weight after the checkpoint's 16-bit tensors are loaded: the load holds the stored weights.
double load_peak_bytes(const Scenario& s, const Gpu* gpu) {
  if (!online_fp8(s)) return 0;
  return weights_per_gpu(s, s.checkpoint.stored) + cuda_context_bytes(gpu);
}

double cuda_context_bytes(const Gpu* gpu) { return gpu ? gpu->cuda_context_bytes : kDefaultContextBytes; }

double runtime_bytes(const Scenario& s, const Gpu* gpu) {
  double bytes = gpu ? gpu->cuda_context_bytes + gpu->blas_workspace_bytes
                     : kDefaultContextBytes + kDefaultWorkspaceBytes;
  if (s.task == Task::Inference && (s.engine == Engine::Vllm || s.engine == Engine::Sglang)) {
    bytes += kCudaGraphBytes;
  }
  return bytes;
}

MemoryEstimate inference_memory(const Scenario& s, const Gpu* gpu) {
  MemoryEstimate m;
  // The checkpoint's group size against the format's default of 128 (memory_quant.cpp).
  m.breakdown.weights =
      weights_per_gpu(s, s.weights) + quant_group_size_delta_bytes(s) + quant_scope_delta_bytes(s);
  m.breakdown.kv_cache = kv_cache_bytes(s, &m.kv_bytes_per_token);
  // AutoAWQ's fused modules (engine_options.fused_layers) keep their own preallocated cache
  // (awq/modules/fused/attn.py) whatever transformers' cache type.
  if (s.engine == Engine::Transformers && s.version_facts.legacy_kv_cache &&
      !s.engine_options.fused_layers.value_or(false) && s.seq_len > 1 && s.output_tokens > 1) {
    // transformers before 4.36 (tuple past_key_values): each decode step's attention does
    // torch.cat([past_key, key]) into a new cache while generate() still holds the previous step's,
    // one token shorter, until the forward returns (modeling_llama.py, GenerationMixin). generate()
    // with one new token runs the prefill only (its stopping criteria end the loop): no copy.
    const double seq = static_cast<double>(s.seq_len);
    m.breakdown.kv_cache *= 1 + (seq - 1) / seq;
  }
  m.breakdown.activations = activation_bytes(s);
  if (awq_fused(s)) {
    // Loading peak: the fuser builds every fused block (each with a torch.cat copy of q, k and v,
    // awq/utils/fused_utils.py fuse_qkv) before it replaces model.model, so all layers' unfused
    // q/k/v are still alive beside the copies (awq/models/llama.py LlamaFuser.fuse_transformer).
    // torch.cuda.max_memory_allocated counts it unless reset after loading.
    m.breakdown.activations = std::max(m.breakdown.activations, awq_qkv_bytes(s));
  }
  // Buffers the quantized kernels allocate at load, alive throughout (memory_quant.cpp).
  m.breakdown.activations += quant_kernel_buffer_bytes(s);
  m.breakdown.runtime = runtime_bytes(s, gpu);
  add_draft_bytes(s, &m.breakdown);
  m.per_gpu_bytes = m.breakdown.total();
  return m;
}

MemoryEstimate estimate_memory(const Scenario& s, const Gpu* gpu) {
  MemoryEstimate m = is_training(s.task) ? training_memory(s, gpu) : inference_memory(s, gpu);
  finish_memory(s, gpu, &m);  // allocated / reserved / nvidia-smi, engine budget (memory_runtime.cpp)
  return m;
}

}  // namespace gpusizer
