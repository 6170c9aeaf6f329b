// What a senior engineer rejected in the launch output, as tests: each case is one reject of an
// outside review of fresh CLI answers, and what the engineer would run instead.
#include <catch2/catch.hpp>

#include <cmath>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "gpusizer/api.h"

using namespace gpusizer;
using json = nlohmann::json;

namespace {

json launch(const std::string& input) {
  const ApiResult r = run_command("launch", input);
  INFO(r.error_field << ": " << r.error_message);
  REQUIRE(r.ok);
  return r.value;
}

std::string text_of(const json& out, const std::string& tool, const std::string& kind = "shell") {
  for (const json& c : out.at("commands")) {
    if (c.at("tool") == tool && c.at("kind") == kind) return c.at("text");
  }
  return "";
}

bool has_code(const json& list, const std::string& code) {
  for (const json& w : list) {
    if (w.at("code") == code) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("TensorRT-LLM serves fp8 only from a Model Optimizer checkpoint, never the bf16 repository",
          "[expert]") {
  const json out =
      launch(R"({"model":"meta-llama/Llama-3.1-8B-Instruct","weights":"fp8","engine":"tensorrt-llm",
                              "gpu":"h100-80gb"})");
  CHECK(text_of(out, "tensorrt-llm").empty());
  CHECK(out.at("warning_details").dump().find("NVIDIA Model Optimizer") != std::string::npos);
  CHECK(out.at("warning_details").dump().find("meta-llama/Llama-3.1-8B-Instruct stores bf16") !=
        std::string::npos);
}

TEST_CASE("A 64k context on Qwen2.5-7B: vllm serve carries the YaRN override, swift deploy is not offered",
          "[expert]") {
  const json out = launch(R"({"model":"Qwen/Qwen2.5-7B-Instruct","seq_len":65536,"gpu":"h100-80gb"})");
  CHECK(text_of(out, "vllm").find("--hf-overrides") != std::string::npos);
  CHECK(text_of(out, "ms-swift").empty());
  CHECK(has_code(out.at("note_details"), "swift_no_rope"));
}

TEST_CASE("A plan that does not fit compares the estimate with the usable memory, in the same unit",
          "[expert]") {
  const json out = launch(R"({"model":"llama-3.1-8b","gpu":"l4","batch":32,"seq_len":8192})");
  std::string message;
  for (const json& w : out.at("warning_details")) {
    if (w.at("code") == "launch_does_not_fit") message = w.at("message");
  }
  REQUIRE_FALSE(message.empty());
  std::smatch m;
  REQUIRE(std::regex_search(
      message, m, std::regex(R"(needs ([0-9.]+) GiB per GPU, more than the ([0-9.]+) GiB usable)")));
  CHECK(std::stod(m[1].str()) > std::stod(m[2].str()));
  // vLLM preallocates what is left to the KV cache and queues: it does not "run out of memory".
  CHECK(message.find("queues the requests beyond it") != std::string::npos);
  CHECK(message.find("run out of memory") == std::string::npos);
}

TEST_CASE(
    "Fine-tuning YAML: the family's chat template and a learning rate; ds_config fills from the Trainer",
    "[expert]") {
  const json qwen =
      launch(R"({"model":"qwen2.5-7b","task":"lora","gpu":"a100-80gb","gpus":2,"training":{"zero":2}})");
  const std::string yaml = text_of(qwen, "llama-factory", "yaml");
  CHECK(yaml.find("template: qwen\n") != std::string::npos);
  CHECK(yaml.find("learning_rate: 1.0e-4\n") != std::string::npos);
  const json llama =
      launch(R"({"model":"llama-3.1-8b","task":"full","gpu":"h100-80gb","gpus":8,"training":{"zero":3}})");
  CHECK(text_of(llama, "llama-factory", "yaml").find("template: llama3\n") != std::string::npos);
  CHECK(text_of(llama, "llama-factory", "yaml").find("learning_rate: 1.0e-5\n") != std::string::npos);
  const json ds = json::parse(text_of(llama, "deepspeed", "json"));
  CHECK(ds.at("train_batch_size") == "auto");
  CHECK(text_of(llama, "torchrun").find("--per_device_train_batch_size 1") != std::string::npos);
}

TEST_CASE("Pre-training from scratch gets Megatron-LM with the architecture; swift pt is named continued",
          "[expert]") {
  const json out = launch(
      R"({"model":"llama-3.2-1b","task":"pretrain","gpu":"h100-80gb","gpus":8,"batch":4,"seq_len":4096,
          "training":{"tokens":1e11,"grad_checkpointing":"full"}})");
  const std::string mg = text_of(out, "megatron-lm");
  REQUIRE_FALSE(mg.empty());
  for (const char* flag : {"--num-layers 16", "--hidden-size 2048", "--num-query-groups 8", "--swiglu",
                           "--normalization RMSNorm", "--tokenizer-model meta-llama/Llama-3.2-1B",
                           "--global-batch-size 992", "--recompute-granularity full"}) {
    CHECK(mg.find(flag) != std::string::npos);
  }
  // 1e11 tokens at 992 x 4096 tokens a step (4 x 8 ranks x 31 accumulated, the first multiple of
  // 32 sequences to hold LLaMA's 4M tokens).
  CHECK(mg.find("--train-iters 24611") != std::string::npos);
  CHECK(has_code(out.at("note_details"), "continued_pretraining"));
}

TEST_CASE("The vLLM start-up block is that of the command: the scenario's context, not the model's window",
          "[expert]") {
  const ApiResult r = run_command("estimate", R"({"model":"llama-3.1-8b","gpu":"h100-80gb","seq_len":8192})");
  REQUIRE(r.ok);
  const json& engine = r.value.at("memory").at("engine");
  CHECK(engine.at("max_model_len") == 8192);
  CHECK(engine.at("max_concurrency").get<double>() == Approx(engine.at("kv_tokens").get<double>() / 8192));
  const json out = launch(R"({"model":"llama-3.1-8b","gpu":"h100-80gb","seq_len":8192})");
  CHECK(text_of(out, "vllm").find("--max-model-len 8192") != std::string::npos);
}

TEST_CASE("Megatron-LM pre-training over TP x PP launches pretrain_gpt.py with that layout, alone",
          "[expert]") {
  const json out = launch(R"({"model":"llama-3.1-70b","task":"pretrain","engine":"megatron",
                              "gpu":"h100-80gb","gpus":64,"tp":8,"pp":2,"training":{"zero":1}})");
  REQUIRE(out.at("commands").size() == 1);
  const std::string megatron = text_of(out, "megatron-lm");
  CHECK(megatron.find("--tensor-model-parallel-size 8") != std::string::npos);
  CHECK(megatron.find("--pipeline-model-parallel-size 2") != std::string::npos);
  CHECK(megatron.find("--use-distributed-optimizer") != std::string::npos);
  CHECK_FALSE(has_code(out.at("warning_details"), "launch_parallelism_unsupported"));
  CHECK(has_code(out.at("note_details"), "megatron_layout_only"));
  CHECK_FALSE(has_code(out.at("note_details"), "train_py"));
  // A fine-tune over TP of a family Megatron-SWIFT converts runs there; Mixtral's is no command:
  // the other fine-tuning tools are data-parallel.
  const json full = launch(
      R"({"model":"llama-3.1-70b","task":"full","engine":"megatron","gpu":"h100-80gb","gpus":16,"tp":2})");
  CHECK(text_of(full, "megatron-swift").find("--tensor_model_parallel_size 2") != std::string::npos);
  CHECK(has_code(full.at("note_details"), "megatron_swift_layout"));
  const json mixtral = launch(
      R"({"model":"mixtral-8x7b","task":"full","engine":"megatron","gpu":"h100-80gb","gpus":16,"tp":2})");
  CHECK(mixtral.at("commands").empty());
  CHECK(has_code(mixtral.at("warning_details"), "launch_parallelism_unsupported"));
  // DeepSpeed itself has no TP: a scenario that sets it gets no command.
  const json ds = launch(R"({"model":"llama-3.1-70b","task":"full","gpu":"h100-80gb","gpus":16,"tp":2})");
  CHECK(ds.at("commands").empty());
}

