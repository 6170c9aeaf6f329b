#include "format.h"

#include <cmath>
#include <cstdint>

namespace gpusizer {

std::string fixed(double value, int decimals) {
  int64_t scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
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

}  // namespace gpusizer
