// Inputs that used to pass silently: null for a key, a price for an instance type that
// exists nowhere, bytes after a NUL, efficiencies near zero, unknown provider ids; token counts at
// the scenario's limits (run under UBSan by scripts/test); and the config.json keys the page keeps.
// Runs natively, under wasm and under the sanitizers.
#include <catch2/catch.hpp>

#include "speed/speed.h"

#include <cmath>
#include <set>
#include <string>

#include "catalog/catalog.h"
#include "gpusizer/api.h"

using namespace gpusizer;
using nlohmann::json;

namespace {

const json kBase = {{"model", "llama-3.1-8b"}, {"gpu", "a100-80gb"}};

json with(json base, const json& patch) {
  base.merge_patch(patch);
  return base;
}

ApiResult run(const std::string& command, const json& input) { return run_command(command, input.dump()); }

void check_refused(const json& input, const std::string& field, const std::string& message_part) {
  INFO(input.dump());
  for (const char* command : {"estimate", "rank", "launch"}) {
    const ApiResult r = run(command, input);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error_field == field);
    CHECK_THAT(r.error_message, Catch::Contains(message_part));
  }
}

// merge_patch deletes a key set to null, so these objects are built by hand.
json with_null(json base, const std::string& object, const std::string& key) {
  if (object.empty())
    base[key] = nullptr;
  else
    base[object][key] = nullptr;
  return base;
}

}  // namespace

TEST_CASE("null for a key is refused, naming the key", "[resilience]") {
  check_refused(with_null(kBase, "", "batch"), "batch", "must not be null");
  check_refused(with_null(kBase, "", "gpu"), "gpu", "must not be null");
  check_refused(with_null(kBase, "", "task"), "task", "must not be null");
  check_refused(with_null(kBase, "", "efficiency"), "efficiency", "must not be null");
  check_refused(with_null(kBase, "", "model"), "model", "must not be null");
  check_refused(with_null(with(kBase, {{"task", "full"}}), "training", "zero"), "training.zero",
                "must not be null");
  check_refused(with_null(kBase, "pricing", "currency"), "pricing.currency", "must not be null");
  check_refused(with_null(kBase, "pricing", "overrides"), "pricing.overrides", "must not be null");
  check_refused(with_null(kBase, "filters", "gpus"), "filters.gpus", "must not be null");
  json custom = with(kBase, {{"pricing",
                              {{"custom_instances", json::array({{{"instance", "box"},
                                                                  {"gpu", "l4"},
                                                                  {"gpus_per_instance", 1},
                                                                  {"price_per_hour", 1.0},
                                                                  {"currency", "USD"}}})}}}});
  custom["pricing"]["custom_instances"][0]["region"] = nullptr;
  check_refused(custom, "pricing.custom_instances[0].region", "must not be null");
  json price = kBase;
  price["pricing"]["overrides"]["p4d.24xlarge"] = nullptr;
  check_refused(price, "pricing.overrides.p4d.24xlarge", "must not be null");
}

TEST_CASE("null in a config.json still reads as absent (transformers writes it for unset options)",
          "[resilience]") {
  const json config = {{"model_type", "llama"},     {"hidden_size", 4096},      {"num_hidden_layers", 32},
                       {"num_attention_heads", 32}, {"num_key_value_heads", 8}, {"intermediate_size", 14336},
                       {"vocab_size", 128256},      {"rope_scaling", nullptr},  {"sliding_window", nullptr},
                       {"head_dim", nullptr}};
  const ApiResult r = run("estimate", {{"model", {{"hf_config", config}}}, {"gpu", "a100-80gb"}});
  INFO(r.error_field << ": " << r.error_message);
  CHECK(r.ok);
}

