// The helpers the Catch2 files share for answers of the public API: the value `run_command`
// answers for `input`, failing the test (with the input and the error named) when it is refused;
// a launch's command of one tool, and whether it gives a note.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "gpusizer/api.h"

inline nlohmann::json value_of(const char* command, const nlohmann::json& input) {
  const gpusizer::ApiResult r = gpusizer::run_command(command, input.dump());
  INFO(command << " " << input.dump() << " -> " << r.error_field << ": " << r.error_message);
  REQUIRE(r.ok);
  return r.value;
}

// The text of the launch's first command of `tool` ("" when it writes none).
inline std::string command_text(const nlohmann::json& launch, const std::string& tool) {
  for (const nlohmann::json& c : launch.at("commands"))
    if (c.at("tool") == tool) return c.at("text");
  return "";
}

inline bool has_note(const nlohmann::json& launch, const std::string& code) {
  for (const nlohmann::json& n : launch.at("note_details"))
    if (n.at("code") == code) return true;
  return false;
}

// The value after `flag ` in a command's text ("" when it has no such flag).
inline std::string flag_value(const std::string& text, const std::string& flag) {
  const size_t at = text.find(flag + " ");
  if (at == std::string::npos) return "";
  const size_t from = at + flag.size() + 1;
  return text.substr(from, text.find_first_of(" \n\\", from) - from);
}
