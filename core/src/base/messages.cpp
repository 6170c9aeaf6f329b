#include "base/messages.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "base/format.h"

namespace gpusizer {

namespace {

using K = MessageKind;

// Grouped by kind, then by the part of the core that gives them.
const std::vector<Message> kMessages = {
    // Errors of any JSON input (base/json_reader.cpp).
    {"null", K::Error, "", "must not be null: leave the key out to get its default"},
    {"integer_range", K::Error, "min max type value",
     "must be an integer from {min} to {max}{?type:, not {type}}{?value: (got {value:json})}"},
    {"number_range", K::Error, "min max above type value",
     "must be a number {?above:above }{!above:from }{min} to {max}{?type:, not {type}}"
     "{?value: (got {value:json})}"},
    {"boolean", K::Error, "type", "must be true or false, not {type}"},
    {"string", K::Error, "type", "must be a string, not {type}"},
    {"choice", K::Error, "choices value", "must be {choices:or}{?value: (got {value:json})}"},
    {"string_list", K::Error, "", "must be an array of strings"},
    {"unknown_key", K::Error, "", "unknown key"},
    {"object", K::Error, "type", "must be a JSON object, not {type}"},
    // The text given to the module (api/api.cpp, catalog/model_names.cpp).
    {"json_depth", K::Error, "max", "JSON nested deeper than {max} levels"},
    {"input_empty", K::Error, "", "is empty: expected a scenario JSON object"},
    {"nul_byte", K::Error, "offset", "has a NUL byte at offset {offset}: JSON text holds none"},
    {"invalid_json", K::Error, "detail", "is not valid JSON: {detail}"},
    {"number_overflow", K::Error, "detail", "has a number beyond the range of a double: {detail}"},
    {"unknown_command", K::Error, "command", "unknown command \"{command}\""},
    {"resolve_form", K::Error, "", "resolve takes {\"model\": \"<name>\"}, a JSON string or plain text"},
    {"model_name_empty", K::Error, "", "is empty: give a model name or Hub id"},
    {"name_too_long", K::Error, "length max",
     "is {length} characters long: no model name has more than {max}"},
    // The message grows with what the name matched: several presets, a Hub id, suggestions; the
    // table's models list (plan/table.cpp) names a model as JSON, whatever its type.
    {"unknown_model", K::Error, "name suggestions",
     "unknown preset id \"{name}\" (see `gpusizer models`); did you mean {suggestions:or}?", true},
    // The catalog's own model list (catalog/models.cpp).
    {"aliases_list", K::Error, "", "must be a list of names"},
    {"aliases_names", K::Error, "value", "must hold non-empty strings (got {value:json})"},
    // A scenario (scenario/scenario.cpp, scenario/engine_options_parse.cpp).
    {"schema", K::Error, "", "must be 1"},
    {"model_required", K::Error, "",
     "is required: a preset id, {\"hf_config\": ...}, {\"params\": ...} or explicit fields"},
    {"model_type", K::Error, "type", "must be a preset id or an object, not {type}"},
    {"model_one_key", K::Error, "key", "an object with \"{key}\" takes no other key"},
    {"engine_serving", K::Error, "engine",
     "\"{engine}\" serves models; for training use \"deepspeed\", \"fsdp\", \"megatron\" or "
     "\"transformers\""},
    {"engine_training", K::Error, "engine",
     "\"{engine}\" is a training engine; for inference use \"vllm\", \"sglang\", \"lmdeploy\", "
     "\"tensorrt-llm\", \"transformers\" or \"llama.cpp\""},
    {"unknown_gpu", K::Error, "id", "unknown GPU id \"{id}\" (see `gpusizer gpus`)"},
    {"unknown_provider", K::Error, "id",
     "unknown provider id \"{id}\" (see `gpusizer instances`; \"custom\" is your own)"},
    {"date", K::Error, "", "must be a date \"YYYY-MM-DD\""},
    {"tokens_sum", K::Error, "prompt_tokens output_tokens seq_len",
     "prompt_tokens + output_tokens must equal seq_len ({prompt_tokens} + {output_tokens} != {seq_len})"},
    {"exceeds_seq_len", K::Error, "seq_len", "must not exceed seq_len"},
    {"tokens_alone", K::Error, "other", "give seq_len or {other} with it"},
    {"seq_len_min", K::Error, "", "must be at least 1 token"},
    {"tp_pp_divide_gpus", K::Error, "tp pp gpus tp_pp", "tp * pp ({tp_pp}) must divide gpus ({gpus})"},
    {"tp_heads", K::Error, "heads", "must divide the attention heads ({heads})"},
    {"pp_layers", K::Error, "layers", "must not exceed the layers ({layers})"},
    {"qlora_weights", K::Error, "weights",
     "QLoRA trains adapters over a 4-bit base: use \"nf4\" (or another 4-bit format), not \"{weights}\""},
    {"gguf_training", K::Error, "", "GGUF formats are for llama.cpp inference, not training"},
    {"full_weights", K::Error, "weights",
     "full fine-tuning and pre-training update every weight in 16 or 32 bits: use \"bf16\", \"fp16\" or "
     "\"fp32\", not \"{weights}\" (quantised bases train with \"lora\" or \"qlora\")"},
    {"gguf_engine", K::Error, "engine", "GGUF formats run on engine \"llama.cpp\", not \"{engine}\""},
    {"offload_needs_zero", K::Error, "",
     "CPU offload needs ZeRO: offload_optimizer needs stage 1-3, offload_params stage 3"},
    {"offload_params_zero3", K::Error, "", "parameter offload needs ZeRO stage 3"},
    {"encoder_generates", K::Error, "", "an encoder model generates no tokens"},
    {"load_rate_required", K::Error, "", "is required: requests per second to carry, above 0"},
    {"load_training", K::Error, "", "applies to serving (task \"inference\"), not to training"},
    {"below_one", K::Error, "", "must be below 1"},
    {"group_size_zero", K::Error, "", "must be positive or -1 (one group per column)"},
    // pricing.custom_instances (scenario/scenario.cpp).
    {"instance_list", K::Error, "", "must be an array of instance objects"},
    {"instance_name_required", K::Error, "", "is required: a name for the instance type"},
    {"catalog_instance_name", K::Error, "name",
     "\"{name}\" is a catalog instance type: give yours another name (or set its price in "
     "pricing.overrides)"},
    {"duplicate_instance_name", K::Error, "name", "\"{name}\" is already a custom instance type"},
    {"instance_gpu_required", K::Error, "", "is required: a catalog GPU id (see `gpusizer gpus`)"},
    {"instance_gpus_required", K::Error, "", "is required: an integer from 1 to 64"},
    {"instance_price_required", K::Error, "", "is required: a number above 0"},
    {"instance_currency_required", K::Error, "", "is required: \"USD\" or \"CNY\""},
    // Explicit model fields and a parameter count (model/architecture.cpp).
    {"required", K::Error, "", "is required"},
    {"size_range", K::Error, "min max value", "must be from {min} to {max} (got {value})"},
    {"kv_heads_divide", K::Error, "heads kv_heads",
     "heads ({heads}) must be divisible by kv_heads ({kv_heads})"},
    {"params_range", K::Error, "", "must be a parameter count above 0 and at most 1e15"},
    {"params_no_shape", K::Error, "",
     "no Llama-like shape comes within 1 % of this count (the scaling rule starts near 1e7); give explicit "
     "fields"},
    {"head_dim_required", K::Error, "", "is required when hidden is not divisible by heads"},
    {"intermediate_required", K::Error, "",
     "is required (only an all-MoE model with expert_intermediate can leave it out)"},
    // A Hugging Face config.json (model/hf_config.cpp).
    {"config_missing", K::Error, "", "is missing from config.json"},
    {"config_kv_heads_divide", K::Error, "key heads kv_heads",
     "{key} ({heads}) is not divisible by it ({kv_heads})"},
    {"layer_indices", K::Error, "max value",
     "must be a list of layer indices from 0 to {max}{?value: (got {value:json})}"},
    {"experts_zero", K::Error, "",
     "is 0: a mixture-of-experts config needs at least 1 expert (a dense model leaves the key out)"},
    {"experts_per_token", K::Error, "experts", "is larger than the number of experts ({experts})"},
    {"layer_kinds_count", K::Error, "layers", "must list one attention kind per layer ({layers})"},
    {"layer_kinds_values", K::Error, "value", "must hold strings (got {value:json})"},
    {"minimax_layer_kinds", K::Error, "",
     "is missing from config.json: MiniMax needs each layer's attention kind (0 = lightning, 1 = softmax), "
     "or "
     "layer_types"},
    {"minimax_kind_numbers", K::Error, "value", "must hold 0 (lightning) or 1 (softmax) (got {value:json})"},
    {"minimax_kind_names", K::Error, "value",
     "must hold \"linear_attention\" or \"full_attention\" (got {value:json})"},
    {"intermediate_even", K::Error, "", "must be even (QWenMLP halves it)"},
    {"vision_config_unknown", K::Error, "model_type",
     "is not counted for model type \"{model_type}\" (known: gemma3, qwen2_5_vl, llama4, mistral3); remove "
     "it "
     "to size the language model alone"},
    {"head_dim_missing", K::Error, "hidden heads",
     "is missing from config.json, and the hidden size ({hidden}) is not divisible by the attention heads "
     "({heads})"},
    // The lookup table's input (plan/table.cpp).
    {"table_input", K::Error, "type", "must be an object (models, columns, context, pricing, filters)"},
    {"table_key", K::Error, "",
     "is not a table key (models, columns, context, pricing, filters, headroom, efficiency)"},
    {"table_models", K::Error, "", "must be a non-empty array of preset ids"},
    {"table_object", K::Error, "type", "must be an object"},
    {"context_key", K::Error, "", "is not a shared setting (seq_len, training.tokens)"},
    {"context_training_key", K::Error, "", "is not a shared setting (only tokens)"},
    {"unknown_column", K::Error, "id columns", "unknown column ({columns:list})"},
    {"unknown_column_id", K::Error, "id columns", "unknown column {id} ({columns:list})"},
    {"column_overrides", K::Error, "type", "must be an object of scenario keys"},
    {"column_setting", K::Error, "",
     "is not a setting of this column (the planner chooses gpu, gpus, tp and pp)"},
    {"column_training_key", K::Error, "", "is not a training setting"},
    // rank and launch (plan/planner.cpp, launch/launch.cpp).
    {"load_with_gpus", K::Error, "",
     "sets the GPU count through its replicas: rank with either \"gpus\" or \"load\""},
    {"no_plan_for_instance", K::Error, "instance",
     "no plan for instance type \"{instance}\": unknown, excluded by the filters or the scenario's gpu, or "
     "not "
     "on-demand"},
    {"no_fitting_plan", K::Error, "",
     "no catalog plan fits this scenario: give plan.gpu with a layout, or relax the filters"},
    {"plan_gpu_required", K::Error, "", "is required (a catalog GPU id) unless plan.instance is given"},
    {"plan_unknown_gpu", K::Error, "id", "unknown GPU id \"{id}\""},
    {"plan_instance_string", K::Error, "type", "must be a string (an instance type)"},
};

const nlohmann::json* value_of(const nlohmann::json& values, const std::string& name) {
  if (!values.is_object()) return nullptr;
  auto it = values.find(name);
  return it == values.end() ? nullptr : &*it;
}

[[noreturn]] void template_error(const char* text, const std::string& why) {
  throw std::logic_error(std::string("message template \"") + text + "\": " + why);
}

// The position of the "}" that closes the "{" at `open`.
size_t closing(std::string_view t, size_t open) {
  int depth = 0;
  for (size_t i = open; i < t.size(); ++i) {
    if (t[i] == '{') ++depth;
    if (t[i] == '}' && --depth == 0) return i;
  }
  return std::string_view::npos;
}

std::string joined(const nlohmann::json& items, const char* last) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? last : ", ";
    out += items[i].is_string() && std::string(last) == ", " ? items[i].get<std::string>() : items[i].dump();
  }
  return out;
}

