// Launch commands: every fitting plan of rank_plans() launched and checked flag by flag for its
// engine, golden command lines, config files holding exactly the plan's
// numbers, and the plan input's errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "gpusizer/api.h"
#include "launch/launch.h"
#include "plan/estimate.h"
#include "plan/planner.h"
#include "scenario/engines.h"

using namespace gpusizer;
using nlohmann::json;

namespace {

json launch(const std::string& input) {
  const ApiResult r = run_command("launch", input);
  INFO(r.error_field << ": " << r.error_message);
  REQUIRE(r.ok);
  return r.value;
}

std::string error_field(const std::string& input) {
  const ApiResult r = run_command("launch", input);
  REQUIRE_FALSE(r.ok);
  return r.error_field;
}

// The one command of `tool` and `kind` (the training set has two deepspeed entries: file and line).
json command(const json& out, const std::string& tool, const std::string& kind) {
  for (const json& c : out["commands"]) {
    if (c["tool"] == tool && c["kind"] == kind) return c;
  }
  FAIL("no " << tool << " " << kind << " command");
  return {};
}

std::string text(const json& out, const std::string& tool, const std::string& kind = "shell") {
  return command(out, tool, kind)["text"].get<std::string>();
}

bool has_warning(const json& out, const std::string& code) {
  const json& d = out["warning_details"];
  return std::any_of(d.begin(), d.end(), [&](const json& w) { return w["code"] == code; });
}

Estimate estimate_of(json scenario, const json& plan) {
  scenario["gpu"] = plan["gpu"];
  scenario["gpus"] = plan["gpus"];
  scenario["tp"] = plan["tp"];
  scenario["pp"] = plan["pp"];
  return estimate(parse_scenario(scenario));
}

const char* const kAwq =
    R"({"model":"qwen2.5-72b","weights":"awq-int4","batch":8,"seq_len":8192,"filters":{"gpus":["a10"]}})";

}  // namespace

TEST_CASE(
    "Serving Qwen2.5-72B AWQ on the cheapest A10 plan: golden vLLM and swift lines, Marlin, the AWQ repo",
    "[launch]") {
  const json out = launch(kAwq);
  const json& plan = out["plan"];
  CHECK(plan["source"] == "ranking");
  CHECK(plan["gpu"] == "a10");
  CHECK(plan["dtype"] == "float16");  // AWQ kernels compute in float16
  const Estimate e = estimate_of(json::parse(kAwq), plan);
  const std::string tp = std::to_string(plan["tp"].get<int64_t>());
  const std::string pp = std::to_string(plan["pp"].get<int64_t>());
  // vLLM's default 0.90 unless the estimate needs more of the card (then at most 0.95).
  const double needed = std::ceil(e.memory.per_gpu_bytes / find_gpu("a10")->memory_bytes * 100 - 1e-9) / 100;
  char util[16];
  std::snprintf(util, sizeof util, "%.2f", std::max(0.90, std::min(0.95, needed)));
  const std::string vllm = text(out, "vllm");
  CHECK(vllm.substr(vllm.find("vllm serve")) ==
        "vllm serve Qwen/Qwen2.5-72B-Instruct-AWQ \\\n  --tensor-parallel-size " + tp +
            " \\\n  --pipeline-parallel-size " + pp +
            " \\\n  --max-model-len 8192 \\\n  --max-num-seqs 8 \\\n  --gpu-memory-utilization " + util +
            " \\\n  --dtype float16 \\\n  --quantization awq_marlin \\\n  --kv-cache-dtype auto\n");
  const std::string swift = text(out, "ms-swift");
  CHECK(swift.find("swift deploy \\\n  --model Qwen/Qwen2.5-72B-Instruct-AWQ \\\n  --use_hf true \\\n  "
                   "--infer_backend vllm \\\n "
                   " --torch_dtype float16 \\\n"
                   "  --vllm_tensor_parallel_size " +
                   tp) != std::string::npos);
  CHECK(swift.find("--vllm_max_model_len 8192 \\\n  --vllm_max_num_seqs 8") != std::string::npos);
  CHECK(out["notes"].dump().find("Qwen/Qwen2.5-72B-Instruct-AWQ: the published awq-int4 checkpoint") !=
        std::string::npos);
  CHECK(out["notes"].dump().find("awq_marlin: the Marlin kernel") != std::string::npos);
  CHECK(out["notes"].dump().find("concurrent sequences of 8192 tokens") != std::string::npos);
  for (const json& c : out["commands"]) {
    CHECK(c["version_checked"].get<std::string>().size() > 0);
    CHECK(c["tool"] != "sglang");  // the plan is vLLM's: no other engine's command
  }
}

TEST_CASE("vLLM's KV-cache note: what its start-up accounting leaves at the launch's own flags", "[launch]") {
  const char* const input = R"({"model":"llama-3.1-8b","gpu":"a100-80gb","seq_len":8192,"batch":4})";
  const json out = launch(input);
  CHECK(text(out, "vllm").find("--max-num-seqs 4 \\\n  --gpu-memory-utilization 0.90") != std::string::npos);
  json flags = json::parse(input);
  flags["engine_options"] = {{"max_num_seqs", 4}, {"gpu_memory_utilization", 0.9}};
  const EngineBudget e = *estimate(parse_scenario(flags)).memory.engine;
  const int64_t sequences = static_cast<int64_t>(std::floor(e.max_concurrency));
  CHECK(sequences > 4);
  char gib[32];
  std::snprintf(gib, sizeof gib, "%.2f GiB", e.kv_cache_bytes / 1073741824.0);
  CHECK(out["notes"].dump().find(std::string("--max-num-seqs 4 --gpu-memory-utilization 0.90 leaves ") + gib +
                                 " of KV cache on each GPU, " + std::to_string(sequences) +
                                 " concurrent sequences of 8192 tokens") != std::string::npos);
  // Below compute capability 8.0 vLLM 0.11 has no Marlin: plain awq on a T4.
  const json t4 =
      launch(R"({"model":"qwen2.5-7b","weights":"awq-int4","gpu":"t4","seq_len":4096,"batch":2})");
  CHECK(text(t4, "vllm").find("--quantization awq \\\n") != std::string::npos);
  CHECK(text(t4, "vllm").find("vllm serve Qwen/Qwen2.5-7B-Instruct-AWQ") != std::string::npos);
}