TEST_CASE("Engine megatron: its pretrain_gpt.py comes first, and no note says none is generated",
          "[expert]") {
  const json out = launch(R"({"model":"llama-3.1-8b","task":"pretrain","engine":"megatron",
                              "gpu":"h100-80gb","gpus":8})");
  REQUIRE_FALSE(out.at("commands").empty());
  CHECK(out.at("commands")[0].at("tool") == "megatron-lm");
  CHECK_FALSE(has_code(out.at("note_details"), "megatron_as_deepspeed"));
  // A LoRA with engine megatron runs Megatron-SWIFT first (where ms-swift converts the family);
  // Mixtral's has no Megatron command: the note says so.
  const json lora = launch(R"({"model":"llama-3.1-8b","task":"lora","engine":"megatron","gpu":"h100-80gb"})");
  REQUIRE(lora.at("commands").size() >= 3);
  CHECK(lora.at("commands")[1].at("tool") == "megatron-swift");
  CHECK_FALSE(has_code(lora.at("note_details"), "megatron_as_deepspeed"));
  const json mixtral =
      launch(R"({"model":"mixtral-8x7b","task":"lora","engine":"megatron","gpu":"h100-80gb"})");
  CHECK(has_code(mixtral.at("note_details"), "megatron_as_deepspeed"));
}

