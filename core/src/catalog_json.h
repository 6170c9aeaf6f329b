// Catalog listings as JSON (the `models`, `gpus`, `instances` commands and the page's start-up).
#pragma once

#include <nlohmann/json.hpp>

#include "gpusizer/architecture.h"
#include "gpusizer/catalog.h"

namespace gpusizer {

nlohmann::json architecture_json(const Architecture& a);
nlohmann::json models_json();
nlohmann::json gpus_json();
nlohmann::json instances_json();

}  // namespace gpusizer