TEST_CASE("SGLang, LMDeploy, TensorRT-LLM and llama.cpp lines for their own plans", "[launch]") {
  const json sg = launch(
      R"({"model":"qwen2.5-72b","weights":"awq-int4","engine":"sglang","batch":8,"seq_len":8192,"gpu":"a100-80gb","gpus":2,"tp":2})");
  const std::string sglang = text(sg, "sglang");
  CHECK(
      sglang.rfind(
          "python -m sglang.launch_server \\\n  --model-path Qwen/Qwen2.5-72B-Instruct-AWQ \\\n  --tp-size 2",
          0) == 0);
  const Estimate e = estimate(parse_scenario(json::parse(
      R"({"model":"qwen2.5-72b","weights":"awq-int4","engine":"sglang","batch":8,"seq_len":8192,"gpu":"a100-80gb","gpus":2,"tp":2})")));
  // The weights and the KV cache of 8 x 8192 tokens fit SGLang's own fraction for an 80 GB card
  // at tp 2 (server_args.py _handle_gpu_memory_settings: reserved 512 + 8192 x 1.5 + 256 x 2 +
  // 2 / 8 x 1024 MiB): the command leaves it to SGLang, and the note says what it leaves.
  const double mib = find_gpu("a100-80gb")->memory_bytes / (1024.0 * 1024.0);
  const double own = std::round((mib - (512 + 8192 * 1.5 + 256 * 2 + 2.0 / 8 * 1024)) / mib * 1000) / 1000;
  CHECK((e.memory.breakdown.weights + e.memory.breakdown.kv_cache) / find_gpu("a100-80gb")->memory_bytes <
        own);
  CHECK(sglang.find("--mem-fraction-static") == std::string::npos);
  char own_text[16];
  std::snprintf(own_text, sizeof own_text, "%.3f", own);
  CHECK(sg["notes"].dump().find(std::string("its own mem_fraction_static ") + own_text) != std::string::npos);
  // A KV cache beyond it: the fraction the estimate needs, set explicitly.
  const json big = launch(
      R"({"model":"qwen2.5-72b","weights":"awq-int4","engine":"sglang","batch":64,"seq_len":8192,"gpu":"a100-80gb","gpus":2,"tp":2})");
  CHECK(text(big, "sglang").find("--mem-fraction-static") != std::string::npos);
  CHECK(sglang.find("--context-length 8192 \\\n  --max-running-requests 8") != std::string::npos);
  // Qwen/Qwen2.5-72B-Instruct-AWQ names its method in config.json: SGLang picks Marlin itself.
  CHECK(sglang.find("--quantization") == std::string::npos);
  CHECK(sglang.find("--model-path Qwen/Qwen2.5-72B-Instruct-AWQ") != std::string::npos);
  CHECK(sg["commands"].size() == 1);

  const json lm = launch(
      R"({"model":"qwen2.5-72b","weights":"awq-int4","kv_cache":"int8","engine":"lmdeploy","batch":16,"seq_len":16384,"gpu":"a100-80gb","gpus":2,"tp":2})");
  CHECK(text(lm, "lmdeploy") ==
        "lmdeploy serve api_server Qwen/Qwen2.5-72B-Instruct-AWQ \\\n  --backend turbomind \\\n  --tp 2 \\\n "
        " --session-len 16384 \\\n"
        "  --max-batch-size 16 \\\n  --cache-max-entry-count 0.80 \\\n  --model-format awq \\\n  "
        "--quant-policy 8\n");
  CHECK(command(lm, "lmdeploy", "shell")["version_checked"] == "LMDeploy 0.10.2");

  const json trt = launch(
      R"({"model":"llama-3.1-70b","kv_cache":"fp8","engine":"tensorrt-llm","batch":8,"seq_len":8192,"gpu":"h100-80gb","gpus":4,"tp":4})");
  CHECK(text(trt, "tensorrt-llm") ==
        "trtllm-serve meta-llama/Llama-3.1-70B \\\n  --backend pytorch \\\n  --tp_size 4 \\\n  --pp_size 1 "
        "\\\n  --max_batch_size 8 \\\n"
        "  --max_num_tokens 8192 \\\n  --max_seq_len 8192 \\\n  --kv_cache_free_gpu_memory_fraction 0.90 \\\n"
        "  --extra_llm_api_options extra_llm_api_options.yaml\n");
  CHECK(text(trt, "tensorrt-llm", "yaml") == "kv_cache_config:\n  dtype: fp8\n");

  const json cpp = launch(
      R"({"model":"llama-3.1-70b","weights":"q4_k_m","kv_cache":"int8","engine":"llama.cpp","batch":4,"seq_len":8192,"gpu":"rtx4090","gpus":2,"pp":2})");
  CHECK(text(cpp, "llama.cpp") ==
        "llama-server \\\n  -hf lmstudio-community/Meta-Llama-3.1-70B-Instruct-GGUF:Q4_K_M \\\n  -c 32768 "
        "\\\n  -np 4 \\\n  -ngl 999 \\\n  "
        "--split-mode layer \\\n"
        "  -fa on \\\n  --cache-type-k q8_0 \\\n  --cache-type-v q8_0\n");
}

TEST_CASE("Plans an engine cannot run get a warning and no command", "[launch]") {
  // transformers does no tensor parallelism (engine_caps): a tp 2 plan is refused, not printed.
  const json tp = launch(R"({"model":"qwen2.5-7b","engine":"transformers","gpu":"a10","gpus":2,"tp":2})");
  CHECK(has_warning(tp, "launch_plan_invalid"));
  CHECK(tp["commands"].empty());
  const json nodes = launch(
      R"({"model":"qwen2.5-7b","engine":"lmdeploy","plan":{"gpu":"a10","gpus_per_instance":1,"instances":2,"tp":2}})");
  CHECK(has_warning(nodes, "launch_plan_invalid"));
  CHECK(nodes["commands"].empty());
  const json awq_cpp =
      launch(R"({"model":"qwen2.5-7b","engine":"llama.cpp","weights":"awq-int4","gpu":"a10"})");
  CHECK(has_warning(awq_cpp, "launch_plan_invalid"));
  const json uneven = launch(
      R"({"model":"qwen2.5-7b","task":"lora","plan":{"gpu":"a10","gpus_per_instance":3,"instances":2}})");
  CHECK_FALSE(has_warning(uneven, "launch_plan_invalid"));  // 6 GPUs over 2 nodes: even
  // Without a plan: the cheapest plan the engine can run, and a note when the ranking's first
  // fitting plan is one it cannot (the planner may or may not rank such plans first).
  for (const char* input :
       {R"({"model":"qwen2.5-72b","weights":"awq-int4","batch":16,"seq_len":32768,"engine":"lmdeploy"})",
        R"({"model":"llama-3.1-70b","task":"lora","engine":"megatron","seq_len":4096,"batch":2})"}) {
    INFO(input);
    const json out = launch(input);
    const json ranked = run_command("rank", input).value["plans"];
    const json& top = ranked[0];
    json top_input = json::parse(input);
    top_input["plan"] = {{"instance", top["instance"]}};  // that type's first row: the ranking's top plan
    const json top_launch = launch(top_input.dump());
    const bool top_refused = top_launch["commands"].empty();
    const bool noted =
        !out["notes"].empty() && out["notes"][0].get<std::string>().find("the cheapest plan, ") == 0;
    CHECK(noted == top_refused);
    if (top_refused && noted)
      CHECK(out["notes"][0].get<std::string>().find("cannot be launched") != std::string::npos);
    CHECK_FALSE(out["commands"].empty());
  }
  const json ok = launch(R"({"model":"qwen2.5-7b","engine":"transformers","gpu":"a10","gpus":2,"pp":2})");
  CHECK_FALSE(has_warning(ok, "launch_plan_invalid"));
  CHECK(text(ok, "ms-swift")
            .rfind("CUDA_VISIBLE_DEVICES=0,1 swift deploy \\\n  --model Qwen/Qwen2.5-7B \\\n  --use_hf true "
                   "\\\n  --infer_backend pt",
                   0) == 0);
}

