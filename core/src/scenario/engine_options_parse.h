// Parses the scenario's "engine_options" object into Scenario::engine_options.
#pragma once

#include "base/json_reader.h"
#include "scenario/engine_options.h"

namespace gpusizer {

// Reads top-level "engine_options" when present; throws InputError naming "engine_options.<key>".
void parse_engine_options(JsonReader& top, EngineOptions* o);

}  // namespace gpusizer
