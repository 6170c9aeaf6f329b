// GPU and cloud-instance catalogs (core/data/gpus.json, core/data/instances.json,
// embedded at build time). Every figure carries its source in the data file.
#pragma once

#include <string>
#include <vector>

namespace gpusizer {

struct Gpu {
  std::string id;      // spec id: "a100-80gb", "h100-80gb", "t4", ...
  std::string name;    // "NVIDIA A100 SXM4 80GB"
  std::string vendor;  // "nvidia", "amd"
  std::string arch;    // "turing", "volta", "ampere", "ada", "hopper", "blackwell", "cdna3"
  int year = 0;

  double memory_bytes = 0;           // what CUDA/torch can allocate in (total_memory)
  double marketed_memory_bytes = 0;  // the label (80 GB = 80e9)
  bool memory_measured = false;      // memory_bytes read from a public log, not derived
  double nvidia_smi_memory_bytes =
      0;  // nvidia-smi/NVML "Total" on current drivers (rocm-smi for AMD); 0 = unknown
  double bandwidth_bytes_per_s = 0;  // HBM/GDDR peak

  // Dense peak throughput (no sparsity), per GPU, in TFLOP/s (TOP/s for ints); 0 = unsupported.
  double fp32_tflops = 0;
  double tf32_tflops = 0;
  double fp16_tflops = 0;
  double bf16_tflops = 0;
  double fp8_tflops = 0;
  double int8_tops = 0;
  double int4_tops = 0;
  bool supports_bf16 = false;
  bool supports_fp8 = false;

  double interconnect_bytes_per_s = 0;  // NVLink/xGMI per GPU (total bidirectional); 0 = PCIe only
  double pcie_bytes_per_s = 0;          // host link per GPU (bidirectional)

  double cuda_context_bytes = 0;    // CUDA context + framework start-up per process
  double blas_workspace_bytes = 0;  // cuBLAS/hipBLAS workspaces per GEMM stream
  std::string source;               // comma-separated keys of the "sources" object of gpus.json
  // gpus.json's "memory_note" (which log memory_bytes comes from, or how it was derived) and
  // "notes" (caveats) are for people (docs/catalog.md): checked, not kept, and embedded as ""
  // (cmake/embed.cmake); nothing the core answers carries them.
};

struct Instance {
  std::string provider;     // "Alibaba Cloud ECS", "AWS EC2", ...
  std::string provider_id;  // "alibaba", "aws", "gcp", "azure", "lambda", "runpod", "tencent"
  std::string instance;     // "ecs.gn7i-c8g1.2xlarge"
  std::string region;
  std::string gpu_id;    // a Gpu id of the catalog
  int gpus = 0;          // GPUs per instance
  int vcpu = 0;          // 0 if unknown
  double ram_bytes = 0;  // host RAM, 0 if unknown
  double price_per_hour = 0;
  std::string currency;      // "CNY" or "USD"
  std::string billing;       // one of billing_kinds() (docs/catalog.md "Instances")
  std::string billing_term;  // reserved / subscription only: "1y", "3y", "1mo", ...; "" otherwise
  std::string price_date;    // as given by the source
  std::string source;        // the row's notes are for people (docs/catalog.md): checked, not kept

  // The network (docs/catalog.md "Networks"). Inside the instance: how its GPUs talk to each
  // other; between instances: the instance's network and whether the provider can place several
  // of them in one cluster (placement group / cluster network) at all.
  std::string gpu_link = "none";    // "nvswitch", "nvlink" (bridge/mesh), "xgmi", "pcie"; "none" = one GPU
  double gpu_link_bytes_per_s = 0;  // per GPU to its peers inside the instance, bidirectional total
  double network_gbps = 0;          // the instance's network to other instances, Gbit/s in all (0 = unknown)
  std::string rdma;                 // "infiniband", "roce", "efa", "erdma", "tcpxo", ...; "" = TCP only
  bool cluster = false;             // several instances can be placed in one cluster network
  std::string network_source;       // citation of the network facts ("" = not yet sourced)
  // Third parties' machines the provider rents out (RunPod's Community Cloud pods: docs/catalog.md,
  // net-runpod), not its own data centres; instances.json "marketplace": true.
  bool marketplace = false;
};

const std::vector<Gpu>& gpu_catalog();
const Gpu* find_gpu(const std::string& id);  // nullptr if unknown
const std::vector<Instance>& instance_catalog();

// How a price is billed: on-demand (incl. pay-as-you-go), spot (interruptible), reserved (a 1y/3y
// commitment or savings plan, its term in billing_term), subscription (Alibaba 包年包月, monthly),
// capacity-block (GPUs reserved in advance for a fixed period, AWS Capacity Blocks).
const std::vector<std::string>& billing_kinds();

// CNY per USD used by the source price catalogs (1 / 0.138, instances.json "cny_per_usd").
double default_cny_per_usd();

}  // namespace gpusizer