TEST_CASE("QLoRA: swift lora + 4-bit bnb, LLaMA-Factory quantization_bit 4", "[launch]") {
  const json out = launch(R"({"model":"qwen2.5-7b","task":"qlora","batch":4,"seq_len":2048,
                              "training":{"lora_rank":16,"grad_accum":4},"plan":{"gpu":"a10"}})");
  const std::string swift = text(out, "ms-swift");
  CHECK(swift.rfind("NPROC_PER_NODE=1 \\\nswift sft \\\n  --model Qwen/Qwen2.5-7B \\\n  --use_hf true \\\n  "
                    "--train_type lora "
                    "\\\n  --torch_dtype bfloat16 \\\n"
                    "  --quant_method bnb \\\n  --quant_bits 4 \\\n  --lora_rank 16 \\\n  --target_modules "
                    "all-linear \\\n",
                    0) == 0);
  CHECK(swift.find("--deepspeed") == std::string::npos);  // one GPU, ZeRO 0: no DeepSpeed
  const std::string yaml = text(out, "llama-factory", "yaml");
  for (const char* line :
       {"quantization_bit: 4\n", "quantization_method: bitsandbytes\n", "finetuning_type: lora\n",
        "lora_rank: 16\n", "lora_target: all\n", "cutoff_len: 2048\n", "per_device_train_batch_size: 4\n",
        "gradient_accumulation_steps: 4\n", "bf16: true\n"}) {
    CHECK(yaml.find(line) != std::string::npos);
  }
  CHECK(yaml.find("deepspeed:") == std::string::npos);
  CHECK(command(out, "llama-factory", "yaml")["filename"] == "train.yaml");
}

TEST_CASE("ZeRO-3 full fine-tune on two 8-GPU nodes: multi-node lines and ds_config stage 3", "[launch]") {
  const json out = launch(R"({"model":"llama-3.1-70b","task":"full","seq_len":4096,
      "training":{"zero":3,"grad_accum":8,"grad_checkpointing":"full","offload_optimizer":true,"offload_params":true},
      "plan":{"gpu":"h100-80gb","gpus_per_instance":8,"instances":2}})");
  CHECK(out["plan"]["gpus"] == 16);
  CHECK(out["plan"]["dp"] == 16);
  CHECK(out["plan"]["source"] == "explicit");
  const json ds = json::parse(text(out, "deepspeed", "json"));
  CHECK(ds["zero_optimization"]["stage"] == 3);
  // The HF Trainer fills "auto" from its own arguments and refuses fixed values that differ.
  CHECK(ds["train_micro_batch_size_per_gpu"] == "auto");
  CHECK(ds["gradient_accumulation_steps"] == "auto");
  CHECK(ds["train_batch_size"] == "auto");
  CHECK(ds["bf16"]["enabled"] == "auto");
  CHECK_FALSE(ds.contains("fp16"));
  CHECK(ds["zero_optimization"]["offload_optimizer"] == json({{"device", "cpu"}, {"pin_memory", true}}));
  CHECK(ds["zero_optimization"]["offload_param"] == json({{"device", "cpu"}, {"pin_memory", true}}));
  CHECK(text(out, "torchrun") ==
        "torchrun \\\n  --nnodes 2 \\\n  --nproc_per_node 8 \\\n  --node_rank $NODE_RANK \\\n  --master_addr "
        "$MASTER_ADDR \\\n"
        "  --master_port 29500 \\\n  train.py \\\n  --deepspeed ds_config.json \\\n"
        "  --per_device_train_batch_size 1 \\\n  --gradient_accumulation_steps 8 \\\n  --bf16 true \\\n"
        "  --max_grad_norm 1.0 \\\n  --gradient_checkpointing true \\\n  --learning_rate 1.0e-5\n");
  CHECK(text(out, "deepspeed") ==
        "deepspeed \\\n  --hostfile hostfile \\\n  --num_nodes 2 \\\n  --num_gpus 8 \\\n  --node_rank "
        "$NODE_RANK \\\n"
        "  --master_addr $MASTER_ADDR \\\n  --master_port 29500 \\\n  --no_ssh \\\n  train.py \\\n  "
        "--deepspeed ds_config.json \\\n"
        "  --per_device_train_batch_size 1 \\\n  --gradient_accumulation_steps 8 \\\n  --bf16 true \\\n"
        "  --max_grad_norm 1.0 \\\n  --gradient_checkpointing true \\\n  --learning_rate 1.0e-5\n");
  const std::string swift = text(out, "ms-swift");
  CHECK(swift.rfind("NNODES=2 NODE_RANK=$NODE_RANK MASTER_ADDR=$MASTER_ADDR MASTER_PORT=29500 "
                    "NPROC_PER_NODE=8 \\\nswift sft",
                    0) == 0);
  CHECK(swift.find("--deepspeed zero3_offload") != std::string::npos);  // ms-swift's built-in config matches
  CHECK(text(out, "llama-factory").find("NNODES=2 NODE_RANK=$NODE_RANK") == 0);
  CHECK(text(out, "llama-factory", "yaml").find("deepspeed: ds_config.json\n") != std::string::npos);
}

TEST_CASE("Offload combinations without a built-in ms-swift config use the generated file", "[launch]") {
  const json out = launch(R"({"model":"qwen2.5-7b","task":"full","gpu":"a100-80gb","gpus":8,
                              "training":{"zero":3,"offload_optimizer":true}})");
  CHECK(text(out, "ms-swift").find("--deepspeed ds_config.json") != std::string::npos);
  const json ds = json::parse(text(out, "deepspeed", "json"));
  CHECK(ds["zero_optimization"].contains("offload_optimizer"));
  CHECK_FALSE(ds["zero_optimization"].contains("offload_param"));
  CHECK(out["plan"]["source"] == "scenario");
  CHECK(out["plan"]["instances"] == 1);
}

