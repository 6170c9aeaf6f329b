// Roofline per phase. Prefill and training are bound by tensor-core FLOP/s, decode by reading the
// weights and the KV cache every step; tensor parallelism adds all-reduces, pipelines add bubbles,
// and engines add host time per step. docs/speed.md derives each term.
#include "speed/speed.h"
#include "memory/element_bytes.h"
#include "memory/lora.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"
#include "memory/memory_quant.h"
#include "memory/memory_training.h"
#include "model/precision.h"
#include "scenario/speculative.h"
#include "speed/speed_dp_attention.h"
#include "speed/speed_speculative.h"

namespace gpusizer {
namespace {

constexpr double kTera = 1e12;
constexpr double kActivationBytes = 2;  // bf16/fp16 activations cross the TP all-reduces

// Per small all-reduce (a decode step's hidden vector): 20 us, fitted to the Qwen2.5 vLLM 0.6.3
// cases with TP = 2 and 4 on A100-SXM (72B: 160 all-reduces per step explain 3-5 ms).
constexpr double kAllReduceLatencyS = 20e-6;

// One message between pipeline stages on different nodes: about 5 us over RDMA (InfiniBand/EFA
// ib_send_lat, NVIDIA ConnectX docs: ~1-5 us) and about 50 us over TCP in a cloud VPC (AWS
// placement-group docs: single-digit-to-tens of microseconds round trip; half a round trip plus
// the TCP stack); inside a node a stage hand-off rides NVLink/PCIe within the all-reduce latency.
constexpr double kRdmaHopS = 5e-6;
constexpr double kTcpHopS = 50e-6;

// DGX A100/H100 nodes: 8 GPUs, 8 x 200 Gb/s HDR (A100) / 8 x 400 Gb/s NDR (H100) compute NICs
// (NVIDIA DGX A100 and DGX H100 user guides); the default node for estimates without an
// instance takes the A100 figure, 1.6 Tb/s each way.
constexpr double kDefaultNodeGbps = 1600;

// Weight-only quantised GEMV kernels (Marlin GPTQ/AWQ, bnb) reach 0.9 of the 16-bit kernels'
// bandwidth share: fit over the GPTQ/AWQ int4/int8 cases of the Qwen2.5 vLLM benchmark.
constexpr double kDequantBandwidthShare = 0.9;

struct ServingProfile {
  Engine engine;
  double bandwidth;  // share of peak HBM/GDDR bandwidth while decoding
  double compute;    // share of peak tensor FLOP/s in prefill
  double step_s;     // host time per decode step
  double layer_s;    // host launch time per layer per step
};

constexpr ServingProfile kServing[] = {
    // vLLM 0.6.3, A100-SXM 80GB, Qwen2.5 0.5B-72B at batch 1 (Qwen2.5 speed benchmark, 147 cases):
    // least-squares fit of step = 3 ms + bytes / (0.75 x 2039 GB/s), prefill at 0.5 of peak.
    {Engine::Vllm, 0.75, 0.5, 3e-3, 0},
    // SGLang: same kernel class (FlashInfer, cuBLAS), host work overlapped with the GPU
    // ("zero-overhead batch scheduler", SGLang v0.4 release blog, Dec 2024): 1 ms left per step.
    {Engine::Sglang, 0.75, 0.5, 1e-3, 0},
    // LMDeploy TurboMind: C++ engine without a Python scheduler loop (InternLM/lmdeploy README,
    // "up to 1.8x higher request throughput than vLLM"): 1 ms per step, vLLM's kernels' bandwidth.
    {Engine::Lmdeploy, 0.75, 0.5, 1e-3, 0},
    // TensorRT-LLM: C++ executor with CUDA graphs and fused kernels (NVIDIA TensorRT-LLM docs,
    // performance overview): 1 ms per step, prefill 0.55 (fused attention and GEMM epilogues).
    {Engine::TensorrtLlm, 0.75, 0.55, 1e-3, 0},
    // transformers 4.46 generate, A100, Qwen2.5 0.5B-32B at batch 1 (Qwen2.5 speed benchmark):
    // step = 0.88 ms x layers for every size (24 to 64 layers): eager kernel launches from Python.
    {Engine::Transformers, 0.75, 0.5, 0, 0.88e-3},
    // llama.cpp CUDA, llama-bench (ggml-org/llama.cpp PR #4766): tg128 7B F16 on RTX 3090
    // 48.5 t/s = 13.5 GB / (0.8 x 936 GB/s) + 2 ms; pp512 4185 t/s = 0.79 of 71 TFLOP/s, Q4_0 0.65:
    // 0.35 of the 142 TFLOP/s FP16-accumulate rate its cuBLAS GEMMs run at (CUBLAS_COMPUTE_16F,
    // ggml-cuda.cu); fp16_accumulate_factor restores 0.7 of 71 on GeForce cards.
    {Engine::LlamaCpp, 0.8, 0.35, 2e-3, 0},
};

// Host time per layer of an eagerly launched PyTorch decoder layer (kernel launches from Python
// each step): 0.88 ms, the transformers 4.46 fit above (Qwen2.5 speed benchmark, A100, 24-64
// layers). Engines that capture the decode step as CUDA graphs replay it with one launch; with
// graphs off (vLLM --enforce-eager, SGLang --disable-cuda-graph) their Python model code launches
// per layer like transformers does, so the same per-layer time applies.
constexpr double kEagerLayerS = 0.88e-3;

// Whether an engine replays decode steps as CUDA graphs by default: vLLM (since 0.2, unless
// --enforce-eager), SGLang (unless --disable-cuda-graph), TensorRT-LLM and LMDeploy TurboMind
// (C++ executors, no per-layer Python), llama.cpp (CUDA graphs default since b3026, May 2024);
// transformers generate() runs eagerly unless a static cache is compiled.
bool graphs_by_default(Engine e) { return e != Engine::Transformers; }

// Kernel class "triton" of MLA + routed-expert models (engine_version "sglang 0.4.1"; docs/speed.md
// "DeepSeek-V3 on SGLang 0.4.1"): SGLang v0.4.1 / v0.4.1.post2 ran DeepSeek-V3's MLA through Triton
// decode/extend attention and its experts through the Triton fused-MoE kernel with block-wise
// (128 x 128) FP8 dequantisation, TP 8 over all 256 experts, before FlashInfer MLA, DeepGEMM and the
// H200-tuned MoE configs (sgl-project/sglang issue #2591 checklist). Two constants chosen on a grid
// (0.35-0.45 ms, 0.02-0.08) against the v0.4.1.post2 release figures on 8 x H200 (sgl-project/sglang
// PR #2643: batch 1 / 8 / 32 at 128 in / 256 out, 30.29 / 206.32 / 760.52 tokens/s; ShareGPT 5,000
// prompts 2,673.55 tokens/s; data/validation/speed-sglang-v041post2-release.json, calibration): the
// layer time balances the batch-1 and batch-32 errors, the share matches the ShareGPT run.
// GPU time per layer per forward pass that no roofline term carries (kernel latencies of the MoE
// routing/alignment, block-quantisation and MLA kernels at any batch).
constexpr double kTritonMlaMoeLayerS = 0.41e-3;
// Achieved share of the FP8 tensor peak on the forward's FLOPs (prefill and large-batch decode).
constexpr double kTritonMlaMoeCompute = 0.03;

bool triton_mla_moe(const Scenario& s) {
  return s.version_facts.mla_moe_kernels == "triton" && s.model.mla.kv_lora_rank > 0 && s.model.experts > 0;
}

// GPU time per forward pass that the kernel class adds to `layers` layers.
double kernel_layers_s(const Scenario& s, double layers) {
  return triton_mla_moe(s) ? kTritonMlaMoeLayerS * layers : 0;
}

bool is_hopper_class(const Gpu& gpu) {
  // cdna4 (MI355X) is CDNA3's successor at ~2x its dense rate (gpus.json MI355X source).
  return gpu.arch == "hopper" || gpu.arch == "blackwell" || gpu.arch == "cdna3" || gpu.arch == "cdna4";
}

// Training efficiency on executed FLOPs (model FLOPs + recomputation).
double training_efficiency(Engine engine, const Gpu& gpu) {
  // Megatron-LM 8.3B on one V100: 39 TFLOP/s = 30 % of 125 (Shoeybi et al. 2019, section 5.1);
  // Turing has the same fp16 tensor-core generation.
  if (gpu.arch == "volta" || gpu.arch == "turing") return 0.30;
  if (engine == Engine::Megatron) {
    // H100: "up to 47 % MFU" (NVIDIA/Megatron-LM README); A100: 44-52 % of peak, 1.7B-1T
    // (Narayanan et al. 2021, Table 1; their FLOPs include the recomputation).
    return is_hopper_class(gpu) ? 0.47 : 0.46;
  }
  // FSDP (FULL_SHARD) and DeepSpeed ZeRO-3 share one figure: both gather each unit's parameters
  // before its forward and backward and reduce-scatter its gradients, the same bytes (Zhao et al.
  // 2023, "PyTorch FSDP", section 3.2; Rajbhandari et al. 2020, section 5.3), over the same model
  // code and kernels. ZeRO-3 on A100: OPT-175B reached 147 TFLOP/s per A100 80GB = 47 % (Zhang et al. 2022,
  // section 2.3); FSDP with selective checkpointing 57 % MFU, 7B on 128 A100 (PyTorch/IBM blog
  // "Maximizing training throughput using PyTorch FSDP", 2024-03-13). Hopper: FSDP with full
  // checkpointing on H200, 44.4 % MFU (13B, 8 GPUs) down to 26.9-32.7 % on 32 (KempnerForge
  // benchmarks/mfu_scaling): 0.40 of the executed FLOPs sits between one node and several.
  return is_hopper_class(gpu) ? 0.40 : 0.48;
}

ServingProfile serving_profile(Engine engine) {
  for (const ServingProfile& p : kServing) {
    if (p.engine == engine) return p;
  }
  return kServing[0];
}

bool dequantises(WeightFormat f) {
  return is_quantized(f) && f != WeightFormat::Fp8 && f != WeightFormat::Int8 && !is_gguf(f);
}

}  // namespace

ModelCosts model_costs(const Scenario& s) {
  const Architecture& a = s.model;
  const ParamCounts p = count_params(a);
  const WeightBytes w = weight_bytes(a, s.weights);
  double expert_weights = 0, expert_active = 0, gate_up = 0, attn_weights = 0, moe_layers = 0;
  for (const LinearModule& m : linear_modules(a)) {
    const double weights =
        static_cast<double>(m.in) * static_cast<double>(m.out) * static_cast<double>(m.count);
    if (m.group == "experts") {
      expert_weights += weights;
      expert_active +=
          static_cast<double>(m.in) * static_cast<double>(m.out) * static_cast<double>(m.active_count);
    }
    if (m.group == "experts" && a.experts > 0)
      moe_layers = static_cast<double>(m.count) / static_cast<double>(a.experts);
    if (m.group == "attention") attn_weights += weights;
    if (m.group == "mlp" && (m.name == "gate" || m.name == "up")) gate_up += weights;
  }
  const double expert_share = p.linear > 0 ? expert_weights / p.linear : 0;
  ModelCosts c;
  c.expert_bytes = w.linear * expert_share;
  c.dense_bytes = w.linear - c.expert_bytes + w.other + (a.tied_embeddings ? w.embedding : w.lm_head);
  // Modules a checkpoint keeps 16-bit beside its quantized ones (engine_options.quant_scope,
  // memory_quant.cpp) are read as such every step.
  c.dense_bytes += quant_scope_model_delta_bytes(s);
  c.head_flops = 2.0 * static_cast<double>(a.vocab) * static_cast<double>(a.hidden);
  c.matmul_flops = 2 * p.linear_active + c.head_flops;
  c.gate_up_flops = 2 * gate_up;
  c.attn_bytes = p.linear > 0 ? w.linear * attn_weights / p.linear : 0;
  c.attn_flops = 2 * attn_weights;
  c.expert_flops = 2 * expert_active;
  // MLA attends over the latent (kv_lora_rank + rope dims) with absorbed projections (DeepSeek-V2, 2.1.2).
  const double head_width = a.mla.kv_lora_rank > 0
                                ? static_cast<double>(a.mla.kv_lora_rank + a.mla.qk_rope_head_dim)
                                : static_cast<double>(a.head_dim);
  c.attn_width = static_cast<double>(a.heads) * head_width;
  // Linear-attention layers (Qwen3-Next) do no softmax attention over the context: scale the
  // width by the share of full-attention layers (their own cost is in the linear FLOPs).
  c.attn_width *= static_cast<double>(a.layers - a.linear_attn_layers) / static_cast<double>(a.layers);
  // MLA prompts without a cached prefix run the non-absorbed heads (SGLang DeepseekV2AttentionMLA.forward
  // before PR #3582, 2025-02: "Use normal computation for prefill and use weight absorption for
  // extend/decode", forward_normal when extend_prefix_lens are 0): q.k over qk_nope + rope dims, p.v over
  // v_head_dim, i.e. a mean width of their half-sum per head.
  c.prefill_attn_width =
      a.mla.kv_lora_rank > 0
          ? static_cast<double>(a.heads) *
                static_cast<double>(a.mla.qk_nope_head_dim + a.mla.qk_rope_head_dim + a.mla.v_head_dim) / 2
          : c.attn_width;
  c.kv_bytes_per_token = kv_bytes_per_token(a, s.kv_cache);
  c.params = p.total;
  const bool adapters = s.task == Task::Lora || s.task == Task::Qlora;
  c.trainable_params = adapters ? lora_params(a, s.training.lora_targets, s.training.lora_rank) : p.total;
  c.routed_params = expert_weights;
  c.moe_layers = moe_layers;
  c.linear_params = p.linear;
  c.linear_bytes = p.linear > 0 ? w.linear / p.linear : 2;
  return c;
}

namespace {

// Share of routed experts a step touches: each of `tokens` tokens picks k of E experts, so an
// expert stays idle with probability (1 - k/E)^tokens (uniform routing).
double experts_touched(const Architecture& a, double tokens) {
  if (a.experts == 0) return 0;
  const double pick = static_cast<double>(a.experts_per_token) / static_cast<double>(a.experts);
  return 1 - std::pow(1 - pick, tokens);
}

// NCCL instead of a custom one-shot all-reduce (engine_options.disable_custom_all_reduce): 44 us more
// per call. vLLM PR #2192 ("Custom all reduce kernels", 2023-12-19), benchmark_latency, Llama 70B,
// A100-80G, TP 4, batch 64, 256 in / 256 out: 16.37 s with NCCL, 14.57 s with the custom kernel, i.e.
// 1.80 s over 257 forward passes x 80 layers x 2 all-reduces = 43.8 us per all-reduce. The 20 us above
// was fitted to vLLM 0.6.3, which runs the custom kernel.
constexpr double kNcclExtraLatencyS = 43.8e-6;

double allreduce_extra_latency_s(const Scenario& s) {
  return s.engine_options.disable_custom_all_reduce.value_or(false) ? kNcclExtraLatencyS : 0;
}

// Bandwidth per GPU of a collective over `ranks` GPUs: the node's link while the group stays in
// one node; across nodes each GPU's share of the node's network (a hierarchical ring sends each
// GPU's share of the data through the NICs once; NCCL's ring/tree, Jeaugey, GTC 2020), one direction.
double group_bytes_per_s(int64_t ranks, const Links& links) {
  if (ranks <= links.gpus_per_node) return links.intra_bytes_per_s / 2;
  const double nic_share = links.inter_bytes_per_s / 2 / static_cast<double>(links.gpus_per_node);
  return std::min(links.intra_bytes_per_s / 2, nic_share);
}

// Ring all-reduce (peers.md 4.6): 2 (t-1)/t x bytes over one direction of each GPU's share of the
// group's slowest link (group_bytes_per_s: NVLink/PCIe inside a node, the NICs once the group spans
// nodes); plus a fixed latency, and for a group across nodes the network hops of its reduce and its
// broadcast, one per node boundary each (kRdmaHopS / kTcpHopS; a chain of the nodes, NCCL's tree
// needs fewer: an upper bound).
double allreduce_s(double bytes, int64_t tp, const Links& links, double extra_latency_s = 0) {
  if (tp <= 1) return 0;
  const double t = static_cast<double>(tp);
  const double nodes = std::ceil(t / static_cast<double>(std::max<int64_t>(links.gpus_per_node, 1)));
  const double hops_s = nodes > 1 ? 2 * (nodes - 1) * (links.rdma ? kRdmaHopS : kTcpHopS) : 0;
  return kAllReduceLatencyS + extra_latency_s + hops_s +
         2 * (t - 1) / t * bytes / group_bytes_per_s(tp, links);
}

}  // namespace

double peak_flops(const Gpu& gpu, WeightFormat f) {
  const double half = gpu.bf16_tflops > 0 ? gpu.bf16_tflops : gpu.fp16_tflops;
  double tflops = half;
  if (f == WeightFormat::Fp16) tflops = gpu.fp16_tflops;
  if (f == WeightFormat::Fp32) tflops = gpu.fp32_tflops;
  if (f == WeightFormat::Fp8 && gpu.fp8_tflops > 0) tflops = gpu.fp8_tflops;
  if (f == WeightFormat::Int8 && gpu.int8_tops > 0) tflops = gpu.int8_tops;
  return tflops * kTera;
}

EngineEfficiency engine_efficiency(const Scenario& s, const Gpu& gpu) {
  EngineEfficiency e;
  if (is_training(s.task)) {
    e.compute = training_efficiency(s.engine, gpu);
  } else {
    const ServingProfile p = serving_profile(s.engine);
    e.compute = std::min(p.compute, card_compute_cap(gpu));  // power-capped cards (card_shares.cpp)
    if (triton_mla_moe(s))
      e.compute = std::min(kTritonMlaMoeCompute, e.compute);  // SGLang 0.4.1 Triton MLA/MoE (above)
    // llama.cpp's prefill GEMMs accumulate in FP16 (CUBLAS_COMPUTE_16F): twice the listed rate on GeForce.
    if (s.engine == Engine::LlamaCpp) e.compute *= fp16_accumulate_factor(gpu);
    e.bandwidth = p.bandwidth * (dequantises(s.weights) ? kDequantBandwidthShare : 1) *
                  card_bandwidth_factor(gpu, s.engine);
    e.step_overhead_s = p.step_s;
    e.layer_overhead_s = p.layer_s;
    const bool graphs = s.efficiency.cuda_graphs.value_or(graphs_by_default(s.engine));
    if (!graphs && graphs_by_default(s.engine) && s.engine != Engine::Lmdeploy &&
        s.engine != Engine::TensorrtLlm) {
      e.layer_overhead_s = kEagerLayerS;  // Python engines launching per layer (see kEagerLayerS)
    }
    if (graphs && s.engine == Engine::Transformers) {
      // A compiled static-cache generate() replays the step like vLLM: vLLM's 3 ms per step.
      e.layer_overhead_s = 0;
      e.step_overhead_s = serving_profile(Engine::Vllm).step_s;
    }
  }
  if (s.efficiency.mfu) e.compute = *s.efficiency.mfu;
  if (s.efficiency.bandwidth) e.bandwidth = *s.efficiency.bandwidth;
  return e;
}

double training_flops_per_token(const Scenario& s) { return training_flops_per_token(s, model_costs(s)); }

double training_flops_per_token(const Scenario& s, const ModelCosts& c) {
  const Architecture& a = s.model;
  // Attention scores and values: 4 x layers x seq x width per token forward, the convention of
  // Narayanan et al. 2021 eq. 3 / Korthikanti et al. 2022 App. A (12 x L x h x s fwd + bwd).
  const double attn_fwd = 4 * static_cast<double>(a.layers) * static_cast<double>(s.seq_len) * c.attn_width;
  const double fwd = c.matmul_flops + attn_fwd;
  // Backward: gradients of activations (2 x 2N) and of weights (2N); a frozen LoRA base needs
  // only the former (adapter FLOPs are rank/hidden of that: neglected).
  const bool frozen = s.task == Task::Lora || s.task == Task::Qlora;
  const double bwd = (frozen ? 1 : 2) * c.matmul_flops + 2 * attn_fwd;
  double recompute = 0;
  if (s.training.grad_checkpointing == Checkpointing::Full) recompute = fwd;            // one more forward
  if (s.training.grad_checkpointing == Checkpointing::Selective) recompute = attn_fwd;  // Korthikanti 4.2
  return fwd + bwd + recompute;
}

namespace {

// AutoAWQ under transformers (engine_options.fused_layers, awq_kernel; AutoAWQ @027758d, the 0.1.6
// benchmark's code). With fused layers a single-token step runs FasterTransformer's fused
// rotary + KV-append + attention kernel (awq/modules/fused/attn.py, seqlen == 1) with fused norms and
// MLP: a dozen kernel launches per layer instead of transformers' eager layer, taken as hidden behind
// the GPU's work (no per-layer host term). Prompts (seqlen > 1) take the module's PyTorch attention
// path and keep transformers' per-layer host time.
bool fused_awq(const Scenario& s) {
  return s.engine == Engine::Transformers && s.weights == WeightFormat::AwqInt4 &&
         s.engine_options.fused_layers.value_or(false);
}

// Per-token FLOPs that an AWQ GEMV checkpoint runs in awq_ext's gemv_forward_cuda, a CUDA-core kernel
// (gemv_cuda.cu gemv_kernel_g128: each 4-bit weight is masked, converted int -> float, zero-shifted
// and scaled before its multiply-add) instead of tensor cores. WQLinear_GEMV calls it for up to 8
// rows and the tensor-core gemmv2 kernel beyond (awq/modules/linear.py); the fused MLP calls it for
// its gate and up projections at any row count (awq/modules/fused/mlp.py).
double awq_gemv_flops(const Scenario& s, const ModelCosts& c, double rows) {
  if (s.weights != WeightFormat::AwqInt4 || s.engine_options.awq_kernel != std::string("gemv")) return 0;
  if (rows <= 8) return c.matmul_flops - c.head_flops;
  return s.engine_options.fused_layers.value_or(false) ? c.gate_up_flops : 0;
}

// AutoAWQ 0.1.x's own tensor-core kernels (engine_options.awq_kernel stated; awq_cuda/quantization/
// gemm_cuda_gen.cu at AutoAWQ @5c7e368, the README benchmark's commit, and @7c59407, the T4 run's;
// the same file in AutoAWQ_kernels @a22d67a): gemm_forward_cuda (WQLinear_GEMM, and the fused GEMM
// MLP's gate and up) and gemmv2_forward_cuda (WQLinear_GEMV above 8 rows) split K 8 ways
// (split_k_iters = 8, awq/modules/linear.py, fused/mlp.py) into an [8, rows, out] fp16 buffer that
// `_out_feats.sum(0)` reduces in a separate kernel: 8 partials read and the sum written.
constexpr double kAwqSplitK = 8;
constexpr double kFp16Bytes = 2;
// Thread-block tiles along the rows (tokens): gemm_forward_4bit_cuda_m16n128k32 / m16n64k32 compute 16
// rows per block, gemmv2_forward_4bit_cuda_m128n64k32 128; the MMAs run on whole tiles (rows past the
// input are masked on load, not skipped), so a step of r rows costs ceil(r / tile) x tile rows.
constexpr double kAwqGemmTileRows = 16;
constexpr double kAwqGemmv2TileRows = 128;

struct AwqKernelCost {
  double split_k_bytes = 0;  // bytes the split-K reduction moves for `rows` rows
  double padding_flops = 0;  // tensor-core FLOPs spent on the tiles' padding rows
};

AwqKernelCost autoawq_kernel_cost(const Scenario& s, double rows) {
  AwqKernelCost k;
  if (s.engine != Engine::Transformers || s.weights != WeightFormat::AwqInt4 || !s.engine_options.awq_kernel)
    return k;
  const bool gemv = *s.engine_options.awq_kernel == "gemv";
  if (gemv && rows <= 8) return k;  // gemv_forward_cuda: CUDA cores, one output write (awq_gemv_flops)
  const bool fused_mlp = s.engine_options.fused_layers.value_or(false);
  const double tile = gemv ? kAwqGemmv2TileRows : kAwqGemmTileRows;
  const double padded = std::ceil(rows / tile) * tile;
  for (const LinearModule& m : linear_modules(s.model)) {
    // The fused GEMV MLP runs gate and up in gemv_forward_cuda at any row count (fused/mlp.py).
    if (gemv && fused_mlp && m.group == "mlp" && (m.name == "gate" || m.name == "up")) continue;
    const double count = static_cast<double>(m.count), out = static_cast<double>(m.out);
    k.split_k_bytes += rows * out * count * kFp16Bytes * (kAwqSplitK + 1);
    k.padding_flops += 2 * static_cast<double>(m.in) * out * count * (padded - rows);
  }
  return k;
}

// AutoAWQ's fused attention on prompts (seqlen > 1, awq/modules/fused/attn.py @5c7e368) materialises the
// scores of every head in PyTorch ops, each a full pass over [batch, heads, prompt, prompt] in DRAM: matmul
// writes fp16 (2 bytes per score), "/ sqrt(head_dim)" reads and writes (4), "+ attention_mask" (4),
// ".float()" (2 + 4), softmax in fp32 (4 + 4), ".type_as(xq)" (4 + 2), and the matmul with the values
// reads it (2): 32 bytes per score element, per layer.
constexpr double kAwqFusedScoreBytes = 32;

// Seconds of `flops` of which `tokens x gemv_per_token` run on AutoAWQ's CUDA-core GEMV, the rest at
// the tensor rate; cards without a conversion rate on record run everything at the tensor rate.
double matmul_seconds(const Gpu& gpu, double flops, double gemv_flops, double tensor_flops_per_s) {
  const double cuda_core = int_to_float_flops(gpu);
  if (gemv_flops <= 0 || cuda_core <= 0) return flops / tensor_flops_per_s;
  return (flops - gemv_flops) / tensor_flops_per_s + gemv_flops / cuda_core;
}

// One decode step of one replica: every sequence of the batch gets a token. A speculative verify
// pass (speed_speculative.cpp) runs `query_tokens` positions of each sequence at once: the weights
// are read once, the matmuls and the experts see query_tokens x the rows, the attention scores
// query_tokens x the work, and each sequence's KV cache is read once (FlashInfer / FlashMLA tile a
// sequence's queries together).
double decode_step_s(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const EngineEfficiency& e,
                     const Links& links, double batch, double context, double query_tokens = 1) {
  const Architecture& a = s.model;
  const double tp = static_cast<double>(s.tp), pp = static_cast<double>(s.pp);
  // The batch is split into micro-batches that fill the pipeline (vLLM/SGLang pipeline parallel).
  const double micro = std::min(batch, pp);
  const double requests = batch / micro;
  const double tokens = requests * query_tokens;
  // Attention: split by heads over the TP ranks, or under DP attention each rank runs its own
  // requests with the whole attention weights (and on vLLM the whole dense layers; speed_dp_attention.cpp).
  const AttentionSplit attn = attention_split(s, requests);
  const double weights = (c.dense_bytes - c.attn_bytes) / (attn.dense * pp) +
                         c.expert_bytes * experts_touched(a, tokens) / (tp * pp) +
                         c.attn_bytes / (attn.weights * pp);
  const double kv = c.kv_bytes_per_token * context * attn.sequences / pp;
  const double attn_flops = c.attn_flops + 4 * static_cast<double>(a.layers) * context * c.attn_width;
  const double flops = tokens * (c.matmul_flops - c.attn_flops - c.expert_flops) / (attn.dense_work * pp) +
                       tokens * c.expert_flops / (tp * pp) + tokens * attn_flops / (attn.work * pp);
  const double memory_s = (weights + kv) / (gpu.bandwidth_bytes_per_s * e.bandwidth);
  const double gemv = tokens * awq_gemv_flops(s, c, tokens) / (tp * pp);
  const AwqKernelCost awq = autoawq_kernel_cost(s, tokens);
  const double compute_s = matmul_seconds(gpu, flops + awq.padding_flops / (tp * pp), gemv,
                                          peak_flops(gpu, s.weights) * e.compute);
  const double stage_layers = static_cast<double>(a.layers) / pp;
  const double comm_s = 2 * stage_layers *
                        allreduce_s(tokens * static_cast<double>(a.hidden) * kActivationBytes, s.tp, links,
                                    allreduce_extra_latency_s(s));
  // AutoAWQ's split-K reduction is a kernel of its own after each GEMM: it adds to the step.
  const double split_k_s = awq.split_k_bytes / (tp * pp) / (gpu.bandwidth_bytes_per_s * e.bandwidth);
  const double device_s =
      std::max(memory_s, compute_s) + comm_s + split_k_s + kernel_layers_s(s, stage_layers);
  const double host_s = fused_awq(s) ? 0 : e.layer_overhead_s * stage_layers;
  // Stage hand-offs that leave the node: one message per boundary per step. A tensor-parallel group
  // across nodes pays its own hops in allreduce_s; here only the pipeline's boundaries count.
  const double nodes = std::ceil(tp * pp / static_cast<double>(links.gpus_per_node));
  const double boundaries = std::min(pp - 1, nodes - 1);
  const double hop_s = boundaries > 0 ? boundaries * ((links.rdma ? kRdmaHopS : kTcpHopS) +
                                                      tokens * static_cast<double>(a.hidden) *
                                                          kActivationBytes / (links.inter_bytes_per_s / 2))
                                      : 0;
  // A token crosses all pp stages; with `micro` <= pp micro-batches in flight a round takes pp stage times.
  return pp * std::max(device_s, host_s) + hop_s + e.step_overhead_s;
}

// Prefill of `batch` prompts on one replica; chunked prefill keeps the pipeline stages busy.
double prefill_s(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const EngineEfficiency& e,
                 const Links& links, double batch, double prompt) {
  const Architecture& a = s.model;
  prompt = std::max(prompt, 1.0);
  const double tokens = batch * prompt;
  // vLLM/SGLang/TensorRT-LLM feed prompt chunks through the pipeline so every stage works at once;
  // llama.cpp's layer split and transformers' device_map run a prompt through the stages one after
  // another, so only tensor parallelism divides the work (llama-bench pp512 on 1-8 RTX 3090/4090
  // stays at the one-GPU rate: xiongjiedai/GPU-Benchmarks-on-LLM-Inference).
  const bool sequential_stages = s.engine == Engine::LlamaCpp || s.engine == Engine::Transformers;
  const double gpus = static_cast<double>(s.tp) * (sequential_stages ? 1.0 : static_cast<double>(s.pp));
  // Logits only for each sequence's last position; causal attention: half the score matrix.
  const double linear = tokens * (c.matmul_flops - c.head_flops - c.attn_flops) + batch * c.head_flops;
  const double attention = tokens * c.attn_flops +
                           batch * 2 * static_cast<double>(a.layers) * prompt * prompt * c.prefill_attn_width;
  // Under DP attention a prompt's attention runs on the one rank that holds its request.
  const AttentionSplit attn = attention_split(s, batch);
  const double attn_gpus = gpus / static_cast<double>(s.tp) * attn.work;
  // The non-expert layers on vLLM's DP attention run on the ranks that hold the prompts, like the attention.
  const double dense_gpus = gpus / static_cast<double>(s.tp) * attn.dense_work;
  const double experts = tokens * c.expert_flops;
  const double gemv = tokens * awq_gemv_flops(s, c, tokens) / gpus;
  const AwqKernelCost awq = autoawq_kernel_cost(s, tokens);
  const double compute_s = matmul_seconds(
      gpu, (linear - experts) / dense_gpus + (experts + awq.padding_flops) / gpus + attention / attn_gpus,
      gemv, peak_flops(gpu, s.weights) * e.compute);
  const double split_k_s = awq.split_k_bytes / gpus / (gpu.bandwidth_bytes_per_s * e.bandwidth);
  const double scores_s = fused_awq(s) ? batch * static_cast<double>(a.heads) * prompt * prompt *
                                             static_cast<double>(a.layers) * kAwqFusedScoreBytes / gpus /
                                             (gpu.bandwidth_bytes_per_s * e.bandwidth)
                                       : 0;
  const double weights =
      c.dense_bytes * static_cast<double>(s.tp) / attn.dense + c.expert_bytes * experts_touched(a, tokens);
  const double memory_s = weights / (gpus * gpu.bandwidth_bytes_per_s * e.bandwidth);
  const double comm_s = 2 * static_cast<double>(a.layers) *
                        allreduce_s(tokens * static_cast<double>(a.hidden) * kActivationBytes, s.tp, links,
                                    allreduce_extra_latency_s(s));
  const double host_s = e.layer_overhead_s * static_cast<double>(a.layers) + e.step_overhead_s;
  const double kernel_s = kernel_layers_s(s, static_cast<double>(a.layers));
  return std::max(compute_s, memory_s) + split_k_s + scores_s + comm_s + kernel_s + host_s;
}

// A request's time per output token among `batch` in flight, from the decode step and the batch's
// prefill: the estimate's headline and its curve points (serving_point) both read it.
double tpot_s(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const EngineEfficiency& e,
              const Links& links, double batch, double step_s, double batch_prefill_s) {
  const double output = std::max(static_cast<double>(s.output_tokens), 1.0);
  if (batch <= 1) return step_s;
  if (dp_attention(s) && !vllm_dp_attention(s)) {
    // DP attention: all ranks take each forward pass together (the MoE gathers every rank's tokens)
    // and SGLang 0.4 does not mix prompts into decode batches (enable_mixed_chunk off), so the other
    // B - 1 requests' prompts, each prefilled whole on its own rank, hold the decode steps
    // (speed_dp_attention.cpp): a request's time per output token counts those passes.
    const double one_prompt_s = prefill_s(s, gpu, c, e, links, 1, static_cast<double>(s.prompt_tokens));
    return step_s + dp_attention_stall_s(one_prompt_s, batch - 1) / output;
  }
  // Continuous batching with chunked prefill (vLLM V1 and SGLang defaults, TensorRT-LLM inflight
  // batching; vLLM's DP attention too, its ranks' steps aligned): the other requests' prompt chunks
  // run inside the decode steps, so a request among B
  // sees (B - 1) / B of the batch's prefill spread over its output tokens (in a burst, each of the
  // others once; at a steady load, each is replaced once while the request decodes).
  return step_s + (batch - 1) / batch * batch_prefill_s / output;
}

// What one decoded token of each sequence costs in steps: the decode step, or under speculative
// decoding a speculative step over the tokens it is expected to yield (speed_speculative.cpp).
double decode_token_s(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const EngineEfficiency& e,
                      const Links& links, double batch, double context) {
  if (!speculative(s)) return decode_step_s(s, gpu, c, e, links, batch, context);
  return speculative_step(s, gpu, c, links, batch, context).per_token_s();
}

Throughput serving_throughput(const Scenario& s, const Gpu& gpu, const ModelCosts& c,
                              const EngineEfficiency& e, const Links& links) {
  const double dp = static_cast<double>(s.dp());
  const double batch = static_cast<double>(s.batch);
  const double prompt = static_cast<double>(s.prompt_tokens);
  Throughput t;
  t.bandwidth_utilization = e.bandwidth;
  t.time_to_first_token_s = prefill_s(s, gpu, c, e, links, batch, prompt);
  t.prefill_tokens_per_s = dp * batch * prompt / t.time_to_first_token_s;
  if (s.output_tokens == 0 || s.model.encoder) return t;
  const double output = static_cast<double>(s.output_tokens);
  // Steady decoding at the mean context over the output: prompt + output / 2.
  const double step_s = decode_token_s(s, gpu, c, e, links, batch, prompt + output / 2);
  if (speculative(s)) {
    const Speculative& sp = *s.engine_options.speculative;
    const SpeculativeStep spec = speculative_step(s, gpu, c, links, batch, prompt + output / 2);
    t.speculative = Throughput::Speculative{sp.method,
                                            sp.draft_tokens,
                                            sp.acceptance_rate,
                                            sp.acceptance_stated,
                                            spec.tokens_per_step,
                                            spec.verify_s,
                                            spec.draft_s,
                                            decode_step_s(s, gpu, c, e, links, batch, prompt + output / 2)};
  }
  t.decode_tokens_per_s = dp * batch / step_s;
  t.generation_tokens_per_s = dp * batch * output / (t.time_to_first_token_s + output * step_s);
  // Continuous batching with chunked prefill (vLLM V1 and SGLang defaults, TensorRT-LLM inflight
  // batching): the other requests' prompt chunks run inside the decode steps, so a request of a
  // burst of B sees (B - 1) / B of the batch's prefill spread over its output tokens.
  t.time_per_output_token_s = tpot_s(s, gpu, c, e, links, batch, step_s, t.time_to_first_token_s);
  return t;
}

// Gradient (and ZeRO-3 parameter) traffic of one optimizer step of `micro` micro-batches, seconds,
// over the data-parallel group. Volumes from the ZeRO paper (Rajbhandari et al. 2020) section 7,
// Psi in bf16 bytes: data parallelism and ZeRO-1 move 2 Psi (reduce-scatter + all-gather) once per
// step, at the accumulation boundary (DeepSpeed engine.allreduce_gradients; Megatron reduces its
// main_grad buffers once per step, with its distributed optimizer as ZeRO-1); ZeRO-2 reduce-scatters
// Psi in every backward pass (DeepSpeed #2252, maintainer reply: gradients are reduced each
// micro-step) and all-gathers the updated Psi once; ZeRO-3 / FSDP FULL_SHARD gather the parameters
// in every forward and backward and reduce-scatter the gradients: 3 Psi per micro-step.
double data_parallel_comm_s(const Scenario& s, const Links& links, double trainable_params,
                            double routed_params, double micro) {
  const int64_t dp = s.dp();
  if (dp <= 1) return 0;
  const double psi =
      trainable_params * kActivationBytes / (static_cast<double>(s.tp) * static_cast<double>(s.pp));
  // Under expert parallelism a rank holds 1/ep of the routed experts, whole, and reduces their
  // gradients over the expert data-parallel group: its volume is the dense part over TP and that.
  const double routed = s.ep > 1 ? std::min(trainable_params, routed_params) : 0;
  const double local_share =
      trainable_params > 0
          ? (trainable_params - routed + routed * static_cast<double>(s.tp) / static_cast<double>(s.ep)) /
                trainable_params
          : 1;
  // ZeRO-3 gathers the frozen base too when LoRA trains under it; its adapters are a rounding error.
  const int zero = s.engine == Engine::Megatron ? std::min(s.training.zero, 1) : s.training.zero;
  double volume = 2 * psi;                    // ZeRO-0 / 1: once per step
  if (zero == 2) volume = micro * psi + psi;  // reduce-scatter per micro-step, one all-gather
  if (zero >= 3) volume = micro * 3 * psi;    // gathers and reduce-scatter per micro-step
  const double n = static_cast<double>(dp);
  const int64_t ranks = s.gpus;  // the group spans every GPU of the deployment
  return (n - 1) / n * volume * local_share / group_bytes_per_s(ranks, links);
}

// Expert parallelism's token traffic in one optimizer step, seconds (Megatron-Core's alltoall
// token dispatcher, moe/token_dispatcher.py): each MoE layer sends every token's hidden vector to
// its top-k experts' ranks and back (dispatch and combine) in the forward, the same in the backward,
// and again in a recomputed forward; a rank's tokens are its sequence-parallel share (micro-batch
// tokens / tp). The all-to-alls run on the compute stream unless --overlap-moe-expert-parallel-comm
// (off by default, arguments.py), so they add to the step. Of each all-to-all a rank keeps 1/ep,
// sends to its node's other ranks over the GPU link and to other nodes over its share of the NICs.
double expert_parallel_comm_s(const Scenario& s, const ModelCosts& c, const Links& links) {
  if (s.ep <= 1 || c.moe_layers <= 0) return 0;
  const Architecture& a = s.model;
  const double ep = static_cast<double>(s.ep);
  const double tokens =
      static_cast<double>(s.batch) * static_cast<double>(s.seq_len) / static_cast<double>(s.tp);
  const double bytes = tokens * static_cast<double>(a.experts_per_token) * static_cast<double>(a.hidden) *
                       kActivationBytes;  // one all-to-all's data on one rank
  // Megatron orders ranks tp-cp-ep-dp-pp: an EP group of expert TP 1 is consecutive ranks.
  const double local = std::min(ep, static_cast<double>(std::max<int64_t>(links.gpus_per_node, 1)));
  const double nic_share =
      links.inter_bytes_per_s / 2 / static_cast<double>(std::max<int64_t>(links.gpus_per_node, 1));
  double one_s = bytes * (local - 1) / ep / (links.intra_bytes_per_s / 2) + kAllReduceLatencyS;
  if (ep > local) {
    one_s += bytes * (ep - local) / ep / nic_share + (links.rdma ? kRdmaHopS : kTcpHopS);
  }
  const double passes = s.training.grad_checkpointing == Checkpointing::Full ? 3 : 2;
  const double stage_moe_layers = c.moe_layers / static_cast<double>(s.pp);
  return passes * 2 * stage_moe_layers * static_cast<double>(s.training.grad_accum) * one_s;
}

// QLoRA's dequantisation in one optimizer step, seconds: bitsandbytes' MatMul4Bit dequantizes the
// 4-bit weight to a 16-bit copy before every matmul, once in the forward and once in the backward
// (grad_A = grad_output @ dequantize_4bit(B): bitsandbytes/autograd/_functions.py), and once more in
// a recomputed forward. Each call reads the packed weight and its scales, writes the 16-bit copy,
// which the matmul then reads: at the card's peak bandwidth, a lower bound (docs/speed.md).
double qlora_dequant_s(const Scenario& s, const Gpu& gpu, const ModelCosts& c) {
  if (s.task != Task::Qlora || gpu.bandwidth_bytes_per_s <= 0) return 0;
  const double calls = s.training.grad_checkpointing == Checkpointing::Full ? 3 : 2;
  const double per_gpu = c.linear_params / (static_cast<double>(s.tp) * static_cast<double>(s.pp));
  const double bytes = per_gpu * (c.linear_bytes + 2 * kHalf);  // read packed, write and read the copy
  return calls * static_cast<double>(s.training.grad_accum) * bytes / gpu.bandwidth_bytes_per_s;
}

// Training: executed FLOPs at the achieved share of peak, TP all-reduces that Megatron does not
// overlap, the 1F1B pipeline bubble (p - 1) / m of m micro-batches (Narayanan et al. 2021, eq. 1),
// and the data-parallel traffic, overlapped with the backward pass (DeepSpeed overlap_comm, FSDP
// prefetch), so only what exceeds the compute time adds to the step.
Throughput training_throughput(const Scenario& s, const Gpu& gpu, const ModelCosts& c,
                               const EngineEfficiency& e, const Links& links) {
  const Architecture& a = s.model;
  const double step_tokens = static_cast<double>(s.batch) * static_cast<double>(s.seq_len) *
                             static_cast<double>(s.training.grad_accum);
  const double gpus_per_replica = static_cast<double>(s.tp) * static_cast<double>(s.pp);
  const double compute_s = step_tokens * training_flops_per_token(s, c) /
                           (gpus_per_replica * peak_flops(gpu, s.weights) * e.compute);
  // Two all-reduces per layer per pass (Megatron TP): forward, backward, and a recomputed forward.
  const double passes = s.training.grad_checkpointing == Checkpointing::Full ? 3 : 2;
  const double stage_layers = static_cast<double>(a.layers) / static_cast<double>(s.pp);
  const double micro_tokens = static_cast<double>(s.batch) * static_cast<double>(s.seq_len);
  const double tp_comm_s =
      passes * 2 * stage_layers * static_cast<double>(s.training.grad_accum) *
      allreduce_s(micro_tokens * static_cast<double>(a.hidden) * kActivationBytes, s.tp, links);
  // Megatron interleaves virtual stages (down to one layer each): bubble (p - 1) / (v m), eq. 2 ibid.
  const double chunks = s.engine == Engine::Megatron ? std::floor(stage_layers) : 1;
  const double micro = static_cast<double>(s.training.grad_accum);
  const double bubble = 1 + (static_cast<double>(s.pp) - 1) / (chunks * micro);
  const bool frozen = s.task == Task::Lora || s.task == Task::Qlora;
  const double moved = frozen && s.training.zero < 3 ? c.trainable_params : c.params;
  const double dp_comm_s =
      data_parallel_comm_s(s, links, moved, moved == c.params ? c.routed_params : 0, micro);
  const double busy_s =
      (compute_s + tp_comm_s + expert_parallel_comm_s(s, c, links) + qlora_dequant_s(s, gpu, c)) * bubble;
  const double step_s = std::max(busy_s, dp_comm_s);
  Throughput t;
  // The share of peak the executed FLOPs reach over the whole step: the kernels' share (e.compute)
  // diluted by what does not overlap them (TP and expert all-to-alls, the bubble, exposed DP traffic).
  t.flops_utilization = e.compute * compute_s / step_s;
  t.train_tokens_per_s = static_cast<double>(s.dp()) * step_tokens / step_s;
  return t;
}

}  // namespace

Links default_links(const Gpu& gpu) {
  Links l;
  l.intra_bytes_per_s =
      gpu.interconnect_bytes_per_s > 0 ? gpu.interconnect_bytes_per_s : gpu.pcie_bytes_per_s;
  l.inter_bytes_per_s = kDefaultNodeGbps * 1e9 * 2 / 8;
  l.gpus_per_node = 8;
  l.rdma = true;
  return l;
}

Links instance_links(const Gpu& gpu, int64_t gpus_per_instance, double gpu_link_bytes_per_s,
                     double network_gbps, bool rdma) {
  Links l;
  l.intra_bytes_per_s = gpu_link_bytes_per_s > 0 ? gpu_link_bytes_per_s : gpu.pcie_bytes_per_s;
  l.inter_bytes_per_s = network_gbps * 1e9 * 2 / 8;
  l.gpus_per_node = std::max<int64_t>(gpus_per_instance, 1);
  l.rdma = rdma;
  return l;
}

double decode_step_seconds(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const Links& links,
                           double batch, double context) {
  return decode_step_s(s, gpu, c, engine_efficiency(s, gpu), links, batch, context);
}

double decode_step_seconds(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const Links& links,
                           double batch, double context, double query_tokens) {
  return decode_step_s(s, gpu, c, engine_efficiency(s, gpu), links, batch, context, query_tokens);
}

double prefill_seconds(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const Links& links,
                       double batch, double prompt) {
  return prefill_s(s, gpu, c, engine_efficiency(s, gpu), links, batch, prompt);
}

std::vector<ServingPoint> serving_curve(const Scenario& s, const Gpu& gpu, double max_batch) {
  std::vector<ServingPoint> curve;
  if (is_training(s.task) || s.output_tokens == 0 || s.model.encoder) return curve;
  const ModelCosts c = model_costs(s);
  const Links links = default_links(gpu);
  const double dp = static_cast<double>(s.dp());
  // Doubling bursts up to vLLM's default max_num_seqs (256, vllm/engine/arg_utils.py) and the
  // scenario's own batch, none beyond what the KV cache holds (max_batch).
  // Ascending, each once: the batch goes in at its place among the powers.
  std::vector<double> points;
  const double batch = static_cast<double>(s.batch);
  for (double b = 1; b <= 256; b *= 2) {
    if (batch < b && (points.empty() || points.back() < batch)) points.push_back(batch);
    points.push_back(b);
  }
  if (batch > 256) points.push_back(batch);
  for (double b : points) {
    if (b > max_batch) break;
    ServingPoint p = serving_point(s, gpu, c, links, b);
    p.output_tokens_per_s *= dp;
    curve.push_back(p);
  }
  return curve;
}

ServingPoint serving_point(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const Links& links,
                           double b) {
  const EngineEfficiency e = engine_efficiency(s, gpu);
  const double prompt = static_cast<double>(s.prompt_tokens);
  const double output = std::max(static_cast<double>(s.output_tokens), 1.0);
  ServingPoint p;
  p.batch = b;
  const double prefill = prefill_s(s, gpu, c, e, links, b, prompt);
  const double step = decode_token_s(s, gpu, c, e, links, b, prompt + output / 2);
  p.ttft_s = prefill * (b + 1) / (2 * b);
  p.tpot_s = tpot_s(s, gpu, c, e, links, b, step, prefill);
  p.ttft_joining_s = prefill_s(s, gpu, c, e, links, 1, prompt) + step;
  // The batch's output over its prefill and output steps: the estimate's generation rate at b.
  // Under DP attention prompts on different ranks share a pass here; the time per output token
  // above is the bound where each takes its own (the planner's capacity reads that one). Measured:
  // with one pass per prompt the DataCrunch H200 rows' output reads 17-67 % low, docs/speed.md.
  p.output_tokens_per_s = b * output / (prefill + output * step);
  return p;
}

Throughput estimate_throughput(const Scenario& s, const Gpu& gpu) {
  return estimate_throughput(s, gpu, model_costs(s));
}

Throughput estimate_throughput(const Scenario& s, const Gpu& gpu, const ModelCosts& c) {
  return estimate_throughput(s, gpu, c, default_links(gpu));
}

Throughput estimate_throughput(const Scenario& s, const Gpu& gpu, const ModelCosts& c, const Links& links) {
  const EngineEfficiency e = engine_efficiency(s, gpu);
  return is_training(s.task) ? training_throughput(s, gpu, c, e, links)
                             : serving_throughput(s, gpu, c, e, links);
}

std::optional<JobTime> job_time(const Scenario& s, const Throughput& t) {
  if (!is_training(s.task) || !s.training.tokens || t.train_tokens_per_s <= 0) return std::nullopt;
  JobTime j;
  j.wall_hours = *s.training.tokens / t.train_tokens_per_s / 3600;
  j.gpu_hours = j.wall_hours * static_cast<double>(s.gpus);
  return j;
}

nlohmann::json to_json(const Throughput& t) {
  const std::pair<const char*, double> keys[] = {{"prefill_tokens_per_s", t.prefill_tokens_per_s},
                                                 {"decode_tokens_per_s", t.decode_tokens_per_s},
                                                 {"train_tokens_per_s", t.train_tokens_per_s},
                                                 {"generation_tokens_per_s", t.generation_tokens_per_s},
                                                 {"time_to_first_token_s", t.time_to_first_token_s},
                                                 {"time_per_output_token_s", t.time_per_output_token_s},
                                                 {"flops_utilization", t.flops_utilization},
                                                 {"bandwidth_utilization", t.bandwidth_utilization}};
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [key, value] : keys) {
    if (value > 0) j[key] = value;
  }
  if (!t.curve.empty()) {
    nlohmann::json curve = nlohmann::json::array();
    for (const ServingPoint& p : t.curve) {
      curve.push_back(nlohmann::json({{"batch", p.batch},
                                      {"ttft_s", p.ttft_s},
                                      {"ttft_joining_s", p.ttft_joining_s},
                                      {"tpot_s", p.tpot_s},
                                      {"output_tokens_per_s", p.output_tokens_per_s}}));
    }
    j["curve"] = curve;
  }
  if (t.speculative) {
    const Throughput::Speculative& x = *t.speculative;
    j["speculative"] = nlohmann::json({{"method", x.method},
                                       {"draft_tokens", x.draft_tokens},
                                       {"acceptance_rate", x.acceptance_rate},
                                       {"acceptance_rate_stated", x.acceptance_stated},
                                       {"tokens_per_step", x.tokens_per_step},
                                       {"verify_step_s", x.verify_step_s},
                                       {"draft_s", x.draft_s},
                                       {"step_without_s", x.plain_step_s}});
  }
  return j;
}

}  // namespace gpusizer