std::string formatted(const nlohmann::json& v, std::string_view format) {
  if (format.empty()) return v.is_string() ? v.get<std::string>() : v.dump();
  if (format == "json") return v.dump();
  if (format == "or") return joined(v, " or ");
  if (format == "list") return joined(v, ", ");
  if (format == "gib") return fixed(v.get<double>() / (1024.0 * 1024.0 * 1024.0), 2) + " GiB";
  throw std::logic_error("unknown message format \"" + std::string(format) + "\"");
}

// Fills `t` (a template or a part of one) into `out`; with `names`, lists its value names instead.
void fill(const char* whole, std::string_view t, const nlohmann::json* values, std::string* out,
          std::vector<std::string>* names) {
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] != '{' || i + 1 >= t.size() || t[i + 1] == '"' || t[i + 1] == '.') {
      if (out) out->push_back(t[i]);
      continue;
    }
    const size_t end = closing(t, i);
    if (end == std::string_view::npos) template_error(whole, "unclosed {");
    const std::string_view inner = t.substr(i + 1, end - i - 1);
    if (inner[0] == '?' || inner[0] == '!') {
      const size_t colon = inner.find(':');
      if (colon == std::string_view::npos) template_error(whole, "a condition without ':'");
      const std::string name(inner.substr(1, colon - 1));
      if (names) {
        names->push_back(name);
        fill(whole, inner.substr(colon + 1), nullptr, nullptr, names);
      } else {
        const nlohmann::json* v = value_of(*values, name);
        const bool given = v != nullptr && *v != false;
        if (given == (inner[0] == '?')) fill(whole, inner.substr(colon + 1), values, out, nullptr);
      }
    } else {
      const size_t colon = inner.find(':');
      const std::string name(inner.substr(0, colon));
      const std::string_view format = colon == std::string_view::npos ? "" : inner.substr(colon + 1);
      if (names) {
        names->push_back(name);
      } else {
        const nlohmann::json* v = value_of(*values, name);
        if (!v) template_error(whole, "no value for {" + name + "}");
        *out += formatted(*v, format);
      }
    }
    i = end;
  }
}

}  // namespace

