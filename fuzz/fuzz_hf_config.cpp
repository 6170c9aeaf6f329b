// libFuzzer target: any bytes as the contents of a Hugging Face config.json, imported and sized.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "gpusizer/api.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string config(reinterpret_cast<const char*>(data), size);
  // Wrap the bytes as the hf_config of a scenario: malformed JSON stays malformed.
  const std::string scenario = "{\"model\":{\"hf_config\":" + config + "},\"gpu\":\"a100-80gb\"}";
  const gpusizer::ApiResult r = gpusizer::run_command("estimate", scenario);
  if (!r.ok && (r.error_field.empty() || r.error_message.empty())) std::abort();
  return 0;
}
