// Parses the embedded catalogs (core/data/gpus.json, core/data/instances.json) once, on first use.
// The data files are part of the build, so a malformed entry is a programming error: it throws
// std::runtime_error naming the entry and the key (the catalog tests exercise every entry).
#include "catalog/catalog.h"

#include <algorithm>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "catalog/embedded.h"

namespace gpusizer {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw std::runtime_error("embedded catalog: " + where + ": " + what);
}

const json& field(const json& obj, const char* key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end()) bad(where, std::string("missing key \"") + key + "\"");
  return *it;
}

std::string get_string(const json& obj, const char* key, const std::string& where) {
  const json& v = field(obj, key, where);
  if (!v.is_string()) bad(where, std::string("\"") + key + "\" must be a string");
  return v.get<std::string>();
}

double get_number(const json& obj, const char* key, const std::string& where) {
  const json& v = field(obj, key, where);
  if (!v.is_number()) bad(where, std::string("\"") + key + "\" must be a number");
  return v.get<double>();
}

int get_int(const json& obj, const char* key, const std::string& where) {
  const json& v = field(obj, key, where);
  if (!v.is_number_integer()) bad(where, std::string("\"") + key + "\" must be an integer");
  return v.get<int>();
}

bool get_bool(const json& obj, const char* key, const std::string& where) {
  const json& v = field(obj, key, where);
  if (!v.is_boolean()) bad(where, std::string("\"") + key + "\" must be true or false");
  return v.get<bool>();
}

// Every key of an entry must be a struct member: a misspelt key would otherwise be ignored.
void only_keys(const json& obj, std::initializer_list<const char*> keys, const std::string& where) {
  if (!obj.is_object()) bad(where, "must be an object");
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool known = false;
    for (const char* k : keys) known = known || it.key() == k;
    if (!known) bad(where, "unknown key \"" + it.key() + "\"");
  }
}

json parse(const char* text, const char* name) {
  json doc;
  try {
    doc = parse_json(text);
  } catch (const json::exception& e) {
    bad(name, e.what());
  }
  if (!doc.is_object()) bad(name, "must be a JSON object");
  return doc;
}

std::vector<Gpu> load_gpus() {
  const json doc = parse(embedded::gpus_json, "gpus.json");
  const json& list = field(doc, "gpus", "gpus.json");
  if (!list.is_array()) bad("gpus.json", "\"gpus\" must be an array");
  std::vector<Gpu> out;
  for (const json& e : list) {
    std::string where = "gpus.json entry " + std::to_string(out.size());
    only_keys(e,
              {"id",
               "name",
               "vendor",
               "arch",
               "year",
               "memory_bytes",
               "marketed_memory_bytes",
               "memory_measured",
               "nvidia_smi_memory_bytes",
               "memory_note",
               "bandwidth_bytes_per_s",
               "fp32_tflops",
               "tf32_tflops",
               "fp16_tflops",
               "bf16_tflops",
               "fp8_tflops",
               "int8_tops",
               "int4_tops",
               "supports_bf16",
               "supports_fp8",
               "interconnect_bytes_per_s",
               "pcie_bytes_per_s",
               "cuda_context_bytes",
               "blas_workspace_bytes",
               "source",
               "notes"},
              where);
    Gpu g;
    g.id = get_string(e, "id", where);
    where += " (" + g.id + ")";
    g.name = get_string(e, "name", where);
    g.vendor = get_string(e, "vendor", where);
    g.arch = get_string(e, "arch", where);
    g.year = get_int(e, "year", where);
    g.memory_bytes = get_number(e, "memory_bytes", where);
    g.marketed_memory_bytes = get_number(e, "marketed_memory_bytes", where);
    g.memory_measured = get_bool(e, "memory_measured", where);
    g.nvidia_smi_memory_bytes = get_number(e, "nvidia_smi_memory_bytes", where);
    get_string(e, "memory_note", where);  // for people (catalog.h): a string, not kept
    g.bandwidth_bytes_per_s = get_number(e, "bandwidth_bytes_per_s", where);
    g.fp32_tflops = get_number(e, "fp32_tflops", where);
    g.tf32_tflops = get_number(e, "tf32_tflops", where);
    g.fp16_tflops = get_number(e, "fp16_tflops", where);
    g.bf16_tflops = get_number(e, "bf16_tflops", where);
    g.fp8_tflops = get_number(e, "fp8_tflops", where);
    g.int8_tops = get_number(e, "int8_tops", where);
    g.int4_tops = get_number(e, "int4_tops", where);
    g.supports_bf16 = get_bool(e, "supports_bf16", where);
    g.supports_fp8 = get_bool(e, "supports_fp8", where);
    g.interconnect_bytes_per_s = get_number(e, "interconnect_bytes_per_s", where);
    g.pcie_bytes_per_s = get_number(e, "pcie_bytes_per_s", where);
    g.cuda_context_bytes = get_number(e, "cuda_context_bytes", where);
    g.blas_workspace_bytes = get_number(e, "blas_workspace_bytes", where);
    g.source = get_string(e, "source", where);
    get_string(e, "notes", where);
    for (const Gpu& other : out) {
      if (other.id == g.id) bad(where, "duplicate id");
    }
    out.push_back(std::move(g));
  }
  return out;
}

