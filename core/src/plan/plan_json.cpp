// The ranking's and "what it takes" answers as JSON (planner.h).
#include <vector>

#include "plan/estimate.h"
#include "plan/planner.h"
#include "scenario/engines.h"

namespace gpusizer {

// Plans are most of the ranking's answer (~145 of them): written straight into the object map, in
// key order, with no initializer lists (each pair of those is a temporary array: twice the time).
nlohmann::json to_json(const Plan& p) {
  using json = nlohmann::json;
  const Instance& i = *p.instance;
  json j = json::object();
  json::object_t& o = j.get_ref<json::object_t&>();
  auto put = [](json::object_t& to, const char* key, json value) {
    to.emplace_hint(to.end(), key, std::move(value));
  };
  put(o, "billing", i.billing);
  if (!i.billing_term.empty()) put(o, "billing_term", i.billing_term);
  if (p.cost) put(o, "cost", *p.cost);
  if (p.cost_per_million_tokens) put(o, "cost_per_million_tokens", *p.cost_per_million_tokens);
  put(o, "currency", p.currency);
  put(o, "fits", p.fits);
  put(o, "gpu", i.gpu_id);
  put(o, "gpus", p.gpus);
  put(o, "gpus_per_instance", i.gpus);
  if (p.hours) put(o, "hours", *p.hours);
  put(o, "instance", i.instance);
  put(o, "instances", p.instances);
  json links = json::object();
  json::object_t& l = links.get_ref<json::object_t&>();
  if (p.links.spans_instances) put(l, "between", p.links.between);
  if (p.links.spans_instances) put(l, "between_gbps", p.links.between_gbps);
  put(l, "inside", p.links.inside);
  put(l, "inside_bytes_per_s", p.links.inside_bytes_per_s);
  put(l, "spans_instances", p.links.spans_instances);
  put(o, "links", std::move(links));
  if (i.marketplace) put(o, "marketplace", true);
  if (p.load) {
    const PlanLoad& x = *p.load;
    json load = json::object();
    json::object_t& d = load.get_ref<json::object_t&>();
    put(d, "concurrency_per_replica", x.concurrency_per_replica);
    put(d, "cost_per_million_tokens", x.cost_per_million_tokens);
    put(d, "instances", x.instances);
    put(d, "price_per_hour", x.price_per_hour);
    put(d, "replicas", x.replicas);
    put(d, "requests_per_s_capacity", x.requests_per_s_capacity);
    put(d, "tpot_s", x.tpot_s);
    put(d, "ttft_s", x.ttft_s);
    put(o, "load", std::move(load));
  }
  put(o, "per_gpu_bytes", p.per_gpu_bytes);
  put(o, "pp", p.pp);
  if (p.ep > 1) put(o, "ep", p.ep);
  if (p.dp_attention) put(o, "dp_attention", true);
  put(o, "price_date", i.price_date);
  put(o, "price_per_hour", p.price_per_hour);
  put(o, "price_per_instance_hour", p.price_per_instance_hour);
  put(o, "price_source", i.source);
  put(o, "provider", i.provider);
  put(o, "provider_id", i.provider_id);
  if (!p.reason.empty()) put(o, "reason", p.reason);
  if (!p.reason_code.empty()) put(o, "reason_code", p.reason_code);
  if (!p.reason_values.empty()) put(o, "reason_values", p.reason_values);
  put(o, "region", i.region);
  put(o, "replicas", p.replicas);
  if (p.throughput) put(o, "throughput", to_json(*p.throughput));
  put(o, "tp", p.tp);
  put(o, "usable_bytes", p.usable_bytes);
  if (!p.warnings.empty()) {
    json w = json::array();
    for (const Warning& x : p.warnings) w.push_back(to_json(x));
    put(o, "warning_details", std::move(w));
  }
  put(o, "zero", p.zero);
  return j;
}

nlohmann::json to_json(const GpuTakes& t) {
  nlohmann::json j = nlohmann::json({{"gpu", t.gpu->id},
                                     {"fits", t.fits},
                                     {"gpus", t.gpus},
                                     {"tp", t.tp},
                                     {"pp", t.pp},
                                     {"zero", t.zero},
                                     {"per_gpu_bytes", t.per_gpu_bytes},
                                     {"usable_bytes", t.usable_bytes}});
  if (t.ep > 1) j["ep"] = t.ep;
  if (t.dp_attention) j["dp_attention"] = true;
  if (!t.reason.empty()) j["reason"] = t.reason;
  if (!t.reason_code.empty()) j["reason_code"] = t.reason_code;
  if (!t.reason_values.empty()) j["reason_values"] = t.reason_values;
  return j;
}

nlohmann::json rank_json(const Scenario& s) {
  nlohmann::json plans = nlohmann::json::array();
  const std::vector<Plan> ranked = rank_plans(s);
  for (const Plan& p : ranked) plans.push_back(to_json(p));
  nlohmann::json warnings = nlohmann::json::array(), details = nlohmann::json::array();
  std::vector<Warning> all = s.warnings;
  for (const Warning& w : workload_warnings(s)) all.push_back(w);
  if (auto w = no_plan_fits_warning(s, ranked)) all.push_back(*w);
  for (const Warning& w : all) {
    warnings.push_back(w.message);
    details.push_back(to_json(w));
  }
  nlohmann::json out = nlohmann::json::object();
  out["plans"] = std::move(plans);  // moved: an initializer list would copy every plan
  if (!all.empty()) {               // absent keys are omitted, not empty (spec)
    out["warnings"] = std::move(warnings);
    out["warning_details"] = std::move(details);
  }
  return out;
}

}  // namespace gpusizer
