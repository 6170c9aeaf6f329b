// The module's one export: JSON text in, JSON text out (wasm/api.js gives it the methods
// estimate, rank, ... that the page calls). Nothing throws into JS; errors come back as
// {"error": {"field", "message", "code", "values"}} (docs/errors.md).
// No embind (issue 14, wasm size): eight string-to-string functions need only a C export, and
// embind's runtime (its JS type registry and invokers, its C++ type registrations) was the
// largest part of the glue.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <string>

#include "gpusizer/api.h"

namespace {

std::string call(const std::string& command, const std::string& input) {
  try {
    const gpusizer::ApiResult r = gpusizer::run_command(command, input);
    if (r.ok) return r.value.dump();
    return nlohmann::json{{"error", gpusizer::error_json(r.error_field, r.error_message, r.error_code, r.error_values)}}.dump();
  } catch (...) {  // run_command never throws; this guards the boundary all the same
    return R"({"error":{"field":"input","message":"internal error"}})";
  }
}

}  // namespace

// command: NUL-terminated UTF-8; input: `length` bytes of UTF-8 (it may hold NUL characters).
// The answer stays valid until the next call (one thread); JSON text from dump() has no NUL.
extern "C" EMSCRIPTEN_KEEPALIVE const char* gpusizer_call(const char* command, const char* input, std::size_t length) {
  static std::string answer;
  answer = call(command, std::string(input, length));
  return answer.c_str();
}
