#include "gpusizer/api.h"

#include <functional>
#include <map>
#include <set>

#include "api/catalog_json.h"
#include "base/error.h"
#include "base/json_reader.h"
#include "base/messages.h"
#include "catalog/catalog.h"
#include "catalog/model_names.h"
#include "launch/launch.h"
#include "model/architecture.h"
#include "plan/estimate.h"
#include "plan/planner.h"
#include "plan/table.h"
#include "scenario/scenario.h"

namespace gpusizer {
namespace {

// JSON nesting deeper than any scenario needs; deeper input is refused before parsing recursion
// can exhaust the (small) wasm stack.
constexpr int kMaxDepth = 64;

// A plain function pointer: the handlers capture nothing, and std::function costs wasm bytes
// (a type-erased class per lambda with its RTTI name).
using Handler = nlohmann::json (*)(const nlohmann::json&);

// The top-level keys of a config.json that the core reads (for the page's link, which keeps
// only those): the keys the reader asks about, plus the two that hf_config.cpp reads around it
// (the class name in "architectures" when model_type is missing, and "_name_or_path" for the
// model's display name).
nlohmann::json config_keys(const nlohmann::json& config) {
  JsonReader::KeyLog log;
  from_hf_config(config);  // a config the core refuses is refused here too, its field named
  std::set<std::string> keys = log.keys();
  for (const char* key : {"architectures", "_name_or_path"}) keys.insert(key);
  nlohmann::json out = nlohmann::json::array();
  for (const auto& key : keys) {
    if (config.contains(key)) out.push_back(key);
  }
  return nlohmann::json({{"keys", out}});
}

const std::map<std::string, Handler>& scenario_commands() {
  static const std::map<std::string, Handler> commands = {
      {"estimate",
       [](const nlohmann::json& in) { return to_json(estimate(with_planned_layout(parse_scenario(in)))); }},
      {"rank", [](const nlohmann::json& in) { return rank_json(parse_scenario(in)); }},
      {"takes",
       [](const nlohmann::json& in) {
         nlohmann::json gpus = nlohmann::json::array();
         for (const GpuTakes& t : what_it_takes(parse_scenario(in))) gpus.push_back(to_json(t));
         return nlohmann::json({{"gpus", gpus}});
       }},
      {"fits",
       [](const nlohmann::json& in) {
         nlohmann::json gpus = nlohmann::json::array();
         for (const GpuFitRow& r : fit_on_each(parse_scenario(in))) gpus.push_back(to_json(r));
         return nlohmann::json({{"gpus", gpus}});
       }},
      {"table", [](const nlohmann::json& in) { return table_json(in); }},
      {"launch", [](const nlohmann::json& in) { return launch_json(in); }},
  };
  return commands;
}

void check_depth(const std::string& text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxDepth) throw_error("input", "json_depth", {{"max", kMaxDepth}});
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
}

nlohmann::json parse_text(const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw_error("input", "input_empty");
  // The JSON parser stops at a NUL byte as at the end of the text: whatever follows would pass unread.
  const size_t nul = text.find('\0');
  if (nul != std::string::npos) throw_error("input", "nul_byte", {{"offset", nul}});
  check_depth(text);
  try {
    return parse_json(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw_error("input", "invalid_json", {{"detail", e.what()}});
  } catch (const nlohmann::json::out_of_range& e) {  // 1e400: the parser's "number overflow"
    throw_error("input", "number_overflow", {{"detail", e.what()}});
  }
}

nlohmann::json run_scenarios(Handler handler, const nlohmann::json& input) {
  if (!input.is_array()) return handler(input);
  nlohmann::json out = nlohmann::json::array();
  for (size_t i = 0; i < input.size(); ++i) {
    try {
      out.push_back(handler(input[i]));
    } catch (const InputError& e) {
      throw InputError("[" + std::to_string(i) + "]." + e.field, e.what(), e.code, e.values);
    }
  }
  return out;
}

}  // namespace

nlohmann::json error_json(const ApiResult& r) {
  return error_json(r.error_field, r.error_message, r.error_code, r.error_values);
}

ApiResult run_command(const std::string& command, const std::string& input_text) {
  ApiResult r;
  try {
    if (command == "models") {
      r.value = models_json();
    } else if (command == "gpus") {
      r.value = gpus_json();
    } else if (command == "instances") {
      r.value = instances_json();
    } else if (command == "catalog") {
      r.value = catalog_json();
    } else if (command == "config_keys") {
      r.value = config_keys(parse_text(input_text));
    } else if (command == "messages") {
      r.value = messages_json();  // every message the core can give (base/messages.h)
    } else if (command == "resolve") {
      r.value = resolve_json(input_text);  // a typed model name to a preset (model_names.h)
    } else {
      auto it = scenario_commands().find(command);
      if (it == scenario_commands().end()) throw_error("command", "unknown_command", {{"command", command}});
      r.value = run_scenarios(it->second, parse_text(input_text));
    }
    r.ok = true;
  } catch (const InputError& e) {
    r.error_field = e.field;
    r.error_message = e.what();
    r.error_code = e.code;
    r.error_values = e.values;
  } catch (const std::exception& e) {
    r.error_field = "input";
    r.error_message = std::string("internal error: ") + e.what();
  }
  return r;
}

}  // namespace gpusizer
