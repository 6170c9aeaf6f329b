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
// head as a one-layer model of the target's width (EAGLE-3 with its own LM head over its draft
// vocabulary), or the draft model in its checkpoint's format. What the draft reads of the target
// (embedding, LM head) is not counted again in its memory; a draft pass still reads the LM head.
struct Draft {
  Scenario scenario;
  bool shares_embedding = false;  // reads the target's embedding (MTP, EAGLE, EAGLE-3)
  bool shares_head = false;       // reads the target's LM head (MTP, EAGLE)
  // Linear weights beside the decoder layer, per module: MTP eh_proj and EAGLE fc (2 x hidden ->
  // hidden), EAGLE-3's fc (3 x hidden -> hidden) and the second hidden of its q/k/v_proj's input.
  double extra_params = 0;
  double weight_copies = 1;  // MTP modules loaded (num_nextn_predict_layers)
  double kv_copies = 1;      // of them, those a step runs (each keeps a KV cache)
};
Draft draft_scenario(const Scenario& s);

}  // namespace gpusizer