TEST_CASE("An fp8 KV cache on an A100 is no fp8-tensor-core warning; fp8 weights there are", "[expert]") {
  const auto warnings_of = [](const char* input) {
    const ApiResult r = run_command("estimate", input);
    REQUIRE(r.ok);
    return r.value.at("warning_details");
  };
  CHECK_FALSE(has_code(warnings_of(R"({"model":"llama-3.1-8b","gpu":"a100-80gb","kv_cache":"fp8"})"),
                       "fp8_unsupported"));
  CHECK(has_code(warnings_of(R"({"model":"llama-3.1-8b","gpu":"a100-80gb","weights":"fp8"})"),
                 "fp8_unsupported"));
}

TEST_CASE("Mistral-Small-3.1 from mistralai/ is served with the Mistral formats its model card requires",
          "[expert]") {
  const std::string vllm = text_of(
      launch(
          R"({"model":"mistralai/Mistral-Small-3.1-24B-Instruct-2503","engine":"vllm","gpu":"h100-80gb"})"),
      "vllm");
  CHECK(vllm.find("--tokenizer-mode mistral") != std::string::npos);
  CHECK(vllm.find("--config-format mistral") != std::string::npos);
  CHECK(vllm.find("--load-format mistral") != std::string::npos);
  // Another family's checkpoint gets none of them.
  const std::string qwen =
      text_of(launch(R"({"model":"qwen2.5-7b","engine":"vllm","gpu":"h100-80gb"})"), "vllm");
  CHECK(qwen.find("--tokenizer-mode") == std::string::npos);
}

TEST_CASE("training.tokens sets the steps of every trainer, not three epochs", "[expert]") {
  // 1e9 tokens at batch 4 x grad_accum 8 x 8 GPUs x 2048 tokens = 524,288 tokens a step: 1908 steps.
  const json out = launch(R"({"model":"llama-3.1-8b","task":"lora","gpu":"h100-80gb","gpus":8,"seq_len":2048,
                              "batch":4,"training":{"grad_accum":8,"tokens":1e9}})");
  CHECK(text_of(out, "ms-swift").find("--max_steps 1908") != std::string::npos);
  const std::string yaml = text_of(out, "llama-factory", "yaml");
  CHECK(yaml.find("max_steps: 1908") != std::string::npos);
  CHECK(yaml.find("num_train_epochs") == std::string::npos);
  CHECK(text_of(out, "torchrun").find("--max_steps 1908") != std::string::npos);
  // Review reject: steps counted in full sequences train far fewer tokens unless the samples are
  // packed into them; packed with FlashAttention's varlen path, so no sample attends to another.
  const std::string swift = text_of(out, "ms-swift");
  CHECK(swift.find("--packing true") != std::string::npos);
  CHECK(swift.find("--attn_impl flash_attn") != std::string::npos);
  CHECK(yaml.find("packing: true\nneat_packing: true\n") != std::string::npos);
  CHECK(yaml.find("flash_attn: fa2") != std::string::npos);
  // Without training.tokens the trainers run epochs over the data as it is: nothing packed.
  const json epochs = launch(R"({"model":"llama-3.1-8b","task":"lora","gpu":"h100-80gb","seq_len":2048})");
  CHECK(text_of(epochs, "ms-swift").find("--packing") == std::string::npos);
  CHECK(text_of(epochs, "llama-factory", "yaml").find("packing") == std::string::npos);
}

