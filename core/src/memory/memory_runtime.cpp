// The peak as three counters report it: PyTorch's allocated and reserved bytes and nvidia-smi's
// "Used" (docs/methodology.md, "Three memory figures"), and their JSON.
#include <algorithm>
#include <cmath>

#include "base/error.h"
#include "memory/memory.h"
#include "memory/memory_training.h"

namespace gpusizer {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
// The caching allocator rounds requests above 1 MiB up to a multiple of 2 MiB (PyTorch
// c10/cuda/CUDACachingAllocator.cpp kRoundLarge; CUDA semantics docs, "Memory management"):
// expected waste half a block per large tensor.
constexpr double kRoundLargeWaste = 1 * kMiB;
// Large weight tensors per transformer layer: q, k, v, o, gate, up, down (HF Llama-style modules).
constexpr double kWeightTensorsPerLayer = 7;
// NCCL buffers (nccl_bytes_per_communicator(), memory_training.cpp) are allocated with cudaMalloc
// outside PyTorch's allocator: counted by nvidia-smi, not by memory_reserved.
double context_bytes(const Gpu* gpu) { return cuda_context_bytes(gpu); }

int communicators(const Scenario& s) { return (s.dp() > 1) + (s.tp > 1) + (s.pp > 1); }

// Training: the loss path's blocks held by the caching allocator beside the allocated peak. The
// logits, their fp32 upcast and the shifted copy (logits_bytes, memory_activations.cpp) are the
// largest requests of a step and get segments of their own (cudaMalloc of the rounded size when
// no cached block holds them). Freed, they stay cached: segments go back to the driver only when
// an allocation fails or on empty_cache() (c10/cuda/CUDACachingAllocator.cpp malloc:
// release_available_cached_blocks / release_cached_blocks). The next step's forward allocations
// split them (get_free_block hands out any cached block at least as large, should_split keeps the
// rest), so the next loss path no longer fits and gets new segments: in steady state the pool holds
// one set of loss-path blocks besides the peak's tensors. PyTorch's default has no expandable
// segments (PYTORCH_CUDA_ALLOC_CONF expandable_segments:False) that could grow in place instead.
// With batches padded to varying lengths the largest step's loss path outgrows every cached block
// of the shorter steps, whose segments its forward reuses: no spare set (engine_options.padded_batches).
double loss_path_cached_bytes(const Scenario& s) {
  if (!is_training(s.task) || s.engine_options.padded_batches.value_or(false)) return 0;
  return logits_bytes(s);
}

}  // namespace

MemoryFigures memory_figures(const Scenario& s, const Gpu* gpu, const MemoryEstimate& m) {
  MemoryFigures f;
  const MemoryBreakdown& b = m.breakdown;
  // Allocated: every tensor alive at the peak, i.e. the breakdown without the runtime share
  // (which holds the context, workspaces, CUDA graphs, NCCL and the training fragmentation).
  f.allocated_bytes = std::max(0.0, m.per_gpu_bytes - b.runtime);
  const double ctx = context_bytes(gpu);
  // NCCL buffers: training's runtime already counts them; inference's does not.
  const double nccl = communicators(s) * nccl_bytes_per_communicator();
  const double nccl_in_runtime = is_training(s.task) ? nccl : 0;
  // Runtime minus what lives outside the allocator: cuBLAS workspace, CUDA-graph pool,
  // DeepSpeed buckets and fragmentation, all of which PyTorch's allocator reserves.
  const double in_allocator = std::max(0.0, b.runtime - ctx - nccl_in_runtime);
  const double tensors = kWeightTensorsPerLayer * static_cast<double>(layers_on_busiest_stage(s)) + 2;
  f.reserved_bytes =
      f.allocated_bytes + in_allocator + tensors * kRoundLargeWaste + loss_path_cached_bytes(s);
  if (gpu && is_training(s.task)) {
    // Before an out-of-memory error the allocator frees its cached blocks and retries
    // (CUDACachingAllocator.cpp malloc: release_cached_blocks, then alloc_block again): the cache
    // never pushes the pool past what the card leaves beside the context and NCCL buffers.
    const double room = gpu->memory_bytes - ctx - nccl;
    f.reserved_bytes = std::max(f.allocated_bytes, std::min(f.reserved_bytes, room));
  }
  f.nvidia_smi_bytes = f.reserved_bytes + ctx + nccl;
  if (m.engine) {
    // vLLM/SGLang take their budget up front: nvidia-smi shows it whatever the workload.
    const EngineBudget& e = *m.engine;
    const double shown = e.engine == "vllm"
                             ? e.budget_bytes + e.cuda_graph_bytes
                             : e.budget_bytes + e.activation_peak_bytes + e.cuda_graph_bytes + ctx;
    f.nvidia_smi_bytes = std::max(f.nvidia_smi_bytes, shown);
  }
  return f;
}

void finish_memory(const Scenario& s, const Gpu* gpu, MemoryEstimate* m) {
  m->engine = engine_budget(s, gpu, *m);
  m->figures = memory_figures(s, gpu, *m);
  m->ranges = memory_ranges(s, m->figures);
}

void add_memory_json(const MemoryEstimate& m, nlohmann::json* memory) {
  (*memory)["figures"] = nlohmann::json({{"allocated_bytes", m.figures.allocated_bytes},
                                         {"reserved_bytes", m.figures.reserved_bytes},
                                         {"nvidia_smi_bytes", m.figures.nvidia_smi_bytes}});
  nlohmann::json ranges = nlohmann::json::object();
  for (const MemoryRange& r : m.ranges) {
    ranges[r.figure] = nlohmann::json({{"low_bytes", r.low_bytes},
                                       {"high_bytes", r.high_bytes},
                                       {"group", r.group},
                                       {"cases", r.cases},
                                       {"far_from_data", r.far_from_data}});
  }
  (*memory)["ranges"] = ranges;
  if (m.engine) {
    const EngineBudget& e = *m.engine;
    (*memory)["engine"] = nlohmann::json({{"engine", e.engine},
                                          {"fraction", e.fraction},
                                          {"budget_bytes", e.budget_bytes},
                                          {"weights_bytes", e.weights_bytes},
                                          {"non_torch_bytes", e.non_torch_bytes},
                                          {"activation_peak_bytes", e.activation_peak_bytes},
                                          {"cuda_graph_bytes", e.cuda_graph_bytes},
                                          {"kv_cache_bytes", e.kv_cache_bytes},
                                          {"kv_tokens", e.kv_tokens},
                                          {"max_concurrency", e.max_concurrency},
                                          {"max_model_len", e.max_model_len},
                                          {"max_num_seqs", e.max_num_seqs},
                                          {"max_num_batched_tokens", e.max_num_batched_tokens}});
  }
}

}  // namespace gpusizer
