// pricing.custom_instances: the user's own instance types, validated field by field, ranked with
// the catalog's under the same filters, usable by launch and the table, and round-tripped.
#include <catch2/catch.hpp>

#include <string>

#include "catalog/catalog.h"
#include "gpusizer/api.h"
#include "plan/planner.h"
#include "scenario/scenario.h"

using namespace gpusizer;
using nlohmann::json;

namespace {

const json kServe = {{"model", "qwen2.5-7b"}, {"seq_len", 4096}, {"batch", 8}};

json run(const std::string& command, const json& input) {
  const ApiResult r = run_command(command, input.dump());
  INFO(r.error_field << ": " << r.error_message);
  REQUIRE(r.ok);
  return r.value;
}

std::string error_field(const json& custom_instances) {
  json s = kServe;
  s["pricing"]["custom_instances"] = custom_instances;
  const ApiResult r = run_command("rank", s.dump());
  REQUIRE_FALSE(r.ok);
  return r.error_field;
}

json with_custom(json scenario, const json& instance) {
  scenario["pricing"]["custom_instances"] = json::array({instance});
  return scenario;
}

json box(const std::string& gpu, int gpus, double price, const std::string& currency = "USD") {
  return {{"provider", "My lab"},      {"instance", "my-box"},    {"gpu", gpu},
          {"gpus_per_instance", gpus}, {"price_per_hour", price}, {"currency", currency}};
}

int index_of(const json& plans, const std::string& instance) {
  for (size_t i = 0; i < plans.size(); ++i) {
    if (plans[i]["instance"] == instance) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

TEST_CASE("A custom instance ranks where its price puts it", "[custom]") {
  const json base = run("rank", kServe)["plans"];
  const json& cheapest = base.front();
  REQUIRE(cheapest["fits"] == true);
  // The cheapest plan's own hardware at its price per instance (in USD, the ranking's currency).
  const double per_instance = cheapest["price_per_hour"].get<double>() / cheapest["instances"].get<double>();
  const std::string gpu = cheapest["gpu"];
  const int gpus = cheapest["gpus_per_instance"];

  const json half = run("rank", with_custom(kServe, box(gpu, gpus, per_instance / 2)))["plans"];
  REQUIRE(half.size() == base.size() + 1);
  const json& first = half.front();
  CHECK(first["instance"] == "my-box");
  CHECK(first["provider"] == "My lab");
  CHECK(first["provider_id"] == "custom");
  CHECK(first["billing"] == "on-demand");
  CHECK(first["price_date"] == "user");
  CHECK(first["price_source"] == "user");
  CHECK(first["cost_per_million_tokens"].get<double>() ==
        Approx(cheapest["cost_per_million_tokens"].get<double>() / 2));

  // At three times the price it lands after every plan that is cheaper per token.
  const json dear = run("rank", with_custom(kServe, box(gpu, gpus, per_instance * 3)))["plans"];
  const double cost = cheapest["cost_per_million_tokens"].get<double>() * 3;
  int cheaper = 0;
  for (const json& p : base)
    cheaper += p["fits"] == true && p["cost_per_million_tokens"].get<double>() < cost;
  CHECK(index_of(dear, "my-box") == cheaper);
  CHECK(dear[cheaper]["cost_per_million_tokens"].get<double>() == Approx(cost));
}

TEST_CASE("A custom instance's price converts to the ranking's currency", "[custom]") {
  json s = with_custom(kServe, box("a100-80gb", 1, 7.2, "CNY"));
  s["pricing"]["cny_per_usd"] = 7.2;
  const json plans = run("rank", s)["plans"];
  const json& p = plans[index_of(plans, "my-box")];
  CHECK(p["currency"] == "USD");
  CHECK(p["price_per_hour"].get<double>() == Approx(p["instances"].get<double>()));
}

TEST_CASE("Bad custom instances name the field", "[custom]") {
  const json ok = box("l4", 1, 1.0);
  auto with = [&](const std::string& key, const json& value) {
    json i = ok;
    if (value.is_null())
      i.erase(key);
    else
      i[key] = value;
    return json::array({ok, i});  // the second: its index is in the field name
  };
  CHECK(error_field(json::object()) == "pricing.custom_instances");
  CHECK(error_field(json::array({ok, "my-box"})) == "pricing.custom_instances[1]");
  CHECK(error_field(with("gpu", nullptr)) == "pricing.custom_instances[1].gpu");
  CHECK(error_field(with("gpu", "h999")) == "pricing.custom_instances[1].gpu");
  CHECK(error_field(with("instance", nullptr)) == "pricing.custom_instances[1].instance");
  CHECK(error_field(with("instance", "")) == "pricing.custom_instances[1].instance");
  CHECK(error_field(with("instance", 7)) == "pricing.custom_instances[1].instance");
  CHECK(error_field(with("gpus_per_instance", 0)) == "pricing.custom_instances[1].gpus_per_instance");
  CHECK(error_field(with("gpus_per_instance", 65)) == "pricing.custom_instances[1].gpus_per_instance");
  CHECK(error_field(with("gpus_per_instance", 1.5)) == "pricing.custom_instances[1].gpus_per_instance");
  CHECK(error_field(with("gpus_per_instance", nullptr)) == "pricing.custom_instances[1].gpus_per_instance");
  CHECK(error_field(with("price_per_hour", 0)) == "pricing.custom_instances[1].price_per_hour");
  CHECK(error_field(with("price_per_hour", -2)) == "pricing.custom_instances[1].price_per_hour");
  CHECK(error_field(with("price_per_hour", "1")) == "pricing.custom_instances[1].price_per_hour");
  CHECK(error_field(with("price_per_hour", nullptr)) == "pricing.custom_instances[1].price_per_hour");
  CHECK(error_field(with("currency", "EUR")) == "pricing.custom_instances[1].currency");
  CHECK(error_field(with("currency", nullptr)) == "pricing.custom_instances[1].currency");
  CHECK(error_field(with("provider", 1)) == "pricing.custom_instances[1].provider");
  CHECK(error_field(with("vcpu", 0)) == "pricing.custom_instances[1].vcpu");
  CHECK(error_field(with("ram_bytes", -1)) == "pricing.custom_instances[1].ram_bytes");
  CHECK(error_field(with("cores", 8)) == "pricing.custom_instances[1].cores");
}

TEST_CASE("Custom names are unique and distinct from the catalog's", "[custom]") {
  const json a = box("l4", 1, 1.0);
  CHECK(error_field(json::array({a, a})) == "pricing.custom_instances[1].instance");
  json named = a;
  named["instance"] = instance_catalog().front().instance;
  CHECK(error_field(json::array({named})) == "pricing.custom_instances[0].instance");
}

TEST_CASE("The filters apply to custom instances; provider id \"custom\" selects them", "[custom]") {
  const json custom = with_custom(kServe, box("l4", 2, 0.5));
  auto has_box = [&](const json& filters) {
    json s = custom;
    s["filters"] = filters;
    return index_of(run("rank", s)["plans"], "my-box") >= 0;
  };
  CHECK(has_box(json::object()));
  CHECK_FALSE(has_box({{"providers", {"aws"}}}));
  CHECK(has_box({{"providers", {"aws", "custom"}}}));
  CHECK_FALSE(has_box({{"gpus", {"a100-80gb"}}}));
  CHECK(has_box({{"gpus", {"l4"}}}));
  CHECK_FALSE(has_box({{"max_gpus", 1}}));

  json only = custom;
  only["filters"]["providers"] = {"custom"};
  const json plans = run("rank", only)["plans"];
  REQUIRE(plans.size() == 1);
  CHECK(plans[0]["instance"] == "my-box");

  json other_gpu = custom;
  other_gpu["gpu"] = "a10";
  CHECK(index_of(run("rank", other_gpu)["plans"], "my-box") == -1);
}

TEST_CASE("Plans of custom instances point into the caller's scenario", "[custom]") {
  const Scenario s = parse_scenario(with_custom(kServe, box("l4", 1, 0.01)));
  const std::vector<Plan> plans = rank_plans(s);
  REQUIRE_FALSE(plans.empty());
  CHECK(plans.front().instance == &s.pricing.custom_instances.front());
}

TEST_CASE("launch and the table take custom instances", "[custom]") {
  const json s = with_custom(kServe, box("l4", 2, 0.01));
  const json out = run("launch", json{{"scenario", s}, {"plan", {{"instance", "my-box"}}}});
  CHECK(out["plan"]["instance"] == "my-box");
  CHECK(out["plan"]["gpu"] == "l4");
  CHECK(out["plan"]["source"] == "ranking");

  const json table_input = {{"models", {"qwen2.5-7b"}}, {"pricing", s["pricing"]}};
  const json cells = run("table", table_input)["rows"][0]["cells"];
  CHECK(cells[0]["plan"]["instance"] == "my-box");  // serving BF16: a near-free L4 pair wins
}

TEST_CASE("scenario_to_json round-trips custom instances", "[custom]") {
  json i = box("h100-80gb", 8, 20.5);
  i["region"] = "on-prem";
  i["vcpu"] = 96;
  i["ram_bytes"] = 2e12;
  const Scenario s = parse_scenario(with_custom(kServe, i));
  const json j = scenario_to_json(s);
  CHECK(j["pricing"]["custom_instances"] == json::array({i}));
  CHECK(scenario_to_json(parse_scenario(j)) == j);
}