TEST_CASE("SGLang serves a stored AWQ or GPTQ checkpoint without --quantization, so Marlin is used",
          "[expert]") {
  for (const char* repo : {"Qwen/Qwen2.5-32B-Instruct-GPTQ-Int4", "Qwen/Qwen2.5-32B-Instruct-AWQ"}) {
    INFO(repo);
    const std::string sglang = text_of(
        launch(std::string(R"({"model":")") + repo + R"(","engine":"sglang","gpu":"l40s"})"), "sglang");
    REQUIRE_FALSE(sglang.empty());
    CHECK(sglang.find("--quantization") == std::string::npos);
  }
}

TEST_CASE("LMDeploy and TensorRT-LLM size their KV cache from free memory: no run-out-of-memory warning",
          "[expert]") {
  const json out = launch(R"({"model":"Qwen/Qwen2.5-32B-Instruct-AWQ","engine":"lmdeploy","gpu":"a100-40gb",
                              "seq_len":32768,"batch":16,"kv_cache":"int8"})");
  for (const json& w : out.at("warning_details")) {
    if (w.at("code") == "launch_does_not_fit") CHECK(w.at("values").at("preallocates").get<bool>());
  }
  CHECK(out.dump().find("will run out of memory") == std::string::npos);
}

TEST_CASE("vLLM will not run Gemma 3 in float16: no vllm serve on a T4, bf16 on cards that have it",
          "[expert]") {
  const json t4 = launch(R"({"model":"google/gemma-3-12b-it","engine":"vllm","gpu":"t4","gpus":4,"tp":4,
                             "seq_len":32768,"batch":4})");
  CHECK(text_of(t4, "vllm").empty());
  CHECK(t4.at("warning_details").dump().find("vLLM refuses float16 for gemma3") != std::string::npos);
  const std::string l40s =
      text_of(launch(R"({"model":"google/gemma-3-12b-it","engine":"vllm","gpu":"l40s"})"), "vllm");
  CHECK(l40s.find("--dtype bfloat16") != std::string::npos);
}

TEST_CASE("A block-fp8 MoE whose experts do not split into 128-wide blocks over TP runs expert-parallel",
          "[expert]") {
  // Qwen3-235B-A22B FP8 at TP8: 1536 / 8 = 192 channels per rank, not whole 128 blocks.
  const json q =
      launch(R"({"model":"Qwen/Qwen3-235B-A22B-Instruct-2507-FP8","gpu":"h100-80gb","gpus":8,"tp":8})");
  CHECK(text_of(q, "vllm").find("--enable-expert-parallel") != std::string::npos);
  // Review reject: ms-swift's vLLM line stopped at load the same way (320-wide shards of
  // Qwen3-Coder-480B at TP8) for want of the flag it passes on to vLLM.
  CHECK(text_of(q, "ms-swift").find("--vllm_enable_expert_parallel") != std::string::npos);
  CHECK(has_code(q.at("note_details"), "fp8_expert_parallel"));
  const json sg =
      launch(R"({"model":"Qwen/Qwen3-235B-A22B-Instruct-2507-FP8","engine":"sglang","gpu":"h100-80gb",
                             "gpus":8,"tp":8})");
  CHECK(text_of(sg, "sglang").find("--ep-size 8") != std::string::npos);
  // DeepSeek-R1 at TP8: 2048 / 8 = 256, whole blocks: plain TP.
  const json r1 = launch(R"({"model":"deepseek-ai/DeepSeek-R1","gpu":"h200","gpus":8,"tp":8})");
  CHECK(text_of(r1, "vllm").find("--enable-expert-parallel") == std::string::npos);
  // The bf16 release splits freely.
  const json bf16 = launch(R"({"model":"Qwen/Qwen3-235B-A22B-Instruct-2507","gpu":"h200","gpus":8,"tp":8})");
  CHECK(text_of(bf16, "vllm").find("--enable-expert-parallel") == std::string::npos);
}

