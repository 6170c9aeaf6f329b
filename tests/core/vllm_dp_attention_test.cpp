// Expert judgements on vLLM's data-parallel attention for MLA MoE models (engine_options.dp_attention
// under engine vllm; docs/serving/data_parallel_deployment.md and expert_parallel_deployment.md): an
// engineer serving DeepSeek-R1 FP8 on one 8 x H200 node at high concurrency runs
// `vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 1 --data-parallel-size 8
// --enable-expert-parallel`: every rank holds the attention, the dense MLP layers, the shared experts,
// the embedding and the LM head whole (TP 1) and 1/8 of the routed experts. Written before the
// scenario accepted the option for vLLM.
#include <catch2/catch.hpp>

#include <string>

#include "gpusizer/api.h"
#include "hf_configs.h"
#include "plan/estimate.h"
#include "plan/planner.h"

using namespace gpusizer;
using nlohmann::json;

namespace {

json r1(const std::string& engine, bool dpa, int64_t batch) {
  json j = {{"model", "deepseek-r1"}, {"engine", engine}, {"weights", "fp8"},
            {"gpu", "h200"},          {"gpus", 8},        {"tp", 8},
            {"batch", batch},         {"seq_len", 4096},  {"output_tokens", 1024}};
  if (dpa) j["engine_options"] = {{"dp_attention", true}};
  return j;
}

std::string command_text(const json& out, const std::string& tool) {
  for (const json& c : out.at("commands")) {
    if (c.at("tool") == tool && c.at("kind") == "shell") return c.at("text");
  }
  return "";
}

json launch(const json& j) {
  const ApiResult r = run_command("launch", j.dump());
  INFO(r.error_field << ": " << r.error_message);
  REQUIRE(r.ok);
  return r.value;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("Expert: DeepSeek-R1 FP8 on 8 H200 under vLLM with DP attention launches DP8 x EP8 at TP 1",
          "[expert][dp_attention][vllm]") {
  const json out = launch(r1("vllm", true, 256));
  const std::string v = command_text(out, "vllm");
  INFO(v);
  CHECK(has(v, "vllm serve deepseek-ai/DeepSeek-R1 "));
  CHECK(has(v, "--tensor-parallel-size 1 "));
  CHECK(has(v, "--data-parallel-size 8 "));
  CHECK(has(v, "--enable-expert-parallel"));
  CHECK(has(v, "--max-num-seqs 32 "));  // per DP rank: 256 / 8
  CHECK_FALSE(has(v, "--tensor-parallel-size 8"));
  // ms-swift 3.9 passes the same layout to its vLLM engine.
  const std::string s = command_text(out, "ms-swift");
  INFO(s);
  CHECK(has(s, "--vllm_tensor_parallel_size 1 "));
  CHECK(has(s, "--vllm_data_parallel_size 8 "));
  CHECK(has(s, "--vllm_enable_expert_parallel"));
  CHECK(has(s, "--vllm_max_num_seqs 32 "));
}

TEST_CASE("Expert: vLLM's DP attention holds the dense parts whole on every rank, SGLang's splits them",
          "[expert][dp_attention][vllm]") {
  const Scenario vllm = parse_scenario(r1("vllm", true, 256));
  const Scenario sglang = parse_scenario(r1("sglang", true, 256));
  const Scenario tp8 = parse_scenario(r1("vllm", false, 256));
  const double v = estimate(vllm).memory.breakdown.weights;
  const double g = estimate(sglang).memory.breakdown.weights;
  const double t = estimate(tp8).memory.breakdown.weights;
  // DeepSeek-R1 (config.json: hidden 7168, 61 layers of which the first 3 dense with intermediate
  // 18432, 58 MoE layers of 256 routed + 1 shared expert of 2048, vocab 129280). The parts vLLM's TP 1
  // keeps whole and SGLang's DP attention splits over 8 ranks:
  //   dense MLP    3 x 3 x 7168 x 18432 = 1,189,085,184 weights
  //   shared       58 x 3 x 7168 x 2048 = 2,554,331,136 weights
  //   in fp8 e4m3 with one fp32 scale per 128 x 128 block (+4 / 16384 B a weight):
  //     3,743,416,320 x 1.000244 = 3,744,330,240 B
  //   router, bf16 in the FP8 checkpoint: 58 x 7168 x 256 x 2 = 212,860,928 B
  //   embedding + LM head, bf16: 2 x 129280 x 7168 x 2 = 3,706,716,160 B
  //   norms, bf16: (61 x 2 x 7168 + 61 x (1536 + 512) + 7168) x 2 = 2,013,184 B
  //   sum 7,665,920,512 B, of which 7/8 more on each vLLM rank: 6,707.7 MB (6.25 GiB).
  CHECK((v - g) / 1e6 == Approx(6707.7).epsilon(0.001));
  // Against TP8 (attention split too): vLLM's DP attention adds the attention's 7/8 on top.
  CHECK(v > t);
  CHECK(v > g);
}

TEST_CASE("Expert: vLLM's DP attention keeps each rank's own latents, as SGLang's",
          "[expert][dp_attention][vllm]") {
  const Scenario vllm = parse_scenario(r1("vllm", true, 256));
  const Scenario sglang = parse_scenario(r1("sglang", true, 256));
  const Scenario tp8 = parse_scenario(r1("vllm", false, 256));
  const double kv_dpa = estimate(vllm).memory.breakdown.kv_cache;
  // 32 sequences a rank against 256 (vLLM rounds tokens to its 16-token blocks; 4096 is whole blocks).
  CHECK(kv_dpa == Approx(estimate(tp8).memory.breakdown.kv_cache / 8).epsilon(1e-9));
  CHECK(kv_dpa == Approx(estimate(sglang).memory.breakdown.kv_cache).epsilon(1e-9));
}

TEST_CASE("Expert: vLLM's DP attention reads the dense layers whole a step and mixes prompts into decode",
          "[expert][dp_attention][vllm]") {
  // The same 8 H200 at 256 sequences: each vLLM rank reads ~6 GiB more dense weights a step than an
  // SGLang rank (decode slower), and V1's chunked prefill carries the other prompts inside the decode
  // steps where SGLang 0.4's unmixed batches stall them (time per output token lower).
  const Estimate v = estimate(parse_scenario(r1("vllm", true, 256)));
  const Estimate g = estimate(parse_scenario(r1("sglang", true, 256)));
  REQUIRE(v.throughput);
  REQUIRE(g.throughput);
  CHECK(v.throughput->decode_tokens_per_s < g.throughput->decode_tokens_per_s);
  CHECK(v.throughput->time_per_output_token_s < g.throughput->time_per_output_token_s);
  CHECK(v.throughput->time_to_first_token_s == Approx(g.throughput->time_to_first_token_s).epsilon(0.05));
}

TEST_CASE("Expert: vLLM plans DeepSeek-R1 FP8 with DP attention at high concurrency, launchable",
          "[expert][dp_attention][vllm]") {
  json j = r1("vllm", false, 256);
  for (const char* k : {"gpu", "gpus", "tp"}) j.erase(k);
  j["filters"] = {{"gpus", {"h200"}}};
  const Scenario s = parse_scenario(j);
  const std::vector<Plan> plans = rank_plans(s);
  REQUIRE_FALSE(plans.empty());
  const Plan& p = plans.front();
  REQUIRE(p.fits);
  CHECK(p.dp_attention);
  CHECK(p.tp == 8);
  CHECK(p.pp == 1);
  CHECK(p.instances == 1);
  const std::string v = command_text(launch(j), "vllm");
  INFO(v);
  CHECK(has(v, "--tensor-parallel-size 1 "));
  CHECK(has(v, "--data-parallel-size 8 "));
  CHECK(has(v, "--enable-expert-parallel"));
  // At one sequence TP attention reads fewer bytes a step: the plan keeps it.
  j["batch"] = 1;
  const std::vector<Plan> one = rank_plans(parse_scenario(j));
  REQUIRE_FALSE(one.empty());
  CHECK_FALSE(one.front().dp_attention);
}

TEST_CASE("dp_attention on vLLM with a model without MLA changes nothing, as on SGLang",
          "[dp_attention][vllm]") {
  json on = {{"model", "qwen3-235b-a22b"},
             {"engine", "vllm"},
             {"gpu", "h200"},
             {"gpus", 8},
             {"tp", 8},
             {"batch", 64},
             {"engine_options", {{"dp_attention", true}}}};
  json off = on;
  off.erase("engine_options");
  CHECK(estimate(parse_scenario(on)).memory.per_gpu_bytes ==
        Approx(estimate(parse_scenario(off)).memory.per_gpu_bytes).epsilon(1e-12));
  const std::string v = command_text(launch(on), "vllm");
  INFO(v);
  CHECK(has(v, "--tensor-parallel-size 8 "));
  CHECK_FALSE(has(v, "--data-parallel-size"));
  for (const Plan& p : rank_plans(parse_scenario(off))) CHECK_FALSE(p.dp_attention);
}

TEST_CASE("Expert: vLLM DP attention groups in one node are separate servers",
          "[expert][dp_attention][vllm]") {
  // deepseek-ai/DeepSeek-V2.5 (236B, MLA) in fp8: 2 x DP4 on one 8-GPU node.
  json j = r1("vllm", true, 64);
  j["model"] = {{"hf_config", json::parse(gpusizer_test::kDeepSeekV25Config)}};
  j["tp"] = 4;
  const json out = launch(j);
  const std::string v = command_text(out, "vllm");
  INFO(v);
  CHECK(has(v, "CUDA_VISIBLE_DEVICES=0,1,2,3 "));
  CHECK(has(v, "--data-parallel-size 4 "));
  CHECK(has(v, "--max-num-seqs 16 "));
  bool note = false;
  for (const json& n : out["note_details"]) note = note || n["code"] == "replica_per_server";
  CHECK(note);
}

TEST_CASE("Expert: a vLLM DP attention group over two nodes starts its ranks through Ray",
          "[dp_attention][vllm]") {
  // docs/serving/data_parallel_deployment.md: one command on the Ray head node starts every rank,
  // --data-parallel-size-local of them on each node (no --data-parallel-address, no --headless).
  json j = r1("vllm", true, 256);
  j["gpus"] = 16;
  j["tp"] = 16;
  const json out = launch(j);
  const std::string v = command_text(out, "vllm");
  INFO(v);
  CHECK(has(v, "--tensor-parallel-size 1 "));
  CHECK(has(v, "--data-parallel-size 16 "));
  CHECK(has(v, "--data-parallel-size-local 8 "));
  CHECK(has(v, "--data-parallel-backend ray "));
  CHECK(has(v, "--max-num-seqs 16 "));
  bool ray = false;
  for (const json& n : out["note_details"]) ray = ray || n["code"] == "vllm_ray";
  CHECK(ray);
}

TEST_CASE("Expert: vLLM's DP attention holds the MTP draft as its target's layers, TP 1",
          "[dp_attention][vllm]") {
  json v = r1("vllm", true, 256), g = r1("sglang", true, 256);
  for (json* j : {&v, &g}) (*j)["engine_options"]["speculative"] = {{"method", "mtp"}, {"draft_tokens", 1}};
  const double dv = estimate(parse_scenario(v)).memory.breakdown.draft_weights;
  const double dg = estimate(parse_scenario(g)).memory.breakdown.draft_weights;
  // DeepSeek-R1's one MTP block: what vLLM keeps whole and SGLang splits over 8 besides the attention
  // (replicated by both): shared expert 3 x 7168 x 2048 and eh_proj 2 x 7168 x 7168 in fp8 with block
  // scales, (44,040,192 + 102,760,448) x 1.000244 = 146,836,461 B, router 7168 x 256 x 2 B = 3,670,016 B:
  // 150.5 MB, of which 7/8 more per vLLM rank: ~131.7 MB.
  CHECK((dv - dg) / 1e6 == Approx(131.7).epsilon(0.02));
}
