// The model-size x workload grid.
#include <catch2/catch.hpp>

#include "gpusizer/error.h"
#include "gpusizer/table.h"

using namespace gpusizer;
using nlohmann::json;

TEST_CASE("The default table spans the sizes and the workloads", "[table]") {
  const json t = table_json(json::object());  // no model: the rows supply it
  REQUIRE(t["rows"].size() == table_default_models().size());
  REQUIRE(t["columns"].size() == 5);
  for (const json& row : t["rows"]) {
    REQUIRE(row["cells"].size() == 5);
    for (const json& cell : row["cells"]) {
      INFO(row["model"] << " " << cell["workload"]);
      CHECK_FALSE(cell.contains("error"));
      if (cell["fits"] == true) {
        CHECK(cell["plan"]["per_gpu_bytes"] == cell["per_gpu_bytes"]);
        CHECK(cell["plan"]["fits"] == true);
      } else {
        CHECK(cell.contains("reason"));
      }
    }
  }
  // A 0.5B model serves on one card; DeepSeek-V3 needs several.
  CHECK(t["rows"][0]["cells"][0]["plan"]["gpus"] == 1);
  CHECK(t["rows"].back()["cells"][0]["plan"]["gpus"].get<int>() >= 8);
}

TEST_CASE("Table cells follow the caller's context", "[table]") {
  const json small = table_json(json{{"models", {"qwen2.5-7b"}}, {"seq_len", 1024}, {"filters", {{"providers", {"aws"}}}}});
  REQUIRE(small["rows"].size() == 1);
  for (const json& cell : small["rows"][0]["cells"]) {
    if (cell["fits"] == true) CHECK(cell["plan"]["provider_id"] == "aws");
  }
  const json cny = table_json(json{{"model", "qwen2.5-7b"}, {"models", {"qwen2.5-0.5b"}}, {"pricing", {{"currency", "CNY"}}}});
  CHECK(cny["rows"][0]["cells"][0]["plan"]["currency"] == "CNY");
}

TEST_CASE("A bad table context names its field", "[table]") {
  CHECK_THROWS_AS(table_json(json{{"seq_len", -1}}), InputError);
  CHECK_THROWS_AS(table_json(json{{"models", {"no-such-model"}}}), InputError);
  try {
    table_json(json{{"filters", {{"gpus", {"no-such-gpu"}}}}});
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.field == "filters.gpus");
  }
}
