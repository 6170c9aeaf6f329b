// The model presets: core/data/models.json, embedded at build time, parsed once on first use.
// Keys are the Architecture members' names; a key left out keeps the member's default.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/json_reader.h"
#include "catalog/embedded.h"
#include "model/architecture.h"

namespace gpusizer {
namespace {

struct IntKey {
  const char* key;
  int64_t Architecture::*member;
  int64_t max;
};
const IntKey kIntKeys[] = {
    {"layers", &Architecture::layers, kMaxArchSize},
    {"hidden", &Architecture::hidden, kMaxArchSize},
    {"heads", &Architecture::heads, kMaxArchSize},
    {"kv_heads", &Architecture::kv_heads, kMaxArchSize},
    {"head_dim", &Architecture::head_dim, kMaxArchSize},
    {"intermediate", &Architecture::intermediate, kMaxArchSize},
    {"vocab", &Architecture::vocab, kMaxArchSize},
    {"norms_per_layer", &Architecture::norms_per_layer, kMaxArchSize},
    {"learned_positions", &Architecture::learned_positions, kMaxArchSize},
    {"type_vocab", &Architecture::type_vocab, kMaxArchSize},
    {"experts", &Architecture::experts, kMaxArchSize},
    {"experts_per_token", &Architecture::experts_per_token, kMaxArchSize},
    {"shared_experts", &Architecture::shared_experts, kMaxArchSize},
    {"expert_intermediate", &Architecture::expert_intermediate, kMaxArchSize},
    {"shared_expert_intermediate", &Architecture::shared_expert_intermediate, kMaxArchSize},
    {"dense_layers", &Architecture::dense_layers, kMaxArchSize},
    {"sliding_window", &Architecture::sliding_window, kMaxArchPositions},
    {"sliding_window_layers", &Architecture::sliding_window_layers, kMaxArchSize},
    {"max_positions", &Architecture::max_positions, kMaxArchPositions},
    {"mtp_layers", &Architecture::mtp_layers, 16},
    {"linear_attn_layers", &Architecture::linear_attn_layers, kMaxArchSize},
    {"linear_key_heads", &Architecture::linear_key_heads, kMaxArchSize},
    {"linear_value_heads", &Architecture::linear_value_heads, kMaxArchSize},
    {"linear_key_dim", &Architecture::linear_key_dim, kMaxArchSize},
    {"linear_value_dim", &Architecture::linear_value_dim, kMaxArchSize},
    {"linear_conv_kernel", &Architecture::linear_conv_kernel, 64},
    {"vision_params", &Architecture::vision_params, int64_t{1} << 40},
};

struct NumberKey {
  const char* key;
  double Architecture::*member;
  double max;
};
const NumberKey kNumberKeys[] = {
    {"rope_theta", &Architecture::rope_theta, kMaxRopeTheta},
    {"norm_eps", &Architecture::norm_eps, kMaxNormEps},
};

struct BoolKey {
  const char* key;
  bool Architecture::*member;
};
const BoolKey kBoolKeys[] = {
    {"tied_embeddings", &Architecture::tied_embeddings},
    {"mlp_bias", &Architecture::mlp_bias},
    {"qk_norm", &Architecture::qk_norm},
    {"final_norm", &Architecture::final_norm},
    {"pooler", &Architecture::pooler},
    {"embedding_norm", &Architecture::embedding_norm},
    {"encoder", &Architecture::encoder},
    {"router_bias", &Architecture::router_bias},
    {"shared_expert_gate", &Architecture::shared_expert_gate},
    {"expert_bias", &Architecture::expert_bias},
    {"attn_sinks", &Architecture::attn_sinks},
    {"mtp_stores_embeddings", &Architecture::mtp_stores_embeddings},
    {"attn_output_gate", &Architecture::attn_output_gate},
    {"lightning_attn", &Architecture::lightning_attn},
};

struct StringKey {
  const char* key;
  std::string Architecture::*member;
};
const StringKey kStringKeys[] = {
    {"id", &Architecture::id},
    {"name", &Architecture::name},
    {"hf_repo", &Architecture::hf_repo},
    {"family", &Architecture::family},
    {"checkpoint_weights", &Architecture::checkpoint_weights},
};

struct MlaKey {
  const char* key;
  int64_t Mla::*member;
};
const MlaKey kMlaKeys[] = {
    {"q_lora_rank", &Mla::q_lora_rank},
    {"kv_lora_rank", &Mla::kv_lora_rank},
    {"qk_nope_head_dim", &Mla::qk_nope_head_dim},
    {"qk_rope_head_dim", &Mla::qk_rope_head_dim},
    {"v_head_dim", &Mla::v_head_dim},
};

void read_enums(JsonReader& r, Architecture* a) {
  if (auto v = r.choice("mlp", {"gated", "plain"})) a->mlp = *v == "plain" ? MlpKind::Plain : MlpKind::Gated;
  if (auto v = r.choice("norm", {"rms", "layer"})) a->norm = *v == "layer" ? NormKind::Layer : NormKind::Rms;
  if (auto v = r.choice("attn_bias", {"none", "qkv", "all"})) {
    a->attn_bias = *v == "all" ? AttnBias::All : *v == "qkv" ? AttnBias::Qkv : AttnBias::None;
  }
}

Architecture read_preset(const nlohmann::json& j, const std::string& field) {
  JsonReader r(j, field);
  Architecture a;
  for (const StringKey& k : kStringKeys) {
    if (auto v = r.string(k.key)) a.*k.member = *v;
  }
  r.string("source");  // where a preset's numbers come from, for people (docs/catalog.md): checked, not kept
  for (const IntKey& k : kIntKeys) {
    if (auto v = r.integer(k.key, 0, k.max)) a.*k.member = *v;
  }
  for (const BoolKey& k : kBoolKeys) {
    if (auto v = r.boolean(k.key)) a.*k.member = *v;
  }
  for (const NumberKey& k : kNumberKeys) {
    if (auto v = r.number(k.key, k.key == std::string("rope_theta") ? 1 : 0, k.max, true)) a.*k.member = *v;
  }
  read_enums(r, &a);
  if (r.has("aliases")) {
    const nlohmann::json& list = r.raw("aliases");
    if (!list.is_array()) throw_error(r.field("aliases"), "aliases_list");
    for (const nlohmann::json& name : list) {
      if (!name.is_string() || name.get<std::string>().empty()) {
        throw_error(r.field("aliases"), "aliases_names", {{"value", name}});
      }
      a.aliases.push_back(name.get<std::string>());
    }
  }
  if (r.has("rope_scaling")) {  // Llama 3.1's {"type": "llama3", "factor": 8, ...}
    JsonReader s(r.raw("rope_scaling"), field + ".rope_scaling");
    RopeScalingConfig& rs = a.rope_scaling;
    const auto need = [&s](const char* key, std::optional<double> v) {
      if (!v) throw_error(s.field(key), "required");
      return *v;
    };
    if (auto v = s.choice("type", {"llama3"})) rs.type = *v;
    if (rs.type.empty()) throw_error(s.field("type"), "required");
    rs.factor = need("factor", s.number("factor", 1, kMaxRopeFactor, false));
    rs.low_freq_factor = need("low_freq_factor", s.number("low_freq_factor", 0, kMaxRopeFactor, true));
    rs.high_freq_factor =
        need("high_freq_factor", s.number("high_freq_factor", rs.low_freq_factor, kMaxRopeFactor, true));
    rs.original_max_positions = static_cast<int64_t>(
        need("original_max_positions", s.integer("original_max_positions", 1, kMaxArchPositions)));
    s.reject_unknown();
  }
  if (r.has("mla")) {
    JsonReader m(r.raw("mla"), field + ".mla");
    for (const MlaKey& k : kMlaKeys) {
      if (auto v = m.integer(k.key, 0, kMaxArchSize)) a.mla.*k.member = *v;
    }
    m.reject_unknown();
  }
  r.reject_unknown();  // a misspelt key in the data file would otherwise be silently ignored
  validate_architecture(a, field);
  return a;
}

std::vector<Architecture> parse_presets() {
  const nlohmann::json all = parse_json(embedded::models_json);
  std::vector<Architecture> out;
  for (size_t i = 0; i < all.size(); ++i) {
    out.push_back(read_preset(all.at(i), "models.json[" + std::to_string(i) + "]"));
  }
  return out;
}

}  // namespace

const std::vector<Architecture>& model_presets() {
  static const std::vector<Architecture> presets = parse_presets();  // thread-safe, once
  return presets;
}

const Architecture* find_preset(const std::string& id) {
  for (const Architecture& a : model_presets()) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

}  // namespace gpusizer
