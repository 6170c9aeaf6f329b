// Throughput and time: a roofline per phase (prefill, decode, training) on one GPU type, with
// achieved efficiencies per engine and GPU class (sources in speed.cpp and docs/speed.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "scenario/scenario.h"

namespace gpusizer {

// One point of the serving curve: a burst of `batch` requests of the scenario's prompt and output
// lengths on one replica (continuous batching, chunked prefill).
struct ServingPoint {
  double batch = 0;
  double ttft_s = 0;  // mean time to first token of the burst: FCFS prefill, (B + 1) / 2 prompts
  // Time to first token of one request joining a replica that runs `batch` sequences: its prompt
  // in one step beside the others' decode (chunked prefill), as at a steady load.
  double ttft_joining_s = 0;
  double tpot_s = 0;               // mean time per output token, the other prompts' chunks included
  double output_tokens_per_s = 0;  // whole deployment (all replicas): output tokens / wall time
};

// Aggregates over the whole deployment: all data-parallel replicas, the whole batch.
struct Throughput {
  double prefill_tokens_per_s = 0;     // prompt tokens per second
  double decode_tokens_per_s = 0;      // output tokens per second in steady decoding
  double train_tokens_per_s = 0;       // training tokens per second
  double generation_tokens_per_s = 0;  // output tokens / (prefill + decode) of one batch of requests
  double time_to_first_token_s = 0;    // prefill of one batch of requests
  double time_per_output_token_s =
      0;  // one request's mean time per output token, the batch's prefill chunks included
  double flops_utilization = 0;      // training: share of peak FLOP/s reached over the step (executed FLOPs)
  double bandwidth_utilization = 0;  // serving: share of peak memory bandwidth the estimate assumes
  std::vector<ServingPoint> curve;   // serving, estimate only: serving_curve()
  // Speculative decoding (engine_options.speculative), serving: the decode rates and the time per
  // output token above already count it; these say by how much (speed_speculative.cpp).
  struct Speculative {
    std::string method;
    int64_t draft_tokens = 0;
    double acceptance_rate = 0;
    bool acceptance_stated = false;  // false: the method's cited default
    double tokens_per_step = 0;      // (1 - a^(k+1)) / (1 - a)
    double verify_step_s = 0;        // the target's pass over batch x (k + 1) positions
    double draft_s = 0;              // the k draft passes
    double plain_step_s = 0;         // the decode step without speculation, for comparison
  };
  std::optional<Speculative> speculative;
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

// Streaming multiprocessors of a catalog card (0 when not on record) and the factor on an engine's
// decode bandwidth share for that card: SMs per TB/s against the card the share was fitted on
// (card_shares.cpp, docs/speed.md "Per-card shares").
int sm_count(const Gpu& gpu);
double card_bandwidth_factor(const Gpu& gpu, Engine engine);
// Largest share of the spec tensor FLOP/s a card sustains while serving (1: no cap on record).
double card_compute_cap(const Gpu& gpu);
// FLOP/s of a CUDA-core kernel that converts one int32 to float32 per multiply-add (AutoAWQ's GEMV):
// 16 conversions per clock per SM (CUDA C++ Programming Guide); 0 for cards without the figure.
double int_to_float_flops(const Gpu& gpu);
// FP16-accumulate tensor rate over the catalog's (FP32-accumulate) half-precision peak: 2 on GeForce.
double fp16_accumulate_factor(const Gpu& gpu);

// Peak dense FLOP/s of the math a weight format runs in: fp8/int8 on their tensor cores where
// the card has them, weight-only formats dequantise to 16-bit math.
double peak_flops(const Gpu& gpu, WeightFormat f);

// Per-model figures the rooflines need, in the scenario's weight and KV formats; independent of
// the card and the parallel layout, so callers that sweep layouts compute them once.
struct ModelCosts {
  double dense_bytes = 0;    // weights read every decode step except routed experts, LM head included
  double expert_bytes = 0;   // all routed experts
  double matmul_flops = 0;   // per token: 2 x active matmul weights, LM head included
  double head_flops = 0;     // per token: the LM head's share of matmul_flops
  double gate_up_flops = 0;  // per token: the dense MLP's gate and up projections' share of matmul_flops
  double expert_flops = 0;   // per token: the routed experts' share of matmul_flops
  double attn_bytes = 0;     // attention projections' weights (part of dense_bytes)
  double attn_flops = 0;     // per token: the attention projections' share of matmul_flops
  double attn_width = 0;     // per layer: heads x the width q.k and p.v run over
  double prefill_attn_width =
      0;  // the same for a prompt without a cached prefix (MLA: the non-absorbed heads)
  double kv_bytes_per_token = 0;  // whole model, one sequence
  double params = 0;              // all parameters
  double trainable_params = 0;    // what the optimizer updates: all, or the LoRA adapters
  double routed_params = 0;       // the routed experts' weights (expert parallelism splits them)
  double moe_layers = 0;          // layers with routed experts
  double linear_params = 0;       // the blocks' linear weights (what a 4-bit base stores quantized)
  double linear_bytes = 0;        // bytes per linear weight in the scenario's format, scales included
};
ModelCosts model_costs(const Scenario& s);

// FLOPs executed per training token: model FLOPs plus the recomputation of the checkpointing.
double training_flops_per_token(const Scenario& s);
double training_flops_per_token(const Scenario& s, const ModelCosts& c);

// The links a deployment's traffic crosses (docs/speed.md "Network"): inside a node (tensor
// parallelism, and data parallelism within the node) and between nodes (pipeline stages and
// data-parallel ranks on other nodes).
struct Links {
  double intra_bytes_per_s = 0;  // per GPU to its peers in the node, bidirectional total
  double inter_bytes_per_s = 0;  // per node to other nodes, both directions together (Gbit/s x 2 / 8)
  int64_t gpus_per_node = 8;
  bool rdma = true;  // false: TCP, with its higher per-message latency
};
// A node of 8 with the card's own links (NVLink where it has it, else PCIe) and a DGX-class
// network, for estimates without a cloud instance.
Links default_links(const Gpu& gpu);
// The links of `gpus_per_instance` GPUs of an instance whose GPUs talk over `gpu_link_bytes_per_s`
// (0: one GPU, so PCIe is what the card would use) and whose network is `network_gbps`.
Links instance_links(const Gpu& gpu, int64_t gpus_per_instance, double gpu_link_bytes_per_s,
                     double network_gbps, bool rdma);

// Needs a GPU; throughputs for the scenario's task (serving or training), the rest zero.
Throughput estimate_throughput(const Scenario& s, const Gpu& gpu);
Throughput estimate_throughput(const Scenario& s, const Gpu& gpu, const ModelCosts& c);
Throughput estimate_throughput(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const Links& links);

// One decode step (seconds) of one replica at `batch` sequences of mean context `context`, and the
// prefill (seconds) of `batch` prompts of `prompt` tokens: the parts of serving_point.
double decode_step_seconds(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const Links& links,
                           double batch, double context);
// The same step with `query_tokens` positions of each sequence in one pass (a speculative verify):
// weights read once, matmul rows and attention work x query_tokens, each KV cache read once.
double decode_step_seconds(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const Links& links,
                           double batch, double context, double query_tokens);
double prefill_seconds(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const Links& links,
                       double batch, double prompt);

// One replica at `batch` sequences of the scenario's prompt and output lengths on `links`: the
// curve's point, and what the serving-at-load search reads (one formula for both).
ServingPoint serving_point(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const Links& links,
                           double batch);

// Serving at concurrency: bursts of 1, 2, 4, ... 256 requests and the scenario's batch, up to
// `max_batch` (what the KV cache holds), on the card's default links; empty for training.
std::vector<ServingPoint> serving_curve(const Scenario& s, const Gpu& gpu, double max_batch);

// From training.tokens; nullopt for serving or without tokens.
std::optional<JobTime> job_time(const Scenario& s, const Throughput& t);

// The task's keys only (serving: prefill, decode, generation; training: train); zeros omitted.
nlohmann::json to_json(const Throughput& t);

}  // namespace gpusizer
