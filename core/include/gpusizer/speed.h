// Throughput and time: a roofline per phase (prefill, decode, training) on one GPU type, with
// achieved efficiencies per engine and GPU class (sources in speed.cpp and docs/speed.md).
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "gpusizer/catalog.h"
#include "gpusizer/scenario.h"

namespace gpusizer {

// Aggregates over the whole deployment: all data-parallel replicas, the whole batch.
struct Throughput {
  double prefill_tokens_per_s = 0;     // prompt tokens per second
  double decode_tokens_per_s = 0;      // output tokens per second in steady decoding
  double train_tokens_per_s = 0;       // training tokens per second
  double generation_tokens_per_s = 0;  // output tokens / (prefill + decode) of one batch of requests
  double time_to_first_token_s = 0;    // prefill of one batch of requests
  double flops_utilization = 0;        // training: share of peak FLOP/s the estimate assumes
  double bandwidth_utilization = 0;    // serving: share of peak memory bandwidth the estimate assumes
};

struct JobTime {
  double wall_hours = 0;
  double gpu_hours = 0;
};

// What an engine achieves on a GPU class; efficiency.mfu / efficiency.bandwidth override.
struct EngineEfficiency {
  double compute = 0;           // share of peak tensor FLOP/s (prefill; training: on executed FLOPs)
  double bandwidth = 0;         // share of peak memory bandwidth while decoding
  double step_overhead_s = 0;   // host time per decode step not hidden behind the GPU
  double layer_overhead_s = 0;  // host launch time per layer per step (eager engines)
};

EngineEfficiency engine_efficiency(const Scenario& s, const Gpu& gpu);

// Peak dense FLOP/s of the math a weight format runs in: fp8/int8 on their tensor cores where
// the card has them, weight-only formats dequantise to 16-bit math.
double peak_flops(const Gpu& gpu, WeightFormat f);

// Per-model figures the rooflines need, in the scenario's weight and KV formats; independent of
// the card and the parallel layout, so callers that sweep layouts compute them once.
struct ModelCosts {
  double dense_bytes = 0;         // weights read every decode step except routed experts, LM head included
  double expert_bytes = 0;        // all routed experts
  double matmul_flops = 0;        // per token: 2 x active matmul weights, LM head included
  double head_flops = 0;          // per token: the LM head's share of matmul_flops
  double attn_width = 0;          // per layer: heads x the width q.k and p.v run over
  double kv_bytes_per_token = 0;  // whole model, one sequence
};
ModelCosts model_costs(const Scenario& s);

// FLOPs executed per training token: model FLOPs plus the recomputation of the checkpointing.
double training_flops_per_token(const Scenario& s);
double training_flops_per_token(const Scenario& s, const ModelCosts& c);

// Needs a GPU; throughputs for the scenario's task (serving or training), the rest zero.
Throughput estimate_throughput(const Scenario& s, const Gpu& gpu);
Throughput estimate_throughput(const Scenario& s, const Gpu& gpu, const ModelCosts& c);

// From training.tokens; nullopt for serving or without tokens.
std::optional<JobTime> job_time(const Scenario& s, const Throughput& t);

// The task's keys only (serving: prefill, decode, generation; training: train); zeros omitted.
nlohmann::json to_json(const Throughput& t);

}  // namespace gpusizer
