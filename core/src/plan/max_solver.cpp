#include "plan/max_solver.h"

#include "memory/memory.h"

namespace gpusizer {
namespace {

// Search bounds: the scenario parser's upper limits for batch and seq_len (scenario.cpp).
constexpr int64_t kMaxBatch = 1'000'000;
constexpr int64_t kMaxSeqLen = 100'000'000;

// Largest n in [1, hi] with fits(n), or 0 when fits(1) is false; fits must be monotone.
template <typename Fits>
int64_t largest_fitting(int64_t hi, const Fits& fits) {
  if (!fits(1)) return 0;
  int64_t lo = 1;  // fits(lo) holds
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// Sets the scenario's seq_len; inference keeps the prompt/output proportion of `prompt_share`.
void set_seq_len(Scenario& t, double prompt_share, int64_t seq_len) {
  t.seq_len = seq_len;
  t.prompt_tokens = static_cast<int64_t>(prompt_share * static_cast<double>(seq_len) + 0.5);
  t.output_tokens = seq_len - t.prompt_tokens;
}

}  // namespace

double usable_bytes(const Scenario& s, const Gpu& gpu) { return (1 - s.headroom) * gpu.memory_bytes; }

bool fits_on(const Scenario& s, const Gpu& gpu, double per_gpu_bytes) {
  return std::max(per_gpu_bytes, load_peak_bytes(s, &gpu)) <= usable_bytes(s, gpu);
}

MaxFit max_fit(const Scenario& s, const Gpu& gpu) {
  // One working copy, changed in place per probe: a Scenario carries the model as given
  // (model_input), and an imported config.json of megabytes copied ~70 times took seconds.
  Scenario t = s;
  auto fits = [&] { return fits_on(t, gpu, estimate_memory(t, &gpu).per_gpu_bytes); };
  MaxFit out;
  out.batch = largest_fitting(kMaxBatch, [&](int64_t b) {
    t.batch = b;
    return fits();
  });
  t.batch = s.batch;
  const double prompt_share = static_cast<double>(s.prompt_tokens) / static_cast<double>(s.seq_len);
  out.seq_len = largest_fitting(kMaxSeqLen, [&](int64_t n) {
    set_seq_len(t, prompt_share, n);
    return fits();
  });
  return out;
}

}  // namespace gpusizer