const char* to_string(MessageKind k) {
  switch (k) {
    case MessageKind::Error:
      return "error";
    case MessageKind::Warning:
      return "warning";
    case MessageKind::Note:
      return "note";
    case MessageKind::Blocker:
      return "blocker";
    case MessageKind::Reason:
      return "reason";
    case MessageKind::Format:
      return "format";
  }
  return "";
}

const std::vector<Message>& messages() { return kMessages; }

const Message& message(std::string_view code) {
  // Built once: warnings and notes are looked up while ranking hundreds of plans.
  static const std::unordered_map<std::string_view, const Message*> by_code = [] {
    std::unordered_map<std::string_view, const Message*> map;
    for (const Message& m : kMessages) map.emplace(m.code, &m);
    return map;
  }();
  auto it = by_code.find(code);
  if (it != by_code.end()) return *it->second;
  throw std::logic_error("no message has the code \"" + std::string(code) + "\"");
}

std::vector<std::string> message_fields(const Message& m) {
  std::vector<std::string> out;
  std::string_view rest = m.fields;
  while (!rest.empty()) {
    const size_t space = rest.find(' ');
    out.emplace_back(rest.substr(0, space));
    rest = space == std::string_view::npos ? "" : rest.substr(space + 1);
  }
  return out;
}

std::string message_text(const Message& m, const nlohmann::json& values) {
  if (m.composed) throw std::logic_error(std::string("message \"") + m.code + "\" is composed at its site");
  const std::vector<std::string> fields = message_fields(m);
  for (auto it = values.begin(); it != values.end(); ++it) {
    if (std::find(fields.begin(), fields.end(), it.key()) == fields.end())
      throw std::logic_error(std::string("message \"") + m.code + "\" has no field \"" + it.key() + "\"");
  }
  std::string out;
  fill(m.en, m.en, &values, &out, nullptr);
  return out;
}

std::string message_text(std::string_view code, const nlohmann::json& values) {
  return message_text(message(code), values);
}

std::vector<std::string> template_names(std::string_view text) {
  std::vector<std::string> names;
  const std::string whole(text);
  fill(whole.c_str(), text, nullptr, nullptr, &names);
  return names;
}

nlohmann::json messages_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const Message& m : kMessages) {
    nlohmann::json e = {
        {"code", m.code}, {"kind", to_string(m.kind)}, {"fields", message_fields(m)}, {"en", m.en}};
    if (m.composed) e["composed"] = true;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace gpusizer
