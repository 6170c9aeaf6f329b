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
  const ApiResult r =
      run_command("estimate", R"([{"model":"qwen2.5-7b"},{"model":"llama-3.1-8b","batch":2}])");
  REQUIRE(r.ok);
  REQUIRE(r.value.is_array());
  CHECK(r.value.size() == 2);
  CHECK(r.value[1]["model"]["name"] == "Llama-3.1-8B");
  const ApiResult bad =
      run_command("estimate", R"([{"model":"qwen2.5-7b"},{"model":"qwen2.5-7b","training":{"zero":9}}])");
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

TEST_CASE("fits gives, per GPU type, what estimate gives with that GPU set", "[api]") {
  // The page's fit table (web/views/results.js) reads `fits` instead of 32 full estimates: the
  // figures must be the same ones, for serving, training with ZeRO over 8 GPUs, and an engine budget.
  for (const char* text :
       {R"({"model":"llama-3.1-8b","seq_len":8192,"batch":4})",
        R"({"model":"qwen2.5-14b","task":"full","gpus":8,"training":{"zero":3},"batch":2,"seq_len":4096})",
        R"({"model":"qwen2.5-7b","engine":"vllm","weights":"awq-int4","gpus":2,"tp":2})"}) {
    INFO(text);
    const ApiResult fits = run_command("fits", text);
    REQUIRE(fits.ok);
    const nlohmann::json& rows = fits.value["gpus"];
    REQUIRE(rows.size() > 20);
    for (const nlohmann::json& row : rows) {
      nlohmann::json scenario = nlohmann::json::parse(text);
      scenario["gpu"] = row["gpu"];
      const ApiResult e = run_command("estimate", scenario.dump());
      REQUIRE(e.ok);
      INFO(row["gpu"].get<std::string>());
      CHECK(row["per_gpu_bytes"] == e.value["memory"]["per_gpu_bytes"]);
      CHECK(row["usable_bytes"] == e.value["gpu"]["usable_bytes"]);
      CHECK(row["memory_bytes"] == e.value["gpu"]["memory_bytes"]);
      CHECK(row["fits"] == e.value["gpu"]["fits"]);
    }
  }
  const ApiResult bad = run_command("fits", R"({"model":"llama-3.1-8b","batch":0})");
  CHECK_FALSE(bad.ok);
  CHECK(bad.error_field == "batch");
}
