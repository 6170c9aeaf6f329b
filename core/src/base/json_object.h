// One member of a JSON object ({"heads", 32}) for the values of errors, warnings and notes, and
// the small objects of the answers; json_object turns a list of them into JSON.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusizer {

// One member of a JSON object ({"heads", 32}): a key and a reference to its value, turned into
// JSON by one out-of-line function, json_object (error.cpp). The values of errors, warnings and
// notes, and the objects of the answers, were nlohmann initializer lists whose whole construction
// was inlined at each of ~200 sites (issue 14, wasm size). A JsonField refers to its value without
// copying it: use it only within the expression that builds it.
class JsonField {
 public:
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  JsonField(const char* key, T v) : key_(key), kind_(std::is_signed_v<T> ? kInt : kUint) {
    if constexpr (std::is_signed_v<T>) {
      i_ = v;
    } else {
      u_ = v;
    }
  }
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  JsonField(const char* key, T v) : key_(key), kind_(kNumber), d_(static_cast<double>(v)) {}
  JsonField(const char* key, bool v) : key_(key), kind_(kBool), b_(v) {}
  JsonField(const char* key, const char* v) : key_(key), kind_(kText), p_(v) {}
  JsonField(const char* key, const std::string& v) : key_(key), kind_(kString), p_(&v) {}
  JsonField(const char* key, const std::vector<std::string>& v) : key_(key), kind_(kStrings), p_(&v) {}
  JsonField(const char* key, std::initializer_list<int> v)
      : key_(key), kind_(kInts), ints_{v.begin(), v.size()} {}
  JsonField(const char* key, const nlohmann::json& v) : key_(key), kind_(kJson), p_(&v) {}

 private:
  friend nlohmann::json json_object(std::initializer_list<JsonField> values);
  enum Kind : unsigned char { kInt, kUint, kNumber, kBool, kText, kString, kStrings, kInts, kJson };
  struct Ints {
    const int* data;
    size_t size;
  };
  const char* key_;
  Kind kind_;
  union {
    int64_t i_;
    uint64_t u_;
    double d_;
    bool b_;
    const void* p_;
    Ints ints_;
  };
};

// {"key": value, ...}: the same JSON object the nlohmann initializer list {{"key", value}, ...} gives.
[[gnu::noinline]] nlohmann::json json_object(std::initializer_list<JsonField> values);

}  // namespace gpusizer
