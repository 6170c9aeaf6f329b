// The one error type of the core: bad input, always naming the field it is about. The message is
// English; `code` and `values` (docs/errors.md) let a reader in another language word it anew.
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace gpusizer {

struct InputError : std::runtime_error {
  InputError(std::string field_, const std::string& message, std::string code_ = "",
             nlohmann::json values_ = nlohmann::json::object())
      : std::runtime_error(message), field(std::move(field_)), code(std::move(code_)), values(std::move(values_)) {}
  std::string field;  // dotted path into the scenario, e.g. "training.zero"
  std::string code;   // stable id of the message ("range", "unknown_key", ...); "" where none yet
  nlohmann::json values = nlohmann::json::object();  // the figures and names the message embeds
};

}  // namespace gpusizer
