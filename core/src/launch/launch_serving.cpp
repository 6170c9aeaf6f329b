// Serving commands for the plan's own engine: `vllm serve` (and `swift deploy` on its vLLM
// backend), SGLang's launch_server, and `swift deploy` on the transformers backend; LMDeploy,
// TensorRT-LLM and llama.cpp are in launch_serving_engines.cpp. Flag names checked against
// (docs/launch.md has the links):
//   vLLM 0.11     docs.vllm.ai engine arguments; vllm/config/cache.py CacheDType (kv-cache-dtype
//                 choices); docs/serving/data_parallel_deployment.md (--data-parallel-size,
//                 --max-num-seqs is per DP rank); model_executor/layers/quantization/
//                 awq_marlin.py and gptq_marlin.py (names awq_marlin / gptq_marlin; an explicit
//                 awq / gptq "forces" the slower kernel); utils/marlin_utils.py (Marlin needs
//                 compute capability >= 80 on CUDA; lowered to 75 only by PR #29901, after 0.11)
//   SGLang 0.5    docs/advanced_features/server_arguments.md (--tp/--tp-size, --pp-size, --dp-size,
//                 --context-length, --mem-fraction-static, --max-running-requests, --quantization,
//                 --kv-cache-dtype auto|fp8_e5m2|fp8_e4m3, --nnodes/--node-rank/--dist-init-addr)
//   ms-swift 3.9  docs Command-line-parameters, "vLLM Arguments" (vllm_ prefix since 3.7),
//                 infer_backend pt (transformers), max_batch_size (pt backend)
#include <algorithm>
#include <cmath>

#include "launch/launch_internal.h"

