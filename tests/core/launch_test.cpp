// Launch commands: golden command lines for the four plans of issue 7, config files holding
// exactly the plan's numbers, and the plan input's errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "gpusizer/api.h"
#include "gpusizer/catalog.h"
#include "gpusizer/estimate.h"
#include "gpusizer/launch.h"

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

// What launch_serving.cpp derives from the estimate: needed share + 0.05, rounded up, capped at 0.95.
std::string fraction(double bytes, const std::string& gpu) {
  const double f = std::min(0.95, std::ceil((bytes / find_gpu(gpu)->memory_bytes + 0.05) * 100 - 1e-9) / 100);
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.2f", f);
  return buf;
}

Estimate estimate_of(json scenario, const json& plan) {
  scenario["gpu"] = plan["gpu"];
  scenario["gpus"] = plan["gpus"];
  scenario["tp"] = plan["tp"];
  scenario["pp"] = plan["pp"];
  return estimate(parse_scenario(scenario));
}

const char* const kAwq = R"({"model":"qwen2.5-72b","weights":"awq-int4","batch":8,"seq_len":8192,"filters":{"gpus":["a10"]}})";

}  // namespace

TEST_CASE("Serving Qwen2.5-72B AWQ on the cheapest A10 plan: golden vLLM, SGLang and swift lines", "[launch]") {
  const json out = launch(kAwq);
  const json& plan = out["plan"];
  CHECK(plan["source"] == "ranking");
  CHECK(plan["gpu"] == "a10");
  CHECK(plan["dtype"] == "float16");  // AWQ kernels compute in float16
  const Estimate e = estimate_of(json::parse(kAwq), plan);
  const std::string tp = std::to_string(plan["tp"].get<int64_t>());
  const std::string pp = std::to_string(plan["pp"].get<int64_t>());
  CHECK(text(out, "vllm") ==
        "vllm serve Qwen/Qwen2.5-72B \\\n  --tensor-parallel-size " + tp + " \\\n  --pipeline-parallel-size " + pp +
            " \\\n  --max-model-len 8192 \\\n  --max-num-seqs 8 \\\n  --gpu-memory-utilization " +
            fraction(e.memory.per_gpu_bytes, "a10") +
            " \\\n  --dtype float16 \\\n  --quantization awq \\\n  --kv-cache-dtype auto\n");
  const std::string sglang = text(out, "sglang");
  CHECK(sglang.rfind("python -m sglang.launch_server \\\n  --model-path Qwen/Qwen2.5-72B \\\n  --tp " + tp, 0) == 0);
  CHECK(sglang.find("--mem-fraction-static " + fraction(e.memory.breakdown.weights + e.memory.breakdown.kv_cache, "a10")) != std::string::npos);
  CHECK(sglang.find("--context-length 8192 \\\n  --max-running-requests 8") != std::string::npos);
  CHECK(sglang.find("--quantization awq") != std::string::npos);
  const std::string swift = text(out, "ms-swift");
  CHECK(swift.find("swift deploy \\\n  --model Qwen/Qwen2.5-72B \\\n  --infer_backend vllm \\\n  --torch_dtype float16 \\\n"
                   "  --vllm_tensor_parallel_size " + tp) == 0);
  CHECK(swift.find("--vllm_max_model_len 8192 \\\n  --vllm_max_num_seqs 8") != std::string::npos);
  CHECK(out["notes"].dump().find("already quantized with awq-int4") != std::string::npos);
  for (const json& c : out["commands"]) CHECK(c["version_checked"].get<std::string>().size() > 0);
}

