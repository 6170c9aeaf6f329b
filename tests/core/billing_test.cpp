// Prices and how they are billed: every catalog price carries a date (or says "undated"), a billing
// kind and a source; filters.billing picks the kinds the ranking prices (docs/catalog.md "Prices and
// their dates", docs/scenario.md "filters").
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <string>

#include "base/error.h"
#include "catalog/catalog.h"
#include "plan/planner.h"
#include "scenario/scenario.h"

using namespace gpusizer;
using nlohmann::json;

namespace {

const Instance* row(const std::string& provider_id, const std::string& name, const std::string& region) {
  for (const Instance& in : instance_catalog()) {
    if (in.provider_id == provider_id && in.instance == name && in.region == region) return &in;
  }
  return nullptr;
}

bool ranks(const std::vector<Plan>& plans, const std::string& instance) {
  return std::any_of(plans.begin(), plans.end(),
                     [&](const Plan& p) { return p.instance->instance == instance; });
}

}  // namespace

TEST_CASE("billing: every price has a date, or says it is undated", "[catalog][billing]") {
  // The dates the planner reads (price_stale) and the page takes for a date (web/views/ranking.js
  // DATED): YYYY-MM-DD or YYYY-MM. Anything else must say "undated", which the page marks.
  const std::regex dated("^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$");
  int undated = 0;
  for (const Instance& in : instance_catalog()) {
    INFO(in.provider_id << " " << in.instance << " " << in.region << ": " << in.price_date);
    const bool has_date = std::regex_match(in.price_date, dated);
    CHECK((has_date || in.price_date.rfind("undated", 0) == 0));
    undated += has_date ? 0 : 1;
    const auto& kinds = billing_kinds();
    CHECK(std::find(kinds.begin(), kinds.end(), in.billing) != kinds.end());
    CHECK((in.billing == "reserved" || in.billing == "subscription") != in.billing_term.empty());
    CHECK_FALSE(in.source.empty());
    CHECK_FALSE(in.region.empty());
  }
  CHECK(undated == 105);  // the skypilot snapshots without a date (docs/catalog.md)
}

TEST_CASE("billing: the 2026 rows carry their price, date, kind and source", "[catalog][billing]") {
  struct Pin {
    const char *provider_id, *instance, *region;
    double price;
    const char *date, *billing;
  };
  for (const Pin& p :
       {// After AWS's June 2025 P-family cut (datareceipts, retrieved 2026-11-09; was 98.32 / 32.77).
        Pin{"aws", "p5.48xlarge", "us-east-1", 55.04, "2026-11-09", "on-demand"},
        Pin{"aws", "p4d.24xlarge", "us-east-1", 21.957642, "2026-11-09", "on-demand"},
        Pin{"aws", "p4de.24xlarge", "us-east-1", 27.44705, "2026-11-09", "on-demand"},
        // configiq cloud-offer-catalog.ts (2026-08-23 / 2026-09-07 / 2026-09-20).
        Pin{"aws", "g6e.xlarge", "us-east-1", 1.861, "2026-08-23", "on-demand"},
        Pin{"aws", "p6-b200.48xlarge", "us-east-1", 98.84, "2026-09-07", "capacity-block"},
        Pin{"gcp", "a3-ultragpu-8g", "us-central1", 84.806908493, "2026-08-23", "on-demand"},
        Pin{"coreweave", "CoreWeave 8x H200", "north-america", 50.44, "2026-08-23", "on-demand"},
        Pin{"coreweave", "CoreWeave 8x B300", "north-america", 35.84, "2026-09-20", "spot"}}) {
    INFO(p.instance);
    const Instance* in = row(p.provider_id, p.instance, p.region);
    REQUIRE(in != nullptr);
    CHECK(in->price_per_hour == Approx(p.price).epsilon(1e-12));
    CHECK(in->price_date == p.date);
    CHECK(in->billing == p.billing);
  }
  CHECK(row("gcp", "a3-ultragpu-8g", "us-central1")->gpu_id == "h200");
  CHECK(row("aws", "p6-b200.48xlarge", "us-east-1")->provider == "AWS EC2 Capacity Blocks");
}

