// Number formatting for messages and generated commands, without printf: printf and its
// long-double support add ~10 KB to the wasm module.
#pragma once

#include <string>

namespace gpusizer {

// `value` with exactly `decimals` digits after the point ("%.2f"); |value| below 1e15.
std::string fixed(double value, int decimals);
// `value` with `digits` significant digits and no trailing zeros ("%.3g" without exponents).
std::string significant(double value, int digits);
// `value` as a mantissa of `digits` significant digits and a decimal exponent: 1e-6 -> "1e-6",
// 1.5625e-7 -> "1.5625e-7" (what Python's float() reads back exactly).
std::string scientific(double value, int digits);

}  // namespace gpusizer
