// Golden answers: run_command gives, for every entry of tests/golden/scenarios.json, the answer
// the native CLI gave when tests/golden/expected.json was last written (scripts/golden --update).
// The suite also runs compiled to wasm, so this is the native/wasm parity check too. Both files
// are compiled in (CMakeLists.txt embeds them): the wasm test reads no files.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "gpusizer/api.h"

namespace gpusizer::embedded {
extern const char golden_scenarios_json[];
extern const char golden_expected_json[];
}  // namespace gpusizer::embedded

using namespace gpusizer;
using nlohmann::json;

namespace {

// Same keys, strings and booleans; numbers (integer or not) equal to 1e-12 relative.
void collect_differences(const json& actual, const json& expected, const std::string& path,
                         std::vector<std::string>* out) {
  if (actual.is_number() && expected.is_number()) {
    const double a = actual.get<double>(), e = expected.get<double>();
    if (std::fabs(a - e) > 1e-12 * std::max(std::fabs(a), std::fabs(e)))
      out->push_back(path + ": " + actual.dump() + " vs " + expected.dump());
  } else if (actual.is_array() && expected.is_array()) {
    if (actual.size() != expected.size()) {
      out->push_back(path + ": " + std::to_string(actual.size()) + " items vs " +
                     std::to_string(expected.size()));
      return;
    }
    for (size_t i = 0; i < actual.size(); ++i)
      collect_differences(actual[i], expected[i], path + "[" + std::to_string(i) + "]", out);
  } else if (actual.is_object() && expected.is_object()) {
    for (auto it = expected.begin(); it != expected.end(); ++it) {
      if (!actual.contains(it.key()))
        out->push_back(path + "." + it.key() + ": missing");
      else
        collect_differences(actual.at(it.key()), *it, path + "." + it.key(), out);
    }
    for (auto it = actual.begin(); it != actual.end(); ++it) {
      if (!expected.contains(it.key())) out->push_back(path + "." + it.key() + ": not expected");
    }
  } else if (actual != expected) {
    out->push_back(path + ": " + actual.dump().substr(0, 200) + " vs " + expected.dump().substr(0, 200));
  }
}

json answer(const std::string& command, const json& input) {
  const ApiResult r = run_command(command, input.dump());
  if (r.ok) return r.value;
  return {{"error", {{"field", r.error_field}, {"message", r.error_message}}}};
}

}  // namespace

TEST_CASE("Golden answers: every scenario gives the recorded answer", "[golden]") {
  const json scenarios = json::parse(embedded::golden_scenarios_json);
  const json expected = json::parse(embedded::golden_expected_json);
  REQUIRE(scenarios.size() >= 200);
  REQUIRE(expected.size() == scenarios.size());  // else: scripts/golden --update
  for (size_t i = 0; i < scenarios.size(); ++i) {
    const json& s = scenarios[i];
    const json& e = expected[i];
    INFO("entry " << i << ": " << s["command"].get<std::string>() << " " << s["input"].dump().substr(0, 300));
    REQUIRE(e["command"] == s["command"]);  // expected.json was written for this list
    REQUIRE(e["input"] == s["input"]);
    std::vector<std::string> differences;
    collect_differences(answer(s["command"], s["input"]), e["output"], "$", &differences);
    if (differences.size() > 10) differences.resize(10);
    CAPTURE(differences);
    CHECK(differences.empty());
  }
}