TEST_CASE("billing: a spot row is priced below on-demand for its GPU", "[catalog][billing]") {
  // Review reject: GCP's a3-highgpu-1g/2g, sold Spot / Flex-start only, ranked as spot at their
  // on-demand SKU sums (22.12 = a quarter of a3-highgpu-8g's 88.49). Spot capacity is sold at a
  // discount (GCP Spot VMs: 60-91 % off, cloud.google.com/spot-vms; AWS Spot: up to 90 %): a spot row
  // at 90 % or more of the provider's on-demand rate for the same GPU is an on-demand price.
  for (const Instance& s : instance_catalog()) {
    if (s.billing != "spot") continue;
    for (const Instance& o : instance_catalog()) {
      if (o.billing != "on-demand" || o.provider_id != s.provider_id || o.gpu_id != s.gpu_id) continue;
      INFO(s.instance << " against " << o.instance);
      CHECK(s.price_per_hour / static_cast<double>(s.gpus) <
            0.9 * o.price_per_hour / static_cast<double>(o.gpus));
    }
  }
}

TEST_CASE("billing: filters.billing picks the kinds the ranking prices", "[planner][billing]") {
  const json base = {{"model", "qwen2.5-7b"}};
  // Default: on-demand only; spot rows and capacity blocks stay out.
  const auto plain = rank_plans(parse_scenario(base));
  for (const Plan& p : plain) CHECK(p.instance->billing == "on-demand");
  CHECK_FALSE(ranks(plain, "CoreWeave 8x B300"));
  CHECK(ranks(plain, "a3-highgpu-8g"));

  json spot = base;
  spot["filters"]["billing"] = {"on-demand", "spot"};
  const auto both = rank_plans(parse_scenario(spot));
  CHECK(ranks(both, "CoreWeave 8x B300"));
  CHECK(ranks(both, "a3-highgpu-8g"));
  CHECK(both.size() == plain.size() + 1);  // the one spot row

  json blocks = base;
  blocks["filters"]["billing"] = {"capacity-block"};
  const auto reserved = rank_plans(parse_scenario(blocks));
  REQUIRE(reserved.size() == 3);
  for (const Plan& p : reserved) CHECK(p.instance->billing == "capacity-block");

  json every = base;
  every["filters"]["billing"] = json::array();  // [] = every kind, as for providers and gpus
  CHECK(rank_plans(parse_scenario(every)).size() == plain.size() + 1 + 3);

  // The scenario's own instances are priced by the user: no billing kind filters them out.
  json own = {{"model", "qwen2.5-7b"},
              {"filters", {{"billing", {"spot"}}, {"providers", {"custom"}}}},
              {"pricing",
               {{"custom_instances",
                 {{{"instance", "my-box"},
                   {"gpu", "a100-80gb"},
                   {"gpus_per_instance", 1},
                   {"price_per_hour", 1.5},
                   {"currency", "USD"}}}}}}};
  CHECK(ranks(rank_plans(parse_scenario(own)), "my-box"));
}

TEST_CASE("billing: an unknown billing kind is an error of filters.billing", "[scenario][billing]") {
  json j = {{"model", "qwen2.5-7b"}, {"filters", {{"billing", {"on-demand", "preemptible"}}}}};
  try {
    parse_scenario(j);
    FAIL("accepted an unknown billing kind");
  } catch (const InputError& e) {
    CHECK(e.field == "filters.billing");
    CHECK(e.code == "unknown_billing");
    CHECK(e.values.at("id") == "preemptible");
    CHECK(std::string(e.what()).find("\"spot\"") != std::string::npos);  // names the kinds
  }
  j["filters"]["billing"] = "spot";  // a list, not a string
  try {
    parse_scenario(j);
    FAIL("accepted a string");
  } catch (const InputError& e) {
    CHECK(e.field == "filters.billing");
  }
}

TEST_CASE("billing: a dated price older than a year warns, an undated one is marked instead",
          "[planner][billing]") {
  // price_stale needs a date; an undated price ("undated (...)") is marked "price undated" by the page.
  const auto plans =
      rank_plans(parse_scenario(json{{"model", "qwen2.5-7b"},
                                     {"today", "2026-12-03"},
                                     {"filters", {{"providers", {"azure"}}, {"gpus", {"h100-80gb"}}}}}));
  REQUIRE(plans.size() == 2);  // ND96isr_H100_v5 in eastus (2026-11-09) and northcentralus (2023-12-06)
  for (const Plan& p : plans) {
    INFO(p.instance->region);
    const bool stale = std::any_of(p.warnings.begin(), p.warnings.end(),
                                   [](const Warning& w) { return w.code == "price_stale"; });
    CHECK(stale == (p.instance->price_date == "2023-12-06"));
  }
}
