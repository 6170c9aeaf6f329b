// Embind glue only: JSON text in, JSON text out. Nothing throws into JS; errors come back as
// {"error": {"field", "message"}}.
#include <emscripten/bind.h>

#include <string>

#include "gpusizer/api.h"

namespace {

std::string call(const std::string& command, const std::string& input) {
  try {
    const gpusizer::ApiResult r = gpusizer::run_command(command, input);
    if (r.ok) return r.value.dump();
    return nlohmann::json{{"error", {{"field", r.error_field}, {"message", r.error_message}}}}.dump();
  } catch (...) {  // run_command never throws; this guards the boundary all the same
    return R"({"error":{"field":"input","message":"internal error"}})";
  }
}

std::string estimate(const std::string& input) { return call("estimate", input); }
std::string rank(const std::string& input) { return call("rank", input); }
std::string table(const std::string& input) { return call("table", input); }
std::string takes(const std::string& input) { return call("takes", input); }
std::string launch(const std::string& input) { return call("launch", input); }
std::string catalog() { return call("catalog", ""); }

}  // namespace

EMSCRIPTEN_BINDINGS(gpusizer) {
  emscripten::function("estimate", &estimate);
  emscripten::function("rank", &rank);
  emscripten::function("table", &table);
  emscripten::function("takes", &takes);
  emscripten::function("launch", &launch);
  emscripten::function("catalog", &catalog);
}