TEST_CASE("a price for an instance type that exists nowhere is named in a warning", "[resilience]") {
  const std::string known = instance_catalog().front().instance;
  const json scenario = with(kBase, {{"pricing", {{"overrides", {{"no-such-type", 2.0}, {known, 3.0}}}}}});
  const ApiResult e = run("estimate", scenario);
  REQUIRE(e.ok);
  int unknown = 0;
  for (const json& w : e.value["warning_details"]) {
    if (w["code"] != "unknown_override") continue;
    ++unknown;
    CHECK(w["field"] == "pricing.overrides.no-such-type");
    CHECK_THAT(w["message"].get<std::string>(), Catch::Contains("\"no-such-type\""));
  }
  CHECK(unknown == 1);  // the catalog's own type gives none
  const ApiResult r = run("rank", scenario);
  REQUIRE(r.ok);
  REQUIRE(r.value.contains("warning_details"));
  CHECK(r.value["warning_details"][0]["field"] == "pricing.overrides.no-such-type");
  int listed = 0;  // once: rank_json lists the scenario's warnings, nothing adds them again
  for (const json& w : r.value["warning_details"]) listed += w["code"] == "unknown_override" ? 1 : 0;
  CHECK(listed == 1);
  // No warnings, no key: a ranking without them is as before.
  CHECK_FALSE(run("rank", kBase).value.contains("warnings"));
  // A price for one of the scenario's own instance types is used, so no warning.
  const json mine = with(kBase, {{"pricing",
                                  {{"overrides", {{"my-box", 2.0}}},
                                   {"custom_instances", json::array({{{"instance", "my-box"},
                                                                      {"gpu", "l4"},
                                                                      {"gpus_per_instance", 1},
                                                                      {"price_per_hour", 1.0},
                                                                      {"currency", "USD"}}})}}}});
  CHECK(run("estimate", mine).value["warning_details"].empty());
}

TEST_CASE("bytes after a NUL are refused, not ignored", "[resilience]") {
  const std::string text = kBase.dump() + std::string(1, '\0') + "{\"batch\": 0}";
  for (const char* command : {"estimate", "rank", "table", "launch", "config_keys"}) {
    const ApiResult r = run_command(command, text);
    REQUIRE_FALSE(r.ok);
    CHECK(r.error_field == "input");
    CHECK_THAT(r.error_message, Catch::Contains("NUL byte at offset " + std::to_string(kBase.dump().size())));
  }
  // Other trailing text was already refused by the parser.
  CHECK_FALSE(run_command("estimate", kBase.dump() + " x").ok);
}

TEST_CASE("efficiency overrides are bounded to 0.01-1", "[resilience]") {
  for (const double v : {1e-300, 5e-324, 0.0099, 0.0, -0.5, 1.0001}) {
    check_refused(with(kBase, {{"efficiency", {{"mfu", v}}}}), "efficiency.mfu",
                  "must be a number from 0.01 to 1");
    check_refused(with(kBase, {{"efficiency", {{"bandwidth", v}}}}), "efficiency.bandwidth",
                  "must be a number from 0.01 to 1");
  }
  // A layout that fits (speed and time are given only then): 1.5B full fine-tune on one A100.
  const ApiResult slow = run("estimate", with(kBase, {{"model", "qwen2.5-1.5b"},
                                                      {"task", "full"},
                                                      {"efficiency", {{"mfu", 0.01}}},
                                                      {"training", {{"tokens", 1e9}}}}));
  REQUIRE(slow.ok);
  CHECK(slow.value["time"]["wall_hours"].is_number());  // not null: a figure at the bound
  CHECK(run("estimate", with(kBase, {{"efficiency", {{"bandwidth", 1}}}})).ok);
}

TEST_CASE("unknown provider ids in filters.providers are refused like unknown GPU ids", "[resilience]") {
  check_refused(with(kBase, {{"filters", {{"providers", {"ibm"}}}}}), "filters.providers",
                "unknown provider id \"ibm\"");
  check_refused(with(kBase, {{"filters", {{"providers", {"aws", "AWS"}}}}}), "filters.providers", "\"AWS\"");
  std::set<std::string> providers = {"custom"};
  for (const Instance& i : instance_catalog()) providers.insert(i.provider_id);
  for (const std::string& id : providers) {
    INFO(id);
    CHECK(run("rank", with(kBase, {{"filters", {{"providers", {id}}}}})).ok);
  }
}

