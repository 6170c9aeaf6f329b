// Catalog listings as JSON (the `models`, `gpus`, `instances` commands and the page's start-up).
#pragma once

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "model/architecture.h"

namespace gpusizer {

nlohmann::json architecture_json(const Architecture& a);
nlohmann::json models_json();
nlohmann::json gpus_json();
nlohmann::json instances_json();
// Everything the page needs once at start-up: presets, GPUs, instances, formats and ids.
nlohmann::json catalog_json();

}  // namespace gpusizer
