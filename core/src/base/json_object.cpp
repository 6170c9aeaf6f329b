#include "base/json_object.h"

namespace gpusizer {

nlohmann::json json_object(std::initializer_list<JsonField> values) {
  nlohmann::json out = nlohmann::json::object();
  for (const JsonField& v : values) {
    nlohmann::json& slot = out[v.key_];
    switch (v.kind_) {
      case JsonField::kInt:
        slot = v.i_;
        break;
      case JsonField::kUint:
        slot = v.u_;
        break;
      case JsonField::kNumber:
        slot = v.d_;
        break;
      case JsonField::kBool:
        slot = v.b_;
        break;
      case JsonField::kText:
        slot = static_cast<const char*>(v.p_);
        break;
      case JsonField::kString:
        slot = *static_cast<const std::string*>(v.p_);
        break;
      case JsonField::kStrings:
        slot = *static_cast<const std::vector<std::string>*>(v.p_);
        break;
      case JsonField::kInts:
        slot = nlohmann::json::array();
        for (size_t k = 0; k < v.ints_.size; ++k) slot.push_back(v.ints_.data[k]);
        break;
      case JsonField::kJson:
        slot = *static_cast<const nlohmann::json*>(v.p_);
        break;
    }
  }
  return out;
}

}  // namespace gpusizer
