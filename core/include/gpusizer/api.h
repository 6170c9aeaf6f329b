// The three-plus entry points behind the CLI and the wasm module: JSON text in, JSON out.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace gpusizer {

struct ApiResult {
  bool ok = false;
  nlohmann::json value;     // the answer when ok
  std::string error_field;  // when !ok: the dotted field ("[2].training.zero" inside an array)
  std::string error_message;
  std::string error_code;  // when !ok and the message has one (docs/errors.md): its stable id
  nlohmann::json error_values = nlohmann::json::object();  // the figures and names it embeds
};

// The answer's error as {"field", "message"} plus "code" and "values" where it has them.
nlohmann::json error_json(const ApiResult& r);

// Commands: "estimate", "rank" (planner.h), "takes" (planner.h what_it_takes), "table" (table.h),
// the catalog listings "models", "gpus", "instances" (input ignored), and "resolve" (a typed model
// name: model_names.h). "config_keys" takes a config.json object and answers {"keys": [...]}: its
// top-level keys that the core reads (the page keeps only those in its link). "messages" (input
// ignored) lists every error, warning, launch note, launch blocker, reason and format kind the
// core can give: [{"code", "kind", "fields", "en"}, ...], "en" the English template
// (docs/errors.md).
// The input of a scenario command is one scenario object or an array of them (then the answer
// is an array in the same order). Never throws.
ApiResult run_command(const std::string& command, const std::string& input_text);

}  // namespace gpusizer
