// Calibrated intervals around the three memory figures: for each group (task kind x counter),
// the 10th and 90th percentile of the relative errors prediction / measurement - 1 that
// scripts/validate.mjs found on the held-out sources, read from core/data/ranges.json.
#include <string>

#include <nlohmann/json.hpp>

#include "embedded.h"
#include "gpusizer/architecture.h"
#include "gpusizer/memory.h"

namespace gpusizer {
namespace {

const nlohmann::json& table() {
  static const nlohmann::json t = nlohmann::json::parse(embedded::ranges_json);
  return t;
}

}  // namespace

std::vector<MemoryRange> memory_ranges(const Scenario& s, const MemoryFigures& f) {
  std::vector<MemoryRange> out;
  const nlohmann::json& groups = table().at("groups");
  const std::string kind = is_training(s.task) ? "training" : "inference";
  const double params = count_params(s.model).total;
  const std::pair<const char*, double> figures[] = {
      {"allocated", f.allocated_bytes}, {"reserved", f.reserved_bytes}, {"nvidia_smi", f.nvidia_smi_bytes}};
  for (const auto& [name, value] : figures) {
    const std::string key = kind + "." + name;
    if (!groups.contains(key)) continue;
    const nlohmann::json& g = groups.at(key);
    MemoryRange r;
    r.figure = name;
    r.group = key;
    r.cases = g.at("cases").get<int64_t>();
    // measured = predicted / (1 + error): the high error bounds the low measurement and back.
    r.low_bytes = value / (1 + g.at("p90").get<double>());
    r.high_bytes = value / (1 + g.at("p10").get<double>());
    r.far_from_data = params < g.at("params_min").get<double>() / 2 || params > 2 * g.at("params_max").get<double>();
    out.push_back(r);
  }
  return out;
}

}  // namespace gpusizer
