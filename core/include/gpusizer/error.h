// The one error type of the core: bad input, always naming the field it is about. The message is
// English; `code` and `values` (docs/errors.md) let a reader in another language word it anew.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
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
  JsonField(const char* key, std::initializer_list<int> v) : key_(key), kind_(kInts), ints_{v.begin(), v.size()} {}
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
