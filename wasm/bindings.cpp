// Embind glue only: JSON text in, JSON text out. Nothing throws into JS; errors come back as
// {"error": {"field", "message", "code", "values"}} (docs/errors.md).
#include <emscripten/bind.h>

#include <string>

#include "gpusizer/api.h"

namespace {

// JSON text with every non-ASCII character as a \u escape (nlohmann's ensure_ascii): the same
// values once parsed, and the page's decoding stays on the browser's ASCII fast path. The rank
// answer (~159 KB) with its 88 arrows and dashes (price sources) took 2.9 ms to decode and parse
// in Chromium, 0.3 ms escaped (a profile).
std::string text(const nlohmann::json& value) { return value.dump(-1, ' ', true); }

std::string call(const std::string& command, const std::string& input) {
  try {
    const gpusizer::ApiResult r = gpusizer::run_command(command, input);
    if (r.ok) return text(r.value);
    return text(nlohmann::json{{"error", gpusizer::error_json(r)}});
  } catch (...) {  // run_command never throws; this guards the boundary all the same
    return R"({"error":{"field":"input","message":"internal error"}})";
  }
}

std::string estimate(const std::string& input) { return call("estimate", input); }
std::string rank(const std::string& input) { return call("rank", input); }
std::string table(const std::string& input) { return call("table", input); }
std::string takes(const std::string& input) { return call("takes", input); }
std::string fits(const std::string& input) { return call("fits", input); }
std::string launch(const std::string& input) { return call("launch", input); }
std::string catalog() { return call("catalog", ""); }
std::string messages() { return call("messages", ""); }
std::string config_keys(const std::string& input) { return call("config_keys", input); }

}  // namespace

EMSCRIPTEN_BINDINGS(gpusizer) {
  emscripten::function("estimate", &estimate);
  emscripten::function("rank", &rank);
  emscripten::function("table", &table);
  emscripten::function("takes", &takes);
  emscripten::function("fits", &fits);
  emscripten::function("launch", &launch);
  emscripten::function("catalog", &catalog);
  emscripten::function("messages", &messages);
  emscripten::function("config_keys", &config_keys);
}
