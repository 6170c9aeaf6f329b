// The catalogs of core/data/, compiled in by cmake/embed.cmake.
#pragma once

namespace gpusizer::embedded {
extern const char models_json[];
extern const char gpus_json[];
extern const char instances_json[];
}  // namespace gpusizer::embedded