TEST_CASE("Cards without bf16 get float16 and a warning", "[launch]") {
  const json serve = launch(R"({"model":"qwen2.5-1.5b","gpu":"t4"})");
  CHECK(serve["plan"]["dtype"] == "float16");
  CHECK(text(serve, "vllm").find("--dtype float16") != std::string::npos);
  CHECK(text(launch(R"({"model":"qwen2.5-1.5b","gpu":"t4","engine":"sglang"})"), "sglang")
            .find("--dtype float16") != std::string::npos);
  CHECK(text(serve, "ms-swift").find("--torch_dtype float16") != std::string::npos);
  CHECK(has_warning(serve, "launch_fp16"));

  const json train =
      launch(R"({"model":"qwen2.5-7b","task":"lora","gpu":"v100-32gb","gpus":2,"training":{"zero":2}})");
  CHECK(has_warning(train, "launch_fp16"));
  const json ds = json::parse(text(train, "deepspeed", "json"));
  CHECK_FALSE(ds.contains("bf16"));
  CHECK(ds["fp16"] == json({{"enabled", "auto"},
                            {"loss_scale", 0},
                            {"loss_scale_window", 1000},
                            {"initial_scale_power", 16},
                            {"hysteresis", 2},
                            {"min_loss_scale", 1}}));
  CHECK(text(train, "llama-factory", "yaml").find("fp16: true\n") != std::string::npos);
  CHECK(text(train, "ms-swift").find("--torch_dtype float16") != std::string::npos);
  CHECK(text(train, "ms-swift").find("--deepspeed zero2") != std::string::npos);

  const json bf16 = launch(R"({"model":"qwen2.5-1.5b","gpu":"a100-80gb"})");
  CHECK_FALSE(has_warning(bf16, "launch_fp16"));
  CHECK(text(bf16, "vllm").find("--dtype bfloat16") != std::string::npos);
}

TEST_CASE("Memory fractions cover the estimate and never exceed 0.95", "[launch]") {
  for (const char* s : {R"({"model":"qwen2.5-1.5b","gpu":"h200"})",
                        R"({"model":"llama-3.1-8b","gpu":"l4","seq_len":8192,"batch":2})",
                        R"({"model":"llama-3.1-8b","gpu":"a10","seq_len":32768,"batch":8})"}) {
    const json out = launch(s);
    const std::string v = text(out, "vllm");
    const double f = std::stod(v.substr(v.find("--gpu-memory-utilization ") + 25));
    CHECK(f <= 0.95);
    const Estimate e = estimate(parse_scenario(json::parse(s)));
    CHECK((f >= e.memory.per_gpu_bytes / find_gpu(e.gpu->id)->memory_bytes || f == 0.95));
    if (f == 0.95 && !e.gpu->fits) CHECK(has_warning(out, "launch_does_not_fit"));
  }
}

TEST_CASE("Settings the tools cannot express are said", "[launch]") {
  const json kv = launch(R"({"model":"llama-3.1-8b","gpu":"a100-80gb","kv_cache":"int8"})");
  CHECK(kv["notes"].dump().find("KV cache int8 cannot be expressed") != std::string::npos);
  CHECK(text(kv, "vllm").find("--kv-cache-dtype auto") != std::string::npos);
  const json fp8 = launch(R"({"model":"llama-3.1-8b","gpu":"h100-80gb","kv_cache":"fp8"})");
  CHECK(text(fp8, "vllm").find("--kv-cache-dtype fp8\n") != std::string::npos);
  CHECK(text(launch(R"({"model":"llama-3.1-8b","gpu":"h100-80gb","kv_cache":"fp8","engine":"sglang"})"),
             "sglang")
            .find("--kv-cache-dtype fp8_e4m3") != std::string::npos);
  CHECK(fp8["notes"].dump().find("swift deploy") != std::string::npos);
  const json tp = launch(
      R"({"model":"llama-3.1-8b","task":"full","gpu":"a100-80gb","gpus":8,"tp":2,"training":{"zero":1}})");
  CHECK(has_warning(tp, "launch_parallelism_unsupported"));
  const json sel = launch(
      R"({"model":"llama-3.1-8b","task":"lora","gpu":"a100-80gb","training":{"grad_checkpointing":"selective","master_weights":false}})");
  CHECK(sel["notes"].dump().find("selective checkpointing") != std::string::npos);
  CHECK(sel["notes"].dump().find("master_weights") != std::string::npos);
}

TEST_CASE("Data-parallel serving replicas", "[launch]") {
  const json out = launch(R"({"model":"llama-3.1-8b","gpu":"a100-80gb","gpus":4,"tp":2,"batch":16})");
  CHECK(out["plan"]["dp"] == 2);
  CHECK(text(out, "vllm").find("--data-parallel-size 2") != std::string::npos);
  CHECK(
      text(launch(
               R"({"model":"llama-3.1-8b","gpu":"a100-80gb","gpus":4,"tp":2,"batch":16,"engine":"sglang"})"),
           "sglang")
          .find("--dp-size 2") != std::string::npos);
  CHECK(text(out, "ms-swift").find("--vllm_data_parallel_size 2") != std::string::npos);
}

TEST_CASE("The plan input: instance, explicit layout, page shape and errors", "[launch]") {
  const json ranked = json::parse(run_command("rank", kAwq).value.dump());
  const json& second = ranked["plans"][1];
  json by_instance = json::parse(kAwq);
  by_instance["plan"] = {{"instance", second["instance"]}};
  const json out = launch(by_instance.dump());
  CHECK(out["plan"]["instance"] == second["instance"]);
  CHECK(out["plan"]["gpus"] == second["gpus"]);
  // The page passes a whole ranking row, beside the scenario.
  const json page = launch(json({{"scenario", json::parse(kAwq)}, {"plan", second}}).dump());
  CHECK(page["plan"] == out["plan"]);

  CHECK(error_field(R"({"model":"qwen2.5-7b","plan":{"instance":"no-such-type"}})") == "plan.instance");
  CHECK(error_field(R"({"model":"qwen2.5-7b","plan":{"gpu":"a10","cores":2}})") == "plan.cores");
  CHECK(error_field(R"({"model":"qwen2.5-7b","plan":{"tp":2}})") == "plan.gpu");
  CHECK(error_field(R"({"model":"qwen2.5-7b","plan":{"gpu":"h999"}})") == "plan.gpu");
  CHECK(error_field(R"({"model":"qwen2.5-7b","plan":{"gpu":"a10","tp":3}})") == "tp");
  CHECK(error_field(R"({"model":"qwen2.5-7b","plan":[1]})") == "plan");
  CHECK(error_field(R"({"model":"qwen2.5-7b","bogus":1})") == "bogus");
  CHECK(error_field(R"({"model":"deepseek-v3","task":"full","filters":{"max_gpus":1}})") == "plan");
}

