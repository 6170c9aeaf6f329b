// Speculative decoding's step time from the decode roofline (speed.cpp decode_step_seconds): the
// draft proposes k tokens in k passes and the target verifies them in one pass that reads its
// weights once; the accepted prefix and the target's own next token are kept.
#include "speed/speed_speculative.h"

#include <cmath>

#include "scenario/speculative.h"

namespace gpusizer {

double expected_tokens_per_step(double acceptance_rate, int64_t draft_tokens) {
  const double a = acceptance_rate;
  const double k = static_cast<double>(draft_tokens);
  if (a <= 0) return 1;
  if (a >= 1) return k + 1;  // the limit; the scenario parser keeps a below 1
  return (1 - std::pow(a, k + 1)) / (1 - a);
}

SpeculativeStep speculative_step(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const Links& links,
                                 double batch, double context) {
  const Speculative& sp = *s.engine_options.speculative;
  const double k = static_cast<double>(sp.draft_tokens);
  SpeculativeStep out;
  out.tokens_per_step = expected_tokens_per_step(sp.acceptance_rate, sp.draft_tokens);
  out.verify_s = decode_step_seconds(s, gpu, c, links, batch, context, k + 1);
  // Each draft pass is a decode step of the draft alone: the one-layer MTP module or EAGLE head, its
  // linears beside the layer and the LM head it computes logits with (the target's, or EAGLE-3's
  // draft-vocabulary head), or the draft model. The engine's fixed host time per step (scheduler,
  // sampler, output processing) is paid once, in the verify pass: vLLM's proposers
  // (v1/spec_decode/eagle.py propose) run the k draft forwards inside the target's step, SGLang
  // replays its draft steps as one CUDA graph (EAGLEDraftCudaGraphRunner).
  const Draft d = draft_scenario(s);
  ModelCosts dc = model_costs(d.scenario);
  dc.dense_bytes += d.extra_params * dc.linear_bytes;
  dc.matmul_flops += 2 * d.extra_params;
  const double host_s = engine_efficiency(d.scenario, gpu).step_overhead_s;
  out.draft_s = k * (decode_step_seconds(d.scenario, gpu, dc, links, batch, context) - host_s);
  return out;
}

}  // namespace gpusizer
