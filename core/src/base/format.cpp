#include "base/format.h"

#include <cmath>
#include <cstdint>

namespace gpusizer {

std::string fixed(double value, int decimals) {
  int64_t scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  // Beyond int64 llround is undefined (at the scenario's limits a memory need reaches 1e23 GiB):
  // whole units, the digits past the 18th written as zeros.
  if (!(std::fabs(value) * static_cast<double>(scale) < 9e18)) {
    if (!std::isfinite(value)) return value != value ? "nan" : value < 0 ? "-inf" : "inf";
    double digits = std::fabs(value);
    int zeros = 0;
    for (; digits >= 1e18; ++zeros) digits /= 10;
    return (value < 0 ? "-" : "") + std::to_string(std::llround(digits)) +
           std::string(static_cast<size_t>(zeros), '0');
  }
  const int64_t scaled = std::llround(std::fabs(value) * static_cast<double>(scale));
  std::string out = (value < 0 && scaled != 0) ? "-" : "";
  out += std::to_string(scaled / scale);
  if (decimals > 0) {
    std::string frac = std::to_string(scaled % scale);
    out += "." + std::string(static_cast<size_t>(decimals) - frac.size(), '0') + frac;
  }
  return out;
}

std::string significant(double value, int digits) {
  if (value == 0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  std::string out = fixed(value, std::max(0, digits - 1 - magnitude));
  if (out.find('.') != std::string::npos) {
    out.erase(out.find_last_not_of('0') + 1);
    if (out.back() == '.') out.pop_back();
  }
  return out;
}

std::string scientific(double value, int digits) {
  if (value == 0 || !std::isfinite(value)) return significant(value, digits);
  int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  std::string mantissa = significant(value / std::pow(10.0, exponent), digits);
  if (mantissa == "10" || mantissa == "-10") {  // 9.9999999e-6 rounds up to the next power
    ++exponent;
    mantissa = mantissa.substr(0, mantissa.size() - 1);
  }
  return mantissa + "e" + std::to_string(exponent);
}

}  // namespace gpusizer
