// The one error type of the core: bad input, always naming the field it is about.
#pragma once

#include <stdexcept>
#include <string>

namespace gpusizer {

struct InputError : std::runtime_error {
  InputError(std::string field_, const std::string& message)
      : std::runtime_error(message), field(std::move(field_)) {}
  std::string field;  // dotted path into the scenario, e.g. "training.zero"
};

}  // namespace gpusizer
