#include "base/text.h"

#include <cctype>

namespace gpusizer {

std::string lower_case(const std::string& text) {
  std::string s;
  s.reserve(text.size());
  for (char c : text) s.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return s;
}

}  // namespace gpusizer
