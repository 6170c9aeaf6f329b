#include "base/error.h"

#include "base/messages.h"

namespace gpusizer {

InputError::InputError(std::string field_, const char* code_, nlohmann::json values_)
    : std::runtime_error(message_text(code_, values_)),
      field(std::move(field_)),
      code(code_),
      values(std::move(values_)) {}

InputError::InputError(std::string field_, const std::string& message, std::string code_,
                       nlohmann::json values_)
    : std::runtime_error(message),
      field(std::move(field_)),
      code(std::move(code_)),
      values(std::move(values_)) {}

void throw_error(std::string field, const char* code, nlohmann::json values) {
  throw InputError(std::move(field), code, std::move(values));
}

void throw_composed_error(std::string field, const std::string& message, const char* code,
                          nlohmann::json values) {
  if (!gpusizer::message(code).composed)
    throw std::logic_error(std::string("message \"") + code + "\" has its template: use throw_error");
  throw InputError(std::move(field), message, code, std::move(values));
}

nlohmann::json error_json(const std::string& field, const std::string& message, const std::string& code,
                          const nlohmann::json& values) {
  nlohmann::json j = {{"field", field}, {"message", message}};
  if (!code.empty()) j["code"] = code;
  if (!values.empty()) j["values"] = values;
  return j;
}

}  // namespace gpusizer
