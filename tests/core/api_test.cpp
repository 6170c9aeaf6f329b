// The JSON-text entry point shared by the CLI and the wasm module.
#include <catch2/catch.hpp>

#include <string>

#include "gpusizer/api.h"

using namespace gpusizer;

TEST_CASE("Bad JSON text gives an error naming the input", "[api]") {
  for (const char* text : {"", "   ", "{", "not json", "{\"model\": }", "[1, 2"}) {
    const ApiResult r = run_command("estimate", text);
    CHECK_FALSE(r.ok);
    CHECK(r.error_field == "input");
  }
  const ApiResult deep = run_command("estimate", std::string(100000, '[') + std::string(100000, ']'));
  CHECK_FALSE(deep.ok);
  CHECK(deep.error_field == "input");
  const ApiResult unknown = run_command("frobnicate", "{}");
  CHECK_FALSE(unknown.ok);
  CHECK(unknown.error_field == "command");
}

TEST_CASE("Arrays in, arrays out; errors carry the index", "[api]") {
  const ApiResult r = run_command("estimate", R"([{"model":"qwen2.5-7b"},{"model":"llama-3.1-8b","batch":2}])");
  REQUIRE(r.ok);
  REQUIRE(r.value.is_array());
  CHECK(r.value.size() == 2);
  CHECK(r.value[1]["model"]["name"] == "Llama-3.1-8B");
  const ApiResult bad = run_command("estimate", R"([{"model":"qwen2.5-7b"},{"model":"qwen2.5-7b","training":{"zero":9}}])");
  CHECK_FALSE(bad.ok);
  CHECK(bad.error_field == "[1].training.zero");
}

TEST_CASE("Estimate JSON has the spec's keys, absent ones omitted", "[api]") {
  const ApiResult r = run_command("estimate", R"({"model":"llama-3.1-8b","seq_len":8192,"batch":4})");
  REQUIRE(r.ok);
  const nlohmann::json& e = r.value;
  for (const char* key : {"weights", "gradients", "optimizer", "activations", "kv_cache", "runtime"}) {
    CHECK(e["memory"]["breakdown"].contains(key));
  }
  CHECK(e["memory"]["breakdown"]["kv_cache"] == 4294967296.0);
  CHECK_FALSE(e.contains("gpu"));
  CHECK_FALSE(e.contains("time"));
  CHECK(e["warnings"].is_array());
}

TEST_CASE("Catalog listings", "[api]") {
  const ApiResult models = run_command("models", "");
  REQUIRE(models.ok);
  CHECK(models.value.size() >= 50);
  const ApiResult gpus = run_command("gpus", "");
  REQUIRE(gpus.ok);
  CHECK(gpus.value.size() >= 21);
  const ApiResult catalog = run_command("catalog", "");
  REQUIRE(catalog.ok);
  CHECK(catalog.value.contains("instances"));
}
