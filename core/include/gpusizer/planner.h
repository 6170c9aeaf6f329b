// Plans: for every cloud instance type, the cheapest configuration of a scenario that fits
// (instances, tp, pp, ZeRO stage), its price, speed and cost; and the ranking of them all.
// docs/planner.md describes the search space and the ranking rules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/catalog.h"
#include "gpusizer/scenario.h"
#include "gpusizer/speed.h"

namespace gpusizer {

struct Plan {
  const Instance* instance = nullptr;  // into instance_catalog() or the scenario's pricing.custom_instances
  int64_t instances = 0;
  int64_t gpus = 0;  // GPUs the configuration uses (tp x pp x data-parallel replicas)
  int64_t tp = 1;
  int64_t pp = 1;
  int zero = 0;
  double per_gpu_bytes = 0;
  bool fits = false;
  double price_per_hour = 0;  // all instances, in `currency`
  std::string currency;
  std::optional<Throughput> throughput;
  std::optional<double> hours;                    // training with training.tokens
  std::optional<double> cost;                     // price x hours
  std::optional<double> cost_per_million_tokens;  // serving: per million output tokens
  std::string reason;                             // why it does not fit
};

// Instances the filters admit (providers, gpus, the scenario's gpu, on-demand billing): the
// catalog's, then the scenario's custom ones (provider id "custom").
std::vector<const Instance*> candidate_instances(const Scenario& s);

// Price per hour of one instance in the scenario's currency (overrides and cny_per_usd applied).
double instance_price(const Instance& instance, const Scenario& s);

// One plan per candidate instance type; fitting plans first, cheapest first (see planner.md).
// Plans of custom instances point into s.pricing.custom_instances: keep `s` alive while using them
// (no rank_plans(parse_scenario(...)) whose plans outlive the statement).
// Throws InputError when the scenario's memory model does (e.g. an unavailable task).
std::vector<Plan> rank_plans(const Scenario& s);

nlohmann::json to_json(const Plan& p);
nlohmann::json rank_json(const Scenario& s);  // {"plans": [...]}

}  // namespace gpusizer
