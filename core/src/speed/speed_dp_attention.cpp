// SGLang --enable-dp-attention (v0.4 line, DeepSeek-V2/V3; docs/speed.md "DP attention"), read in
// sgl-project/sglang python/sglang/srt/models/deepseek_v2.py of that line (annotated copies; the stored
// SGLang snapshot is newer) and server_args.py (enable_dp_attention sets dp_size = tp_size;
// enable_mixed_chunk defaults to False):
// - DeepseekV2AttentionMLA(use_dp=True) builds q_a/q_b/kv_b/o as ReplicatedLinear with
//   num_local_heads = num_heads: every rank holds and reads the whole attention weights and runs all
//   heads for its own requests, whose MLA latents it keeps;
// - DeepseekV2DecoderLayer.forward all-gathers every rank's hidden states before the MoE, runs the
//   experts split over the TP ranks and keeps its own slice after: all ranks take each forward pass
//   together, so a prompt prefilled on one rank holds every rank's decode step for its length.
// vLLM's layout (--data-parallel-size tp --enable-expert-parallel, TP 1; docs/serving/
// data_parallel_deployment.md: forward passes aligned, dummy passes on idle ranks) is the same physics
// for the attention, latents and the step taken together; its dense layers are whole per rank too, and
// its V1 scheduler mixes prompt chunks into decode steps (speed.cpp tpot_s).
#include "speed/speed_dp_attention.h"

#include <algorithm>
#include <cmath>

namespace gpusizer {

AttentionSplit attention_split(const Scenario& s, double requests) {
  const double tp = static_cast<double>(s.tp);
  AttentionSplit a;
  if (dp_attention(s)) {
    // Requests spread over the ranks one by one: ceil-free mean, at least one request per busy rank.
    a.weights = 1;
    a.work = std::min(std::max(requests, 1.0), tp);
    a.sequences = requests / a.work;
    // SGLang keeps the rest split over TP; vLLM's TP 1 runs it whole on each rank for its own requests
    // (memory_inference.cpp weights_per_gpu).
    a.dense = vllm_dp_attention(s) ? 1 : tp;
    a.dense_work = vllm_dp_attention(s) ? a.work : tp;
    return a;
  }
  a.weights = tp;
  a.work = tp;
  a.dense = tp;
  a.dense_work = tp;
  // Heads split over TP (replicated when fewer than ranks); MLA's latent cache is whole on every
  // rank (memory_inference.cpp does the same).
  const double kv = static_cast<double>(s.model.kv_heads);
  a.sequences = requests * (s.model.mla.kv_lora_rank > 0 ? 1 : std::ceil(kv / tp) / kv);
  return a;
}

// Without mixed batches a rank that prefills runs no decode step in that pass, and the pass lasts
// as long as its prefill for every rank (the MoE gathers all ranks' tokens). Each other prompt holds
// the steps for one whole one-prompt prefill: an upper bound where prompts on different ranks arrive
// within one prefill of each other and share the pass.
double dp_attention_stall_s(double prefill_s, double others) { return std::max(others, 0.0) * prefill_s; }

}  // namespace gpusizer
