// The helper the Catch2 files share for answers of the public API: the value `run_command`
// answers for `input`, failing the test (with the input and the error named) when it is refused.
#pragma once

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "gpusizer/api.h"

inline nlohmann::json value_of(const char* command, const nlohmann::json& input) {
  const gpusizer::ApiResult r = gpusizer::run_command(command, input.dump());
  INFO(command << " " << input.dump() << " -> " << r.error_field << ": " << r.error_message);
  REQUIRE(r.ok);
  return r.value;
}
