// libFuzzer target: any bytes as a scenario through every scenario command of the API.
// The API must answer (ok or an error naming a field) without crashing, hanging or leaking,
// and every number of an answer must be finite.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "gpusizer/api.h"

namespace {

bool all_finite(const nlohmann::json& j) {
  if (j.is_number_float()) return std::isfinite(j.get<double>());
  if (j.is_structured()) {
    for (const auto& item : j) {
      if (!all_finite(item)) return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const char* command : {"estimate", "rank", "table", "launch"}) {
    const gpusizer::ApiResult r = gpusizer::run_command(command, text);
    if (r.ok && !all_finite(r.value)) std::abort();
    if (!r.ok && (r.error_field.empty() || r.error_message.empty())) std::abort();
  }
  return 0;
}