TEST_CASE("An unlisted GGUF repository with no quant type named lets llama-server pick its file",
          "[expert]") {
  const json out = launch(R"({"model":"ggml-org/gpt-oss-20b-GGUF","engine":"llama.cpp","gpu":"rtx4090"})");
  const std::string server = text_of(out, "llama.cpp");
  CHECK(server.find("-hf ggml-org/gpt-oss-20b-GGUF \\") != std::string::npos);
  CHECK(server.find("gpt-oss-20b-GGUF:") == std::string::npos);
  CHECK(has_code(out.at("note_details"), "gguf_quant_assumed"));
  // A quant type named is the file asked for.
  const std::string q8 = text_of(
      launch(
          R"({"model":"ggml-org/gpt-oss-20b-GGUF","weights":"q8_0","engine":"llama.cpp","gpu":"rtx4090"})"),
      "llama.cpp");
  CHECK(q8.find("-hf ggml-org/gpt-oss-20b-GGUF:Q8_0") != std::string::npos);
}

TEST_CASE("TensorRT-LLM at a context beyond --max_num_tokens gets chunked prefill in its YAML", "[expert]") {
  const json out = launch(R"({"model":"nvidia/Llama-3.1-8B-Instruct-FP8","engine":"tensorrt-llm","gpu":"l40s",
                              "seq_len":131072,"batch":4,"kv_cache":"fp8"})");
  const std::string yaml = text_of(out, "tensorrt-llm", "yaml");
  CHECK(yaml.find("enable_chunked_prefill: true") != std::string::npos);
  CHECK(yaml.find("dtype: fp8") != std::string::npos);
  CHECK(text_of(out, "tensorrt-llm").find("--extra_llm_api_options") != std::string::npos);
}

TEST_CASE("Engine fsdp shards fully by default and torchrun's train.py runs FSDP, not DeepSpeed",
          "[expert]") {
  const char* input = R"({"model":"meta-llama/Llama-3.1-8B-Instruct","task":"full","engine":"fsdp",
                          "gpu":"a100-80gb","gpus":8,"seq_len":8192,"batch":2,
                          "training":{"grad_accum":4,"grad_checkpointing":"full"}})";
  const ApiResult e = run_command("estimate", input);
  REQUIRE(e.ok);
  CHECK(e.value.at("gpu").at("fits").get<bool>());
  const json out = launch(input);
  const std::string torchrun = text_of(out, "torchrun");
  CHECK(torchrun.find("--fsdp \"full_shard auto_wrap\"") != std::string::npos);
  CHECK(torchrun.find("--deepspeed") == std::string::npos);
}

