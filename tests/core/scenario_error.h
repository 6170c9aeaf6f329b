// The one helper the Catch2 files share for "bad input names its field": the dotted field of the
// InputError that parse_scenario raises for `input`, with a message beside it, or "" when the
// scenario is accepted.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "base/error.h"
#include "scenario/scenario.h"

inline std::string scenario_error_field(const nlohmann::json& input) {
  try {
    gpusizer::parse_scenario(input);
  } catch (const gpusizer::InputError& e) {
    CHECK(std::string(e.what()).size() > 5);  // a message, not just a field
    return e.field;
  }
  return "";
}
