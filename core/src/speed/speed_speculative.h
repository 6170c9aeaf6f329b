// Speculative decoding's step (engine_options.speculative; docs/speed.md "Speculative decoding"):
// k draft passes, then one target pass that verifies the k drafts and scores the next token.
#pragma once

#include <cstdint>

#include "speed/speed.h"

namespace gpusizer {

// Expected tokens a sequence gains per target step with k drafts, each accepted with probability
// a independently: (1 - a^(k+1)) / (1 - a) (Leviathan, Kalman and Matias 2023, "Fast Inference
// from Transformers via Speculative Decoding", ICML, eq. 1). 1 <= result <= k + 1.
double expected_tokens_per_step(double acceptance_rate, int64_t draft_tokens);

struct SpeculativeStep {
  double verify_s = 0;         // the target's pass over batch x (k + 1) positions
  double draft_s = 0;          // the k draft passes (MTP / EAGLE: one layer each; a draft model's step)
  double tokens_per_step = 1;  // expected_tokens_per_step
  double step_s() const { return verify_s + draft_s; }
  double per_token_s() const { return step_s() / tokens_per_step; }  // what a decode step costs a token
};

// One speculative step of one replica at `batch` sequences of mean context `context`.
SpeculativeStep speculative_step(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const Links& links,
                                 double batch, double context);

}  // namespace gpusizer