TEST_CASE(
    "Pre-training from scratch launches with a pre-training recipe: millions of tokens a step, "
    "AdamW betas 0.9/0.95, checkpoints along the way, balanced experts",
    "[expert]") {
  // Review rejects: --global-batch-size 1 (4,096 tokens a step) for 1e11 tokens, --lr 6.0e-5 for an
  // 8B model, Adam beta2 left at arguments.py's 0.999, no --save-interval for a 190-hour job, and
  // an MoE with --moe-aux-loss-coeff at its default 0 and the allgather dispatcher.
  const auto value_of = [](const std::string& text, const std::string& flag) {
    const size_t at = text.find(flag + " ");
    REQUIRE(at != std::string::npos);
    const size_t from = at + flag.size() + 1;
    return text.substr(from, text.find_first_of(" \n", from) - from);
  };
  const json dense = launch(
      R"({"model":"llama-3.1-8b","task":"pretrain","engine":"megatron","gpu":"h100-80gb","gpus":8,
          "seq_len":8192,"training":{"tokens":1e11}})");
  const std::string d = text_of(dense, "megatron-lm");
  // LLaMA (arXiv 2302.13971, table 2): 4M tokens a step; here 496 x 8192 = 4,063,232.
  const int64_t global = std::stoll(value_of(d, "--global-batch-size"));
  CHECK(global * 8192 >= 4000000);
  CHECK(global * 8192 <= 8400000);
  // micro-batch 1 x the plan's data-parallel ranks (the planner's TP on the 8 GPUs) x accumulation
  const int64_t dp = dense.at("plan").at("dp").get<int64_t>();
  CHECK(global % dp == 0);
  CHECK(std::stoll(value_of(d, "--train-iters")) ==
        static_cast<int64_t>(std::ceil(1e11 / (global * 8192.0))));
  CHECK(std::stod(value_of(d, "--lr")) == Approx(3.0e-4));
  CHECK(std::stod(value_of(d, "--min-lr")) == Approx(3.0e-5));
  CHECK(value_of(d, "--adam-beta2") == "0.95");
  CHECK(value_of(d, "--weight-decay") == "0.1");
  CHECK(value_of(d, "--clip-grad") == "1.0");
  CHECK(std::stoll(value_of(d, "--save-interval")) > 0);
  CHECK(d.find("--load ") != std::string::npos);  // resumes from its own checkpoints
  CHECK(d.find("--num-experts") == std::string::npos);
  // The note says the step the command runs.
  bool noted = false;
  for (const json& n : dense.at("note_details"))
    if (n.at("code") == "global_batch") noted = n.at("values").at("global").get<int64_t>() == global;
  CHECK(noted);
  // A 70B (LLaMA's 32.5B and 65.2B): 1.5e-4.
  const json large = launch(
      R"({"model":"llama-3.1-70b","task":"pretrain","engine":"megatron","gpu":"h100-80gb","gpus":64,
          "tp":8,"pp":2,"seq_len":4096,"training":{"tokens":1e11,"zero":1}})");
  CHECK(std::stod(value_of(text_of(large, "megatron-lm"), "--lr")) == Approx(1.5e-4));
  // An MoE: Megatron-LM's examples/mixtral recipe balances the experts with an auxiliary loss and
  // dispatches tokens all-to-all.
  const json moe = launch(
      R"({"model":"qwen3-30b-a3b","task":"pretrain","engine":"megatron","gpu":"h100-80gb","gpus":8,"tp":4,
          "seq_len":4096,"training":{"tokens":1e11}})");
  const std::string m = text_of(moe, "megatron-lm");
  CHECK(value_of(m, "--moe-router-load-balancing-type") == "aux_loss");
  CHECK(value_of(m, "--moe-aux-loss-coeff") == "1e-2");
  CHECK(value_of(m, "--moe-token-dispatcher-type") == "alltoall");
  // A stated accumulation is kept: 1 x dp x 4 sequences.
  const json stated = launch(
      R"({"model":"llama-3.1-8b","task":"pretrain","engine":"megatron","gpu":"h100-80gb","gpus":8,
          "seq_len":8192,"training":{"tokens":1e9,"grad_accum":4}})");
  CHECK(value_of(text_of(stated, "megatron-lm"), "--global-batch-size") ==
        std::to_string(4 * stated.at("plan").at("dp").get<int64_t>()));
}

TEST_CASE(
    "Qwen3-235B-A22B-FP8 as TP4 replicas on an 8-GPU node under vLLM: one server per replica, not "
    "--data-parallel-size",
    "[launch][expert]") {
  // Review reject: `--tensor-parallel-size 4 --data-parallel-size 2` shards a MoE model's experts
  // over all 8 ranks (vLLM's FusedMoEParallelConfig flattens TP across DP), which the plan did not
  // size, and 1536 / 8 = 192 is no whole 128-block of the FP8 checkpoint: vLLM stops at load
  // (vllm-project/vllm#17569). Independent TP4 servers are what the plan was sized on.
  const nlohmann::json s = {{"model", "Qwen/Qwen3-235B-A22B-FP8"},
                            {"engine", "vllm"},
                            {"seq_len", 32768},
                            {"prompt_tokens", 28672},
                            {"output_tokens", 4096},
                            {"load", {{"requests_per_s", 0.5}, {"ttft_s", 10.0}, {"tpot_s", 0.05}}},
                            {"filters", {{"gpus", {"h100-80gb", "h200", "h20"}}}}};
  const gpusizer::ApiResult r = gpusizer::run_command("launch", s.dump());
  REQUIRE(r.ok);
  const nlohmann::json& plan = r.value.at("plan");
  REQUIRE(plan.at("tp").get<int64_t>() * plan.at("pp").get<int64_t>() <
          plan.at("gpus_per_instance").get<int64_t>());
  for (const nlohmann::json& c : r.value.at("commands")) {
    const std::string text = c.at("text");
    INFO(text);
    CHECK(text.find("data-parallel-size") == std::string::npos);
    CHECK(text.find("data_parallel_size") == std::string::npos);
    CHECK(text.rfind("CUDA_VISIBLE_DEVICES=0,1,2,3 ", 0) == 0);
  }
  bool per_server = false;
  for (const nlohmann::json& n : r.value.at("note_details"))
    per_server |= n.at("code") == "replica_per_server";
  CHECK(per_server);
}

