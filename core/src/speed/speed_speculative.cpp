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
  // Each draft pass is a decode step of the draft alone (the one-layer MTP module or EAGLE head with
  // the LM head it reads, or the draft model), with its engine's host time per step: vLLM and
  // SGLang launch each draft forward as its own CUDA-graph replay.
  const Draft d = draft_scenario(s);
  const ModelCosts dc = model_costs(d.scenario);
  out.draft_s = k * decode_step_seconds(d.scenario, gpu, dc, links, batch, context);
  return out;
}

}  // namespace gpusizer
