// Speculative decoding as a serving option (engine_options.speculative): parsing, the checks that
// need the whole scenario, and the draft as a scenario of its own that the memory and speed
// rooflines size (memory_inference.cpp, speed_speculative.cpp; docs/speed.md "Speculative decoding").
#pragma once

#include "base/json_reader.h"
#include "scenario/scenario.h"

namespace gpusizer {

// Reads engine_options.speculative from `options` (the engine_options reader) into `out`.
void parse_speculative(JsonReader& options, EngineOptions* out);

// Whether the scenario decodes speculatively (a serving task with engine_options.speculative).
bool speculative(const Scenario& s);

// Throws InputError on "engine_options.speculative[.<key>]": serving only, vLLM or SGLang, "mtp"
// on a model with MTP modules.
void validate_speculative(const Scenario& s);

// The draft as a one-replica serving scenario on the target's TP ranks: the MTP module or the EAGLE
// head as a one-layer model of the target's width (its own LM head and embedding only where the
// draft stores its own), or the draft model in its checkpoint's format. `shares_head` is set when
// the draft reads the target's LM head (MTP, EAGLE), whose weights are then not counted again.
struct Draft {
  Scenario scenario;
  bool shares_head = false;  // reads the target's LM head and embedding (not counted again)
  double fc_inputs = 0;      // MTP eh_proj / EAGLE fc: fc_inputs x hidden -> hidden, beside the layer
  double weight_copies = 1;  // MTP modules loaded (num_nextn_predict_layers)
  double kv_copies = 1;      // of them, those a step runs (each keeps a KV cache)
};
Draft draft_scenario(const Scenario& s);

}  // namespace gpusizer
