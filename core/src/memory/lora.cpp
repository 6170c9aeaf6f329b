#include "memory/lora.h"

#include "memory/element_bytes.h"

namespace gpusizer {

bool lora_targets_module(const LinearModule& m, LoraTargets targets) {
  switch (targets) {
    case LoraTargets::AllLinear:
      return m.group != "router";
    case LoraTargets::Attention:
      return m.group == "attention";
    case LoraTargets::Qv:
      return m.name == "q" || m.name == "v" || m.name == "q_b" || m.name == "kv_b";
  }
  return false;
}

double lora_params(const Architecture& a, LoraTargets targets, int64_t rank) {
  double total = 0;
  for (const LinearModule& m : linear_modules(a)) {
    if (lora_targets_module(m, targets))
      total += d(m.count) * d(rank) * d(m.in + m.out);  // A: in x r, B: r x out
  }
  return total;
}

}  // namespace gpusizer
