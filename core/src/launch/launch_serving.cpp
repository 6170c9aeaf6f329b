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

#include "base/format.h"
#include "launch/launch_internal.h"

namespace gpusizer {
namespace {

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
    case WeightFormat::Fp8:  // an fp8 checkpoint's config.json names its method: no flag
      return c.s.checkpoint.stored == WeightFormat::Fp8 ? "" : "fp8";  // 16-bit ones quantized on load
    case WeightFormat::Int4:
    case WeightFormat::Nf4:
      return "bitsandbytes";  // in-flight 4-bit bitsandbytes
    default:
      return "";
  }
}

// SGLang's method names (server_arguments.md). A checkpoint stored in the format gets none: SGLang
// reads its quantization_config and converts AWQ/GPTQ to Marlin where the card runs it, which an
// explicit `awq` / `gptq` forbids (SGLang launches with --quantization awq log vLLM's line "Detected
// that the model can run with awq_marlin, however you specified quantization=awq explicitly, so
// forcing awq").
std::string sglang_quantization(const LaunchContext& c) {
  const WeightFormat f = c.s.weights;
  if (f == c.s.checkpoint.stored && (f == WeightFormat::Fp8 || pre_quantized(f))) return "";
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

// SGLang's own --mem-fraction-static when it is not given (python/sglang/srt/server_args.py,
// ServerArgs._handle_gpu_memory_settings, sgl-project/sglang @ b36e8e19, the flag fixture's tree):
// chunked prefill and CUDA-graph batch by the card's MiB, reserved MiB = 512 + 1.5 x chunk + 2 x
// graph batch + tp x pp / 8 x 1024 (at least 10 GiB above 60 GiB), fraction = 1 - reserved / MiB.
double sglang_default_fraction(const Gpu& gpu, int64_t tp, int64_t pp) {
  const double mib = gpu.memory_bytes / (1024.0 * 1024.0);
  double chunk = 16384, graph_bs = 512;
  if (mib < 20 * 1024) {
    chunk = 2048, graph_bs = 8;
  } else if (mib < 35 * 1024) {
    chunk = 2048, graph_bs = tp < 4 ? 24 : 80;
  } else if (mib < 60 * 1024) {
    chunk = 4096, graph_bs = tp < 4 ? 32 : 160;
  } else if (mib < 160 * 1024) {
    chunk = 8192, graph_bs = tp < 4 ? 256 : 512;
  }
  double reserved =
      512 + std::max(chunk, 2048.0) * 1.5 + graph_bs * 2 + static_cast<double>(tp * pp) / 8 * 1024;
  if (mib > 60 * 1024) reserved = std::max(reserved, 10.0 * 1024);
  return std::round((mib - reserved) / mib * 1000) / 1000;
}

bool vllm_has_kv_format(KvFormat f) { return f != KvFormat::Int8 && f != KvFormat::Int4; }

// The KV cache the engine's start-up accounting (engine_accounting.cpp, the estimate's memory.engine)
// finds for the server this launch starts, with the engine's setting `fraction`; the sequences count
// every DP rank of one server under DP attention, as the scenario's batch does.
KvCapacity engine_capacity(const LaunchContext& c, double fraction) {
  KvCapacity k;
  const auto e = launched_engine_budget(c.s, c.gpu, c.estimate.memory, fraction);
  if (!e || e->max_concurrency <= 0) return k;
  k.budget_bytes = e->kv_cache_bytes;
  k.per_sequence_bytes = e->kv_cache_bytes / e->max_concurrency;
  k.sequences = server_sequences(c.s, *e);
  return k;
}

// --gpu-memory-utilization: the one stated; else vLLM's default where its KV cache then holds the
// scenario's sequences at seq_len, else the least hundredth up to kMaxFraction that does.
double vllm_utilization(const LaunchContext& c) {
  const auto stated = c.s.engine_options.gpu_memory_utilization;
  if (stated) return *stated;
  for (int h = static_cast<int>(std::lround(kVllmDefaultUtilization * 100)); h < kMaxFraction * 100; ++h) {
    if (engine_capacity(c, h / 100.0).sequences >= c.s.batch) return h / 100.0;
  }
  return kMaxFraction;
}

// fp8 checkpoints with 128 x 128 block scales split under TP only where each rank's share of an
// expert's intermediate width is whole blocks: vLLM and SGLang stop at load otherwise
// (Qwen3-Coder-480B-A35B-Instruct-FP8's model card at TP8: "The output_size of gate's and up's
// weight = 320 is not divisible by weight quantization block_n = 128"). Expert parallelism keeps
// each expert whole on one rank (vLLM --enable-expert-parallel, SGLang --ep-size).
constexpr int64_t kFp8Block = 128;  // weight_block_size [128, 128] of DeepSeek-V3's and Qwen3's FP8 releases

bool fp8_blocks_need_ep(const LaunchContext& c) {
  if (c.s.weights != WeightFormat::Fp8 || c.plan.tp <= 1 || c.s.model.experts == 0) return false;
  const PublishedCheckpoint* p = find_published_checkpoint(c.s.checkpoint.repo);
  if (!p || !p->block_scaled) return false;
  const int64_t width = c.s.model.expert_intermediate;
  return width % c.plan.tp != 0 || (width / c.plan.tp) % kFp8Block != 0;
}

// vLLM's data-parallel ranks of a MoE model are no independent replicas: its expert layers shard
// over all DP x TP ranks (vllm/model_executor/layers/fused_moe/config.py, FusedMoEParallelConfig:
// flatten_tp_across_dp), a layout the plan was not sized on and a block-fp8 expert width may not
// split into (Qwen3-235B-A22B-FP8 at TP4 x DP2: 1536 / 8 = 192). Such replicas run as one server each.
bool vllm_server_per_replica(const LaunchContext& c) {
  return !vllm_dp_attention(c.s) && c.s.model.experts > 0 && c.node_dp() > 1;
}

// vLLM's DP attention (vllm_dp_attention): each of the plan's tp GPUs a DP rank of TP 1 and
// --max-num-seqs per DP rank (docs/serving/data_parallel_deployment.md); replicas of that group are
// separate servers, as SGLang's. Over nodes the Ray backend starts the ranks from the head node
// (--data-parallel-backend ray with --data-parallel-size-local, the guide's Ray example).
void add_vllm_dp_attention(const LaunchContext& c, Flags& f) {
  f.add("--tensor-parallel-size", int64_t{1}).add("--pipeline-parallel-size", c.plan.pp);
  f.add("--data-parallel-size", c.plan.tp);
  if (c.spans_nodes()) {
    f.add("--data-parallel-size-local", c.nproc_per_node / c.plan.pp).add("--data-parallel-backend", "ray");
  }
  f.add("--enable-expert-parallel");
}

// Sequences one vLLM engine core holds: the scenario's batch, or under DP attention one DP rank's share.
int64_t vllm_max_num_seqs(const LaunchContext& c) { return engine_core_sequences(c.s); }

void add_vllm(const LaunchContext& c, Launch& out) {
  const double util = vllm_utilization(c);
  if (util > kVllmDefaultUtilization && !c.s.engine_options.gpu_memory_utilization) {
    add_note(out, "vllm_utilization",
             {{"value", fixed2(util)},
              {"held", engine_capacity(c, kVllmDefaultUtilization).sequences},
              {"batch", c.s.batch},
              {"seq_len", c.s.seq_len}});
  }
  const bool dpa = vllm_dp_attention(c.s);
  Flags f;
  const bool per_replica = vllm_server_per_replica(c);
  if (dpa) {
    add_vllm_dp_attention(c, f);
  } else {
    f.add("--tensor-parallel-size", c.plan.tp).add("--pipeline-parallel-size", c.plan.pp);
    if (c.node_dp() > 1 && !per_replica) f.add("--data-parallel-size", c.node_dp());
  }
  if (!dpa && fp8_blocks_need_ep(c)) {
    f.add("--enable-expert-parallel");
    add_note(out, "fp8_expert_parallel", {{"tp", c.plan.tp}, {"width", c.s.model.expert_intermediate}});
  }
  f.add("--max-model-len", c.s.seq_len);
  // vLLM's --hf-overrides edits the config.json it reads (the model card's YaRN recipe).
  if (c.yarn()) f.add("--hf-overrides", cat({"'{\"rope_scaling\":", rope_scaling_json(*c.yarn()), "}'"}));
  if (c.remote_code()) f.add("--trust-remote-code");
  if (c.card_vllm_args()) {
    for (const auto& [flag, value] : c.facts->vllm_args) f.add(flag.c_str(), value);
  }
  f.add("--max-num-seqs", vllm_max_num_seqs(c));  // per DP rank
  f.add("--gpu-memory-utilization", fixed2(util));
  const bool bf16_instead = vllm_refuses_float16(c.s.model) && c.gpu->supports_bf16 && marlin_capable(*c.gpu);
  f.add("--dtype", bf16_instead ? std::string("bfloat16") : serving_dtype(c));
  const std::string q = vllm_quantization(c);
  if (!q.empty()) f.add("--quantization", q);
  f.add("--kv-cache-dtype", c.s.kv_cache == KvFormat::Fp8 ? "fp8" : "auto");
  add_vllm_speculative(c, f);  // launch_speculative.cpp
  add_command(out, "vllm", kVllmVersion, "shell", "",
              shell_command(cat({dpa || per_replica ? replica_devices(c) : visible_devices(c),
                                 modelscope_env(c, "VLLM_USE_MODELSCOPE"), "vllm serve ", c.model}),
                            f));
  if (dpa) multi_replica_note(c, "vLLM with DP attention", out);
  if (per_replica) multi_replica_note(c, "vLLM", out);

  const KvCapacity k = engine_capacity(c, util);
  const std::string setting = cat(
      {"--max-num-seqs ", std::to_string(vllm_max_num_seqs(c)), " --gpu-memory-utilization ", fixed2(util)});
  add_note(out, kv_capacity_note(c, "vLLM", setting, k));
  warn_if_short(c, setting, k, out);
  if (q == "awq_marlin" || q == "gptq_marlin") {
    add_note(out, "marlin",
             {{"quantization", q}, {"gpu", c.gpu->name}, {"slower", q == "awq_marlin" ? "awq" : "gptq"}});
  } else if (q == "awq" || q == "gptq") {
    const bool cuda = c.gpu->vendor == "nvidia";
    add_note(out, "no_marlin", {{"quantization", q}, {"gpu", c.gpu->name}, {"cuda", cuda}});
  }
  if (c.spans_nodes()) {
    add_note(out, "vllm_ray", {{"nodes", c.plan.instances}});
  }
  if (dpa) {
    add_note(out, "max_num_seqs_per_replica",
             {{"replicas", c.plan.tp}, {"sequences", c.plan.tp * vllm_max_num_seqs(c)}});
  } else if (c.node_dp() > 1 && !per_replica) {
    add_note(out, "max_num_seqs_per_replica",
             {{"replicas", c.node_dp()}, {"sequences", c.node_dp() * c.s.batch}});
  }
  if (!vllm_has_kv_format(c.s.kv_cache)) {
    add_note(out, "kv_format_vllm", {{"kv_cache", to_string(c.s.kv_cache)}});
  }
}

void add_swift_vllm(const LaunchContext& c, Launch& out) {
  if (c.yarn()) {  // ms-swift 3.9 passes no --hf-overrides to its vLLM engine
    add_note(out, "swift_no_rope");
    return;
  }
  if (c.spans_nodes()) {
    add_note(out, "swift_one_node");
    return;
  }
  const bool dpa = vllm_dp_attention(c.s);
  Flags f;
  f.add("--model", c.model);
  add_swift_hub(c, f);
  f.add("--infer_backend", "vllm")
      .add("--torch_dtype", serving_dtype(c))
      .add("--vllm_tensor_parallel_size", dpa ? int64_t{1} : c.plan.tp)
      .add("--vllm_pipeline_parallel_size", c.plan.pp);
  // ms-swift 3.9 hands these to vLLM's engine arguments (vllm_ prefix): the same DP attention layout.
  const bool per_replica = vllm_server_per_replica(c);
  if (dpa) {
    f.add("--vllm_data_parallel_size", c.plan.tp).add("--vllm_enable_expert_parallel");
  } else if (c.node_dp() > 1 && !per_replica) {
    f.add("--vllm_data_parallel_size", c.node_dp());
  }
  // The block-fp8 experts that vllm serve keeps whole (fp8_blocks_need_ep) stop this line at load too.
  if (!dpa && fp8_blocks_need_ep(c)) f.add("--vllm_enable_expert_parallel");
  f.add("--vllm_max_model_len", c.s.seq_len);
  f.add("--vllm_max_num_seqs", vllm_max_num_seqs(c));
  f.add("--vllm_gpu_memory_utilization", fixed2(vllm_utilization(c)));
  add_command(
      out, "ms-swift", kSwiftVersion, "shell", "",
      shell_command(cat({dpa || per_replica ? replica_devices(c) : visible_devices(c), "swift deploy"}), f));
  const bool in_flight = c.s.weights == WeightFormat::Fp8 || sglang_quantization(c) == "bitsandbytes";
  // ms-swift 3.9's flags (tests/fixtures/flags/ms-swift-3.9.json) have no vLLM speculative config.
  if (in_flight || c.s.kv_cache == KvFormat::Fp8 || c.s.engine_options.speculative) {
    add_note(out, "swift_vllm_flags_missing");
  }
}

void add_sglang(const LaunchContext& c, Launch& out) {
  // SGLang's static fraction holds the weights and the KV pool; activations and CUDA graphs use the
  // rest. Its own default where the weights and the scenario's KV cache fit in it, else the estimate's.
  const MemoryBreakdown& b = c.estimate.memory.breakdown;
  const double own = sglang_default_fraction(*c.gpu, c.plan.tp, c.plan.pp);
  // Under DP attention SGLang reserves more for its CUDA graphs (cuda_graph_max_bs x dp_size x 3 MiB,
  // more above a graph batch of 300: sgl-project/sglang PR #10975, server_args.py), which
  // sglang_default_fraction does not model: the fraction is then always written.
  const bool dpa = dp_attention(c.s);
  // A speculative draft's weights and KV cache sit in the same static pool.
  const double pool = b.weights + b.kv_cache + b.draft_weights + b.draft_kv_cache;
  const bool default_holds = !dpa && pool / c.gpu->memory_bytes <= own;
  const double fraction = default_holds ? own : memory_fraction(pool, *c.gpu);
  Flags f;
  f.add("--model-path", c.model).add("--tp-size", c.plan.tp);
  if (fp8_blocks_need_ep(c)) {
    f.add("--ep-size", c.plan.tp);
    add_note(out, "fp8_expert_parallel", {{"tp", c.plan.tp}, {"width", c.s.model.expert_intermediate}});
  }
  if (c.plan.pp > 1) f.add("--pp-size", c.plan.pp);
  // Under --enable-dp-attention, --dp-size is the attention's data parallelism inside one server
  // (tp_size / dp_size ranks per attention group: tp / tp = 1, as the estimate sizes it; SGLang
  // divides --max-running-requests by it); data-parallel replicas are then separate servers.
  if (dpa) {
    f.add("--enable-dp-attention").add("--dp-size", c.plan.tp);
  } else if (c.node_dp() > 1) {
    f.add("--dp-size", c.node_dp());
  }
  f.add("--context-length", c.s.seq_len);
  if (c.yarn())
    f.add("--json-model-override-args", cat({"'{\"rope_scaling\":", rope_scaling_json(*c.yarn()), "}'"}));
  if (c.remote_code()) f.add("--trust-remote-code");
  f.add("--max-running-requests", c.s.batch);
  if (!default_holds) f.add("--mem-fraction-static", fixed2(fraction));
  f.add("--dtype", serving_dtype(c));
  if (!sglang_quantization(c).empty()) f.add("--quantization", sglang_quantization(c));
  f.add("--kv-cache-dtype", c.s.kv_cache == KvFormat::Fp8 ? "fp8_e4m3" : "auto");
  add_sglang_speculative(c, f);  // launch_speculative.cpp
  if (c.spans_nodes()) {
    f.add("--nnodes", c.plan.instances);
    f.add("--node-rank", kNodeRank);
    f.add("--dist-init-addr", cat({kMasterAddr, ":", kMasterPort}));
    add_note(out, "sglang_nodes", {{"nodes", c.plan.instances}});
  }
  const std::string devices = dpa ? replica_devices(c) : visible_devices(c);
  add_command(
      out, "sglang", kSglangVersion, "shell", "",
      shell_command(
          cat({devices, modelscope_env(c, "SGLANG_USE_MODELSCOPE"), "python -m sglang.launch_server"}), f));
  if (dpa) multi_replica_note(c, "SGLang with DP attention", out);
  const bool has_format = c.s.kv_cache != KvFormat::Int8 && c.s.kv_cache != KvFormat::Int4;
  const KvCapacity k = engine_capacity(c, fraction);
  const std::string setting = default_holds ? cat({"its own mem_fraction_static ", fixed(own, 3)})
                                            : cat({"--mem-fraction-static ", fixed2(fraction)});
  add_note(out, kv_capacity_note(c, "SGLang", setting, k));
  warn_if_short(c, setting, k, out);
  if (!has_format) {
    add_note(out, "kv_format_sglang", {{"kv_cache", to_string(c.s.kv_cache)}});
  }
  if (fraction + (b.activations + b.runtime) / c.gpu->memory_bytes > 1) {
    out.warnings.push_back(message_warning("launch_sglang_memory", "plan", {{"fraction", fixed2(fraction)}},
                                           {{"setting", setting}}));
  }
}

// transformers serving: ms-swift's pt backend (generate() with device_map over the visible GPUs,
// which is the layer split the plan's pp stands for).
void add_swift_pt(const LaunchContext& c, Launch& out) {
  Flags f;
  f.add("--model", c.model);
  add_swift_hub(c, f);
  f.add("--infer_backend", "pt")
      .add("--torch_dtype", serving_dtype(c))
      .add("--max_batch_size", c.s.batch)
      .add("--max_length", c.s.seq_len);
  // device_map spreads the model over every visible GPU: exactly one replica's (tp x pp = pp here).
  const int64_t replica = c.plan.tp * c.plan.pp;
  std::string env = replica_devices(c);
  if (env.empty() && replica > 1) env = devices_env(replica);
  add_command(out, "ms-swift", kSwiftVersion, "shell", "", shell_command(cat({env, "swift deploy"}), f));
  if (c.node_dp() > 1) {
    add_note(out, "transformers_replicas", {{"replicas", c.node_dp()}});
  }
  if (c.s.weights == WeightFormat::Nf4 || c.s.weights == WeightFormat::Int4) {
    add_note(out, "bnb_pt");
  }
}

void add_format_notes(const LaunchContext& c, Launch& out) {
  const WeightFormat w = c.s.weights;
  if (!c.s.checkpoint.preset_repo.empty() && !c.s.checkpoint.repo.empty()) {
    add_note(out, "publisher_checkpoint",
             {{"repo", c.s.checkpoint.repo},
              {"weights", to_string(w)},
              {"preset_repo", c.s.checkpoint.preset_repo}});
  } else if (c.s.checkpoint.repo.empty() && !c.s.checkpoint.preset_repo.empty() &&
             c.s.engine != Engine::LlamaCpp) {
    add_note(out, "quantized_checkpoint", {{"weights", to_string(w)}});
  }
  if (w == WeightFormat::Int8 && c.s.checkpoint.stored != w) {
    add_note(out, "int8_checkpoint");
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
    add_note(out, "instances_independent",
             {{"instances", c.plan.instances}, {"per_instance", c.node_dp()}, {"replicas", c.dp()}});
  }
  if (c.estimate.memory.per_gpu_bytes / c.gpu->memory_bytes > kMaxFraction) {
    out.warnings.push_back(
        message_warning("launch_fraction_capped", "plan", {{"cap", fixed2(kMaxFraction)}}));
  }
}

}  // namespace gpusizer
