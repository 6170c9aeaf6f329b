// Timings of the planner over the whole instance catalog and of the full lookup table: the page
// recomputes the table on every keystroke, so it must stay well under 20 ms in wasm.
#include <benchmark/benchmark.h>

#include "gpusizer/api.h"

namespace {

void run(benchmark::State& state, const char* command, const char* input) {
  for (auto _ : state) {
    const gpusizer::ApiResult r = gpusizer::run_command(command, input);
    if (!r.ok) state.SkipWithError(r.error_message.c_str());
    benchmark::DoNotOptimize(r.value);
  }
}

void BM_RankServing(benchmark::State& state) {
  run(state, "rank", R"({"model": "qwen2.5-72b", "batch": 8})");
}
void BM_RankTraining(benchmark::State& state) {
  run(state, "rank", R"({"model": "llama-3.1-70b", "task": "full", "training": {"tokens": 1e9}})");
}
void BM_Table(benchmark::State& state) { run(state, "table", "{}"); }

}  // namespace

BENCHMARK(BM_RankServing)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RankTraining)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Table)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
