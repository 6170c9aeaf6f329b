// Out of line on purpose (issue 14, wasm size): each throw site and each note passes its values as
// a list of JsonField, and only this file builds JSON from them.
#include "gpusizer/error.h"

namespace gpusizer {

nlohmann::json json_object(std::initializer_list<JsonField> values) {
  nlohmann::json out = nlohmann::json::object();
  for (const JsonField& v : values) {
    nlohmann::json& slot = out[v.key_];
    switch (v.kind_) {
      case JsonField::kInt: slot = v.i_; break;
      case JsonField::kUint: slot = v.u_; break;
      case JsonField::kNumber: slot = v.d_; break;
      case JsonField::kBool: slot = v.b_; break;
      case JsonField::kText: slot = static_cast<const char*>(v.p_); break;
      case JsonField::kString: slot = *static_cast<const std::string*>(v.p_); break;
      case JsonField::kStrings: slot = *static_cast<const std::vector<std::string>*>(v.p_); break;
      case JsonField::kInts:
        slot = nlohmann::json::array();
        for (size_t k = 0; k < v.ints_.size; ++k) slot.push_back(v.ints_.data[k]);
        break;
      case JsonField::kJson: slot = *static_cast<const nlohmann::json*>(v.p_); break;
    }
  }
  return out;
}

InputError::InputError(std::string field_, const std::string& message, const char* code_,
                       std::initializer_list<JsonField> values_)
    : std::runtime_error(message), field(std::move(field_)), code(code_), values(json_object(values_)) {}

InputError::InputError(std::string field_, const std::string& message, std::string code_, nlohmann::json values_)
    : std::runtime_error(message), field(std::move(field_)), code(std::move(code_)), values(std::move(values_)) {}

void throw_input_error(std::string field, const std::string& message, const char* code,
                       std::initializer_list<JsonField> values) {
  throw InputError(std::move(field), message, code, values);
}

void throw_input_error(std::string field, const char* message, const char* code, std::initializer_list<JsonField> values) {
  throw InputError(std::move(field), message, code, values);
}

void throw_input_error(const char* field, const char* message, const char* code, std::initializer_list<JsonField> values) {
  throw InputError(field, message, code, values);
}

}  // namespace gpusizer