struct InstanceData {
  std::vector<Instance> instances;
  double cny_per_usd = 0;
};

InstanceData load_instances() {
  const json doc = parse(embedded::instances_json, "instances.json");
  InstanceData data;
  data.cny_per_usd = get_number(doc, "cny_per_usd", "instances.json");
  if (!(data.cny_per_usd > 0)) bad("instances.json", "\"cny_per_usd\" must be positive");
  const json& sources = field(doc, "sources", "instances.json");
  if (!sources.is_object()) bad("instances.json", "\"sources\" must be an object");
  const json& list = field(doc, "instances", "instances.json");
  if (!list.is_array()) bad("instances.json", "\"instances\" must be an array");
  for (const json& e : list) {
    std::string where = "instances.json entry " + std::to_string(data.instances.size());
    only_keys(e,
              {"provider",
               "provider_id",
               "instance",
               "region",
               "gpu_id",
               "gpus",
               "vcpu",
               "ram_bytes",
               "price_per_hour",
               "currency",
               "billing",
               "billing_term",
               "price_date",
               "source",
               "notes",
               "gpu_link",
               "gpu_link_bytes_per_s",
               "network_gbps",
               "rdma",
               "cluster",
               "network_source",
               "marketplace"},
              where);
    Instance in;
    in.instance = get_string(e, "instance", where);
    where += " (" + in.instance + ")";
    in.provider = get_string(e, "provider", where);
    in.provider_id = get_string(e, "provider_id", where);
    in.region = get_string(e, "region", where);
    in.gpu_id = get_string(e, "gpu_id", where);
    in.gpus = get_int(e, "gpus", where);
    in.vcpu = get_int(e, "vcpu", where);
    in.ram_bytes = get_number(e, "ram_bytes", where);
    in.price_per_hour = get_number(e, "price_per_hour", where);
    in.currency = get_string(e, "currency", where);
    in.billing = get_string(e, "billing", where);
    const auto& kinds = billing_kinds();
    if (std::find(kinds.begin(), kinds.end(), in.billing) == kinds.end()) bad(where, "unknown \"billing\"");
    // A commitment names its term; no other kind has one (the key is left out there).
    if (e.contains("billing_term")) in.billing_term = get_string(e, "billing_term", where);
    if ((in.billing == "reserved" || in.billing == "subscription") == in.billing_term.empty())
      bad(where, "\"billing_term\" is given for reserved and subscription rows only, and there always");
    in.price_date = get_string(e, "price_date", where);
    // Rows name a key of the "sources" table: the long citations are stored once.
    const std::string source_key = get_string(e, "source", where);
    in.source = get_string(sources, source_key.c_str(), where + " source");
    get_string(e, "notes", where);
    // The network facts (docs/catalog.md "Networks"): every row carries all six, with a source.
    in.gpu_link = get_string(e, "gpu_link", where);
    if (in.gpu_link != "nvswitch" && in.gpu_link != "nvlink" && in.gpu_link != "xgmi" &&
        in.gpu_link != "pcie" && in.gpu_link != "none") {
      bad(where, "\"gpu_link\" must be nvswitch, nvlink, xgmi, pcie or none");
    }
    in.gpu_link_bytes_per_s = get_number(e, "gpu_link_bytes_per_s", where);
    in.network_gbps = get_number(e, "network_gbps", where);
    if (in.gpu_link_bytes_per_s < 0 || in.network_gbps < 0)
      bad(where, "network figures must not be negative");
    in.rdma = get_string(e, "rdma", where);
    if (!in.rdma.empty() && in.rdma != "infiniband" && in.rdma != "roce" && in.rdma != "efa" &&
        in.rdma != "erdma" && in.rdma != "tcpx" && in.rdma != "tcpxo") {
      bad(where, "\"rdma\" must be infiniband, roce, efa, erdma, tcpx, tcpxo or empty");
    }
    in.cluster = get_bool(e, "cluster", where);
    if (e.contains("marketplace")) in.marketplace = get_bool(e, "marketplace", where);
    const std::string network_key = get_string(e, "network_source", where);
    in.network_source = get_string(sources, network_key.c_str(), where + " network_source");
    data.instances.push_back(std::move(in));
  }
  return data;
}

const InstanceData& instance_data() {
  static const InstanceData data = load_instances();
  return data;
}

}  // namespace

const std::vector<Gpu>& gpu_catalog() {
  static const std::vector<Gpu> gpus = load_gpus();
  return gpus;
}

const Gpu* find_gpu(const std::string& id) {
  // A scan of the 32 types: no hash table in the wasm (size); the planner's lookup for
  // every instance of a ranking costs microseconds either way.
  for (const Gpu& g : gpu_catalog()) {
    if (g.id == id) return &g;
  }
  return nullptr;
}

const std::vector<Instance>& instance_catalog() { return instance_data().instances; }

const std::vector<std::string>& billing_kinds() {
  static const std::vector<std::string> kinds = {"on-demand", "spot", "reserved", "subscription",
                                                 "capacity-block"};
  return kinds;
}

double default_cny_per_usd() { return instance_data().cny_per_usd; }

}  // namespace gpusizer
