#include "plan/estimate.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"
#include "base/format.h"
#include "base/messages.h"
#include "catalog/checkpoints.h"
#include "scenario/engines.h"

namespace gpusizer {

std::string unsupported_reason(const Scenario& s, const Gpu& gpu, std::string* kind) {
  std::string k;
  // vLLM's AWQ kernels need compute capability 7.5 (awq.py get_min_capability() = 75), as do
  // AutoAWQ's and TensorRT-LLM's; LMDeploy's TurboMind also runs W4A16 on Volta.
  if (s.weights == WeightFormat::AwqInt4 && gpu.arch == "volta" && s.engine != Engine::Lmdeploy) {
    k = "awq_volta";
  } else if (s.weights == WeightFormat::Fp8 && (gpu.arch == "volta" || gpu.arch == "turing")) {
    // fp8 weights need Ampere at least (vLLM fp8.py get_min_capability() = 80: Marlin weight-only
    // dequantisation there, fp8 tensor cores from Ada).
    k = "fp8_old";
  } else if (s.engine == Engine::Sglang && s.weights == WeightFormat::Fp8 && !gpu.supports_fp8 &&
             s.checkpoint.stored == WeightFormat::Fp8 && find_published_checkpoint(s.checkpoint.repo) &&
             find_published_checkpoint(s.checkpoint.repo)->block_scaled) {
    // SGLang's block-fp8 GEMMs (Triton w8a8_block_fp8_matmul, fp8e4nv) need fp8 tensor cores and it
    // keeps Marlin off for block-wise fp8; its DeepSeek guide (docs/references/deepseek.md) lists
    // FP8 weights on H100/H800/H20/H200/MI300X and BF16, INT8 or AWQ weights for A100/A800.
    k = "fp8_blocks_sglang";
  } else {
    k = format_unsupported_kind(s.weights, gpu.arch);  // mxfp4, nvfp4 (precision.h)
  }
  if (kind) *kind = k;
  return k.empty() ? "" : message_text(k, {{"gpu", gpu.name}, {"weights", to_string(s.weights)}});
}

std::vector<Warning> capability_warnings(const Scenario& s, const Gpu& gpu) {
  std::vector<Warning> out;
  std::string kind;
  const std::string unsupported = unsupported_reason(s, gpu, &kind);
  if (!unsupported.empty()) {
    out.push_back({"format_unsupported", "weights", unsupported,
                   nlohmann::json({{"gpu", gpu.name}, {"weights", to_string(s.weights)}, {"kind", kind}})});
  }
  const bool bf16_used =
      s.weights == WeightFormat::Bf16 || s.kv_cache == KvFormat::Bf16 ||
      (is_training(s.task) && s.weights != WeightFormat::Fp16 && s.weights != WeightFormat::Fp32);
  if (bf16_used && !gpu.supports_bf16) {
    out.push_back(message_warning(
        "bf16_unsupported", s.weights == WeightFormat::Bf16 ? "weights" : "kv_cache", {{"gpu", gpu.name}}));
  }
  // An fp8 KV cache is stored in fp8 and read back to 16 bits inside the attention kernel, which
  // needs no fp8 tensor cores (vLLM #3965: "quantized but upconverted to fp16 for computation";
  // PR #24577: FlashInfer and Triton fp8 KV on A100, concurrency doubled); fp8 weights' matmuls do
  // need them. GPUs without bf16 (before Ampere) are warned about either.
  const bool fp8_used = s.weights == WeightFormat::Fp8 || (s.kv_cache == KvFormat::Fp8 && !gpu.supports_bf16);
  if (fp8_used && !gpu.supports_fp8) {
    out.push_back(message_warning("fp8_unsupported", s.weights == WeightFormat::Fp8 ? "weights" : "kv_cache",
                                  {{"gpu", gpu.name}}));
  }
  return out;
}

// MLPerf Inference (v4.0 on) Llama 2 70B server scenario: time to first token bounded at 2 s.
constexpr double kSlowFirstTokenS = 2.0;

std::optional<Warning> slow_first_token_warning(const Scenario& s, const Gpu& gpu, double ttft_alone_s) {
  // Not finite: a layout over links that carry nothing (single-GPU instances without a network),
  // refused elsewhere; no figure to state.
  if (!std::isfinite(ttft_alone_s) || ttft_alone_s <= kSlowFirstTokenS || (s.load && s.load->ttft_s))
    return std::nullopt;
  return message_warning("slow_first_token", "gpu",
                         {{"gpu", gpu.name}, {"seconds", ttft_alone_s}, {"prompt_tokens", s.prompt_tokens}},
                         {{"seconds_text", fixed(ttft_alone_s, 1)}});
}

std::vector<Remedy> remedies(const Scenario& s, const Gpu& gpu) {
  const double need = estimate_memory(s, &gpu).per_gpu_bytes;
  // One copy without the model as given (an imported config.json can be megabytes), then one per change.
  Scenario base = s;
  base.model_input = nullptr;
  std::vector<Remedy> out;
  auto attempt = [&](const char* id, const char* field, const nlohmann::json& value, auto change) {
    Scenario t = base;
    change(t);
    try {
      validate_scenario(t);
    } catch (const InputError&) {
      return;  // not a legal combination here (e.g. QLoRA on a format it cannot quantise)
    }
    const double bytes = estimate_memory(t, &gpu).per_gpu_bytes;
    if (bytes < need) out.push_back({id, field, value, bytes, fits_on(t, gpu, bytes)});
  };
  if (is_training(s.task)) {
    if (s.training.grad_checkpointing != Checkpointing::Full) {
      attempt("grad_checkpointing", "training.grad_checkpointing", "full",
              [](Scenario& t) { t.training.grad_checkpointing = Checkpointing::Full; });
    }
    if (s.batch > 1) attempt("batch_1", "batch", 1, [](Scenario& t) { t.batch = 1; });
    // Several GPUs holding a whole copy each: ZeRO-3 (DeepSpeed) or FSDP full sharding keeps 1/N of
    // the parameters, frozen ones included, on each (Rajbhandari et al. 2019, ZeRO, sec. 5.3 parameter
    // partitioning).
    if (s.gpus > 1 && s.training.zero < 3 && engine_caps(s.engine).zero) {
      attempt("zero3", "training.zero", 3, [](Scenario& t) { t.training.zero = 3; });
    }
    if (s.task == Task::Full || s.task == Task::Pretrain) {
      attempt("lora", "task", "lora", [](Scenario& t) {
        t.task = Task::Lora;
        t.training.grad_checkpointing = Checkpointing::Full;
      });
      if (s.training.optimizer == Optimizer::Adamw) {
        attempt("adamw_8bit", "training.optimizer", "adamw-8bit",
                [](Scenario& t) { t.training.optimizer = Optimizer::Adamw8bit; });
      }
      if (engine_caps(s.engine).zero &&
          !(s.training.zero == 3 && s.training.offload_optimizer && s.training.offload_params)) {
        attempt("zero3_offload", "training.zero", 3, [](Scenario& t) {
          t.training.zero = 3;
          t.training.offload_optimizer = true;
          t.training.offload_params = true;
        });
      }
    }
    if (s.task != Task::Qlora) {
      attempt("qlora", "task", "qlora", [](Scenario& t) {
        t.task = Task::Qlora;
        t.weights = WeightFormat::Nf4;
        t.training.grad_checkpointing = Checkpointing::Full;
      });
    }
  } else {
    if (s.kv_cache == KvFormat::Bf16 || s.kv_cache == KvFormat::Fp16) {
      attempt("kv_fp8", "kv_cache", "fp8", [](Scenario& t) { t.kv_cache = KvFormat::Fp8; });
    }
    if (!is_quantized(s.weights) && s.engine != Engine::LlamaCpp) {
      attempt("awq_int4", "weights", "awq-int4", [](Scenario& t) { t.weights = WeightFormat::AwqInt4; });
    }
    if (s.batch > 1) attempt("batch_1", "batch", 1, [](Scenario& t) { t.batch = 1; });
  }
  std::sort(out.begin(), out.end(),
            [](const Remedy& a, const Remedy& b) { return a.per_gpu_bytes < b.per_gpu_bytes; });
  return out;
}

namespace {

// The fit of `need` bytes per GPU on `gpu`: estimate()'s `gpu` and each row of fit_on_each().
GpuFit gpu_fit(const Scenario& s, const Gpu& gpu, double need) {
  return GpuFit{gpu.id, gpu.memory_bytes, usable_bytes(s, gpu), fits_on(s, gpu, need), gpu.name};
}

}  // namespace

Estimate estimate(const Scenario& s) {
  Estimate e;
  e.model_name = s.model.name;
  e.params = count_params(s.model);
  e.warnings = s.warnings;
  const auto workload = workload_warnings(s);
  e.warnings.insert(e.warnings.end(), workload.begin(), workload.end());
  const Gpu* gpu = s.gpu ? find_gpu(*s.gpu) : nullptr;
  e.memory = estimate_memory(s, gpu);
  e.warnings.insert(e.warnings.end(), e.memory.warnings.begin(), e.memory.warnings.end());
  if (online_fp8(s)) {
    nlohmann::json values = {{"engine", to_string(s.engine)},
                             {"repo", s.checkpoint.repo},
                             {"stored", to_string(s.checkpoint.stored)},
                             {"load_bytes", load_peak_bytes(s, gpu)}};
    if (const PublishedCheckpoint* p = published_checkpoint_of(s.model.id, WeightFormat::Fp8))
      values["alternative"] = p->repo;
    e.warnings.push_back(message_warning("online_fp8_load", "weights", values));
  }
  if (gpu) {
    e.gpu = gpu_fit(s, *gpu, std::max(e.memory.per_gpu_bytes, load_peak_bytes(s, gpu)));
    e.max = max_fit(s, *gpu);
    const auto caps = capability_warnings(s, *gpu);
    e.warnings.insert(e.warnings.end(), caps.begin(), caps.end());
    if (e.gpu->fits) {  // speed and time of a layout that does not fit are not shown as if it ran
      e.throughput = estimate_throughput(s, *gpu);
      // Serving at concurrency, up to what the KV cache holds at this context.
      const double cap = e.max ? static_cast<double>(std::max<int64_t>(e.max->batch, s.batch))
                               : static_cast<double>(s.batch);
      e.throughput->curve = serving_curve(s, *gpu, cap);
      e.time = job_time(s, *e.throughput);
      const auto& curve = e.throughput->curve;
      if (!curve.empty() && curve.front().batch == 1) {
        if (auto w = slow_first_token_warning(s, *gpu, curve.front().ttft_joining_s))
          e.warnings.push_back(*w);
      }
    } else {
      e.remedies = remedies(s, *gpu);
    }
  }
  return e;
}

std::vector<GpuFitRow> fit_on_each(const Scenario& s) {
  Scenario t = s;  // one copy; estimate_memory reads the model already resolved, not the pasted config
  t.model_input = nullptr;
  std::vector<GpuFitRow> out;
  out.reserve(gpu_catalog().size());
  for (const Gpu& gpu : gpu_catalog()) {
    t.gpu = gpu.id;
    const double need = estimate_memory(t, &gpu).per_gpu_bytes;
    out.push_back({&gpu, need, gpu_fit(t, gpu, std::max(need, load_peak_bytes(t, &gpu)))});
  }
  return out;
}

nlohmann::json to_json(const GpuFitRow& r) {
  return nlohmann::json({{"gpu", r.fit.id},
                         {"fits", r.fit.fits},
                         {"per_gpu_bytes", r.per_gpu_bytes},
                         {"usable_bytes", r.fit.usable_bytes},
                         {"memory_bytes", r.fit.memory_bytes}});
}

nlohmann::json to_json(const Warning& w) {
  nlohmann::json j = nlohmann::json({{"code", w.code}, {"field", w.field}, {"message", w.message}});
  if (!w.values.empty()) j["values"] = w.values;
  return j;
}

nlohmann::json to_json(const Estimate& e) {
  const MemoryBreakdown& b = e.memory.breakdown;
  nlohmann::json j;
  j["model"] = nlohmann::json({{"name", e.model_name},
                               {"params", e.params.total},
                               {"active_params", e.params.active},
                               {"trainable_params", e.memory.trainable_params}});
  j["memory"] = nlohmann::json({{"per_gpu_bytes", e.memory.per_gpu_bytes},
                                {"breakdown", nlohmann::json({{"weights", b.weights},
                                                              {"gradients", b.gradients},
                                                              {"optimizer", b.optimizer},
                                                              {"activations", b.activations},
                                                              {"kv_cache", b.kv_cache},
                                                              {"runtime", b.runtime}})},
                                {"host_bytes", e.memory.host_bytes},
                                {"kv_bytes_per_token", e.memory.kv_bytes_per_token}});
  if (b.draft_weights > 0 || b.draft_kv_cache > 0) {  // speculative decoding's draft (memory.h)
    j["memory"]["breakdown"]["draft_weights"] = b.draft_weights;
    j["memory"]["breakdown"]["draft_kv_cache"] = b.draft_kv_cache;
  }
  add_memory_json(e.memory, &j["memory"]);  // figures, engine budget, range (memory_runtime.cpp)
  if (e.gpu) {
    j["gpu"] = nlohmann::json({{"id", e.gpu->id},
                               {"name", e.gpu->name},
                               {"memory_bytes", e.gpu->memory_bytes},
                               {"usable_bytes", e.gpu->usable_bytes},
                               {"fits", e.gpu->fits}});
  }
  if (!e.remedies.empty()) {
    nlohmann::json r = nlohmann::json::array();
    for (const Remedy& x : e.remedies) {
      r.push_back(nlohmann::json({{"id", x.id},
                                  {"field", x.field},
                                  {"value", x.value},
                                  {"per_gpu_bytes", x.per_gpu_bytes},
                                  {"fits", x.fits}}));
    }
    j["remedies"] = r;
  }
  if (e.max) j["max"] = nlohmann::json({{"batch", e.max->batch}, {"seq_len", e.max->seq_len}});
  if (e.throughput) j["throughput"] = to_json(*e.throughput);
  if (e.time)
    j["time"] = nlohmann::json({{"wall_hours", e.time->wall_hours}, {"gpu_hours", e.time->gpu_hours}});
  nlohmann::json warnings = nlohmann::json::array();
  nlohmann::json details = nlohmann::json::array();
  for (const Warning& w : e.warnings) {
    warnings.push_back(w.message);
    details.push_back(to_json(w));
  }
  j["warnings"] = warnings;
  j["warning_details"] = details;
  return j;
}

}  // namespace gpusizer
