// Memory per GPU (busiest GPU) and on the host, with the spec's breakdown.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "scenario/scenario.h"

namespace gpusizer {

struct MemoryBreakdown {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
  double activations = 0;
  double kv_cache = 0;
  double runtime = 0;  // CUDA context, library workspaces, engine buffers, allocator slack
  // Speculative decoding (engine_options.speculative): the draft's weights (MTP modules, EAGLE head
  // or draft model) and its KV cache, beside the target's (memory_inference.cpp).
  double draft_weights = 0;
  double draft_kv_cache = 0;
  double total() const {
    return weights + gradients + optimizer + activations + kv_cache + runtime + draft_weights +
           draft_kv_cache;
  }
};

// The peak as three counters report it (docs/methodology.md, "Three memory figures").
struct MemoryFigures {
  double allocated_bytes = 0;   // torch.cuda.max_memory_allocated: live tensors at the peak
  double reserved_bytes = 0;    // torch.cuda.max_memory_reserved: + caching-allocator extra
  double nvidia_smi_bytes = 0;  // nvidia-smi "Used": + CUDA context, NCCL buffers, CUDA graphs
};

// What a serving engine's start-up log reports (vLLM gpu_memory_utilization, SGLang
// mem_fraction_static): the memory it budgets and the KV cache left (engine_accounting.cpp).
// vLLM's default --gpu-memory-utilization (vllm/config/cache.py, gpu_memory_utilization = 0.9).
constexpr double kVllmDefaultUtilization = 0.9;

struct EngineBudget {
  std::string engine;                // "vllm" or "sglang"
  double fraction = 0;               // gpu_memory_utilization or mem_fraction_static
  double budget_bytes = 0;           // fraction x the card's total memory
  double weights_bytes = 0;          // "Model loading took"
  double non_torch_bytes = 0;        // memory outside PyTorch after the profile run (vLLM)
  double activation_peak_bytes = 0;  // torch peak of the profile run above the weights (vLLM)
  double cuda_graph_bytes = 0;       // captured after the KV cache is allocated
  double kv_cache_bytes = 0;         // "Available KV cache memory" (SGLang: K + V size)
  double kv_tokens = 0;              // "GPU KV cache size: N tokens"
  double max_concurrency = 0;        // requests of max_model_len the KV cache holds
  int64_t max_model_len = 0;
  int64_t max_num_seqs = 0;
  int64_t max_num_batched_tokens = 0;
};

// Where measured runs like this one fell around a figure: the 10th-90th percentile of the
// held-out relative errors of its group (core/data/ranges.json, written by scripts/validate.mjs).
struct MemoryRange {
  std::string figure;  // "allocated", "reserved" or "nvidia_smi"
  std::string group;   // "inference.nvidia_smi", ...
  double low_bytes = 0, high_bytes = 0;
  int64_t cases = 0;
  bool far_from_data = false;  // model size outside the measured cases' span (x/2 .. x2)
};

struct MemoryEstimate {
  MemoryBreakdown breakdown;      // per GPU, busiest GPU
  double per_gpu_bytes = 0;       // == breakdown.total()
  double host_bytes = 0;          // CPU RAM for offload and pinned buffers
  double kv_bytes_per_token = 0;  // whole model, one sequence, all layers and heads
  double trainable_params = 0;
  MemoryFigures figures;               // memory_runtime.cpp
  std::optional<EngineBudget> engine;  // vLLM / SGLang with a GPU chosen
  std::vector<MemoryRange> ranges;     // memory_ranges.cpp, one per figure with data
  std::vector<Warning> warnings;
};

// Dispatches on the task. `gpu` may be null (no card chosen): generic runtime figures are used.
MemoryEstimate estimate_memory(const Scenario& s, const Gpu* gpu);

MemoryEstimate inference_memory(const Scenario& s, const Gpu* gpu);
MemoryEstimate training_memory(const Scenario& s, const Gpu* gpu);

// Pieces shared by both.
int64_t layers_on_busiest_stage(const Scenario& s);
// Share of the model's layers on the busiest pipeline stage and TP rank: per-layer bytes x this.
double stage_layer_share(const Scenario& s);
// Weights held by the busiest GPU: its stage's layers and the embedding or LM head, split by TP.
double weights_per_gpu(const Scenario& s, WeightFormat format);
// The same at expert-parallel degree `ep` instead of the scenario's.
double weights_per_gpu(const Scenario& s, WeightFormat format, int64_t ep);
// Serving fp8 weights quantized on load from a 16-bit checkpoint (vLLM, SGLang online fp8).
bool online_fp8(const Scenario& s);
// The memory per GPU while such a checkpoint loads, before it is quantized (0 when none is).
double load_peak_bytes(const Scenario& s, const Gpu* gpu);
// CUDA context + BLAS workspace of the card (or the generic default) + engine buffers.
double runtime_bytes(const Scenario& s, const Gpu* gpu);

// The CUDA context of one process on `gpu` (a default Ampere-class figure without a card):
// memory_inference.cpp holds the figure and its source.
double cuda_context_bytes(const Gpu* gpu);
// NCCL buffers of one communicator (memory_training.cpp holds the figure and its source).
double nccl_bytes_per_communicator();
// Elements per token alive at the peak of one block's forward pass without autograd.
double live_elements_per_token(const Architecture& a);

// memory_runtime.cpp: fills `figures` (and `engine` for vLLM/SGLang) once the breakdown is set.
void finish_memory(const Scenario& s, const Gpu* gpu, MemoryEstimate* m);
// The three figures of a finished estimate.
MemoryFigures memory_figures(const Scenario& s, const Gpu* gpu, const MemoryEstimate& m);
// memory_ranges.cpp: the calibrated intervals around each figure (empty where no data).
std::vector<MemoryRange> memory_ranges(const Scenario& s, const MemoryFigures& f);
// Adds "figures" and, when present, "engine" to the estimate's "memory" JSON object.
void add_memory_json(const MemoryEstimate& m, nlohmann::json* memory);
// engine_accounting.cpp: vLLM's / SGLang's start-up budget; nullopt for other engines or no GPU.
std::optional<EngineBudget> engine_budget(const Scenario& s, const Gpu* gpu, const MemoryEstimate& m);
// The same for the server gpusizer's launch starts: --max-num-seqs engine_core_sequences(s) and
// `fraction` as --gpu-memory-utilization / --mem-fraction-static (nullopt: the stated one, else the
// engine's default). The launch's KV note, its utilization and the load planner's batch ask it.
std::optional<EngineBudget> launched_engine_budget(const Scenario& s, const Gpu* gpu, const MemoryEstimate& m,
                                                   std::optional<double> fraction);
// Requests of seq_len that budget holds over one server's DP-attention ranks (the scenario's batch
// counts them all), or on its one engine core.
int64_t server_sequences(const Scenario& s, const EngineBudget& e);
// Bytes the vLLM profile run's sampler holds per request and vocabulary entry at its peak, by
// engine_options.sampler ("flashinfer", "pytorch-native", "v0"); engine_accounting.cpp.
double vllm_sampler_bytes_per_entry(const std::string& sampler);

}  // namespace gpusizer
