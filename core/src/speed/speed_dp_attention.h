// Data-parallel attention for MLA models (engine_options.dp_attention, SGLang and vLLM): how a step's
// attention work, weights and latent cache divide over the ranks of one replica.
#pragma once

#include "scenario/scenario.h"

namespace gpusizer {

// How `requests` requests' attention divides over one pipeline stage's TP ranks.
struct AttentionSplit {
  double weights = 1;     // ranks the attention projections' weights are split over
  double work = 1;        // ranks the attention FLOPs (projections and scores) are spread over
  double sequences = 0;   // sequences whose KV cache one rank reads (a fraction under head splitting)
  double dense = 1;       // ranks the other non-expert weights (dense MLP, shared experts, head) split over
  double dense_work = 1;  // ranks those layers' FLOPs are spread over
};
AttentionSplit attention_split(const Scenario& s, double requests);

// Time the other requests' prompts hold a request's decode steps under DP attention: `others` prompts
// (as many as requests in flight, in steady state), each a one-prompt prefill of `prefill_s`.
double dp_attention_stall_s(double prefill_s, double others);

}  // namespace gpusizer