namespace gpusizer {
namespace {

// vLLM's default --gpu-memory-utilization (vllm/config/cache.py, gpu_memory_utilization = 0.9).
constexpr double kVllmDefaultUtilization = 0.90;
constexpr double kMaxFraction = 0.95;  // above it the CUDA context and NCCL buffers run short
// Share of the card added to SGLang's static pool: the engines profile their own peak
// activations and the estimate is a model, so the fraction asks for a little more than it predicts.
constexpr double kFractionMargin = 0.05;

// Fraction of the card for `bytes` plus the margin, rounded up to hundredths, capped at kMaxFraction.
double memory_fraction(double bytes, const Gpu& gpu) {
  return std::min(kMaxFraction, round_up2(bytes / gpu.memory_bytes + kFractionMargin));
}

// Marlin kernels: CUDA cards of compute capability 8.0 and above, i.e. Ampere, Ada, Hopper and
// Blackwell (NVIDIA's CUDA GPU table: Volta 7.0, Turing 7.5, Ampere 8.0/8.6, Ada 8.9, Hopper 9.0,
// Blackwell 10.0); vLLM 0.11 marlin_utils.py returns no Marlin types below 80, and none on ROCm.
bool marlin_capable(const Gpu& g) {
  return g.vendor == "nvidia" &&
         (g.arch == "ampere" || g.arch == "ada" || g.arch == "hopper" || g.arch == "blackwell");
}

// vLLM's --quantization: the fastest kernel the checkpoint and card allow; "" when none is given.
std::string vllm_quantization(const LaunchContext& c) {
  const bool marlin = marlin_capable(*c.gpu);
  switch (c.s.weights) {
    case WeightFormat::AwqInt4:
      return marlin ? "awq_marlin" : "awq";
    case WeightFormat::GptqInt4:
    case WeightFormat::GptqInt8:
      return marlin ? "gptq_marlin" : "gptq";
    case WeightFormat::Fp8:
      return "fp8";  // pre-quantized fp8 checkpoints are detected, 16-bit ones quantized on load
    case WeightFormat::Int4:
    case WeightFormat::Nf4:
      return "bitsandbytes";  // in-flight 4-bit bitsandbytes
    default:
      return "";
  }
}

// SGLang's method names (server_arguments.md); it converts AWQ/GPTQ to Marlin itself where it can.
std::string sglang_quantization(WeightFormat f) {
  switch (f) {
    case WeightFormat::AwqInt4:
      return "awq";
    case WeightFormat::GptqInt4:
    case WeightFormat::GptqInt8:
      return "gptq";
    case WeightFormat::Fp8:
      return "fp8";
    case WeightFormat::Int4:
    case WeightFormat::Nf4:
      return "bitsandbytes";
    default:
      return "";
  }
}

bool vllm_has_kv_format(KvFormat f) { return f != KvFormat::Int8 && f != KvFormat::Int4; }

// vLLM 0.11's utilization: the default 0.90 unless the estimate needs more of the card.
double vllm_utilization(const LaunchContext& c, Launch& out) {
  const double needed = round_up2(c.estimate.memory.per_gpu_bytes / c.gpu->memory_bytes);
  if (needed <= kVllmDefaultUtilization) return kVllmDefaultUtilization;
  const double u = std::min(kMaxFraction, needed);
  add_note(
      out, "vllm_utilization",
      {{"value", fixed2(u)}, {"needed", fixed2(needed)}, {"batch", c.s.batch}, {"seq_len", c.s.seq_len}},
      cat({"--gpu-memory-utilization ", fixed2(u), " instead of vLLM's default 0.90: the estimate needs ",
           fixed2(needed), " of each card (weights, activations, runtime and the KV cache of ", c.s.batch,
           " x ", c.s.seq_len, " tokens)"}));
  return u;
}

void add_vllm(const LaunchContext& c, Launch& out) {
  const double util = vllm_utilization(c, out);
  Flags f;
  f.add("--tensor-parallel-size", c.plan.tp).add("--pipeline-parallel-size", c.plan.pp);
  if (c.node_dp() > 1) f.add("--data-parallel-size", c.node_dp());
  f.add("--max-model-len", c.s.seq_len);
  f.add("--max-num-seqs", c.s.batch);  // per DP rank, as the estimate's batch
  f.add("--gpu-memory-utilization", fixed2(util));
  f.add("--dtype", serving_dtype(c));
  const std::string q = vllm_quantization(c);
  if (!q.empty()) f.add("--quantization", q);
  f.add("--kv-cache-dtype", c.s.kv_cache == KvFormat::Fp8 ? "fp8" : "auto");
  add_command(out, "vllm", kVllmVersion, "shell", "",
              shell_command(cat({visible_devices(c), "vllm serve ", c.model}), f));

  // vLLM's budget covers everything it allocates: weights, activations, runtime, then KV blocks.
  const MemoryBreakdown& b = c.estimate.memory.breakdown;
  const KvCapacity k =
      scaled_capacity(c, util * c.gpu->memory_bytes - (b.weights + b.activations + b.runtime),
                      kv_scale(c, vllm_has_kv_format(c.s.kv_cache)));
  const std::string setting = cat({"--gpu-memory-utilization ", fixed2(util)});
  add_note(out, kv_capacity_note(c, "vLLM", setting, k));
  warn_if_short(c, setting, k, out);
  if (q == "awq_marlin" || q == "gptq_marlin") {
    add_note(out, "marlin",
             {{"quantization", q}, {"gpu", c.gpu->name}, {"slower", q == "awq_marlin" ? "awq" : "gptq"}},
             cat({"--quantization ", q,
                  ": the Marlin kernel, which vLLM 0.11 runs for this checkpoint on compute capability "
                  ">= 8.0 (",
                  c.gpu->name, "); an explicit ", q == "awq_marlin" ? "awq" : "gptq",
                  " would force the slower kernel"}));
  } else if (q == "awq" || q == "gptq") {
    const bool cuda = c.gpu->vendor == "nvidia";
    add_note(out, "no_marlin", {{"quantization", q}, {"gpu", c.gpu->name}, {"cuda", cuda}},
             cat({"--quantization ", q, ": vLLM 0.11 has no Marlin kernel for ", c.gpu->name,
                  cuda ? " (compute capability below 8.0)"
                       : " (not a CUDA card; ROCm runs AWQ through Triton with VLLM_USE_TRITON_AWQ=1)"}));
  }
  if (c.spans_nodes()) {
    add_note(out, "vllm_ray", {{"nodes", c.plan.instances}},
             cat({"vLLM over ", c.plan.instances,
                  " nodes: start a Ray cluster across them "
                  "(vLLM's distributed serving guide) and run vllm serve on its head node"}));
  }
  if (c.node_dp() > 1) {
    add_note(out, "max_num_seqs_per_replica",
             {{"replicas", c.node_dp()}, {"sequences", c.node_dp() * c.s.batch}},
             cat({"--max-num-seqs is per data-parallel replica: ", c.node_dp(), " replicas serve ",
                  c.node_dp() * c.s.batch, " sequences at once"}));
  }
  if (!vllm_has_kv_format(c.s.kv_cache)) {
    add_note(out, "kv_format_vllm", {{"kv_cache", to_string(c.s.kv_cache)}},
             cat({"KV cache ", to_string(c.s.kv_cache),
                  " cannot be expressed: vLLM 0.11 offers auto, bfloat16 and "
                  "fp8 variants; the cache stays 16-bit (the capacity above counts 16-bit)"}));
  }
}

void add_swift_vllm(const LaunchContext& c, Launch& out) {
  if (c.spans_nodes()) {
    add_note(out, "swift_one_node", {},
             "swift deploy runs on one node: for this multi-node plan use the vllm serve command");
    return;
  }
  Flags f;
  f.add("--model", c.model)
      .add("--infer_backend", "vllm")
      .add("--torch_dtype", serving_dtype(c))
      .add("--vllm_tensor_parallel_size", c.plan.tp)
      .add("--vllm_pipeline_parallel_size", c.plan.pp);
  if (c.node_dp() > 1) f.add("--vllm_data_parallel_size", c.node_dp());
  f.add("--vllm_max_model_len", c.s.seq_len);
  f.add("--vllm_max_num_seqs", c.s.batch);
  const double needed = round_up2(c.estimate.memory.per_gpu_bytes / c.gpu->memory_bytes);
  f.add("--vllm_gpu_memory_utilization",
        fixed2(std::min(kMaxFraction, std::max(kVllmDefaultUtilization, needed))));
  add_command(out, "ms-swift", kSwiftVersion, "shell", "",
              shell_command(cat({visible_devices(c), "swift deploy"}), f));
  const bool in_flight =
      c.s.weights == WeightFormat::Fp8 || sglang_quantization(c.s.weights) == "bitsandbytes";
  if (in_flight || c.s.kv_cache == KvFormat::Fp8) {
    add_note(out, "swift_no_quant_flag", {},
             "swift deploy: ms-swift 3.9 documents no flag for in-flight quantization or the KV-cache dtype "
             "of the vLLM "
             "backend; use the vllm serve command for them");
  }
}

void add_sglang(const LaunchContext& c, Launch& out) {
  // SGLang's static fraction holds the weights and the KV pool; activations and CUDA graphs use the rest.
  const MemoryBreakdown& b = c.estimate.memory.breakdown;
  const double fraction = memory_fraction(b.weights + b.kv_cache, *c.gpu);
  Flags f;
  f.add("--model-path", c.model).add("--tp", c.plan.tp);
  if (c.plan.pp > 1) f.add("--pp-size", c.plan.pp);
  if (c.node_dp() > 1) f.add("--dp-size", c.node_dp());
  f.add("--context-length", c.s.seq_len);
  f.add("--max-running-requests", c.s.batch);
  f.add("--mem-fraction-static", fixed2(fraction));
  f.add("--dtype", serving_dtype(c));
  if (!sglang_quantization(c.s.weights).empty()) f.add("--quantization", sglang_quantization(c.s.weights));
  f.add("--kv-cache-dtype", c.s.kv_cache == KvFormat::Fp8 ? "fp8_e4m3" : "auto");
  if (c.spans_nodes()) {
    f.add("--nnodes", c.plan.instances);
    f.add("--node-rank", kNodeRank);
    f.add("--dist-init-addr", cat({kMasterAddr, ":", kMasterPort}));
    add_note(out, "sglang_nodes", {{"nodes", c.plan.instances}},
             cat({"SGLang: run the command on each of the ", c.plan.instances,
                  " nodes with NODE_RANK set to 0, 1, ... and MASTER_ADDR to node 0's address"}));
  }
  add_command(out, "sglang", kSglangVersion, "shell", "",
              shell_command(cat({visible_devices(c), "python -m sglang.launch_server"}), f));
  const bool has_format = c.s.kv_cache != KvFormat::Int8 && c.s.kv_cache != KvFormat::Int4;
  const KvCapacity k =
      scaled_capacity(c, fraction * c.gpu->memory_bytes - b.weights, kv_scale(c, has_format));
  const std::string setting = cat({"--mem-fraction-static ", fixed2(fraction)});
  add_note(out, kv_capacity_note(c, "SGLang", setting, k));
  warn_if_short(c, setting, k, out);
  if (!has_format) {
    add_note(out, "kv_format_sglang", {{"kv_cache", to_string(c.s.kv_cache)}},
             cat({"KV cache ", to_string(c.s.kv_cache),
                  " cannot be expressed: SGLang 0.5 offers auto and fp8; "
                  "the cache stays 16-bit (the capacity above counts 16-bit)"}));
  }
  if (fraction + (b.activations + b.runtime) / c.gpu->memory_bytes > 1) {
    out.warnings.push_back({"launch_sglang_memory", "plan",
                            cat({setting,
                                 " leaves less than the estimated activations and runtime buffers: lower "
                                 "--max-running-requests or --context-length"}),
                            nlohmann::json({{"fraction", fixed2(fraction)}})});
  }
}

// transformers serving: ms-swift's pt backend (generate() with device_map over the visible GPUs,
// which is the layer split the plan's pp stands for).
void add_swift_pt(const LaunchContext& c, Launch& out) {
  Flags f;
  f.add("--model", c.model)
      .add("--infer_backend", "pt")
      .add("--torch_dtype", serving_dtype(c))
      .add("--max_batch_size", c.s.batch)
      .add("--max_length", c.s.seq_len);
  // device_map spreads the model over every visible GPU: exactly one replica's (tp x pp = pp here).
  const int64_t replica = c.plan.tp * c.plan.pp;
  std::string env = replica_devices(c);
  if (env.empty() && replica > 1) env = devices_env(replica);
  add_command(out, "ms-swift", kSwiftVersion, "shell", "", shell_command(cat({env, "swift deploy"}), f));
  if (c.node_dp() > 1) {
    add_note(out, "transformers_replicas", {{"replicas", c.node_dp()}},
             cat({"transformers serves one replica per process: run ", c.node_dp(),
                  " swift deploy processes, each "
                  "with its own CUDA_VISIBLE_DEVICES and --port, behind a load balancer"}));
  }
  if (c.s.weights == WeightFormat::Nf4 || c.s.weights == WeightFormat::Int4) {
    add_note(out, "bnb_pt", {},
             "4-bit bitsandbytes on the pt backend: add --quant_method bnb --quant_bits 4");
  }
}

void add_format_notes(const LaunchContext& c, Launch& out) {
  const WeightFormat w = c.s.weights;
  if (pre_quantized(w) && c.s.engine != Engine::LlamaCpp) {
    const std::string repo = quantized_checkpoint(c.s.model.id, w);
    if (!repo.empty()) {
      add_note(out, "publisher_checkpoint",
               {{"repo", repo}, {"weights", to_string(w)}, {"preset_repo", c.s.model.hf_repo}},
               cat({"--model ", repo, ": the publisher's ", to_string(w),
                    " checkpoint of the Instruct model (the preset's "
                    "repository ",
                    c.s.model.hf_repo, " holds 16-bit weights)"}));
    } else {
      add_note(out, "quantized_checkpoint", {{"weights", to_string(w)}},
               cat({"--model must name a checkpoint already quantized with ", to_string(w),
                    " (no such checkpoint of this model is in gpusizer's table); AWQ/GPTQ run with --dtype "
                    "float16"}));
    }
  }
  if (w == WeightFormat::Int8) {
    add_note(out, "int8_checkpoint", {},
             "int8 weights: no --quantization is given; load a pre-quantized INT8 checkpoint (e.g. "
             "compressed-tensors W8A8), "
             "whose method the engines read from its config.json");
  }
}

}  // namespace

double round_up2(double x) { return std::ceil(x * 100 - 1e-9) / 100; }

bool pre_quantized(WeightFormat f) {
  return f == WeightFormat::AwqInt4 || f == WeightFormat::GptqInt4 || f == WeightFormat::GptqInt8;
}

// AWQ/GPTQ checkpoints are float16 (SGLang's docs recommend --dtype half for AWQ).
std::string serving_dtype(const LaunchContext& c) noexcept {
  if (c.s.weights == WeightFormat::Fp32) return "float32";
  return pre_quantized(c.s.weights) ? "float16" : dtype_name(c);
}

// KV bytes the engine really caches per byte the estimate counted: 1 unless the engine keeps a
// 16-bit cache where the scenario asked int8/int4 (kv_bytes_per_token of the memory API).
double kv_scale(const LaunchContext& c, bool engine_has_format) {
  if (engine_has_format) return 1;
  const double asked = kv_bytes_per_token(c.s.model, c.s.kv_cache);
  return asked > 0 ? kv_bytes_per_token(c.s.model, KvFormat::Bf16) / asked : 1;
}

KvCapacity scaled_capacity(const LaunchContext& c, double budget, double scale) {
  KvCapacity k = kv_capacity(c, budget);
  k.per_sequence_bytes *= scale;
  k.sequences = k.per_sequence_bytes > 0
                    ? static_cast<int64_t>(std::floor(k.budget_bytes / k.per_sequence_bytes + 1e-9))
                    : 0;
  return k;
}

void add_serving(const LaunchContext& c, Launch& out) {
  out.dtype = serving_dtype(c);
  switch (c.s.engine) {
    case Engine::Vllm:
      add_vllm(c, out);
      add_swift_vllm(c, out);
      break;
    case Engine::Sglang:
      add_sglang(c, out);
      break;
    case Engine::Lmdeploy:
      add_lmdeploy(c, out);
      break;
    case Engine::TensorrtLlm:
      add_trtllm(c, out);
      break;
    case Engine::LlamaCpp:
      add_llamacpp(c, out);
      break;
    default:
      add_swift_pt(c, out);
      break;
  }
  add_format_notes(c, out);
  if (c.independent_nodes()) {
    add_note(
        out, "instances_independent",
        {{"instances", c.plan.instances}, {"per_instance", c.node_dp()}, {"replicas", c.dp()}},
        cat({"the plan's ", c.plan.instances, " instances serve independently: run the command on each (",
             c.plan.instances, " servers x ", c.node_dp(), " replicas = ", c.dp(),
             " replicas) and balance requests across them; no traffic crosses instances"}));
  }
  if (c.estimate.memory.per_gpu_bytes / c.gpu->memory_bytes > kMaxFraction) {
    out.warnings.push_back({"launch_fraction_capped", "plan",
                            cat({"the estimate needs more than ", fixed2(kMaxFraction),
                                 " of each card: the memory fractions are capped at ", fixed2(kMaxFraction),
                                 ", so the KV cache may hold fewer than batch x seq_len tokens"}),
                            nlohmann::json({{"cap", fixed2(kMaxFraction)}})});
  }
}

}  // namespace gpusizer