// ---------------------------------------------------------------------------------------------
// Launch = plan: every fitting plan of rank_plans() for a set of scenarios, launched and checked.

namespace {

// A shell command split into its environment assignments and its flags ("-x value" or "-x").
struct Parsed {
  std::map<std::string, std::string> env;
  std::map<std::string, std::string> flags;
  std::string program;
};

Parsed parse_shell(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> tokens;
  for (std::string t; in >> t;) {
    if (t != "\\") tokens.push_back(t);
  }
  Parsed p;
  size_t i = 0;
  for (; i < tokens.size() && tokens[i].find('=') != std::string::npos && tokens[i][0] != '-'; ++i) {
    const size_t eq = tokens[i].find('=');
    p.env[tokens[i].substr(0, eq)] = tokens[i].substr(eq + 1);
  }
  if (i < tokens.size()) p.program = tokens[i++];
  for (; i < tokens.size(); ++i) {
    if (tokens[i][0] != '-') continue;  // positional: model, script, subcommand
    const bool has_value = i + 1 < tokens.size() && tokens[i + 1][0] != '-';
    p.flags[tokens[i]] = has_value ? tokens[i + 1] : "";
    if (has_value) ++i;
  }
  return p;
}

int64_t num(const Parsed& p, const std::string& flag, int64_t absent = 1) {
  const auto it = p.flags.find(flag);
  return it == p.flags.end() ? absent : std::stoll(it->second);
}

int64_t count_devices(const Parsed& p, int64_t absent) {
  const auto it = p.env.find("CUDA_VISIBLE_DEVICES");
  return it == p.env.end() ? absent
                           : static_cast<int64_t>(std::count(it->second.begin(), it->second.end(), ',')) + 1;
}

// The flags each tool's generator may write: the names docs/launch.md lists for the version checked.
const std::map<std::string, std::set<std::string>>& known_flags() {
  static const std::map<std::string, std::set<std::string>> flags = {
      {"vllm serve",
       {"--tensor-parallel-size", "--pipeline-parallel-size", "--data-parallel-size", "--max-model-len",
        "--max-num-seqs", "--gpu-memory-utilization", "--dtype", "--quantization", "--kv-cache-dtype",
        "--hf-overrides", "--trust-remote-code", "--enable-expert-parallel", "--data-parallel-size-local",
        "--data-parallel-backend"}},
      {"sglang",
       {"--model-path", "--tp-size", "--json-model-override-args", "--trust-remote-code", "--pp-size",
        "--dp-size", "--context-length", "--max-running-requests", "--mem-fraction-static", "--dtype",
        "--quantization", "--kv-cache-dtype", "--nnodes", "--node-rank", "--dist-init-addr", "--ep-size",
        "-m"}},
      {"swift deploy",
       {"--model", "--use_hf", "--infer_backend", "--torch_dtype", "--vllm_tensor_parallel_size",
        "--vllm_pipeline_parallel_size", "--vllm_data_parallel_size", "--vllm_max_model_len",
        "--vllm_max_num_seqs", "--vllm_gpu_memory_utilization", "--max_batch_size", "--max_length",
        "--vllm_enable_expert_parallel"}},
      // ms-swift 3.9's checkpoint conversion and Megatron-SWIFT (docs/source_en/Megatron-SWIFT/
      // Quick-start.md, swift/megatron/argument/megatron_args.py at v3.9.0).
      {"swift export",
       {"--model", "--use_hf", "--to_mcore", "--to_hf", "--mcore_model", "--torch_dtype", "--output_dir"}},
      {"megatron sft",
       {"--load",
        "--dataset",
        "--train_type",
        "--lora_rank",
        "--target_modules",
        "--tensor_model_parallel_size",
        "--pipeline_model_parallel_size",
        "--sequence_parallel",
        "--expert_model_parallel_size",
        "--moe_grouped_gemm",
        "--moe_aux_loss_coeff",
        "--use_distributed_optimizer",
        "--micro_batch_size",
        "--global_batch_size",
        "--recompute_granularity",
        "--recompute_method",
        "--recompute_num_layers",
        "--finetune",
        "--bf16",
        "--fp16",
        "--lr",
        "--min_lr",
        "--lr_warmup_fraction",
        "--max_length",
        "--train_iters",
        "--max_epochs",
        "--packing",
        "--save",
        "--save_interval",
        "--no_save_optim",
        "--no_save_rng"}},
      {"swift sft",
       {"--model",
        "--use_hf",
        "--train_type",
        "--torch_dtype",
        "--quant_method",
        "--quant_bits",
        "--bnb_4bit_quant_storage",
        "--lora_rank",
        "--target_modules",
        "--deepspeed",
        "--fsdp",
        "--max_length",
        "--per_device_train_batch_size",
        "--gradient_accumulation_steps",
        "--gradient_checkpointing",
        "--optim",
        "--max_grad_norm",
        "--max_steps",
        "--packing",
        "--attn_impl",
        "--dataset",
        "--output_dir"}},
      {"lmdeploy",
       {"--backend", "--tp", "--session-len", "--max-batch-size", "--cache-max-entry-count", "--model-format",
        "--quant-policy", "--dtype"}},
      {"trtllm-serve",
       {"--backend", "--tp_size", "--pp_size", "--max_batch_size", "--max_num_tokens", "--max_seq_len",
        "--kv_cache_free_gpu_memory_fraction", "--extra_llm_api_options", "--trust_remote_code"}},
      {"llama-server",
       {"-m", "-hf", "-c", "-np", "-ngl", "--split-mode", "-fa", "--cache-type-k", "--cache-type-v",
        "--rope-scaling", "--rope-scale", "--yarn-orig-ctx"}},
      {"torchrun",
       {"--nnodes", "--nproc_per_node", "--node_rank", "--master_addr", "--master_port", "--deepspeed",
        "--fsdp", "--per_device_train_batch_size", "--gradient_accumulation_steps", "--bf16", "--fp16",
        "--max_grad_norm", "--gradient_checkpointing", "--learning_rate", "--optim", "--max_steps"}},
      {"deepspeed",
       {"--hostfile", "--num_nodes", "--num_gpus", "--node_rank", "--master_addr", "--master_port",
        "--no_ssh", "--deepspeed", "--per_device_train_batch_size", "--gradient_accumulation_steps", "--bf16",
        "--fp16", "--max_grad_norm", "--gradient_checkpointing", "--learning_rate", "--optim",
        "--max_steps"}},
      {"llamafactory-cli", {}},
  };
  return flags;
}

std::string tool_key(const Parsed& p, const std::string& text) {
  if (p.program == "vllm") return "vllm serve";
  if (p.program == "python") return "sglang";
  if (p.program == "swift") {
    if (text.find("swift export") != std::string::npos) return "swift export";
    return text.find("swift deploy") != std::string::npos ? "swift deploy" : "swift sft";
  }
  if (p.program == "megatron") return "megatron sft";
  if (p.program == "lmdeploy") return "lmdeploy";
  return p.program;
}

struct Tally {
  int launched = 0;
  std::map<std::string, int> blocked;    // reason (first words) -> plans
  std::vector<std::string> top_blocked;  // scenarios whose first fitting plan gets no command
};

// Independent of launch.cpp: the layouts the engine runs (engine_caps) and an even node split.
bool layout_allowed(const Scenario& s, const Plan& p) {
  const EngineCaps caps = engine_caps(s.engine);
  if (p.tp > 1 && !caps.tensor_parallel) return false;
  if (p.pp > 1 && !caps.pipeline_parallel) return false;
  if (p.gpus % p.instances != 0) return false;
  // Serving replicas that each sit inside one instance are independent servers; training and a
  // replica over several instances need the engine's multi-node support.
  const bool replica_spans = (p.gpus / p.instances) % (p.tp * p.pp) != 0;
  if (p.instances > 1 && (is_training(s.task) || replica_spans) && !caps.multi_node) return false;
  // The training tools are data-parallel, except Megatron-LM's pre-training from scratch and
  // Megatron-SWIFT's full and LoRA fine-tunes of the families ms-swift 3.9 converts.
  const bool megatron = s.engine == Engine::Megatron && s.task == Task::Pretrain;
  const std::set<std::string> swift_families = {"llama",       "qwen2",    "qwen3",     "qwen3_moe",
                                                "deepseek_v3", "glm4_moe", "qwen3_next"};
  const bool swift = (s.task == Task::Full || s.task == Task::Lora) && swift_families.count(s.model.family);
  if (is_training(s.task) && (p.tp > 1 || p.pp > 1) && !megatron && !swift) return false;
  return true;
}

void check_serving(const Scenario& s, const Plan& plan, const json& out) {
  const EngineCaps caps = engine_caps(s.engine);
  const bool independent = plan.instances > 1 && (plan.gpus / plan.instances) % (plan.tp * plan.pp) == 0;
  const int64_t servers = independent ? plan.instances : 1;  // the same command on each instance
  // GPUs one server command uses on its node: one replica's, or the node's share of a replica spanning nodes.
  const int64_t replica_gpus =
      plan.instances > 1 && !independent ? plan.gpus / plan.instances : plan.tp * plan.pp;
  const std::set<std::string> tp_flags = {"--tensor-parallel-size", "--tp", "--tp-size", "--tp_size",
                                          "--vllm_tensor_parallel_size"};
  for (const json& cmd : out["commands"]) {
    if (cmd["kind"] != "shell") continue;
    const std::string text = cmd["text"];
    const Parsed p = parse_shell(text);
    const std::string tool = tool_key(p, text);
    INFO(text);
    for (const auto& f : p.flags) {
      CHECK(known_flags().at(tool).count(f.first) == 1);
      if (tp_flags.count(f.first) && std::stoll(f.second) > 1) CHECK(caps.tensor_parallel);
    }
    if (tool == "vllm serve" && plan.dp_attention) {
      // vLLM's DP attention: the plan's tp GPUs are DP ranks of TP 1, experts over them (EP).
      CHECK(num(p, "--tensor-parallel-size") == 1);
      CHECK(num(p, "--data-parallel-size") == plan.tp);
      CHECK(p.flags.count("--enable-expert-parallel") == 1);
    } else if (tool == "vllm serve") {
      CHECK(num(p, "--tensor-parallel-size") == plan.tp);
      CHECK(num(p, "--tensor-parallel-size") * num(p, "--pipeline-parallel-size") *
                num(p, "--data-parallel-size") * servers ==
            plan.gpus);
      const double util = std::stod(p.flags.at("--gpu-memory-utilization"));
      CHECK(util >= 0.90);
      CHECK(util <= 0.95);
      if (plan.per_gpu_bytes / find_gpu(plan.instance->gpu_id)->memory_bytes <= 0.89)
        CHECK(util == Approx(0.90));
      const std::string q = p.flags.count("--quantization") ? p.flags.at("--quantization") : "";
      const std::string arch = find_gpu(plan.instance->gpu_id)->arch;
      const bool sm80 = arch == "ampere" || arch == "ada" || arch == "hopper" || arch == "blackwell";
      if (s.weights == WeightFormat::AwqInt4) CHECK(q == (sm80 ? "awq_marlin" : "awq"));
      if (s.weights == WeightFormat::GptqInt4) CHECK(q == (sm80 ? "gptq_marlin" : "gptq"));
      CHECK((p.flags.at("--kv-cache-dtype") == "auto" || p.flags.at("--kv-cache-dtype") == "fp8"));
    } else if (tool == "sglang") {
      CHECK(num(p, "--tp-size") == plan.tp);
      CHECK(num(p, "--tp-size") * num(p, "--pp-size") * num(p, "--dp-size") * servers == plan.gpus);
      CHECK(num(p, "--nnodes") == plan.instances / servers);
    } else if (tool == "swift deploy") {
      if (p.flags.at("--infer_backend") == "vllm" && plan.dp_attention) {
        CHECK(num(p, "--vllm_tensor_parallel_size") == 1);
        CHECK(num(p, "--vllm_data_parallel_size") == plan.tp);
      } else if (p.flags.at("--infer_backend") == "vllm") {
        CHECK(num(p, "--vllm_tensor_parallel_size") * num(p, "--vllm_pipeline_parallel_size") *
                  num(p, "--vllm_data_parallel_size") * servers ==
              plan.gpus);
      } else {
        CHECK(count_devices(p, plan.instance->gpus) == replica_gpus);  // device_map over one replica's GPUs
      }
      CHECK(plan.instances == servers);
    } else if (tool == "lmdeploy") {
      CHECK(num(p, "--tp") == plan.tp);
      CHECK(count_devices(p, plan.instance->gpus) == replica_gpus);  // one replica's GPUs per server
      CHECK(num(p, "--max-batch-size") == s.batch);
      if (p.flags.count("--dtype"))
        CHECK((p.flags.at("--dtype") == "float16" || p.flags.at("--dtype") == "bfloat16"));
      if (s.kv_cache == KvFormat::Int8) CHECK(num(p, "--quant-policy") == 8);
      if (s.kv_cache == KvFormat::Int4) CHECK(num(p, "--quant-policy") == 4);
      const double share = std::stod(p.flags.at("--cache-max-entry-count"));
      CHECK(share >= 0.8);
      CHECK(share < 1);
    } else if (tool == "trtllm-serve") {
      CHECK(num(p, "--tp_size") == plan.tp);
      CHECK(num(p, "--pp_size") == plan.pp);
      CHECK(count_devices(p, plan.instance->gpus) == replica_gpus);
      const double share = std::stod(p.flags.at("--kv_cache_free_gpu_memory_fraction"));
      CHECK(share >= 0.9);
      CHECK(share <= 0.95);
    } else if (tool == "llama-server") {
      CHECK(num(p, "-c") == s.seq_len * s.batch);
      CHECK(num(p, "-np") == s.batch);
      CHECK(p.flags.at("--split-mode") == (plan.pp > 1 ? "layer" : "none"));
      CHECK((p.flags.at("-fa") == "on" || p.flags.at("-fa") == "off"));
      CHECK(count_devices(p, plan.instance->gpus) == replica_gpus);
    } else {
      FAIL("unexpected serving command " << tool);
    }
  }
}

void check_training(const Scenario& s, const Plan& plan, const json& out) {
  const int64_t world = plan.gpus;
  int shells = 0;
  for (const json& cmd : out["commands"]) {
    const std::string text = cmd["text"];
    INFO(text);
    if (cmd["kind"] == "json") {
      // Every command runs the HF Trainer, which fills the batch figures ("auto") from its own
      // arguments; DeepSpeed then checks train_batch_size == micro x accumulation x world size.
      const json ds = json::parse(text);
      CHECK(ds["train_micro_batch_size_per_gpu"] == "auto");
      CHECK(ds["gradient_accumulation_steps"] == "auto");
      CHECK(ds["train_batch_size"] == "auto");
      CHECK(ds["zero_optimization"]["stage"] == plan.zero);
      continue;
    }
    if (cmd["kind"] != "shell") continue;
    const Parsed p = parse_shell(text);
    if (cmd["tool"] == "megatron-swift") {
      // megatron sft reads the node layout from the environment, as ms-swift does.
      for (const auto& f : p.flags) CHECK(known_flags().at("megatron sft").count(f.first) == 1);
      const int64_t nodes = p.env.count("NNODES") ? std::stoll(p.env.at("NNODES")) : 1;
      CHECK(nodes * std::stoll(p.env.at("NPROC_PER_NODE")) == world);
      CHECK(num(p, "--tensor_model_parallel_size") == plan.tp);
      CHECK(num(p, "--pipeline_model_parallel_size") == plan.pp);
      CHECK(num(p, "--micro_batch_size") == s.batch);
      CHECK(num(p, "--global_batch_size") == s.batch * s.training.grad_accum * (world / (plan.tp * plan.pp)));
      continue;
    }
    if (text.rfind("swift export", 0) == 0) {
      for (const auto& f : p.flags) CHECK(known_flags().at("swift export").count(f.first) == 1);
      continue;
    }
    if (cmd["tool"] == "megatron-lm") {
      // pretrain_gpt.py's flags are checked against Megatron-LM's own arguments.py by
      // tests/wasm/flags.test.mjs; here the layout: the world and the plan's TP and PP.
      CHECK(num(p, "--nnodes") * num(p, "--nproc_per_node") == world);
      CHECK(num(p, "--tensor-model-parallel-size") == plan.tp);
      CHECK(num(p, "--pipeline-model-parallel-size") == plan.pp);
      continue;
    }
    ++shells;
    const std::string tool = tool_key(p, text);
    for (const auto& f : p.flags) CHECK(known_flags().at(tool).count(f.first) == 1);
    if (tool == "torchrun" || tool == "deepspeed") {
      // train.py's TrainingArguments carry the batch the estimate sized.
      CHECK(num(p, "--per_device_train_batch_size") == s.batch);
      // At the plan's layout (pre-training with no accumulation named takes the recipe's step).
      Scenario laid = s;
      laid.gpus = plan.gpus;
      laid.tp = plan.tp;
      laid.pp = plan.pp;
      apply_layout_defaults(laid);
      CHECK(num(p, "--gradient_accumulation_steps") == laid.training.grad_accum);
    }
    if (tool == "torchrun") {
      CHECK(num(p, "--nnodes") * num(p, "--nproc_per_node") == world);
    } else if (tool == "deepspeed") {
      CHECK(num(p, "--num_nodes") * num(p, "--num_gpus") == world);
    } else {  // ms-swift and LLaMA-Factory read the node layout from the environment
      const int64_t nodes = p.env.count("NNODES") ? std::stoll(p.env.at("NNODES")) : 1;
      const int64_t per_node = p.env.count("NPROC_PER_NODE") ? std::stoll(p.env.at("NPROC_PER_NODE"))
                                                             : count_devices(p, plan.instance->gpus);
      CHECK(nodes * per_node == world);
      CHECK(nodes == plan.instances);
    }
  }
  // swift, llama-factory, torchrun, deepspeed (not for engine fsdp with sharded gradients, whose
  // commands all run FSDP); none beside Megatron-LM for a TP/PP layout only it runs, nor beside the
  // Megatron command that runs an engine megatron plan.
  const int data_parallel = s.engine == Engine::Fsdp && plan.zero >= 2 ? 3 : 4;
  bool megatron_runs = false;
  for (const json& cmd : out["commands"])
    megatron_runs = megatron_runs || cmd["tool"] == "megatron-lm" || cmd["tool"] == "megatron-swift";
  const bool megatron_only = plan.tp > 1 || plan.pp > 1 || (s.engine == Engine::Megatron && megatron_runs);
  CHECK(shells == (megatron_only ? 0 : data_parallel));
}

bool blocked(const json& out) {
  return has_warning(out, "launch_plan_invalid") || has_warning(out, "launch_parallelism_unsupported");
}

void launch_every_plan(const std::string& input, Tally& tally) {
  INFO(input);
  const Scenario s = parse_scenario(json::parse(input));
  const std::vector<Plan> plans = rank_plans(s);
  int fitting = 0;
  for (const Plan& plan : plans) {
    if (!plan.fits) continue;
    ++fitting;
    INFO(plan.instance->instance << ": " << plan.gpus << " GPUs on " << plan.instances << " x "
                                 << plan.instance->gpus << ", tp " << plan.tp << ", pp " << plan.pp
                                 << ", zero " << plan.zero);
    const LaunchPlan lp{plan.instance->gpu_id,
                        plan.instance->instance,
                        "ranking",
                        plan.instance->gpus,
                        plan.instances,
                        plan.gpus,
                        plan.tp,
                        plan.pp,
                        plan.zero,
                        plan.load ? plan.load->concurrency_per_replica : 0};
    const json out = to_json(make_launch(s, lp));
    CHECK(out["plan"]["gpus"] == plan.gpus);
    if (!layout_allowed(s, plan)) CHECK(blocked(out));  // never a command for a layout the engine cannot run
    if (!blocked(out) && !is_training(s.task) && plan.instances > 1 &&
        (plan.gpus / plan.instances) % (plan.tp * plan.pp) == 0) {
      CHECK(out["notes"].dump().find("instances serve independently") != std::string::npos);
    }
    if (blocked(out)) {
      CHECK(out["commands"].empty());
      const std::string message = out["warnings"].back();
      ++tally.blocked[std::string(to_string(s.engine)) + ": " + message.substr(0, message.find(':'))];
      if (fitting == 1)
        tally.top_blocked.push_back(input + " -> " + plan.instance->instance + ": " + message);
      continue;
    }
    ++tally.launched;
    REQUIRE_FALSE(out["commands"].empty());
    if (is_training(s.task)) {
      check_training(s, plan, out);
    } else {
      check_serving(s, plan, out);
    }
  }
  if (fitting == 0) WARN("no fitting plan: " << input);  // e.g. a model too large for a one-machine engine
}

}  // namespace

