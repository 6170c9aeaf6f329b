// Bytes per tensor element of the dtypes the memory terms name, and the count-to-double conversion
// they share (internal to core/src; one place for what five files each defined).
#pragma once

#include <cstdint>

namespace gpusizer {

inline constexpr double kFp32 = 4;  // torch.float32: IEEE 754 binary32
inline constexpr double kHalf = 2;  // torch.float16 and torch.bfloat16: 16 bits
// torch.bool, as a dropout mask: aten native_dropout returns the output and a bool mask and saves
// the mask for its backward (aten/src/ATen/native/Dropout.cpp; Korthikanti et al. 2022, sec. 4.1).
inline constexpr double kMaskBytes = 1;

// A count (parameters, tokens, heads) as a double for the byte arithmetic.
inline double d(int64_t v) { return static_cast<double>(v); }

}  // namespace gpusizer
