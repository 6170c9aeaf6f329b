// Reads fields of one JSON object with the checks every input needs: the right type, the
// allowed range, no unknown key. Each failure is an InputError naming the dotted field.
#pragma once

#include <cstdint>
#include <initializer_list>
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

  // Whether obj has `key`. A null value is refused (InputError "must not be null ..."): in
  // gpusizer's own formats a key is given or left out. The one exception is a Hugging Face
  // config.json (prefix "model.hf_config..."), where transformers writes null for an unset option:
  // there null reads as absent.
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

  // While a KeyLog is alive, the keys that readers with prefix exactly "model.hf_config" ask
  // about are added to it: the top-level keys of a config.json that the core reads (the page
  // keeps only those in its link). One log at a time; not thread-safe (the core is single-threaded).
  class KeyLog {
   public:
    KeyLog();
    ~KeyLog();
    KeyLog(const KeyLog&) = delete;
    KeyLog& operator=(const KeyLog&) = delete;
    const std::set<std::string>& keys() const { return keys_; }

   private:
    friend class JsonReader;
    std::set<std::string> keys_;
  };

 private:
  void note(const std::string& key);
  void mark_seen(const std::string& key);
  const nlohmann::json& obj_;
  std::string prefix_;
  bool nulls_absent_;  // after prefix_, which it is computed from
  // The keys of obj_ an accessor asked about, by address (obj_'s own key strings): a set of
  // copies cost an allocation per read, a sixth of the catalogs' load (callgrind).
  std::vector<const std::string*> seen_;
};

// Throws InputError(field, "must be a JSON object") unless j is an object.
void require_object(const nlohmann::json& j, const std::string& field);

// The JSON value of `text` (strict: nothing but whitespace after it); throws nlohmann's parse_error.
nlohmann::json parse_json(const std::string& text);

}  // namespace gpusizer
