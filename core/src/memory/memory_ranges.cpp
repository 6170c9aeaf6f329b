// Calibrated intervals around the three memory figures: for each group (task kind x counter),
// the 10th and 90th percentile of the relative errors prediction / measurement - 1 that
// scripts/validate.mjs found on the held-out sources, read from core/data/ranges.json.
#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "catalog/embedded.h"
#include "memory/memory.h"
#include "model/architecture.h"

namespace gpusizer {
namespace {

// One group of core/data/ranges.json, read once: every estimate (the planner makes thousands)
// looks its groups up here instead of in the JSON.
struct Group {
  std::string key;
  int64_t cases = 0;
  double p10 = 0, p90 = 0, params_min = 0, params_max = 0;
};

const std::vector<Group>& groups() {
  static const std::vector<Group> all = [] {
    std::vector<Group> out;
    const nlohmann::json t = parse_json(embedded::ranges_json);
    for (const auto& [key, g] : t.at("groups").items()) {
      out.push_back({key, g.at("cases").get<int64_t>(), g.at("p10").get<double>(), g.at("p90").get<double>(),
                     g.at("params_min").get<double>(), g.at("params_max").get<double>()});
    }
    return out;
  }();
  return all;
}

}  // namespace

std::vector<MemoryRange> memory_ranges(const Scenario& s, const MemoryFigures& f) {
  std::vector<MemoryRange> out;
  const char* kind = is_training(s.task) ? "training." : "inference.";
  const double params = count_params(s.model).total;
  const std::pair<const char*, double> figures[] = {
      {"allocated", f.allocated_bytes}, {"reserved", f.reserved_bytes}, {"nvidia_smi", f.nvidia_smi_bytes}};
  out.reserve(3);
  for (const auto& [name, value] : figures) {
    const std::string key = std::string(kind) + name;
    const auto g =
        std::find_if(groups().begin(), groups().end(), [&](const Group& x) { return x.key == key; });
    if (g == groups().end()) continue;
    MemoryRange r;
    r.figure = name;
    r.group = key;
    r.cases = g->cases;
    // measured = predicted / (1 + error): the high error bounds the low measurement and back.
    r.low_bytes = value / (1 + g->p90);
    r.high_bytes = value / (1 + g->p10);
    r.far_from_data = params < g->params_min / 2 || params > 2 * g->params_max;
    out.push_back(r);
  }
  return out;
}

}  // namespace gpusizer