TEST_CASE("token counts at the scenario's limits give finite figures (no int64 overflow)", "[resilience]") {
  // batch x seq_len x grad_accum = 1e20 tokens a step, beyond int64 (9.2e18): UBSan stops here
  // when the product is taken in integers (scripts/test runs this suite under it).
  const json input = {{"model", "llama-3.1-8b"},
                      {"task", "full"},
                      {"batch", 1000000},
                      {"seq_len", 100000000},
                      {"training", {{"grad_accum", 1000000}}},
                      {"gpu", "h100-80gb"}};
  // The layout does not fit, so `estimate` gives no speed: the speed model is called directly.
  const Scenario s = parse_scenario(input);
  const double rate = estimate_throughput(s, *find_gpu("h100-80gb")).train_tokens_per_s;
  CHECK(std::isfinite(rate));
  CHECK(rate > 0);
  // The step is 1e20 tokens: compute-bound, so the rate matches a step of 1e14 (grad_accum 1)
  // within the pipeline and communication terms, which are per token too.
  const double small = estimate_throughput(parse_scenario(with(input, {{"training", {{"grad_accum", 1}}}})),
                                           *find_gpu("h100-80gb"))
                           .train_tokens_per_s;
  CHECK(rate == Approx(small).epsilon(0.01));
}

TEST_CASE("config_keys names the config.json keys the core reads, and those alone size the same",
          "[resilience]") {
  json config = {{"architectures", {"MixtralForCausalLM"}},
                 {"_name_or_path", "mistralai/Mixtral-8x7B-v0.1"},
                 {"model_type", "mixtral"},
                 {"hidden_size", 4096},
                 {"num_hidden_layers", 32},
                 {"num_attention_heads", 32},
                 {"num_key_value_heads", 8},
                 {"intermediate_size", 14336},
                 {"vocab_size", 32000},
                 {"num_local_experts", 8},
                 {"num_experts_per_tok", 2},
                 {"rope_theta", 1e6},
                 {"sliding_window", nullptr},
                 {"torch_dtype", "bfloat16"},
                 {"tie_word_embeddings", false}};
  config["padding"] = std::string(100000, 'x');  // what a 5 MB paste carries and the core never reads
  const ApiResult keys = run("config_keys", config);
  REQUIRE(keys.ok);
  json reduced = json::object();
  for (const json& k : keys.value["keys"]) reduced[k.get<std::string>()] = config[k.get<std::string>()];
  CHECK_FALSE(reduced.contains("padding"));
  CHECK_FALSE(reduced.contains("torch_dtype"));
  CHECK(reduced.contains("num_local_experts"));
  CHECK(reduced.contains("_name_or_path"));
  const json a = {{"model", {{"hf_config", config}}}, {"gpu", "h100-80gb"}, {"task", "lora"}};
  const json b = {{"model", {{"hf_config", reduced}}}, {"gpu", "h100-80gb"}, {"task", "lora"}};
  CHECK(run("estimate", a).value == run("estimate", b).value);
  // A config the core refuses is refused here, its field named.
  const ApiResult bad = run("config_keys", {{"model_type", "llama"}});
  REQUIRE_FALSE(bad.ok);
  CHECK_THAT(bad.error_field, Catch::StartsWith("model.hf_config."));
}

TEST_CASE("every command answers a model with every size at its limit (no internal error)", "[resilience]") {
  // Activations of 1e32 bytes: the planner's reasons print 1e23 GiB, past int64 in format.cpp.
  constexpr int64_t kBig = 1 << 20;
  const json input = {{"model",
                       {{"hf_config",
                         {{"model_type", "llama"},
                          {"hidden_size", kBig},
                          {"num_hidden_layers", kBig},
                          {"num_attention_heads", kBig},
                          {"num_key_value_heads", kBig},
                          {"intermediate_size", kBig},
                          {"vocab_size", kBig}}}}},
                      {"task", "full"},
                      {"batch", 1000000},
                      {"seq_len", 100000000},
                      {"training", {{"grad_accum", 1000000}, {"tokens", 1e16}}},
                      {"gpu", "h200"}};
  for (const char* command : {"estimate", "rank", "table", "launch"}) {
    const ApiResult r = run(command, input);
    INFO(command << ": " << r.error_field << ": " << r.error_message);
    CHECK_THAT(r.error_message, !Catch::Contains("internal error"));
  }
  const ApiResult r = run("rank", input);
  REQUIRE(r.ok);
  CHECK_THAT(r.value["plans"][0]["reason"].get<std::string>(), Catch::Matches(".*[0-9]{15,} GiB.*"));
}
