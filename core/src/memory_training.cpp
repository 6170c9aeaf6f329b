// Training memory (issue #3 replaces this with the full model).
#include "gpusizer/error.h"
#include "gpusizer/memory.h"

namespace gpusizer {

MemoryEstimate training_memory(const Scenario&, const Gpu*) {
  throw InputError("task", "training estimates are not available in this build yet");
}

}  // namespace gpusizer
