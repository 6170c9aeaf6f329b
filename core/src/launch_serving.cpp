// Serving commands: `vllm serve`, SGLang's launch_server and `swift deploy` for an inference plan.
// Flag names checked against (docs/launch.md has the links):
//   vLLM 0.11     docs.vllm.ai engine arguments; vllm/config/cache.py CacheDType (kv-cache-dtype
//                 choices); docs/serving/data_parallel_deployment.md (--data-parallel-size,
//                 --max-num-seqs is per DP rank)
//   SGLang 0.5    docs/advanced_features/server_arguments.md (--tp/--tp-size, --pp-size, --dp-size,
//                 --context-length, --mem-fraction-static, --max-running-requests, --quantization,
//                 --kv-cache-dtype auto|fp8_e5m2|fp8_e4m3, --nnodes/--node-rank/--dist-init-addr)
//   ms-swift 3.9  docs Command-line-parameters, "vLLM Arguments" (vllm_ prefix since 3.7)
#include <algorithm>
#include <cmath>

#include "launch_internal.h"

namespace gpusizer {
namespace {

constexpr double kMaxFraction = 0.95;  // above it the CUDA context and NCCL buffers run short
// Share of the card added to the estimate: the engines profile their own peak activations and
// the estimate is a model, so the fraction asks for a little more than it predicts.
constexpr double kFractionMargin = 0.05;

// Fraction of the card for `bytes`, rounded up to hundredths, capped at kMaxFraction.
double memory_fraction(double bytes, const Gpu& gpu) {
  const double wanted = bytes / gpu.memory_bytes + kFractionMargin;
  return std::min(kMaxFraction, std::ceil(wanted * 100 - 1e-9) / 100);
}

// vLLM and SGLang share the method names; "" when the weights need none or cannot be expressed.
std::string quantization(WeightFormat f) {
  switch (f) {
    case WeightFormat::AwqInt4: return "awq";
    case WeightFormat::GptqInt4:
    case WeightFormat::GptqInt8: return "gptq";
    case WeightFormat::Fp8: return "fp8";  // pre-quantized fp8 checkpoints are detected, 16-bit ones quantized on load
    case WeightFormat::Int4:
    case WeightFormat::Nf4: return "bitsandbytes";  // in-flight 4-bit bitsandbytes
    default: return "";
  }
}

bool pre_quantized(WeightFormat f) {
  return f == WeightFormat::AwqInt4 || f == WeightFormat::GptqInt4 || f == WeightFormat::GptqInt8;
}

// AWQ/GPTQ kernels compute in float16 (SGLang's docs recommend --dtype half for AWQ).
std::string serving_dtype(const LaunchContext& c) {
  if (c.s.weights == WeightFormat::Fp32) return "float32";
  return pre_quantized(c.s.weights) ? "float16" : dtype_name(c);
}

void add_format_notes(const LaunchContext& c, Launch& out) {
  const WeightFormat w = c.s.weights;
  if (pre_quantized(w)) {
    out.notes.push_back(std::string("--model must name a checkpoint already quantized with ") + to_string(w) +
                        " (the preset's repository holds the 16-bit weights); AWQ/GPTQ run with --dtype float16");
  }
  if (w == WeightFormat::Int8) {
    out.notes.push_back("int8 weights: no --quantization is given; load a pre-quantized INT8 checkpoint (e.g. compressed-tensors W8A8), "
                        "whose method the engines read from its config.json");
  }
  if (is_gguf(w)) {
    out.notes.push_back(std::string(to_string(w)) + " is a GGUF format for llama.cpp; these engines load safetensors, so the commands "
                        "omit --quantization (run llama.cpp's llama-server for the GGUF file)");
  }
  if (c.s.kv_cache == KvFormat::Int8 || c.s.kv_cache == KvFormat::Int4) {
    out.notes.push_back(std::string("KV cache ") + to_string(c.s.kv_cache) + " cannot be expressed: vLLM offers auto, bfloat16 and fp8 "
                        "variants, SGLang auto and fp8; the cache stays 16-bit and holds fewer tokens than estimated");
  }
  if (c.s.engine != Engine::Vllm && c.s.engine != Engine::Sglang) {
    out.notes.push_back(std::string("engine ") + to_string(c.s.engine) + " has no generated command; vLLM, SGLang and ms-swift (vLLM backend) are given");
  }
}

std::vector<Flag> vllm_flags(const LaunchContext& c, double fraction) {
  std::vector<Flag> f = {{"--tensor-parallel-size", std::to_string(c.plan.tp)},
                         {"--pipeline-parallel-size", std::to_string(c.plan.pp)}};
  if (c.dp() > 1) f.push_back({"--data-parallel-size", std::to_string(c.dp())});
  f.push_back({"--max-model-len", std::to_string(c.s.seq_len)});
  f.push_back({"--max-num-seqs", std::to_string(c.s.batch)});  // per DP rank, as the estimate's batch
  f.push_back({"--gpu-memory-utilization", fixed2(fraction)});
  f.push_back({"--dtype", serving_dtype(c)});
  if (!quantization(c.s.weights).empty()) f.push_back({"--quantization", quantization(c.s.weights)});
  f.push_back({"--kv-cache-dtype", c.s.kv_cache == KvFormat::Fp8 ? "fp8" : "auto"});
  return f;
}

void add_vllm(const LaunchContext& c, Launch& out) {
  // vLLM's fraction covers everything it allocates: weights, activations, KV cache, CUDA graphs.
  const double fraction = memory_fraction(c.estimate.memory.per_gpu_bytes, *c.gpu);
  out.commands.push_back({"vllm", kVllmVersion, "shell", "", shell_command("vllm serve " + c.model, vllm_flags(c, fraction))});
  if (c.multi_node()) {
    out.notes.push_back("vLLM over " + std::to_string(c.plan.instances) + " nodes: start a Ray cluster across them "
                        "(vLLM's distributed serving guide) and run vllm serve on its head node");
  }
  if (c.dp() > 1) {
    out.notes.push_back("--max-num-seqs and --max-running-requests are per data-parallel replica: " + std::to_string(c.dp()) +
                        " replicas serve " + std::to_string(c.dp() * c.s.batch) + " sequences at once");
  }
}

void add_sglang(const LaunchContext& c, Launch& out) {
  // SGLang's static fraction holds the weights and the KV pool; activations and CUDA graphs use the rest.
  const MemoryBreakdown& b = c.estimate.memory.breakdown;
  const double fraction = memory_fraction(b.weights + b.kv_cache, *c.gpu);
  std::vector<Flag> f = {{"--model-path", c.model}, {"--tp", std::to_string(c.plan.tp)}};
  if (c.plan.pp > 1) f.push_back({"--pp-size", std::to_string(c.plan.pp)});
  if (c.dp() > 1) f.push_back({"--dp-size", std::to_string(c.dp())});
  f.push_back({"--context-length", std::to_string(c.s.seq_len)});
  f.push_back({"--max-running-requests", std::to_string(c.s.batch)});
  f.push_back({"--mem-fraction-static", fixed2(fraction)});
  f.push_back({"--dtype", serving_dtype(c)});
  if (!quantization(c.s.weights).empty()) f.push_back({"--quantization", quantization(c.s.weights)});
  f.push_back({"--kv-cache-dtype", c.s.kv_cache == KvFormat::Fp8 ? "fp8_e4m3" : "auto"});
  if (c.multi_node()) {
    f.push_back({"--nnodes", std::to_string(c.plan.instances)});
    f.push_back({"--node-rank", kNodeRank});
    f.push_back({"--dist-init-addr", std::string(kMasterAddr) + ":" + kMasterPort});
    out.notes.push_back("SGLang: run the command on each of the " + std::to_string(c.plan.instances) +
                        " nodes with NODE_RANK set to 0, 1, ... and MASTER_ADDR to node 0's address");
  }
  out.commands.push_back({"sglang", kSglangVersion, "shell", "", shell_command("python -m sglang.launch_server", f)});
  if (fraction + (b.activations + b.runtime) / c.gpu->memory_bytes > 1) {
    out.warnings.push_back({"launch_sglang_memory", "plan", "--mem-fraction-static " + fixed2(fraction) +
                            " leaves less than the estimated activations and runtime buffers: lower --max-running-requests or --context-length"});
  }
}

void add_swift_deploy(const LaunchContext& c, Launch& out) {
  const double fraction = memory_fraction(c.estimate.memory.per_gpu_bytes, *c.gpu);
  std::vector<Flag> f = {{"--model", c.model}, {"--infer_backend", "vllm"}, {"--torch_dtype", serving_dtype(c)},
                         {"--vllm_tensor_parallel_size", std::to_string(c.plan.tp)},
                         {"--vllm_pipeline_parallel_size", std::to_string(c.plan.pp)}};
  if (c.dp() > 1) f.push_back({"--vllm_data_parallel_size", std::to_string(c.dp())});
  f.push_back({"--vllm_max_model_len", std::to_string(c.s.seq_len)});
  f.push_back({"--vllm_max_num_seqs", std::to_string(c.s.batch)});
  f.push_back({"--vllm_gpu_memory_utilization", fixed2(fraction)});
  out.commands.push_back({"ms-swift", kSwiftVersion, "shell", "", shell_command("swift deploy", f)});
  const bool in_flight = c.s.weights == WeightFormat::Fp8 || quantization(c.s.weights) == "bitsandbytes";
  if (in_flight || c.s.kv_cache == KvFormat::Fp8) {
    out.notes.push_back("swift deploy: ms-swift 3.9 documents no flag for in-flight quantization or the KV-cache dtype of the vLLM "
                        "backend; use the vllm serve command for them");
  }
  if (c.multi_node()) out.notes.push_back("swift deploy runs on one node; for this multi-node plan use vllm serve or SGLang");
}

}  // namespace

void add_serving(const LaunchContext& c, Launch& out) {
  out.dtype = serving_dtype(c);
  add_vllm(c, out);
  add_sglang(c, out);
  add_swift_deploy(c, out);
  add_format_notes(c, out);
  if (c.estimate.memory.per_gpu_bytes / c.gpu->memory_bytes + kFractionMargin > kMaxFraction) {
    out.warnings.push_back({"launch_fraction_capped", "plan", "the estimate needs more than " + fixed2(kMaxFraction - kFractionMargin) +
                            " of each card: the memory fractions are capped at " + fixed2(kMaxFraction) +
                            ", so the KV cache may hold fewer than batch x seq_len tokens"});
  }
}

}  // namespace gpusizer
