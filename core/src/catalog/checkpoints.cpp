#include "catalog/checkpoints.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "base/text.h"
#include "catalog/embedded.h"

namespace gpusizer {
namespace {

struct Data {
  std::vector<PublishedCheckpoint> checkpoints;
  std::vector<ModelLaunchFacts> facts;
};

PublishedCheckpoint read_checkpoint(const nlohmann::json& j, const std::string& field) {
  PublishedCheckpoint c;
  c.preset = j.at("preset").get<std::string>();
  c.repo = j.at("repo").get<std::string>();
  c.variant = j.at("variant").get<std::string>();
  if (!parse_weight_format(j.at("weights").get<std::string>(), &c.weights))
    throw std::logic_error(field + ".weights: no weight format of that id (core/data/checkpoints.json)");
  const nlohmann::json& q = j.at("quant");
  if (q.is_object()) {
    c.block_scaled = q.contains("block") && q.at("block").is_array();
    if (q.contains("file") && q.at("file").is_string()) c.gguf_file = q.at("file").get<std::string>();
    if (q.contains("group_size") && q.at("group_size").is_number_integer())
      c.group_size = q.at("group_size").get<int64_t>();
    if (q.contains("desc_act") && q.at("desc_act").is_boolean()) c.desc_act = q.at("desc_act").get<bool>();
    if (q.contains("scope")) c.quant_scope = q.at("scope").get<std::string>();
    if (!c.quant_scope.empty() && c.quant_scope != "all" && c.quant_scope != "mlp-inner")
      throw std::logic_error(field + ".quant.scope: \"all\" or \"mlp-inner\" (core/data/checkpoints.json)");
  }
  c.max_positions = j.value("max_positions", int64_t{0});
  if (j.contains("total_size_bytes") && j.at("total_size_bytes").is_number())
    c.total_size_bytes = j.at("total_size_bytes").get<double>();
  return c;
}

ModelLaunchFacts read_facts(const nlohmann::json& j) {
  ModelLaunchFacts f;
  f.preset = j.at("preset").get<std::string>();
  f.trust_remote_code = j.value("trust_remote_code", false);
  f.llamafactory_template = j.value("llamafactory_template", "");
  if (j.contains("vllm_args")) {
    for (const nlohmann::json& a : j.at("vllm_args"))
      f.vllm_args.emplace_back(a.at(0).get<std::string>(), a.at(1).get<std::string>());
    f.vllm_args_repos = j.at("vllm_args_repos").get<std::string>();
  }
  if (j.contains("rope_scaling") && j.at("rope_scaling").is_object()) {
    const nlohmann::json& r = j.at("rope_scaling");
    f.rope_scaling = RopeScaling{r.at("type").get<std::string>(), r.at("factor").get<double>(),
                                 r.at("original_max_position_embeddings").get<int64_t>()};
  }
  return f;
}

const Data& data() {
  static const Data d = [] {
    const nlohmann::json all = parse_json(embedded::checkpoints_json);
    Data out;
    const nlohmann::json& list = all.at("checkpoints");
    for (size_t i = 0; i < list.size(); ++i)
      out.checkpoints.push_back(read_checkpoint(list[i], "checkpoints.json[" + std::to_string(i) + "]"));
    for (const nlohmann::json& m : all.at("models")) out.facts.push_back(read_facts(m));
    return out;
  }();
  return d;
}

}  // namespace

const std::vector<PublishedCheckpoint>& published_checkpoints() { return data().checkpoints; }

const PublishedCheckpoint* find_published_checkpoint(const std::string& repo,
                                                     std::optional<WeightFormat> format) {
  const std::string key = lower_case(repo);
  const PublishedCheckpoint* first = nullptr;
  for (const PublishedCheckpoint& c : published_checkpoints()) {
    if (lower_case(c.repo) != key) continue;
    if (format && c.weights == *format) return &c;
    if (!first) first = &c;
  }
  return first;
}

const PublishedCheckpoint* published_checkpoint_of(const std::string& preset, WeightFormat format) {
  const PublishedCheckpoint* found = nullptr;
  for (const PublishedCheckpoint& c : published_checkpoints()) {
    if (c.preset != preset || c.weights != format) continue;
    if (c.variant == "instruct" || c.variant == "chat") return &c;
    if (!found) found = &c;
  }
  return found;
}

const ModelLaunchFacts* model_launch_facts(const std::string& preset) {
  for (const ModelLaunchFacts& f : data().facts) {
    if (f.preset == preset) return &f;
  }
  return nullptr;
}

}  // namespace gpusizer
