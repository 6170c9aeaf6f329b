// The one error type of the core: bad input, always naming the field it is about. The message is
// English, the text of its entry in the message list (base/messages.h); `code` and `values` let a
// reader in another language word it anew (docs/errors.md).
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace gpusizer {

// {"field", "message"} plus "code" and "values" where the error has them: the one error object
// of the wasm module and of table cells.
nlohmann::json error_json(const std::string& field, const std::string& message, const std::string& code,
                          const nlohmann::json& values);

struct InputError : std::runtime_error {
  // The error of message `code` (an error of base/messages.cpp) filled from `values`.
  InputError(std::string field_, const char* code_, nlohmann::json values_ = nlohmann::json::object());
  // An error as it is, with a message already made: the same error under another field.
  InputError(std::string field_, const std::string& message, std::string code_, nlohmann::json values_);
  std::string field;                                 // dotted path into the scenario, e.g. "training.zero"
  std::string code;                                  // stable id of the message ("range", "unknown_key", ...)
  nlohmann::json values = nlohmann::json::object();  // the figures and names the message embeds
};

// throw InputError(field, code, values), out of line and cold.
[[noreturn, gnu::cold, gnu::noinline]] void throw_error(std::string field, const char* code,
                                                        nlohmann::json values = nlohmann::json::object());
// The same for a message its entry marks as composed: the site builds the English.
[[noreturn, gnu::cold, gnu::noinline]] void throw_composed_error(std::string field,
                                                                 const std::string& message, const char* code,
                                                                 nlohmann::json values);

}  // namespace gpusizer