// Review reject 5 (case 16): Llama-3.1-8B full fine-tune, engine fsdp, full recompute, seq 4096 on
// 8 A100-80GB, 3e8 tokens. FSDP FULL_SHARD shards parameters, gradients and optimizer states as
// ZeRO-3 does and moves the same bytes (Zhao et al. 2023, "PyTorch FSDP", VLDB, section 3.2: an
// all-gather of each unit's parameters before its forward and its backward, a reduce-scatter of its
// gradients; ZeRO-3: Rajbhandari et al. 2020, section 5.3, 1.5x DDP's volume for both), over the same
// HF model code and kernels, so the engine earns the same share of the executed FLOPs as DeepSpeed
// ZeRO-3 on that card: 0.48 (17.5k tokens/s here, 4.8 h), not 0.64 (23.3k). The reviewer's range
// 0.45-0.5. Where we differ from the review: its "above the best published 57 % MFU" compares MFU
// with this figure, which is on the executed FLOPs (with full recompute 0.64 is 0.48 MFU); and the
// held-out torchtitan FSDP2 A100 rows (0.57-0.58 MFU at 8B selective, 0.52 MFU = 0.69 executed at 70B
// full) sit above 0.48: a tuned FSDP2 recipe beats the shared figure. The fix is the consistency of
// one mechanism, one figure; 0.64 had been taken after seeing those held-out rows (docs/speed.md).
// And with engine fsdp every command runs FSDP: ms-swift and LLaMA-Factory pass the HF
// Trainer's fsdp argument (TrainingArguments.fsdp, in both tools' flags), no DeepSpeed launcher line.
TEST_CASE("Engine fsdp: ZeRO-3's share of the FLOPs, and every command runs FSDP", "[expert]") {
  json s = json::parse(R"({"model":"meta-llama/Llama-3.1-8B-Instruct","task":"full","engine":"fsdp",
                          "gpu":"a100-80gb","gpus":8,"seq_len":4096,"batch":2,
                          "training":{"grad_accum":4,"tokens":3e8,"grad_checkpointing":"full"}})");
  const ApiResult f = run_command("estimate", s.dump());
  REQUIRE(f.ok);
  json z = s;
  z["engine"] = "deepspeed";
  z["training"]["zero"] = 3;
  const ApiResult d = run_command("estimate", z.dump());
  REQUIRE(d.ok);
  const json& ft = f.value.at("throughput");
  CHECK(ft.at("flops_utilization").get<double>() == Approx(0.48).epsilon(0.05));
  CHECK(ft.at("train_tokens_per_s").get<double>() ==
        Approx(d.value.at("throughput").at("train_tokens_per_s").get<double>()).epsilon(0.02));
  CHECK(ft.at("train_tokens_per_s").get<double>() == Approx(17.5e3).epsilon(0.05));
  const json out = launch(s.dump());
  CHECK(text_of(out, "ms-swift").find("--fsdp \"full_shard auto_wrap\"") != std::string::npos);
  CHECK(text_of(out, "ms-swift").find("--deepspeed") == std::string::npos);
  CHECK(text_of(out, "llama-factory", "yaml").find("fsdp: full_shard auto_wrap") != std::string::npos);
  CHECK(text_of(out, "llama-factory", "yaml").find("deepspeed:") == std::string::npos);
  for (const json& c : out.at("commands")) CHECK(c.at("tool").get<std::string>() != "deepspeed");
  CHECK_FALSE(has_code(out.at("note_details"), "fsdp_as_zero"));
  CHECK(has_code(out.at("note_details"), "fsdp_trainer"));
}
