// The largest workload that fits a GPU: batch and sequence length, each with the other fixed.
#pragma once

#include <cstdint>

#include "catalog/catalog.h"
#include "scenario/scenario.h"

namespace gpusizer {

struct MaxFit {
  int64_t batch = 0;    // largest batch at the scenario's seq_len; 0 if even 1 does not fit
  int64_t seq_len = 0;  // longest seq_len at the scenario's batch; 0 if even 1 token does not fit
};

// The one meaning of "fits" (estimate, max solver, planner, table, page): the need on the busiest
// GPU within the card's memory less the scenario's headroom.
double usable_bytes(const Scenario& s, const Gpu& gpu);
bool fits_on(const Scenario& s, const Gpu& gpu, double per_gpu_bytes);

// Binary search over integers on estimate_memory (fits_on). Memory is
// monotone in batch and seq_len (tests/core/max_solver_test.cpp checks it), so the search is exact.
MaxFit max_fit(const Scenario& s, const Gpu& gpu);

}  // namespace gpusizer
