// The GPU and instance catalogs: ids, golden figures with their sources, and the integrity of
// every instance row. Figures and their sources are in core/data/*.json and docs/catalog.md.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/embedded.h"

namespace gpusizer::embedded {
// The whole files (CMakeLists.txt: generated/golden_data.cpp); the core's own copies embed
// their unread members ("sources" of gpus.json, "skipped") as 0.
extern const char full_gpus_json[];
extern const char full_instances_json[];
}  // namespace gpusizer::embedded

using gpusizer::find_gpu;
using gpusizer::Gpu;
using gpusizer::gpu_catalog;
using gpusizer::Instance;
using gpusizer::instance_catalog;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

const Gpu& gpu(const std::string& id) {
  const Gpu* g = find_gpu(id);
  INFO("gpu id " << id);
  REQUIRE(g != nullptr);
  return *g;
}

const Instance* instance(const std::string& provider_id, const std::string& name) {
  for (const Instance& in : instance_catalog()) {
    if (in.provider_id == provider_id && in.instance == name) return &in;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("catalog: every GPU id named by the scenario spec exists", "[catalog]") {
  // docs/scenario.md, "Catalog ids that must exist".
  for (const char* id : {"t4",        "a10",       "a10g",           "l4",
                         "l20",       "l40s",      "v100-16gb",      "v100-32gb",
                         "a100-40gb", "a100-80gb", "a100-80gb-pcie", "a800-80gb",
                         "h100-80gb", "h100-pcie", "h800",           "h20",
                         "h200",      "b200",      "rtx3090",        "rtx4090",
                         "mi300x"}) {
    INFO(id);
    CHECK(find_gpu(id) != nullptr);
  }
  // Added for instances of facts_cloud.json.
  CHECK(find_gpu("h100-nvl") != nullptr);
  CHECK(find_gpu("a800-40gb") != nullptr);
  CHECK(find_gpu("no-such-gpu") == nullptr);
  CHECK(gpu_catalog().size() == 32);
}

TEST_CASE("catalog: golden GPU figures", "[catalog]") {
  // A100 SXM4 80GB: 2039 GB/s (facts_gpus.md: STAS, KLOCK_A100, THUNDER).
  CHECK(gpu("a100-80gb").bandwidth_bytes_per_s == 2039e9);
  CHECK(gpu("a100-80gb-pcie").bandwidth_bytes_per_s == 1935e9);  // THUNDER
  // H100 SXM5: 989 dense BF16/FP16 TFLOPS, 1979 FP8, 3350 GB/s, NVLink 900 GB/s (STAS, KLOCK_H100).
  CHECK(gpu("h100-80gb").bf16_tflops == 989);
  CHECK(gpu("h100-80gb").fp16_tflops == 989);
  CHECK(gpu("h100-80gb").fp8_tflops == 1979);
  CHECK(gpu("h100-80gb").bandwidth_bytes_per_s == 3350e9);
  CHECK(gpu("h100-80gb").interconnect_bytes_per_s == 900e9);
  // A800/H800: NVLink capped at 400 GB/s (LLMPROF).
  CHECK(gpu("a800-80gb").interconnect_bytes_per_s == 400e9);
  CHECK(gpu("h800").interconnect_bytes_per_s == 400e9);
  // GeForce cards: the FP32-accumulate rates PyTorch sees (R4090, R3090).
  CHECK(gpu("rtx4090").bf16_tflops == Approx(165.2));
  CHECK(gpu("rtx4090").fp8_tflops == Approx(330.3));
  CHECK(gpu("rtx3090").fp16_tflops == 71);
  // MI300X: 1307.4 dense FP16, 5.3 TB/s (STAS, MI300X).
  CHECK(gpu("mi300x").fp16_tflops == Approx(1307.4));
  CHECK(gpu("mi300x").bandwidth_bytes_per_s == 5300e9);
  CHECK(gpu("b200").bf16_tflops == 2250);
}

TEST_CASE("catalog: BF16 and FP8 support follow the architecture", "[catalog]") {
  // facts_gpus.md conventions: no BF16 on T4/V100; FP8 only on Ada (CC 8.9), Hopper, Blackwell, CDNA3/4
  // (the Ascend 910B has none).
  for (const char* id : {"t4", "v100-16gb", "v100-32gb"}) {
    INFO(id);
    CHECK_FALSE(gpu(id).supports_bf16);
    CHECK(gpu(id).bf16_tflops == 0);
    CHECK(gpu(id).fp16_tflops > 0);
  }
  const std::set<std::string> fp8_arch = {"ada", "hopper", "blackwell", "cdna3", "cdna4"};
  for (const Gpu& g : gpu_catalog()) {
    INFO(g.id);
    CHECK(g.supports_fp8 == (fp8_arch.count(g.arch) == 1));
    CHECK(g.supports_fp8 == (g.fp8_tflops > 0));
    CHECK(g.supports_bf16 == (g.bf16_tflops > 0));
    if (g.supports_bf16) CHECK(g.bf16_tflops == g.fp16_tflops);  // same tensor rate on every listed part
  }
}

TEST_CASE("catalog: torch-visible memory", "[catalog]") {
  // H100 80GB HBM3: torch total_memory 81090 MiB (facts_gpu_visible_memory.md; other logs 81082-81089
  // MiB, i.e. the catalog value is exact for the most common log and within 8 MiB of the others).
  const Gpu& h100 = gpu("h100-80gb");
  CHECK(h100.memory_bytes == 81090 * kMiB);
  CHECK(h100.memory_bytes == 85029027840.0);
  CHECK(h100.memory_measured);
  CHECK(h100.nvidia_smi_memory_bytes == 81559 * kMiB);
  CHECK(h100.marketed_memory_bytes == 80e9);
  CHECK(gpu("a100-80gb").memory_bytes == 81153 * kMiB);  // torch 2.7 cu126 log
  CHECK(gpu("t4").memory_bytes == 15842934784.0);        // 15109 MiB, Colab and others
  CHECK(gpu("h200").memory_bytes == 150109945856.0);     // 143156 MiB
  CHECK(gpu("mi300x").memory_bytes == 206141652992.0);   // 196592 MiB, torch on ROCm
  CHECK(gpu("b200").memory_bytes == 191514017792.0);     // 182642 MiB
  // Derived (no torch log found): the sibling part's value, and it says so.
  CHECK_FALSE(gpu("h100-pcie").memory_measured);
  CHECK(gpu("h100-pcie").memory_bytes == h100.memory_bytes);
  CHECK_FALSE(gpu("a10").memory_measured);
  CHECK(gpu("a10").memory_bytes == gpu("a10g").memory_bytes);

  // Each entry of the file says where its memory figure comes from (the core's copy embeds the
  // notes as "": cmake/embed.cmake).
  // A named document: a range-for over parse(...).at(...) would outlive the parsed temporary.
  const nlohmann::json full = nlohmann::json::parse(gpusizer::embedded::full_gpus_json);
  for (const auto& e : full.at("gpus")) {
    INFO(e.at("id").get<std::string>());
    CHECK_FALSE(e.at("memory_note").get<std::string>().empty());
  }
  for (const Gpu& g : gpu_catalog()) {
    INFO(g.id);
    // A label of N "GB" is N GiB of chips (HBM stacks, GDDR dies); what CUDA sees is 90-100 % of it.
    const double label_gib = g.marketed_memory_bytes / 1e9 * kGiB;
    CHECK(g.memory_bytes <= label_gib);
    CHECK(g.memory_bytes >= 0.9 * label_gib);
    CHECK(std::fmod(g.memory_bytes, kMiB) == 0);  // logs give whole MiB
    if (g.nvidia_smi_memory_bytes > 0 && g.vendor == "nvidia") {
      CHECK(g.nvidia_smi_memory_bytes > g.memory_bytes);  // NVML reserve 250-900 MiB
      CHECK(g.nvidia_smi_memory_bytes - g.memory_bytes < 1024 * kMiB);
    }
  }
}

TEST_CASE("catalog: per-GPU overheads and links", "[catalog]") {
  for (const Gpu& g : gpu_catalog()) {
    INFO(g.id);
    CHECK(g.bandwidth_bytes_per_s > 0);
    CHECK(g.fp32_tflops > 0);
    CHECK(g.fp16_tflops > 0);
    CHECK((g.pcie_bytes_per_s == 32e9 || g.pcie_bytes_per_s == 64e9 || g.pcie_bytes_per_s == 128e9));
    CHECK(g.interconnect_bytes_per_s >= 0);
    CHECK(g.year >= 2017);
    // Context: ~400 MiB lazy-loading budget before Hopper, ~600 MiB Hopper, 612 MiB measured on B200.
    // cuBLAS: 8,519,680 B below CC 9, 32 MiB Hopper/Blackwell, 128 + 76 MiB on MI300X.
    if (g.arch == "hopper") {
      CHECK(g.cuda_context_bytes == 600 * kMiB);
      CHECK(g.blas_workspace_bytes == 32 * kMiB);
    } else if (g.arch == "blackwell") {
      CHECK(g.cuda_context_bytes == 612 * kMiB);
      CHECK(g.blas_workspace_bytes == 32 * kMiB);
    } else if (g.arch == "cdna3" || g.arch == "cdna4") {  // hipBLAS 128 MiB on gfx942 and gfx950
      CHECK(g.cuda_context_bytes == 600 * kMiB);
      CHECK(g.blas_workspace_bytes == 204 * kMiB);
    } else if (g.arch == "ascend") {  // CANN runtime: budget assumed, workspace unknown (gpus.json notes)
      CHECK(g.cuda_context_bytes == 600 * kMiB);
      CHECK(g.blas_workspace_bytes == 0);
    } else {
      CHECK(g.cuda_context_bytes == 400 * kMiB);
      CHECK(g.blas_workspace_bytes == 8519680.0);
    }
  }
  CHECK(gpu("t4").pcie_bytes_per_s == 32e9);
  CHECK(gpu("a100-80gb").pcie_bytes_per_s == 64e9);
  CHECK(gpu("h100-80gb").pcie_bytes_per_s == 128e9);
  // PCIe-only parts (optional pairwise bridges are not modelled).
  for (const char* id :
       {"t4", "a10", "a10g", "l4", "l20", "l40s", "a100-80gb-pcie", "h100-pcie", "h100-nvl", "rtx3090",
        "rtx4090", "rtx5090", "rtx-pro-6000", "rtx-a6000", "rtx6000-ada", "l40"}) {
    INFO(id);
    CHECK(gpu(id).interconnect_bytes_per_s == 0);
  }
}

TEST_CASE("catalog: 2025-2026 GPUs", "[catalog]") {
  // RTX 5090: deviceQuery totalGlobalMem 33677180928 B = 32117 MiB (driver 570.133.04), measured.
  CHECK(gpu("rtx5090").memory_bytes == 32117 * kMiB);
  CHECK(gpu("rtx5090").memory_measured);
  CHECK(gpu("rtx5090").bandwidth_bytes_per_s == 1792e9);
  // GeForce convention (as rtx4090): FP32-accumulate rate = 838.4 sparse / 4.
  CHECK(gpu("rtx5090").bf16_tflops == Approx(838.4 / 4));
  // RTX PRO 6000: 4000 TOPS FP4 sparse -> 500 dense FP16 with full-rate FP32 accumulation; 96 GB.
  CHECK(gpu("rtx-pro-6000").bf16_tflops == 500);
  CHECK(gpu("rtx-pro-6000").marketed_memory_bytes == 96e9);
  CHECK_FALSE(gpu("rtx-pro-6000").memory_measured);
  // 48 GB GDDR6 boards, ECC on: nvidia-smi 46068 MiB.
  for (const char* id : {"rtx-a6000", "rtx6000-ada", "l40"}) {
    INFO(id);
    CHECK(gpu(id).nvidia_smi_memory_bytes == 46068 * kMiB);
    CHECK(gpu(id).memory_bytes < gpu(id).nvidia_smi_memory_bytes);
  }
  CHECK_FALSE(gpu("rtx-a6000").supports_fp8);  // Ampere
  // B300: 2.25 PFLOP/s dense BF16 per GPU (HGX B300 36 PFLOPS sparse / 2 / 8), NVLink 5.
  CHECK(gpu("b300").bf16_tflops == 2250);
  CHECK(gpu("b300").interconnect_bytes_per_s == 1800e9);
  CHECK(gpu("b300").memory_bytes > gpu("b200").memory_bytes);
  // AMD: MI325X 256 GB at 6 TB/s, MI355X 288 GB at 8 TB/s with FP8 5.025 PFLOP/s dense.
  CHECK(gpu("mi325x").bandwidth_bytes_per_s == 6e12);
  CHECK(gpu("mi325x").memory_bytes == (256 * 1024 - 16) * kMiB);
  CHECK(gpu("mi355x").arch == "cdna4");
  CHECK(gpu("mi355x").fp8_tflops == 5025);
  // Ascend 910B: 64 GB HBM2e, no FP8, vendor huawei.
  CHECK(gpu("ascend-910b").vendor == "huawei");
  CHECK_FALSE(gpu("ascend-910b").supports_fp8);
  CHECK(gpu("ascend-910b").memory_bytes == 64 * kGiB);
}

TEST_CASE("catalog: every GPU source key is defined in gpus.json", "[catalog]") {
  const auto doc = nlohmann::json::parse(gpusizer::embedded::full_gpus_json);
  const auto& sources = doc.at("sources");
  for (const Gpu& g : gpu_catalog()) {
    INFO(g.id);
    REQUIRE_FALSE(g.source.empty());
    std::stringstream ss(g.source);
    std::string key;
    while (std::getline(ss, key, ',')) {
      while (!key.empty() && key.front() == ' ') key.erase(key.begin());
      INFO(key);
      CHECK(sources.contains(key));
    }
  }
}

TEST_CASE("catalog: every instance row is usable", "[catalog]") {
  const auto& list = instance_catalog();
  REQUIRE(list.size() == 165);
  const std::set<std::string> providers = {"alibaba", "aws",    "gcp",     "azure",
                                           "lambda",  "runpod", "tencent", "coreweave"};
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  bool alibaba_block = true;  // Alibaba rows come first, in one block
  for (const Instance& in : list) {
    INFO(in.provider << " " << in.instance << " " << in.region);
    CHECK(providers.count(in.provider_id) == 1);
    CHECK(find_gpu(in.gpu_id) != nullptr);
    CHECK(in.gpus >= 1);
    CHECK(in.price_per_hour > 0);
    CHECK(in.vcpu >= 0);
    CHECK(in.ram_bytes >= 0);
    CHECK_FALSE(in.price_date.empty());
    CHECK_FALSE(in.source.empty());
    CHECK((in.billing == "on-demand" || in.billing == "spot" || in.billing == "capacity-block"));
    if (in.provider_id == "alibaba" || in.provider_id == "tencent") {
      CHECK(in.currency == "CNY");
    } else {
      CHECK(in.currency == "USD");
    }
    if (in.provider_id != "alibaba") alibaba_block = false;
    CHECK((in.provider_id == "alibaba") == alibaba_block);
    CHECK(seen.insert({in.provider, in.instance, in.region}).second);  // no duplicate
  }
  CHECK(list.front().provider_id == "alibaba");
}

TEST_CASE("catalog: instance GPU mappings", "[catalog]") {
  struct Row {
    const char* provider_id;
    const char* instance;
    const char* gpu_id;
    int gpus;
  };
  for (const Row& r :
       {Row{"aws", "p4d.24xlarge", "a100-40gb", 8},  // A100 40GB SXM4
        Row{"aws", "p4de.24xlarge", "a100-80gb", 8}, Row{"aws", "g5.xlarge", "a10g", 1},
        Row{"aws", "p5.48xlarge", "h100-80gb", 8},
        Row{"azure", "Standard_NC24ads_A100_v4", "a100-80gb-pcie", 1},  // NC A100 v4: PCIe
        Row{"azure", "Standard_ND96amsr_A100_v4", "a100-80gb", 8},
        Row{"azure", "Standard_NC40ads_H100_v5", "h100-nvl", 1},  // Azure docs: H100 NVL
        Row{"gcp", "a2-ultragpu-2g", "a100-80gb", 2},             // A100 80GB SXM4
        Row{"gcp", "a2-highgpu-1g", "a100-40gb", 1},
        Row{"tencent", "GT4.4XLARGE96", "a100-40gb", 1},       // Tencent docs: A100 NVLink 40 GB
        Row{"tencent", "GN10Xp.20XLARGE320", "v100-32gb", 8},  // V100 NVLink 32 GB
        Row{"alibaba", "ecs.ebmgn7v.32xlarge", "a800-40gb", 8},
        Row{"alibaba", "ecs.gn8v-8x.16xlarge", "h20", 8},
        Row{"alibaba", "ecs.gn6v-c8g1.2xlarge", "v100-16gb", 1}, Row{"lambda", "8x B200 SXM6", "b200", 8},
        Row{"runpod", "H100 NVL Secure", "h100-nvl", 1}}) {
    INFO(r.instance);
    const Instance* in = instance(r.provider_id, r.instance);
    REQUIRE(in != nullptr);
    CHECK(in->gpu_id == r.gpu_id);
    CHECK(in->gpus == r.gpus);
  }
  // Prices as in facts_cloud.json; Lambda's per-GPU quote times the 8 GPUs of the instance.
  CHECK(instance("alibaba", "ecs.gn7i-c8g1.2xlarge")->price_per_hour == 9.62);
  CHECK(instance("aws", "g4dn.xlarge")->price_per_hour == 0.526);
  CHECK(instance("lambda", "8x B200 SXM6")->price_per_hour == Approx(8 * 6.69));
  CHECK(instance("alibaba", "ecs.gn7i-c8g1.2xlarge")->ram_bytes == 30 * kGiB);
  // Rows that cannot be mapped are not in the catalog.
  CHECK(instance("alibaba", "ecs.gn8e.6xlarge") == nullptr);       // 'H-e' 141 GB, identity unknown
  CHECK(instance("alibaba", "ecs.gn7s-c8g1.2xlarge") == nullptr);  // A30, no specs
  CHECK(instance("aws", "p5e.48xlarge") == nullptr);               // no on-demand price
}

TEST_CASE("catalog: skipped rows are listed with a reason", "[catalog]") {
  const auto doc = nlohmann::json::parse(gpusizer::embedded::full_instances_json);
  const auto& skipped = doc.at("skipped");
  REQUIRE(skipped.is_array());
  CHECK(skipped.size() == 26);
  for (const auto& s : skipped) {
    CHECK_FALSE(s.at("instance").get<std::string>().empty());
    CHECK_FALSE(s.at("reason").get<std::string>().empty());
  }
  // 144 rows of facts_cloud.json (132 kept, 12 skipped) + 15 rows added for 2026 hardware + 3 dated
  // hyperscaler rows (GCP A3 Mega, AWS p5 us-west-1, Azure ND H100 v5 northcentralus) and
  // 6 offers found without a dated price, then 17 dated rows of 2026-08/09 (configiq: AWS 3, GCP 3,
  // CoreWeave 11) and 7 more offers without a citable dated price (docs/catalog.md "Skipped rows");
  // GCP's a3-highgpu-1g and -2g then skipped, sold only as Spot at no dated Spot rate (1g's two
  // on-demand SKU sums, once a row and a superseded one, one skipped offer now).
  CHECK(instance_catalog().size() + skipped.size() == 144 + 15 + 3 + 6 + 17 + 7 - 1);
  // A newer dated price supersedes an undated one of the same offer.
  const Instance* p5en = instance("aws", "p5en.48xlarge");
  REQUIRE(p5en != nullptr);
  CHECK(p5en->price_per_hour == 63.296);
  CHECK(p5en->price_date == "2026-08-06");
}

// One row of (provider, instance, region), or nullptr.
static const Instance* instance_in(const std::string& provider_id, const std::string& name,
                                   const std::string& region) {
  for (const Instance& in : instance_catalog()) {
    if (in.provider_id == provider_id && in.instance == name && in.region == region) return &in;
  }
  return nullptr;
}

TEST_CASE("catalog: the hyperscaler rows of 2025-2026 carry the date and figure of their source",
          "[catalog]") {
  // Cyclenerd pricing.yml generated 2026-07-30: a3-highgpu-8g us-central1 88.4899999025753 (read
  // directly, no longer 8 x the 1g shape), a3-megagpu-8g us-east4 92.9375881512329.
  const Instance* a3 = instance_in("gcp", "a3-highgpu-8g", "us-central1");
  REQUIRE(a3 != nullptr);
  CHECK(a3->price_per_hour == Approx(88.49).epsilon(1e-6));
  CHECK(a3->price_date == "2026-07-30");
  const Instance* mega = instance_in("gcp", "a3-megagpu-8g", "us-east4");
  REQUIRE(mega != nullptr);
  CHECK(mega->price_per_hour == Approx(92.9376).epsilon(1e-6));
  CHECK(mega->price_date == "2026-07-30");
  CHECK(mega->gpu_id == "h100-80gb");
  CHECK(mega->gpus == 8);
  CHECK(mega->rdma == "tcpxo");
  CHECK(mega->network_gbps == 1600);  // 8 GPU NICs; GCP's 1,800 Gbps total adds the host NIC
  // dstack PR #3264 (2025-11-06): p5.48xlarge on-demand in us-west-1 at $68.8.
  const Instance* p5 = instance_in("aws", "p5.48xlarge", "us-west-1");
  REQUIRE(p5 != nullptr);
  CHECK(p5->price_per_hour == 68.8);
  CHECK(p5->price_date == "2025-11-06");
  CHECK(p5->billing == "on-demand");
  // skypilot-catalog PR #50 (2023-12-06): ND96isr_H100_v5 northcentralus $117.984.
  const Instance* nd = instance_in("azure", "Standard_ND96isr_H100_v5", "northcentralus");
  REQUIRE(nd != nullptr);
  CHECK(nd->price_per_hour == 117.984);
  CHECK(nd->price_date == "2023-12-06");
  CHECK(nd->gpus == 8);
}

TEST_CASE("catalog: CNY rate of the source catalogs", "[catalog]") {
  // sugarlxn/skypilot-catalog converts with --cny-usd-rate 0.138.
  CHECK(gpusizer::default_cny_per_usd() == Approx(1 / 0.138).epsilon(1e-12));
  CHECK(gpusizer::default_cny_per_usd() == Approx(7.2464).epsilon(1e-4));
}

TEST_CASE("catalog: every instance row carries its network with a source", "[catalog][network]") {
  // Cards that exist only as SXM/OAM modules on NVLink/NVSwitch boards: several of them in one
  // instance are always joined by that fabric (V100 and A100 PCIe variants exist, so they are not here).
  const std::set<std::string> sxm_only = {"a100-40gb", "a100-80gb", "a800-80gb", "h100-80gb",
                                          "h800",      "h20",       "h200",      "b200"};
  for (const Instance& in : instance_catalog()) {
    INFO(in.provider_id << " " << in.instance << " " << in.region);
    CHECK_FALSE(in.network_source.empty());
    CHECK((in.gpu_link == "none") == (in.gpus == 1));
    if (in.gpu_link == "none") CHECK(in.gpu_link_bytes_per_s == 0);
    if (in.gpus > 1) CHECK(in.gpu_link_bytes_per_s > 0);
    if (in.gpus > 1 && sxm_only.count(in.gpu_id))
      CHECK((in.gpu_link == "nvswitch" || in.gpu_link == "nvlink"));
    // A pod on RunPod's community cloud is a host somewhere ("region: various"): no cluster network.
    if (in.provider_id == "runpod" && in.instance.find("Community") != std::string::npos)
      CHECK_FALSE(in.cluster);
    // The NVLink figure of the row is the card's own (gpus.json interconnect_bytes_per_s).
    if (in.gpu_link == "nvswitch" || in.gpu_link == "nvlink") {
      CHECK(in.gpu_link_bytes_per_s == find_gpu(in.gpu_id)->interconnect_bytes_per_s);
    }
    if (in.gpu_link == "pcie") CHECK(in.gpu_link_bytes_per_s == find_gpu(in.gpu_id)->pcie_bytes_per_s);
    // An RDMA fabric is only of use where several instances can be placed together.
    if (!in.rdma.empty()) CHECK(in.cluster);
  }
  // Pinned values, each from the row's network_source.
  const Instance* p4d = instance("aws", "p4d.24xlarge");  // AWS: p4d.24xlarge 4x100 Gbps, EFA
  REQUIRE(p4d != nullptr);
  CHECK(p4d->network_gbps == 400);
  CHECK(p4d->rdma == "efa");
  CHECK(p4d->cluster);
  CHECK(p4d->gpu_link == "nvswitch");
  CHECK(p4d->gpu_link_bytes_per_s == 600e9);
  const Instance* p5 = instance("aws", "p5.48xlarge");  // AWS: up to 3,200 Gbps with EFA
  REQUIRE(p5 != nullptr);
  CHECK(p5->network_gbps == 3200);
  CHECK(p5->rdma == "efa");
  CHECK(p5->gpu_link_bytes_per_s == 900e9);
  const Instance* nd = instance("azure", "Standard_ND96isr_H100_v5");  // Azure: 8 x 400 Gb/s InfiniBand
  REQUIRE(nd != nullptr);
  CHECK(nd->network_gbps == 3200);
  CHECK(nd->rdma == "infiniband");
  // Alibaba ebmgn8v: 170 (85 x 2) Gbit/s baseline, ERI (eRDMA), 900 GB/s NVLink between its 8 H20s.
  const Instance* ebm = instance("alibaba", "ecs.ebmgn8v.48xlarge");
  REQUIRE(ebm != nullptr);
  CHECK(ebm->network_gbps == 170);
  CHECK(ebm->rdma == "erdma");
  CHECK(ebm->cluster);
  CHECK(ebm->gpu_link == "nvswitch");
  CHECK(ebm->gpu_link_bytes_per_s == 900e9);
  // Alibaba gn7i (A10, PCIe Gen4, no eRDMA): 4-GPU type at 64 Gbit/s, no cluster network.
  const Instance* gn7i = instance("alibaba", "ecs.gn7i-c32g1.32xlarge");
  REQUIRE(gn7i != nullptr);
  CHECK(gn7i->network_gbps == 64);
  CHECK(gn7i->gpu_link == "pcie");
  CHECK(gn7i->gpu_link_bytes_per_s == 64e9);
  CHECK_FALSE(gn7i->cluster);
  // Single-GPU pods and VMs without a provider cluster network.
  CHECK_FALSE(instance("runpod", "H100 SXM Community")->cluster);
  CHECK(instance("gcp", "a3-highgpu-8g")->rdma == "tcpx");
}
