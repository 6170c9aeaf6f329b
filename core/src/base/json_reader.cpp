#include "base/json_reader.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"

namespace gpusizer {

namespace {
constexpr const char* kHfConfig = "model.hf_config";
JsonReader::KeyLog* active_log = nullptr;
}  // namespace

JsonReader::KeyLog::KeyLog() { active_log = this; }
JsonReader::KeyLog::~KeyLog() { active_log = nullptr; }

JsonReader::JsonReader(const nlohmann::json& obj, std::string prefix)
    : obj_(obj), prefix_(std::move(prefix)), nulls_absent_(prefix_.rfind(kHfConfig, 0) == 0) {
  require_object(obj_, prefix_.empty() ? "scenario" : prefix_);
}

void JsonReader::note(const std::string& key) {
  if (active_log && prefix_ == kHfConfig) active_log->keys_.insert(key);
}

void JsonReader::mark_seen(const std::string& key) {
  const auto it = obj_.find(key);
  if (it != obj_.end()) seen_.push_back(&it.key());
}

bool JsonReader::has(const std::string& key) {
  note(key);
  const auto it = obj_.find(key);
  if (it == obj_.end()) return false;
  seen_.push_back(&it.key());
  if (!it->is_null()) return true;
  if (nulls_absent_) return false;
  throw_error(field(key), "null");
}

std::string JsonReader::field(const std::string& key) const {
  const std::string name = key.empty() ? "\"\"" : key;  // an empty key still gets a visible name
  return prefix_.empty() ? name : prefix_ + "." + name;
}

const nlohmann::json& JsonReader::raw(const std::string& key) {
  note(key);
  mark_seen(key);
  return obj_.at(key);
}

std::optional<int64_t> JsonReader::integer(const std::string& key, int64_t min, int64_t max) {
  if (!has(key)) return std::nullopt;
  const nlohmann::json& v = obj_.at(key);
  if (!v.is_number()) {
    throw_error(field(key), "integer_range", {{"min", min}, {"max", max}, {"type", v.type_name()}});
  }
  const double d = v.get<double>();
  if (!std::isfinite(d) || std::floor(d) != d || d < static_cast<double>(min) ||
      d > static_cast<double>(max)) {
    throw_error(field(key), "integer_range", {{"min", min}, {"max", max}, {"value", v}});
  }
  return static_cast<int64_t>(d);
}

std::optional<double> JsonReader::number(const std::string& key, double min, double max, bool min_exclusive) {
  if (!has(key)) return std::nullopt;
  const nlohmann::json& v = obj_.at(key);
  if (!v.is_number()) {
    throw_error(field(key), "number_range",
                {{"min", min}, {"max", max}, {"above", min_exclusive}, {"type", v.type_name()}});
  }
  const double d = v.get<double>();
  if (!std::isfinite(d) || d > max || d < min || (min_exclusive && d == min)) {
    throw_error(field(key), "number_range",
                {{"min", min}, {"max", max}, {"above", min_exclusive}, {"value", v}});
  }
  return d;
}

std::optional<bool> JsonReader::boolean(const std::string& key) {
  if (!has(key)) return std::nullopt;
  const nlohmann::json& v = obj_.at(key);
  if (!v.is_boolean()) throw_error(field(key), "boolean", {{"type", v.type_name()}});
  return v.get<bool>();
}

std::optional<std::string> JsonReader::string(const std::string& key) {
  if (!has(key)) return std::nullopt;
  const nlohmann::json& v = obj_.at(key);
  if (!v.is_string()) throw_error(field(key), "string", {{"type", v.type_name()}});
  return v.get<std::string>();
}

std::optional<std::string> JsonReader::choice(const std::string& key,
                                              const std::vector<std::string>& allowed) {
  const nlohmann::json* v = has(key) ? &obj_.at(key) : nullptr;
  if (!v) return std::nullopt;
  if (v->is_string()) {
    for (const auto& a : allowed) {
      if (a == v->get<std::string>()) return a;
    }
  }
  throw_error(field(key), "choice", {{"choices", allowed}, {"value", *v}});
}

std::optional<std::vector<std::string>> JsonReader::string_list(const std::string& key) {
  if (!has(key)) return std::nullopt;
  const nlohmann::json& v = obj_.at(key);
  if (!v.is_array()) throw_error(field(key), "string_list");
  std::vector<std::string> out;
  for (const auto& item : v) {
    if (!item.is_string()) throw_error(field(key), "string_list");
    out.push_back(item.get<std::string>());
  }
  return out;
}

void JsonReader::reject_unknown() const {
  for (auto it = obj_.begin(); it != obj_.end(); ++it) {
    if (std::find(seen_.begin(), seen_.end(), &it.key()) == seen_.end())
      throw_error(field(it.key()), "unknown_key");
  }
}

void require_object(const nlohmann::json& j, const std::string& field) {
  if (!j.is_object()) {
    throw_error(field, "object", {{"type", j.type_name()}});
  }
}

nlohmann::json parse_json(const std::string& text) { return nlohmann::json::parse(text); }

}  // namespace gpusizer