TEST_CASE("QLoRA: swift lora + 4-bit bnb, LLaMA-Factory quantization_bit 4", "[launch]") {
  const json out = launch(R"({"model":"qwen2.5-7b","task":"qlora","batch":4,"seq_len":2048,
                              "training":{"lora_rank":16,"grad_accum":4},"plan":{"gpu":"a10"}})");
  const std::string swift = text(out, "ms-swift");
  CHECK(swift.rfind("NPROC_PER_NODE=1 \\\nswift sft \\\n  --model Qwen/Qwen2.5-7B \\\n  --train_type lora \\\n  --torch_dtype bfloat16 \\\n"
                    "  --quant_method bnb \\\n  --quant_bits 4 \\\n  --lora_rank 16 \\\n  --target_modules all-linear \\\n", 0) == 0);
  CHECK(swift.find("--deepspeed") == std::string::npos);  // one GPU, ZeRO 0: no DeepSpeed
  const std::string yaml = text(out, "llama-factory", "yaml");
  for (const char* line : {"quantization_bit: 4\n", "quantization_method: bitsandbytes\n", "finetuning_type: lora\n",
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
  CHECK(ds["train_micro_batch_size_per_gpu"] == 1);
  CHECK(ds["gradient_accumulation_steps"] == 8);
  CHECK(ds["train_batch_size"] == 1 * 8 * 16);
  CHECK(ds["bf16"]["enabled"] == true);
  CHECK_FALSE(ds.contains("fp16"));
  CHECK(ds["zero_optimization"]["offload_optimizer"] == json({{"device", "cpu"}, {"pin_memory", true}}));
  CHECK(ds["zero_optimization"]["offload_param"] == json({{"device", "cpu"}, {"pin_memory", true}}));
  CHECK(text(out, "torchrun") ==
        "torchrun \\\n  --nnodes 2 \\\n  --nproc_per_node 8 \\\n  --node_rank $NODE_RANK \\\n  --master_addr $MASTER_ADDR \\\n"
        "  --master_port 29500 \\\n  train.py \\\n  --deepspeed ds_config.json\n");
  CHECK(text(out, "deepspeed") ==
        "deepspeed \\\n  --hostfile hostfile \\\n  --num_nodes 2 \\\n  --num_gpus 8 \\\n  --node_rank $NODE_RANK \\\n"
        "  --master_addr $MASTER_ADDR \\\n  --master_port 29500 \\\n  --no_ssh \\\n  train.py \\\n  --deepspeed ds_config.json\n");
  const std::string swift = text(out, "ms-swift");
  CHECK(swift.rfind("NNODES=2 NODE_RANK=$NODE_RANK MASTER_ADDR=$MASTER_ADDR MASTER_PORT=29500 NPROC_PER_NODE=8 \\\nswift sft", 0) == 0);
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
  CHECK(text(serve, "sglang").find("--dtype float16") != std::string::npos);
  CHECK(text(serve, "ms-swift").find("--torch_dtype float16") != std::string::npos);
  CHECK(has_warning(serve, "launch_fp16"));

  const json train = launch(R"({"model":"qwen2.5-7b","task":"lora","gpu":"v100-32gb","gpus":2,"training":{"zero":2}})");
  CHECK(has_warning(train, "launch_fp16"));
  const json ds = json::parse(text(train, "deepspeed", "json"));
  CHECK_FALSE(ds.contains("bf16"));
  CHECK(ds["fp16"] == json({{"enabled", true}, {"loss_scale", 0}, {"loss_scale_window", 1000},
                            {"initial_scale_power", 16}, {"hysteresis", 2}, {"min_loss_scale", 1}}));
  CHECK(text(train, "llama-factory", "yaml").find("fp16: true\n") != std::string::npos);
  CHECK(text(train, "ms-swift").find("--torch_dtype float16") != std::string::npos);
  CHECK(text(train, "ms-swift").find("--deepspeed zero2") != std::string::npos);

  const json bf16 = launch(R"({"model":"qwen2.5-1.5b","gpu":"a100-80gb"})");
  CHECK_FALSE(has_warning(bf16, "launch_fp16"));
  CHECK(text(bf16, "vllm").find("--dtype bfloat16") != std::string::npos);
}

TEST_CASE("Memory fractions cover the estimate and never exceed 0.95", "[launch]") {
  for (const char* s : {R"({"model":"qwen2.5-1.5b","gpu":"h200"})", R"({"model":"llama-3.1-8b","gpu":"l4","seq_len":8192,"batch":2})",
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
  CHECK(text(fp8, "sglang").find("--kv-cache-dtype fp8_e4m3") != std::string::npos);
  CHECK(fp8["notes"].dump().find("swift deploy") != std::string::npos);
  const json tp = launch(R"({"model":"llama-3.1-8b","task":"full","gpu":"a100-80gb","gpus":8,"tp":2,"training":{"zero":1}})");
  CHECK(has_warning(tp, "launch_parallelism_unsupported"));
  const json sel = launch(R"({"model":"llama-3.1-8b","task":"lora","gpu":"a100-80gb","training":{"grad_checkpointing":"selective","master_weights":false}})");
  CHECK(sel["notes"].dump().find("selective checkpointing") != std::string::npos);
  CHECK(sel["notes"].dump().find("master_weights") != std::string::npos);
}

TEST_CASE("Data-parallel serving replicas", "[launch]") {
  const json out = launch(R"({"model":"llama-3.1-8b","gpu":"a100-80gb","gpus":4,"tp":2,"batch":16})");
  CHECK(out["plan"]["dp"] == 2);
  CHECK(text(out, "vllm").find("--data-parallel-size 2") != std::string::npos);
  CHECK(text(out, "sglang").find("--dp-size 2") != std::string::npos);
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
