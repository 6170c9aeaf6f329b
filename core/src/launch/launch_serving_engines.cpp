// Serving commands of LMDeploy (`lmdeploy serve api_server`, TurboMind), TensorRT-LLM
// (`trtllm-serve`) and llama.cpp (`llama-server`). Flag names checked against:
//   LMDeploy 0.10.2   lmdeploy/cli/serve.py + cli/utils.py ArgumentHelper at tag v0.10.2 (--backend
//                     turbomind|pytorch, --tp "Should be 2^n", --session-len, --max-batch-size,
//                     --cache-max-entry-count default 0.8 = share of the FREE memory after the
//                     weights, --quant-policy 0|4|8, --model-format hf|awq|gptq|fp8|mxfp4,
//                     --dtype auto|float16|bfloat16); unchanged in v0.16.0 except quant-policy
//                     aliases; turbomind/deploy/converter.py (AWQ/GPTQ: 4-bit, group 128)
//   TensorRT-LLM 1.0  nvidia.github.io/TensorRT-LLM commands/trtllm-serve (--backend, --tp_size,
//                     --pp_size, --max_batch_size, --max_num_tokens, --max_seq_len,
//                     --kv_cache_free_gpu_memory_fraction default 0.9 of the memory free after
//                     weights and buffers, --extra_llm_api_options); same names on the 0.18.2 page;
//                     features/quantization (1.0.0): KvCacheConfig(dtype='fp8'), ModelOpt checkpoints
//   llama.cpp         tools/server/README.md (2026 master): -m, -c/--ctx-size (split over the -np
//                     slots unless --kv-unified), -np/--parallel, -ngl/--n-gpu-layers,
//                     -sm/--split-mode none|layer|row, -fa/--flash-attn on|off|auto (a value since
//                     Sept 2025, ggml-org/llama.cpp PR #15746), -ctk/-ctv --cache-type-k/-v
//                     f32|f16|bf16|q8_0|q4_0|...
#include <algorithm>
#include <cctype>

#include "base/format.h"
#include "launch/launch_internal.h"

