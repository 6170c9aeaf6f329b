// Reads fields of one JSON object with the checks every input needs: the right type, the
// allowed range, no unknown key. Each failure is an InputError naming the dotted field.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusizer {

class JsonReader {
 public:
  // `prefix` is the field path of `obj` ("" for the top level, "training" for a sub-object).
  JsonReader(const nlohmann::json& obj, std::string prefix);

  bool has(const std::string& key);
  std::string field(const std::string& key) const;  // the dotted path of key
  const nlohmann::json& raw(const std::string& key);

  std::optional<int64_t> integer(const std::string& key, int64_t min, int64_t max);
  std::optional<double> number(const std::string& key, double min, double max, bool min_exclusive);
  std::optional<bool> boolean(const std::string& key);
  std::optional<std::string> string(const std::string& key);
  // One of `allowed` (the message lists them).
  std::optional<std::string> choice(const std::string& key, const std::vector<std::string>& allowed);
  std::optional<std::vector<std::string>> string_list(const std::string& key);

  // Throws for the first key that no accessor asked about.
  void reject_unknown() const;

 private:
  const nlohmann::json& obj_;
  std::string prefix_;
  std::set<std::string> seen_;
};

// Throws InputError(field, "must be a JSON object") unless j is an object.
void require_object(const nlohmann::json& j, const std::string& field);

// "a, b or c"
std::string join_choices(const std::vector<std::string>& items);

}  // namespace gpusizer
