// Engine terms of the speed model: CUDA graphs on/off, chunked prefill inside decode steps, and
// pipeline stages that run a prompt one after another (llama.cpp layer split). Behaviour only:
// no assertion on the published figures the constants came from (those are in speed_test.cpp,
// labelled [validation], and docs/validation.md scores the held-out data).
#include <catch2/catch.hpp>

#include <algorithm>

#include "base/error.h"
#include "speed/speed.h"

using namespace gpusizer;
using nlohmann::json;

namespace {
Throughput run(json j, const char* gpu = "a100-80gb") {
  return estimate_throughput(parse_scenario(j), *find_gpu(gpu));
}
}  // namespace

TEST_CASE("CUDA graphs off adds per-layer host time to each decode step", "[speed][engine]") {
  const json base = {
      {"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"prompt_tokens", 128}, {"output_tokens", 128}};
  json eager = base;
  eager["efficiency"] = {{"cuda_graphs", false}};
  json graphs = base;
  graphs["efficiency"] = {{"cuda_graphs", true}};
  const double step_graphs = 1 / run(graphs).decode_tokens_per_s;
  const double step_eager = 1 / run(eager).decode_tokens_per_s;
  CHECK(run(base).decode_tokens_per_s == Approx(run(graphs).decode_tokens_per_s));  // vLLM default: graphs on
  // Eager: the host launches 32 layers at 0.88 ms (longer than the GPU's ~10 ms), plus the 3 ms step.
  CHECK(step_eager == Approx(32 * 0.88e-3 + 3e-3).epsilon(0.01));
  CHECK(step_eager > 2 * step_graphs);
  // transformers is eager by default; a compiled static cache drops the per-layer time.
  json hf = base;
  hf["engine"] = "transformers";
  json hf_graphs = hf;
  hf_graphs["efficiency"] = {{"cuda_graphs", true}};
  CHECK(run(hf_graphs).decode_tokens_per_s > 1.3 * run(hf).decode_tokens_per_s);
}

TEST_CASE("Chunked prefill: a burst's prompts stretch each request's time per output token",
          "[speed][engine]") {
  auto t = [&](int batch) {
    return run({{"model", "qwen2.5-7b"}, {"batch", batch}, {"prompt_tokens", 1024}, {"output_tokens", 128}});
  };
  // One request: TPOT is the decode step.
  CHECK(t(1).time_per_output_token_s == Approx(1 / t(1).decode_tokens_per_s));
  // 64 requests at once: the step plus 63/64 of the batch's prefill over 128 tokens.
  const Throughput b = t(64);
  CHECK(b.time_per_output_token_s ==
        Approx(64 / b.decode_tokens_per_s + 63.0 / 64 * b.time_to_first_token_s / 128));
  CHECK(b.time_per_output_token_s > 2 * 64 / b.decode_tokens_per_s);
}

TEST_CASE("Layer-split prefill runs the stages one after another", "[speed][engine]") {
  auto prefill = [&](const char* engine, int gpus) {
    return run({{"model", "llama-3-8b"},
                {"engine", engine},
                {"weights", "fp16"},
                {"gpus", gpus},
                {"pp", gpus},
                {"prompt_tokens", 512},
                {"output_tokens", 1}},
               "rtx3090")
        .prefill_tokens_per_s;
  };
  CHECK(prefill("llama.cpp", 4) == Approx(prefill("llama.cpp", 1)).epsilon(0.05));
  CHECK(prefill("vllm", 4) > 3 * prefill("vllm", 1));
}

TEST_CASE("efficiency.cuda_graphs must be a boolean", "[speed][engine]") {
  std::string field;
  try {
    parse_scenario(json{{"model", "qwen2.5-7b"}, {"efficiency", {{"cuda_graphs", 1}}}});
  } catch (const InputError& e) {
    field = e.field;
  }
  CHECK(field == "efficiency.cuda_graphs");
}

// Out of sample: no speed constant was fitted to this source (data/validation/
// speed-dennislee-vllm0101-a100.json, split held-out). Test 5 of dennislee/vllm-benchmark: vLLM
// 0.10.1.1, Qwen2-7B-Instruct (the qwen2.5-7b shapes), one A100-SXM 80GB, bursts of N prompts of
// 1,024 in / 1,024 out. Output throughput (tokens/s) and median TPOT (s) as published.
TEST_CASE("Serving curve follows a published vLLM throughput-vs-concurrency curve",
          "[speed][engine][curve]") {
  const Scenario s = parse_scenario(json{{"model", "qwen2.5-7b"},
                                         {"engine", "vllm"},
                                         {"batch", 200},
                                         {"prompt_tokens", 1024},
                                         {"output_tokens", 1024}});
  Throughput t;
  t.curve = serving_curve(s, *find_gpu("a100-80gb"), 256);
  struct Point {
    double batch, out, tpot;
  };
  const Point published[] = {{1, 84.95, 0.01175}, {200, 4442.73, 0.04197}};
  REQUIRE(t.curve.size() == 10);  // 1, 2, 4, ... 256 and the scenario's 200
  CHECK(serving_curve(s, *find_gpu("a100-80gb"), 100).size() == 7);  // up to what the KV cache holds
  for (const Point& p : published) {
    const auto it = std::find_if(t.curve.begin(), t.curve.end(),
                                 [&](const ServingPoint& x) { return x.batch == p.batch; });
    REQUIRE(it != t.curve.end());
    CHECK(it->output_tokens_per_s == Approx(p.out).epsilon(0.25));
    CHECK(it->tpot_s == Approx(p.tpot).epsilon(0.25));
  }
  // Throughput rises with the batch and each request's TPOT grows.
  for (size_t i = 1; i < t.curve.size(); ++i) {
    CHECK(t.curve[i].output_tokens_per_s > t.curve[i - 1].output_tokens_per_s);
    CHECK(t.curve[i].tpot_s > t.curve[i - 1].tpot_s);
  }
}

TEST_CASE("Power-capped T4 sustains 0.15 of its spec tensor FLOP/s while serving", "[speed][engine][card]") {
  // card_shares.cpp: T4 share fitted on speed-wangjunjian-t4-vllm084 (calibration); other cards keep
  // the engine's share, and bandwidth-bound decode at batch 1 is unaffected.
  const Scenario s = parse_scenario(
      {{"model", "qwen3-4b"}, {"engine", "vllm"}, {"prompt_tokens", 512}, {"output_tokens", 64}});
  CHECK(engine_efficiency(s, *find_gpu("t4")).compute == Approx(0.15));
  CHECK(engine_efficiency(s, *find_gpu("a100-80gb")).compute == Approx(0.5));
  CHECK(engine_efficiency(s, *find_gpu("l4")).compute == Approx(0.5));
  // Prefill of 512 tokens is compute-bound: about 0.5 / 0.15 slower than at the engine's share.
  json capped = {{"model", "qwen3-4b"}, {"engine", "vllm"}, {"prompt_tokens", 512}, {"output_tokens", 64}};
  json spec = capped;
  spec["efficiency"] = {{"mfu", 0.5}};
  const double ratio = run(spec, "t4").prefill_tokens_per_s / run(capped, "t4").prefill_tokens_per_s;
  CHECK(ratio > 2.5);
  CHECK(ratio < 0.5 / 0.15 + 0.01);
  CHECK(run(capped, "t4").decode_tokens_per_s == Approx(run(spec, "t4").decode_tokens_per_s).epsilon(0.05));
}

TEST_CASE("llama.cpp prefill runs at the FP16-accumulate tensor rate: twice the listed peak on GeForce only",
          "[speed][engine][card]") {
  // card_shares.cpp fp16_accumulate_factor: cuBLAS with CUBLAS_COMPUTE_16F (ggml-cuda.cu); NVIDIA
  // GA102/Ada whitepapers list GeForce FP16-accumulate at 2x the FP32-accumulate rate in the catalog.
  const Scenario s = parse_scenario({{"model", "llama-3-8b"},
                                     {"engine", "llama.cpp"},
                                     {"weights", "q4_k_m"},
                                     {"prompt_tokens", 512},
                                     {"output_tokens", 1}});
  CHECK(fp16_accumulate_factor(*find_gpu("rtx3090")) == 2);
  CHECK(fp16_accumulate_factor(*find_gpu("a100-80gb")) == 1);
  CHECK(fp16_accumulate_factor(*find_gpu("rtx-a6000")) == 1);
  // The calibration card keeps its fitted 0.7 of the listed 71 TFLOP/s; data-center cards get 0.35.
  CHECK(engine_efficiency(s, *find_gpu("rtx3090")).compute == Approx(0.7));
  CHECK(engine_efficiency(s, *find_gpu("a100-80gb")).compute == Approx(0.35));
  // Engines on PyTorch (FP32 accumulate) keep the listed peak everywhere.
  const Scenario v = parse_scenario({{"model", "llama-3-8b"}, {"engine", "vllm"}});
  CHECK(engine_efficiency(v, *find_gpu("rtx4090")).compute == Approx(0.5));
}

TEST_CASE("AutoAWQ GEMV runs at one int-to-float conversion per multiply-add on CUDA cores",
          "[speed][engine][awq]") {
  // CUDA C++ Programming Guide throughput table: 16 conversions per clock per SM; FP32 lanes per SM
  // 128 (Ada) and 64 (GA100): RTX 4090 82.6 x 16 / 128 = 10.3 TFLOP/s, A100 19.5 x 16 / 64 = 4.9.
  CHECK(int_to_float_flops(*find_gpu("rtx4090")) == Approx(10.325e12));
  CHECK(int_to_float_flops(*find_gpu("a100-80gb")) == Approx(4.875e12));
  CHECK(int_to_float_flops(*find_gpu("rtx3090")) == Approx(find_gpu("rtx3090")->fp32_tflops * 1e12 / 8));
  // Hopper (cc 9.0): the same table gives 128 FP32 lanes and 16 conversions per clock per SM: 1/8.
  CHECK(int_to_float_flops(*find_gpu("h100-80gb")) ==
        Approx(find_gpu("h100-80gb")->fp32_tflops * 1e12 * 16 / 128));
  CHECK(int_to_float_flops(*find_gpu("mi300x")) == 0);
  json gemm = {{"model", "mistral-7b"},
               {"engine", "transformers"},
               {"weights", "awq-int4"},
               {"batch", 8},
               {"prompt_tokens", 64},
               {"output_tokens", 64},
               {"engine_options", {{"fused_layers", true}}}};
  json gemv = gemm;
  gemv["engine_options"]["awq_kernel"] = "gemv";
  // Batch 8 (<= 8 rows: every projection on the GEMV kernel): compute-bound at the conversion rate.
  const Scenario s = parse_scenario(gemv);
  const ModelCosts c = model_costs(s);
  const Gpu& g = *find_gpu("rtx4090");
  const double gemv_s = 8 * (c.matmul_flops - c.head_flops) / int_to_float_flops(g);
  CHECK(8 / run(gemv, "rtx4090").decode_tokens_per_s > gemv_s);
  CHECK(8 / run(gemv, "rtx4090").decode_tokens_per_s < gemv_s * 1.05);
  CHECK(run(gemv, "rtx4090").decode_tokens_per_s < 0.6 * run(gemm, "rtx4090").decode_tokens_per_s);
  // Prompts: only the fused MLP's gate and up projections stay on GEMV (the others use the tensor-core
  // gemmv2 beyond 8 rows); without fused layers a GEMV checkpoint prefills like a GEMM one.
  CHECK(c.gate_up_flops == Approx(2.0 * 2 * 32 * 4096 * 14336));
  CHECK(run(gemv, "rtx4090").prefill_tokens_per_s < 0.8 * run(gemm, "rtx4090").prefill_tokens_per_s);
  // (8 x 64 = 512 rows fill whole 16- and 128-row tiles, and both kernels split K the same way.)
  json gemv_unfused = gemv;
  gemv_unfused["engine_options"]["fused_layers"] = false;
  json gemm_unfused = gemm;
  gemm_unfused["engine_options"]["fused_layers"] = false;
  gemm_unfused["engine_options"]["awq_kernel"] = "gemm";
  CHECK(run(gemv_unfused, "rtx4090").prefill_tokens_per_s ==
        Approx(run(gemm_unfused, "rtx4090").prefill_tokens_per_s));
  // Other formats ignore the kernel option.
  json bf16 = gemv;
  bf16["weights"] = "bf16";
  json bf16_plain = bf16;
  bf16_plain.erase("engine_options");
  CHECK(run(bf16, "rtx4090").decode_tokens_per_s == Approx(run(bf16_plain, "rtx4090").decode_tokens_per_s));
}

TEST_CASE("AutoAWQ fused layers: a decode step without transformers' per-layer host time",
          "[speed][engine][awq]") {
  // awq/modules/fused (AutoAWQ @027758d): one token runs FasterTransformer's fused attention kernel
  // and fused norms/MLP, so the step is the roofline's memory time; prompts keep the host time.
  json plain = {{"model", "mistral-7b"}, {"engine", "transformers"}, {"weights", "awq-int4"}, {"batch", 1},
                {"prompt_tokens", 64},   {"output_tokens", 64}};
  json fused = plain;
  fused["engine_options"] = {{"fused_layers", true}};
  CHECK(run(plain, "rtx4090").decode_tokens_per_s == Approx(1 / (32 * 0.88e-3)));
  const Scenario s = parse_scenario(fused);
  const ModelCosts c = model_costs(s);
  const Gpu& g = *find_gpu("rtx4090");
  const double bytes = c.dense_bytes + c.kv_bytes_per_token * (64 + 32);
  CHECK(run(fused, "rtx4090").decode_tokens_per_s == Approx(g.bandwidth_bytes_per_s * 0.75 * 0.9 / bytes));
  // Prompts keep the host time and add the materialised scores (see the next test case).
  const double scores_s = 32.0 * 64 * 64 * 32 * 32 / (g.bandwidth_bytes_per_s * 0.75 * 0.9);
  CHECK(64 / run(fused, "rtx4090").prefill_tokens_per_s ==
        Approx(64 / run(plain, "rtx4090").prefill_tokens_per_s + scores_s));
  // Only AWQ checkpoints have AutoAWQ's fused modules.
  json bf16 = fused;
  bf16["weights"] = "bf16";
  CHECK(run(bf16, "rtx4090").decode_tokens_per_s == Approx(1 / (32 * 0.88e-3)).epsilon(0.02));
}

TEST_CASE("AutoAWQ 0.1.x kernels: split-K partial sums, whole row tiles, materialised prompt scores",
          "[speed][engine][awq]") {
  // awq_cuda gemm_cuda_gen.cu (AutoAWQ @5c7e368): gemm_forward_cuda writes [8, rows, out] fp16 partials
  // and sums them in a separate kernel (8 reads + 1 write of 2 bytes per output element).
  const Gpu& g = *find_gpu("rtx4090");
  const double bw =
      g.bandwidth_bytes_per_s * 0.75 * 0.9;  // transformers' share x the dequantising kernels' 0.9
  json plain = {{"model", "mistral-7b"}, {"engine", "transformers"}, {"weights", "awq-int4"}, {"batch", 1},
                {"prompt_tokens", 2048}, {"output_tokens", 64}};
  json gemm = plain;
  gemm["engine_options"] = {{"awq_kernel", "gemm"}};
  // Mistral 7B outputs per token: 32 layers x (q 4096 + k 1024 + v 1024 + o 4096 + gate, up 14336 + down
  // 4096).
  const double outputs = 32.0 * (4096 + 1024 + 1024 + 4096 + 2 * 14336 + 4096);
  const double split_k_s = 2048 * outputs * 2 * (8 + 1) / bw;  // 2048 rows: whole 16-row tiles
  CHECK(2048 / run(gemm, "rtx4090").prefill_tokens_per_s ==
        Approx(2048 / run(plain, "rtx4090").prefill_tokens_per_s + split_k_s));
  // Decode at batch 1: the 16-row tile runs 16 rows of MMAs. On a T4 (0.15 of 65 TFLOP/s) that
  // outweighs reading the weights; with fused layers (no host term) it sets the step.
  json t4 = {{"model", "mistral-7b"},
             {"engine", "transformers"},
             {"weights", "awq-int4"},
             {"batch", 1},
             {"prompt_tokens", 64},
             {"output_tokens", 64},
             {"engine_options", {{"awq_kernel", "gemm"}, {"fused_layers", true}}}};
  const Scenario s = parse_scenario(t4);
  const ModelCosts c = model_costs(s);
  const Gpu& tesla = *find_gpu("t4");
  const double padded_s = 16 * (c.matmul_flops - c.head_flops) / (tesla.fp16_tflops * 1e12 * 0.15);
  const double step = 1 / run(t4, "t4").decode_tokens_per_s;
  CHECK(step > padded_s);
  CHECK(step < padded_s * 1.03);
  json t4_default = t4;
  t4_default["engine_options"].erase("awq_kernel");  // the engine's own AWQ path: one row of MMAs
  CHECK(1 / run(t4_default, "t4").decode_tokens_per_s < 0.85 * step);
  // A GEMV checkpoint at one row stays on gemv_forward_cuda (CUDA cores): no split-K, no 16-row tile.
  json gemv = t4;
  gemv["engine_options"]["awq_kernel"] = "gemv";
  const double gemv_s = (c.matmul_flops - c.head_flops) / int_to_float_flops(tesla);
  CHECK(1 / run(gemv, "t4").decode_tokens_per_s < std::max(gemv_s, 0.9 * padded_s));
  // Fused prompts: 32 bytes per score element per layer (fused/attn.py seqlen > 1 path), all heads.
  json fused = plain;
  fused["engine_options"] = {{"fused_layers", true}};
  const double scores_s = 32.0 * 2048 * 2048 * 32 * 32 / bw;
  CHECK(2048 / run(fused, "rtx4090").prefill_tokens_per_s ==
        Approx(2048 / run(plain, "rtx4090").prefill_tokens_per_s + scores_s));
  // Other engines and formats are untouched by the AutoAWQ options.
  json vllm = gemm;
  vllm["engine"] = "vllm";
  json vllm_plain = plain;
  vllm_plain["engine"] = "vllm";
  CHECK(run(vllm, "rtx4090").prefill_tokens_per_s == Approx(run(vllm_plain, "rtx4090").prefill_tokens_per_s));
}

TEST_CASE("NCCL instead of a custom all-reduce: 43.8 us more per tensor-parallel all-reduce",
          "[speed][engine][tp]") {
  // vLLM PR #2192: Llama 70B, A100-80G, TP 4, batch 64, 256 in / 256 out: 16.37 s (NCCL) vs 14.57 s
  // (custom) over 257 passes x 80 layers x 2 all-reduces.
  CHECK((16.37 - 14.57) / (257.0 * 80 * 2) == Approx(43.8e-6).epsilon(0.001));
  json custom = {{"model", "llama-2-70b"}, {"engine", "lmdeploy"}, {"gpus", 4}, {"tp", 4}, {"batch", 64},
                 {"prompt_tokens", 128},   {"output_tokens", 128}};
  json nccl = custom;
  nccl["engine_options"] = {{"disable_custom_all_reduce", true}};
  // Decode: 2 all-reduces per layer, 80 layers, every step; prefill: the same 160 calls once.
  CHECK(64 / run(nccl).decode_tokens_per_s == Approx(64 / run(custom).decode_tokens_per_s + 160 * 43.8e-6));
  CHECK(run(nccl).time_to_first_token_s == Approx(run(custom).time_to_first_token_s + 160 * 43.8e-6));
  // One GPU has no all-reduce to slow down.
  json one = nccl;
  one["gpus"] = 1;
  one["tp"] = 1;
  json one_custom = custom;
  one_custom["gpus"] = 1;
  one_custom["tp"] = 1;
  CHECK(run(one, "h200").decode_tokens_per_s == Approx(run(one_custom, "h200").decode_tokens_per_s));
  try {
    parse_scenario({{"model", "llama-2-70b"}, {"engine_options", {{"disable_custom_all_reduce", 1}}}});
    FAIL("a non-boolean disable_custom_all_reduce must be refused");
  } catch (const InputError& err) {
    CHECK(std::string(err.field) == "engine_options.disable_custom_all_reduce");
  }
}

TEST_CASE(
    "Tensor parallelism across nodes: the all-reduces ride each GPU's share of the NICs, plus the network "
    "hops",
    "[speed][engine]") {
  const Scenario s = parse_scenario({{"model", "llama-3.1-70b"},
                                     {"engine", "vllm"},
                                     {"gpus", 16},
                                     {"tp", 16},
                                     {"prompt_tokens", 1024},
                                     {"output_tokens", 128}});
  const Gpu& gpu = *find_gpu("h100-80gb");
  const ModelCosts c = model_costs(s);
  const double link = gpu.interconnect_bytes_per_s;
  // The same 16 GPUs as one NVLink domain, and as two 8-GPU nodes on 400 Gbit/s RDMA.
  const Links one = instance_links(gpu, 16, link, 400, true);
  const Links two = instance_links(gpu, 8, link, 400, true);
  const double bytes = 1024.0 * 8192 * 2;          // one prompt's hidden states in bf16
  const double nic_share = 400e9 * 2 / 8 / 2 / 8;  // one direction, per GPU of the node
  // 80 layers x 2 all-reduces: the bandwidth term at the NIC share instead of NVLink's, and the
  // reduce's and the broadcast's hop over the one node boundary (5 us each over RDMA).
  const double extra = 2 * 80 * (2 * 5e-6 + 2 * 15.0 / 16 * bytes * (1 / nic_share - 2 / link));
  CHECK(prefill_seconds(s, gpu, c, two, 1, 1024) - prefill_seconds(s, gpu, c, one, 1, 1024) ==
        Approx(extra).epsilon(1e-6));
  // A decode step of 32 tokens: the same all-reduce terms, and no pipeline hand-off (pp = 1).
  const double step_extra =
      2 * 80 * (2 * 5e-6 + 2 * 15.0 / 16 * 32.0 * 8192 * 2 * (1 / nic_share - 2 / link));
  CHECK(decode_step_seconds(s, gpu, c, two, 32, 1024) - decode_step_seconds(s, gpu, c, one, 32, 1024) ==
        Approx(step_extra).epsilon(1e-6));
  // Inside one node nothing changes.
  const Scenario eight =
      parse_scenario({{"model", "llama-3.1-70b"}, {"engine", "vllm"}, {"gpus", 8}, {"tp", 8}});
  CHECK(prefill_seconds(eight, gpu, model_costs(eight), two, 1, 1024) ==
        Approx(prefill_seconds(eight, gpu, model_costs(eight), one, 1, 1024)));
}
