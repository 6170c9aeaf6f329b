// Memory per GPU (busiest GPU) and on the host, with the spec's breakdown.
#pragma once

#include <vector>

#include "gpusizer/catalog.h"
#include "gpusizer/scenario.h"

namespace gpusizer {

struct MemoryBreakdown {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
  double activations = 0;
  double kv_cache = 0;
  double runtime = 0;  // CUDA context, library workspaces, engine buffers, allocator slack
  double total() const { return weights + gradients + optimizer + activations + kv_cache + runtime; }
};

struct MemoryEstimate {
  MemoryBreakdown breakdown;  // per GPU, busiest GPU
  double per_gpu_bytes = 0;   // == breakdown.total()
  double host_bytes = 0;      // CPU RAM for offload and pinned buffers
  double kv_bytes_per_token = 0;  // whole model, one sequence, all layers and heads
  double trainable_params = 0;
  std::vector<Warning> warnings;
};

// Dispatches on the task. `gpu` may be null (no card chosen): generic runtime figures are used.
MemoryEstimate estimate_memory(const Scenario& s, const Gpu* gpu);

MemoryEstimate inference_memory(const Scenario& s, const Gpu* gpu);
MemoryEstimate training_memory(const Scenario& s, const Gpu* gpu);

// Pieces shared by both.
int64_t layers_on_busiest_stage(const Scenario& s);
// Weights held by the busiest GPU: its stage's layers and the embedding or LM head, split by TP.
double weights_per_gpu(const Scenario& s, WeightFormat format);
// CUDA context + BLAS workspace of the card (or the generic default) + engine buffers.
double runtime_bytes(const Scenario& s, const Gpu* gpu);

}  // namespace gpusizer
