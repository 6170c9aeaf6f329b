// Model names as people type them: preset ids, display names, Hugging Face and ModelScope ids
// (with or without the organisation and URL), loose spellings ("llama 3.1 8b", "qwen2.5 72b
// instruct"), and the weight format a checkpoint name carries ("-AWQ", "-GPTQ-Int8", "-FP8",
// "bnb-4bit", "Q4_K_M"). Aliases are data (the "aliases" of core/data/models.json).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/architecture.h"
#include "model/precision.h"

namespace gpusizer {

struct ModelNameMatch {
  const Architecture* preset = nullptr;  // nullptr: no preset (see suggestions)
  // "id", "checkpoint" (a published checkpoint's repository), "alias" (id, name, repo or alias
  // after normalising), "prefix", "fuzzy"
  std::string matched_by;
  bool has_weights = false;  // the name carries a weight format
  WeightFormat weights = WeightFormat::Bf16;
  std::string weights_token;             // the part of the name that gave it ("awq", "q4_k_m")
  std::string hub_id;                    // "org/name" when the text is a Hub id (or a Hub URL)
  bool modelscope = false;               // the Hub id is ModelScope's (model_names.cpp hub_of)
  std::vector<std::string> suggestions;  // preset ids, best first, when nothing matched
  bool ambiguous = false;                // several presets match the name (e.g. "gemma 3": four sizes)
};

// The normalised key of a name: lower case, URL and organisation dropped, format and noise
// words ("instruct", "chat", "it", "hf", dates) removed, split into tokens at separators and
// where letters meet digits ("qwen2.5" -> "qwen 2.5"), joined by single spaces.
std::string normalize_model_name(const std::string& text);

// Never throws; matched_by empty and suggestions filled on a miss.
ModelNameMatch match_model_name(const std::string& text);

// The preset a typed name means, or InputError(field, "unknown model ...; did you mean a, b?").
ModelNameMatch resolve_model_name(const std::string& text, const std::string& field);

// The "resolve" command of the API: `input` is a JSON string, {"model": "..."} or plain text.
// Answers {"input", "found", "id", "name", "hf_repo", "matched_by", "weights" (a format id or
// null), "weights_from", "hub_id" (null unless "org/name"), "ambiguous", "suggestions",
// "message" (why not found), "config_urls" (for a Hub id that is no preset: where its
// config.json is on the Hugging Face Hub and ModelScope)}. Throws InputError only for input
// that is neither.
nlohmann::json resolve_json(const std::string& input);

}  // namespace gpusizer