namespace gpusizer {
namespace {

// LMDeploy's --cache-max-entry-count default (lmdeploy/messages.py TurbomindEngineConfig).
constexpr double kLmdeployDefaultCacheShare = 0.8;
// TensorRT-LLM's --kv_cache_free_gpu_memory_fraction default (commands/serve.py, KvCacheConfig).
constexpr double kTrtllmDefaultFreeShare = 0.9;
constexpr double kMaxShare = 0.95;  // never give the KV cache all that is left
// TensorRT-LLM's --max_num_tokens default, the prefill chunk the memory estimate assumes
// (memory_inference.cpp kServingChunkTokens).
constexpr int64_t kTrtllmMaxNumTokens = 8192;
// llama.cpp's -ngl above the layer count offloads every layer and the output (README: "max.
// number of layers to store in VRAM"); 999 is the value its docs and examples use for "all".
constexpr int64_t kAllLayers = 999;
const char* const kTrtllmExtraFile = "extra_llm_api_options.yaml";

std::string lmdeploy_format(WeightFormat f) {
  switch (f) {
    case WeightFormat::AwqInt4:
      return "awq";
    case WeightFormat::GptqInt4:
      return "gptq";
    case WeightFormat::Fp8:
      return "fp8";
    default:
      return "";
  }
}

}  // namespace

void add_lmdeploy(const LaunchContext& c, Launch& out) {
  const MemoryBreakdown& b = c.estimate.memory.breakdown;
  // TurboMind takes its share of the memory free once the weights (and the CUDA context) are in.
  const double free_bytes = c.gpu->memory_bytes - b.weights - b.runtime;
  double share = kLmdeployDefaultCacheShare;
  const bool has_format = c.s.kv_cache != KvFormat::Fp8;  // quant-policy: 16-bit, 8 = int8, 4 = int4
  const double scale = kv_scale(c, has_format);
  if (free_bytes > 0) {
    const double needed = round_up2(b.kv_cache * scale / free_bytes);
    const double room = 1 - b.activations / free_bytes;  // what the activations need of the rest
    if (needed > share) {
      share = std::max(share, std::min({needed, kMaxShare, std::floor(room * 100) / 100}));
      add_note(out, "lmdeploy_cache_share",
               {{"value", fixed2(share)},
                {"batch", c.s.batch},
                {"seq_len", c.s.seq_len},
                {"needed", fixed2(needed)}},
               {{"needed_pct", percent_text(needed)}});
    }
  }
  Flags f;
  f.add("--backend", "turbomind")
      .add("--tp", c.plan.tp)
      .add("--session-len", c.s.seq_len)
      .add("--max-batch-size", c.s.batch)
      .add("--cache-max-entry-count", fixed2(share));
  if (!lmdeploy_format(c.s.weights).empty()) f.add("--model-format", lmdeploy_format(c.s.weights));
  if (c.s.kv_cache == KvFormat::Int8) f.add("--quant-policy", "8");
  if (c.s.kv_cache == KvFormat::Int4) f.add("--quant-policy", "4");
  // --dtype takes auto|float16|bfloat16 and is ignored for quantized checkpoints; fp32 runs as "auto"
  // (float16).
  if (!pre_quantized(c.s.weights) && c.s.weights != WeightFormat::Fp8 && c.s.weights != WeightFormat::Fp32) {
    f.add("--dtype", serving_dtype(c));
  }
  add_command(out, "lmdeploy", kLmdeployVersion, "shell", "",
              shell_command(cat({replica_devices(c), modelscope_env(c, "LMDEPLOY_USE_MODELSCOPE"),
                                 "lmdeploy serve api_server ", c.model}),
                            f));
  const KvCapacity k = scaled_capacity(c, share * free_bytes, scale);
  const std::string setting = cat({"--cache-max-entry-count ", fixed2(share)});
  add_note(out, kv_capacity_note(c, "LMDeploy", setting, k));
  warn_if_short(c, setting, k, out);
  if (!has_format) add_note(out, "kv_format_lmdeploy");
  if ((c.plan.tp & (c.plan.tp - 1)) != 0) add_note(out, "lmdeploy_tp_pow2", {{"tp", c.plan.tp}});
  multi_replica_note(c, "LMDeploy", out);
}

void add_trtllm(const LaunchContext& c, Launch& out) {
  const MemoryBreakdown& b = c.estimate.memory.breakdown;
  // The fraction is of the memory free after the weights and the engine's buffers (activations).
  const double free_bytes = c.gpu->memory_bytes - b.weights - b.activations - b.runtime;
  double share = kTrtllmDefaultFreeShare;
  const bool has_format = c.s.kv_cache != KvFormat::Int8 && c.s.kv_cache != KvFormat::Int4;
  const double scale = kv_scale(c, has_format);
  if (free_bytes > 0) {
    const double needed = round_up2(b.kv_cache * scale / free_bytes);
    if (needed > share) {
      share = std::min(needed, kMaxShare);
      add_note(out, "trtllm_kv_share",
               {{"value", fixed2(share)},
                {"batch", c.s.batch},
                {"seq_len", c.s.seq_len},
                {"needed", fixed2(needed)}},
               {{"needed_pct", percent_text(needed)}});
    }
  }
  Flags f;
  f.add("--backend", "pytorch")
      .add("--tp_size", c.plan.tp)
      .add("--pp_size", c.plan.pp)
      .add("--max_batch_size", c.s.batch)
      .add("--max_num_tokens", kTrtllmMaxNumTokens)
      .add("--max_seq_len", c.s.seq_len)
      .add("--kv_cache_free_gpu_memory_fraction", fixed2(share));
  if (c.remote_code()) f.add("--trust_remote_code");
  // The LLM API options the flags do not carry (tensorrt_llm/llmapi/llm_args.py, the YAML fixture).
  const bool chunked = c.s.prompt_tokens > kTrtllmMaxNumTokens || c.s.seq_len > kTrtllmMaxNumTokens;
  std::string extra;
  if (c.s.kv_cache == KvFormat::Fp8) extra += "kv_cache_config:\n  dtype: fp8\n";
  if (chunked) extra += "enable_chunked_prefill: true\n";  // prompts beyond --max_num_tokens
  if (!extra.empty()) {
    f.add("--extra_llm_api_options", kTrtllmExtraFile);
    add_command(out, "tensorrt-llm", kTrtllmVersion, "yaml", kTrtllmExtraFile, extra);
  }
  add_command(out, "tensorrt-llm", kTrtllmVersion, "shell", "",
              shell_command(cat({replica_devices(c), "trtllm-serve ", c.model}), f));
  const KvCapacity k = scaled_capacity(c, share * std::max(0.0, free_bytes), scale);
  const std::string setting = cat({"--kv_cache_free_gpu_memory_fraction ", fixed2(share)});
  add_note(out, kv_capacity_note(c, "TensorRT-LLM", setting, k));
  warn_if_short(c, setting, k, out);
  if (!has_format) {
    add_note(out, "kv_format_trtllm", {{"kv_cache", to_string(c.s.kv_cache)}});
  }
  if (chunked) add_note(out, "trtllm_chunked_prefill");
  if (is_quantized(c.s.weights)) {
    add_note(out, "trtllm_modelopt", {{"weights", to_string(c.s.weights)}});
  }
  if (c.spans_nodes()) {
    add_note(out, "trtllm_mpi", {{"nodes", c.plan.instances}});
  }
  multi_replica_note(c, "TensorRT-LLM", out);
}

void add_llamacpp(const LaunchContext& c, Launch& out) {
  // llama-server splits -c over its -np slots: batch slots of seq_len tokens each.
  std::string quant = to_string(c.s.weights);
  std::transform(quant.begin(), quant.end(), quant.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
  std::string cache = "f16";
  if (c.s.kv_cache == KvFormat::Int8) cache = "q8_0";
  if (c.s.kv_cache == KvFormat::Int4) cache = "q4_0";
  const bool quantized_cache = cache == "q8_0" || cache == "q4_0";
  const bool flash = c.s.flash_attention || quantized_cache;  // a quantized V cache needs flash attention
  const std::string file = cat({"/path/to/model-", quant, ".gguf"});
  // A published GGUF repository is downloaded by llama-server itself (-hf <repo>:<quant>).
  const bool hub_gguf = c.s.checkpoint.gguf_repo && c.s.checkpoint.stored == c.s.weights;
  Flags f;
  // No quant type named for an unlisted repository: no tag, so llama-server takes Q4_K_M where the
  // repository has it, else its first file (common/arg.cpp, -hf: "quant is optional,
  // case-insensitive, default to Q4_K_M, or falls back to the first file in the repo").
  if (hub_gguf && c.s.checkpoint.gguf_quant_assumed) {
    f.add("-hf", c.s.checkpoint.repo);
    add_note(out, "gguf_quant_assumed", {{"repo", c.s.checkpoint.repo}});
  } else if (hub_gguf) {
    f.add("-hf", cat({c.s.checkpoint.repo, ":", quant}));
  } else
    f.add("-m", file);
  f.add("-c", c.s.seq_len * c.s.batch)
      .add("-np", c.s.batch)
      .add("-ngl", kAllLayers)
      .add("--split-mode", c.plan.pp > 1 ? "layer" : "none")
      .add("-fa", flash ? "on" : "off")
      .add("--cache-type-k", cache)
      .add("--cache-type-v", cache);
  if (const RopeScaling* r = c.yarn()) {
    f.add("--rope-scaling", r->type)
        .add("--rope-scale", fixed(r->factor, 0))
        .add("--yarn-orig-ctx", r->original_max_positions);
  }
  add_command(out, "llama.cpp", kLlamaCppVersion, "shell", "",
              shell_command(cat({replica_devices(c), "llama-server"}), f));
  add_note(out, "llamacpp_context",
           {{"context", c.s.seq_len * c.s.batch},
            {"slots", c.s.batch},
            {"seq_len", c.s.seq_len},
            {"kv_bytes", c.estimate.memory.breakdown.kv_cache}});
  if (!hub_gguf) {
    add_note(out, "gguf_path",
             {{"file", file},
              {"repo", c.s.checkpoint.repo},
              {"weights", to_string(c.s.weights)},
              {"converted", !is_gguf(c.s.weights)}});
  }
  if (c.s.kv_cache == KvFormat::Fp8) add_note(out, "kv_format_llamacpp");
  if (quantized_cache && !c.s.flash_attention) add_note(out, "llamacpp_fa");
  if (c.plan.pp > 1) add_note(out, "llamacpp_split", {{"pp", c.plan.pp}});
  multi_replica_note(c, "llama.cpp", out);
}

void multi_replica_note(const LaunchContext& c, const std::string& engine, Launch& out) {
  if (c.node_dp() <= 1) return;
  add_note(out, "replica_per_server",
           {{"engine", engine}, {"last_gpu", c.plan.tp * c.plan.pp - 1}, {"more", c.node_dp() - 1}});
}

}  // namespace gpusizer
