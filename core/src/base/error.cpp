// Out of line on purpose (issue 14, wasm size): each throw site and each note passes its values as
// a list of JsonField, and only this file builds JSON from them.
#include "base/error.h"

namespace gpusizer {

InputError::InputError(std::string field_, const std::string& message, const char* code_,
                       std::initializer_list<JsonField> values_)
    : std::runtime_error(message), field(std::move(field_)), code(code_), values(json_object(values_)) {}

InputError::InputError(std::string field_, const std::string& message, std::string code_,
                       nlohmann::json values_)
    : std::runtime_error(message),
      field(std::move(field_)),
      code(std::move(code_)),
      values(std::move(values_)) {}

void throw_input_error(std::string field, const std::string& message, const char* code,
                       std::initializer_list<JsonField> values) {
  throw InputError(std::move(field), message, code, values);
}

void throw_input_error(std::string field, const char* message, const char* code,
                       std::initializer_list<JsonField> values) {
  throw InputError(std::move(field), message, code, values);
}

void throw_input_error(const char* field, const char* message, const char* code,
                       std::initializer_list<JsonField> values) {
  throw InputError(field, message, code, values);
}

nlohmann::json error_json(const std::string& field, const std::string& message, const std::string& code,
                          const nlohmann::json& values) {
  nlohmann::json j = json_object({{"field", field}, {"message", message}});
  if (!code.empty()) j["code"] = code;
  if (!values.empty()) j["values"] = values;
  return j;
}

}  // namespace gpusizer
