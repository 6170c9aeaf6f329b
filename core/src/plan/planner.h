// Plans: for every cloud instance type, the cheapest configuration of a scenario that fits
// (instances, tp, pp, ZeRO stage), its price, speed and cost; and the ranking of them all.
// docs/planner.md describes the search space and the ranking rules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "scenario/scenario.h"
#include "speed/speed.h"

namespace gpusizer {

// The links a plan relies on (docs/planner.md "Network").
struct PlanLinks {
  std::string inside = "none";    // the instance's gpu_link, when the plan uses more than one of its GPUs
  double inside_bytes_per_s = 0;  // per GPU, bidirectional
  bool spans_instances =
      false;            // one replica (serving) or the data-parallel group (training) crosses instances
  std::string between;  // what carries that traffic: "infiniband", "efa", "erdma", ..., or "tcp"
  double between_gbps = 0;
};

// Serving at a stated load (scenario `load`): replicas of the plan's layout, each at the largest
// concurrency that keeps the latency targets (docs/planner.md "Serving at a load").
struct PlanLoad {
  int64_t replicas = 0;
  int64_t concurrency_per_replica = 0;  // sequences each replica decodes together
  double requests_per_s_capacity = 0;   // per replica, at that concurrency
  double ttft_s = 0;                    // time to first token of a request joining a full replica
  double tpot_s = 0;                    // time per output token at that concurrency
  int64_t instances = 0;
  double price_per_hour = 0;           // all instances of all replicas
  double cost_per_million_tokens = 0;  // output tokens, at the stated request rate
};

struct Plan {
  const Instance* instance = nullptr;  // into instance_catalog() or the scenario's pricing.custom_instances
  int64_t instances = 0;
  int64_t gpus = 0;  // GPUs the configuration uses (tp x pp x data-parallel replicas)
  int64_t tp = 1;
  int64_t pp = 1;
  int64_t ep = 1;  // expert-parallel degree (Megatron-LM training of MoE models), out of the replicas
  bool dp_attention = false;  // DP attention, SGLang's or vLLM's (the scenario's, or the planner's pick)
  int zero = 0;
  int64_t replicas = 1;      // data-parallel replicas: gpus / (tp x pp)
  double per_gpu_bytes = 0;  // the need, on the busiest GPU
  double usable_bytes = 0;   // the card's memory less the headroom: fits = need <= usable
  bool fits = false;
  double price_per_instance_hour = 0;  // one instance, in `currency`
  double price_per_hour = 0;           // all instances of the plan, in `currency`
  std::string currency;
  PlanLinks links;
  std::optional<Throughput> throughput;
  std::optional<double> hours;                    // training with training.tokens
  std::optional<double> cost;                     // price x hours
  std::optional<double> cost_per_million_tokens;  // serving: per million output tokens
  std::optional<PlanLoad> load;                   // serving with a `load`
  std::vector<Warning> warnings;                  // slow_network, no_rdma, price_stale, latency_target_unmet
  std::string reason;                             // why it does not fit
  std::string reason_code;                        // its stable id (docs/errors.md, "Reasons")
  nlohmann::json reason_values = nlohmann::json::object();  // the figures and names it embeds
};

// What it takes on one GPU type: the fewest GPUs (and their layout) that fit, on nodes of 8 with the
// card's own links (docs/planner.md "What it takes").
struct GpuTakes {
  const Gpu* gpu = nullptr;
  bool fits = false;
  int64_t gpus = 0;
  int64_t tp = 1;
  int64_t pp = 1;
  int64_t ep = 1;
  bool dp_attention =
      false;  // DP attention, SGLang or vLLM (serving MLA models: docs/planner.md "DP attention")
  int zero = 0;
  double per_gpu_bytes = 0;  // of that layout (or of the closest one when none fits)
  double usable_bytes = 0;
  std::string reason;       // why none fits (format unsupported, beyond max_gpus)
  std::string reason_code;  // its stable id (docs/errors.md, "Reasons")
  nlohmann::json reason_values = nlohmann::json::object();
};

// Instances the filters admit (providers, gpus, the scenario's gpu, billing): the
// catalog's, then the scenario's custom ones (provider id "custom").
std::vector<const Instance*> candidate_instances(const Scenario& s);

// Price per hour of one instance in the scenario's currency (overrides and cny_per_usd applied).
double instance_price(const Instance& instance, const Scenario& s);

// One plan per candidate instance type; fitting plans first, cheapest first (see planner.md).
// Plans of custom instances point into s.pricing.custom_instances: keep `s` alive while using them
// (no rank_plans(parse_scenario(...)) whose plans outlive the statement).
// Throws InputError when the scenario's memory model does (e.g. an unavailable task).
std::vector<Plan> rank_plans(const Scenario& s);

// When none of `plans` (rank_plans(s)) fits: the first one-setting change of the scenario
// (activation checkpointing for training; an fp8 KV cache, then batch 1, for serving) whose
// ranking has a fitting plan, as the warning no_plan_fits naming that plan; none otherwise.
std::optional<Warning> no_plan_fits_warning(const Scenario& s, const std::vector<Plan>& plans);

// The first plan of rank_plans(s) without building and sorting the others' (the table's cells);
// nullopt when no instance passes the filters.
std::optional<Plan> best_plan(const Scenario& s);

// Engine megatron training on a stated gpu and gpus with tp, training.zero or (MoE) ep unstated:
// `s` laid out as the ranking would lay out that count of that card (on nodes of 8 with its links),
// the stated degrees kept, with the warning megatron_layout_planned naming the layout; `s` itself
// otherwise. `estimate` and `launch` (without a plan) size and launch this scenario.
Scenario with_planned_layout(const Scenario& s);

// One entry per catalog GPU type, in catalog order; the scenario's tp, pp and training.zero are kept.
std::vector<GpuTakes> what_it_takes(const Scenario& s);

nlohmann::json to_json(const Plan& p);
nlohmann::json to_json(const GpuTakes& t);
nlohmann::json rank_json(const Scenario& s);  // {"plans": [...], "warnings", "warning_details"}

}  // namespace gpusizer
