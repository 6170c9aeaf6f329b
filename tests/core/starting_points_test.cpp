// The page's tab starting points (scenario/starting_points.cpp): one per task, each a valid
// scenario of its task that the parser reads back as stated, and listed by the catalog as they are.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/catalog_json.h"
#include "model/architecture.h"
#include "scenario/scenario.h"
#include "scenario/starting_points.h"

using namespace gpusizer;
using nlohmann::json;

TEST_CASE("Each task has one starting point, in the catalog's order of tasks", "[starting_points]") {
  std::vector<std::string> tasks;
  for (const StartingPoint& p : starting_points()) tasks.emplace_back(to_string(p.task));
  const json choices = scenario_choices_json();
  CHECK(tasks == choices["tasks"].get<std::vector<std::string>>());
}

TEST_CASE("Each starting point parses as a valid scenario of its task, on every preset",
          "[starting_points]") {
  for (const StartingPoint& p : starting_points()) {
    for (const Architecture& a : model_presets()) {
      json input = starting_point_json(p);
      input["model"] = a.id;
      input["task"] = to_string(p.task);
      INFO(input.dump());
      Scenario s;
      REQUIRE_NOTHROW(s = parse_scenario(input));
      CHECK(s.task == p.task);
      CHECK(s.engine == p.engine);
      CHECK(s.weights == p.weights);
      CHECK(s.seq_len == p.seq_len);
      CHECK(s.batch == p.batch);
      // A serving tab states the KV cache format, a training tab its training settings; not both.
      CHECK(p.kv_cache.has_value() == !is_training(p.task));
      CHECK(input.contains("training") == is_training(p.task));
      if (p.kv_cache) CHECK(s.kv_cache == *p.kv_cache);
      if (p.optimizer) CHECK(s.training.optimizer == *p.optimizer);
      if (p.grad_checkpointing) CHECK(s.training.grad_checkpointing == *p.grad_checkpointing);
      if (p.zero) CHECK(s.training.zero == *p.zero);
      if (p.lora_rank) CHECK(s.training.lora_rank == *p.lora_rank);
      if (p.lora_targets) CHECK(s.training.lora_targets == *p.lora_targets);
      // Adapter settings only on adapter tabs, where the parser reads them.
      CHECK(p.lora_rank.has_value() == (p.task == Task::Lora || p.task == Task::Qlora));
    }
  }
}

TEST_CASE("The catalog lists the starting points beside the parser's defaults", "[starting_points]") {
  const json catalog = catalog_json();
  REQUIRE(catalog.contains("starting_points"));
  CHECK(catalog["starting_points"] == starting_points_json());
  for (const StartingPoint& p : starting_points()) {
    CHECK(catalog["starting_points"][to_string(p.task)] == starting_point_json(p));
  }
  // The parser's defaults are another fact: the qlora tab starts on another engine than the one
  // parse_scenario fills in, so the two lists must not be merged.
  CHECK(catalog["defaults"]["qlora"]["engine"] != catalog["starting_points"]["qlora"]["engine"]);
}
