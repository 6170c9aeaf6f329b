// The one error type of the core: bad input, always naming the field it is about. The message is
// English; `code` and `values` (docs/errors.md) let a reader in another language word it anew.
#pragma once

#include <initializer_list>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "base/json_object.h"

namespace gpusizer {

// {"field", "message"} plus "code" and "values" where the error has them: the one error object
// of the wasm module and of table cells.
nlohmann::json error_json(const std::string& field, const std::string& message, const std::string& code,
                          const nlohmann::json& values);

struct InputError : std::runtime_error {
  // Both constructors are out of line (error.cpp): a throw site only passes its arguments.
  InputError(std::string field_, const std::string& message, const char* code_ = "",
             std::initializer_list<JsonField> values_ = {});
  InputError(std::string field_, const std::string& message, std::string code_,
             nlohmann::json values_ = nlohmann::json::object());
  std::string field;  // dotted path into the scenario, e.g. "training.zero"
  std::string code;   // stable id of the message ("range", "unknown_key", ...); "" where none yet
  nlohmann::json values = nlohmann::json::object();  // the figures and names the message embeds
};

// throw InputError(...), out of line and cold: a site only passes its arguments (issue 14, wasm size).
[[noreturn, gnu::cold, gnu::noinline]] void throw_input_error(std::string field, const std::string& message,
                                                              const char* code = "",
                                                              std::initializer_list<JsonField> values = {});
// The same for a literal message (and field): their strings are built here, not at ~60 sites.
[[noreturn, gnu::cold, gnu::noinline]] void throw_input_error(std::string field, const char* message,
                                                              const char* code = "",
                                                              std::initializer_list<JsonField> values = {});
[[noreturn, gnu::cold, gnu::noinline]] void throw_input_error(const char* field, const char* message,
                                                              const char* code = "",
                                                              std::initializer_list<JsonField> values = {});

}  // namespace gpusizer