TEST_CASE("Every fitting ranked plan launches validly for its engine, or says why it cannot",
          "[launch][plans]") {
  Tally tally;
  std::vector<std::string> inputs;
  for (const char* engine : {"vllm", "sglang", "lmdeploy", "tensorrt-llm", "transformers"}) {
    inputs.push_back(std::string(R"({"model":"qwen2.5-7b","batch":8,"seq_len":8192,"engine":")") + engine +
                     "\"}");
    inputs.push_back(
        std::string(R"({"model":"qwen2.5-72b","weights":"awq-int4","batch":16,"seq_len":32768,"engine":")") +
        engine + "\"}");
    // Four GPUs set by the scenario: data-parallel replicas where one replica needs fewer.
    inputs.push_back(std::string(R"({"model":"qwen2.5-7b","gpus":4,"batch":8,"seq_len":4096,"engine":")") +
                     engine + "\"}");
  }
  inputs.push_back(
      R"({"model":"qwen2.5-1.5b","gpus":4,"weights":"q8_0","batch":8,"seq_len":4096,"engine":"llama.cpp"})");
  inputs.push_back(
      R"({"model":"qwen2.5-1.5b","weights":"fp32","batch":8,"seq_len":4096,"engine":"lmdeploy"})");
  inputs.push_back(
      R"({"model":"llama-3.1-8b","weights":"gptq-int4","kv_cache":"int8","batch":32,"seq_len":4096,"engine":"lmdeploy"})");
  inputs.push_back(
      R"({"model":"llama-3.1-70b","weights":"fp8","kv_cache":"fp8","batch":16,"seq_len":16384,"engine":"vllm"})");
  inputs.push_back(
      R"({"model":"llama-3.1-70b","kv_cache":"fp8","batch":8,"seq_len":8192,"engine":"tensorrt-llm"})");
  inputs.push_back(
      R"({"model":"llama-3.1-405b","weights":"fp8","batch":4,"seq_len":8192,"engine":"sglang"})");
  inputs.push_back(
      R"({"model":"qwen2.5-7b","weights":"q4_k_m","kv_cache":"int8","batch":4,"seq_len":8192,"engine":"llama.cpp"})");
  inputs.push_back(
      R"({"model":"llama-3.1-70b","weights":"q4_k_m","batch":2,"seq_len":8192,"engine":"llama.cpp"})");
  // Checkpoints named by Hub id in their stored formats, a context beyond the native window, loads,
  // and pre-training from scratch.
  inputs.push_back(R"({"model":"deepseek-ai/DeepSeek-R1","batch":8,"seq_len":8192,"engine":"sglang"})");
  inputs.push_back(R"({"model":"moonshotai/Kimi-K2-Instruct","batch":4,"seq_len":16384,"engine":"vllm"})");
  inputs.push_back(R"({"model":"openai/gpt-oss-120b","batch":16,"seq_len":16384,"engine":"vllm"})");
  inputs.push_back(R"({"model":"Qwen/Qwen2.5-7B-Instruct","seq_len":65536,"engine":"vllm"})");
  inputs.push_back(
      R"({"model":"Qwen/Qwen3-32B-FP8","prompt_tokens":4096,"output_tokens":1024,"engine":"vllm",
          "load":{"requests_per_s":5,"ttft_s":3,"tpot_s":0.05}})");
  inputs.push_back(
      R"({"model":"Qwen/Qwen3-235B-A22B-Instruct-2507-FP8","prompt_tokens":8192,"output_tokens":2048,
          "engine":"sglang","load":{"requests_per_s":1,"ttft_s":5,"tpot_s":0.1}})");
  inputs.push_back(R"({"model":"llama-3.1-8b","task":"pretrain","engine":"megatron","seq_len":8192,
                       "training":{"tokens":1e10}})");
  inputs.push_back(R"({"model":"qwen3-30b-a3b","task":"pretrain","engine":"megatron","seq_len":4096,
                       "training":{"tokens":1e10}})");
  for (const char* engine : {"deepspeed", "fsdp", "megatron", "transformers"}) {
    for (const char* task : {"lora", "qlora", "full"}) {
      for (const char* model : {"qwen2.5-7b", "llama-3.1-70b"}) {
        inputs.push_back(
            std::string(R"({"model":")") + model + R"(","task":")" + task + R"(","engine":")" + engine +
            R"(","seq_len":4096,"batch":2,"training":{"grad_accum":4,"grad_checkpointing":"full"}})");
      }
    }
  }
  CHECK(inputs.size() >= 50);
  for (const std::string& input : inputs) launch_every_plan(input, tally);
  CHECK(tally.launched > 100);
  if (std::getenv("GPUSIZER_LAUNCH_REPORT")) {
    std::cout << "launched " << tally.launched << " plans\n";
    for (const auto& b : tally.blocked) std::cout << b.second << " x " << b.first << "\n";
    for (const std::string& t : tally.top_blocked) std::cout << "top plan blocked: " << t << "\n";
  }
}
