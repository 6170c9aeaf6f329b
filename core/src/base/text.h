// Small text helpers shared by the name matching, the catalogs and the scenario parser.
#pragma once

#include <string>

namespace gpusizer {

// ASCII lower case ("Qwen/Qwen2.5-7B" -> "qwen/qwen2.5-7b"); other bytes unchanged.
std::string lower_case(const std::string& text);

}  // namespace gpusizer
