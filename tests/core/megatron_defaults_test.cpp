// Engine megatron on a stated GPU and GPU count with no layout stated (review reject: Qwen3-30B-A3B
// full fine-tuning on 16 H800s estimated at 527 GiB per GPU at TP1, EP1 and no distributed
// optimizer, and launched so, where the planner lays the same GPUs out at about 61 GiB): the
// estimate and the launch take the planner's layout for that card and count, say so, and keep what
// the scenario states; the Megatron-SWIFT command keeps its distributed optimizer unless ZeRO 0 is
// stated, and a Megatron plan gets no DeepSpeed commands beside it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "api_answer.h"
#include "gpusizer/api.h"

using json = nlohmann::json;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

json qwen3_moe_on_h800s() {
  return json::parse(R"({"model":"Qwen/Qwen3-30B-A3B-Instruct-2507","task":"full","engine":"megatron",
    "seq_len":8192,"batch":1,"gpu":"h800","gpus":16,
    "training":{"grad_checkpointing":"full","grad_accum":16,"tokens":2e9},"pricing":{"currency":"CNY"}})");
}

const json* detail(const json& answer, const char* list, const std::string& code) {
  for (const json& w : answer.at(list))
    if (w.at("code") == code) return &w;
  return nullptr;
}

int64_t flag_number(const std::string& text, const std::string& flag) {
  const size_t at = text.find(flag + " ");
  REQUIRE(at != std::string::npos);
  return std::stoll(text.substr(at + flag.size() + 1));
}

bool any_command_has(const json& launch, const std::string& piece) {
  for (const json& c : launch.at("commands"))
    if (c.at("text").get<std::string>().find(piece) != std::string::npos) return true;
  return false;
}

bool has_tool(const json& launch, const std::string& tool) { return !command_text(launch, tool).empty(); }

}  // namespace

TEST_CASE("Megatron MoE on 16 H800s, no layout stated: the estimate takes the planner's layout and says so",
          "[megatron][defaults]") {
  const json e = value_of("estimate", qwen3_moe_on_h800s());
  const json* note = detail(e, "warning_details", "megatron_layout_planned");
  REQUIRE(note != nullptr);
  const json& v = note->at("values");
  CHECK(v.at("ep").get<int64_t>() >= 8);  // experts spread: each rank holds 16 of 128 or fewer
  CHECK(v.at("tp").get<int64_t>() <= 2);
  CHECK(v.at("zero").get<int>() == 1);  // the distributed optimizer
  CHECK(v.at("gpus").get<int64_t>() == 16);
  CHECK(v.at("gpu") == "h800");
  const double per_gpu = e.at("memory").at("per_gpu_bytes").get<double>() / kGiB;
  CHECK(per_gpu < 70);
  CHECK(per_gpu > 40);
  CHECK(e.at("gpu").at("fits").get<bool>());
  CHECK(e.contains("time"));  // a layout that fits: its speed and time are given
  // The same figure as the layout stated: one rule, not a second model of it.
  json stated = qwen3_moe_on_h800s();
  stated["tp"] = v.at("tp");
  stated["pp"] = v.at("pp");
  stated["ep"] = v.at("ep");
  stated["training"]["zero"] = v.at("zero");
  const json s = value_of("estimate", stated);
  CHECK(s.at("memory").at("per_gpu_bytes").get<double>() ==
        Approx(e.at("memory").at("per_gpu_bytes").get<double>()));
  CHECK(detail(s, "warning_details", "megatron_layout_planned") == nullptr);
}

TEST_CASE("Megatron layout defaults keep what the scenario states", "[megatron][defaults]") {
  // Everything stated: the scenario's own layout, no note.
  json all = qwen3_moe_on_h800s();
  all["tp"] = 1;
  all["ep"] = 1;
  all["training"]["zero"] = 0;
  const json e = value_of("estimate", all);
  CHECK(detail(e, "warning_details", "megatron_layout_planned") == nullptr);
  CHECK(e.at("memory").at("per_gpu_bytes").get<double>() / kGiB > 400);
  CHECK_FALSE(e.at("gpu").at("fits").get<bool>());
  // ZeRO 0 stated alone: kept; the expert parallelism is the planner's.
  json zero0 = qwen3_moe_on_h800s();
  zero0["training"]["zero"] = 0;
  const json z = value_of("estimate", zero0);
  const json* note = detail(z, "warning_details", "megatron_layout_planned");
  REQUIRE(note != nullptr);
  CHECK(note->at("values").at("zero").get<int>() == 0);
  CHECK(note->at("values").at("ep").get<int64_t>() > 1);
  // Without a GPU stated there is no card to plan for: the scenario as given.
  json no_gpu = qwen3_moe_on_h800s();
  no_gpu.erase("gpu");
  CHECK(detail(value_of("estimate", no_gpu), "warning_details", "megatron_layout_planned") == nullptr);
  // Another engine: unchanged.
  json ds = qwen3_moe_on_h800s();
  ds["engine"] = "deepspeed";
  CHECK(detail(value_of("estimate", ds), "warning_details", "megatron_layout_planned") == nullptr);
}

TEST_CASE("Megatron MoE on 16 H800s: the launch runs the planner's layout with Megatron-SWIFT alone",
          "[megatron][defaults][launch]") {
  const json l = value_of("launch", qwen3_moe_on_h800s());
  const json& plan = l.at("plan");
  CHECK(plan.at("gpus").get<int64_t>() == 16);
  CHECK(plan.value("ep", 1) >= 8);
  CHECK(plan.at("zero").get<int>() == 1);
  CHECK(detail(l, "warning_details", "launch_does_not_fit") == nullptr);
  CHECK(detail(l, "warning_details", "megatron_layout_planned") != nullptr);
  const std::string sft = command_text(l, "megatron-swift");
  REQUIRE_FALSE(sft.empty());
  CHECK(flag_number(sft, "--expert_model_parallel_size") == plan.value("ep", 1));
  CHECK(flag_number(sft, "--tensor_model_parallel_size") == plan.at("tp").get<int64_t>());
  // Megatron-SWIFT's default is the distributed optimizer (megatron_args.py use_distributed_optimizer True).
  CHECK(sft.find("--use_distributed_optimizer") == std::string::npos);
  CHECK(sft.find("--moe_grouped_gemm true") != std::string::npos);
  // No DeepSpeed or data-parallel tool commands as if they ran this plan.
  CHECK_FALSE(has_tool(l, "deepspeed"));
  CHECK_FALSE(has_tool(l, "llama-factory"));
  CHECK_FALSE(has_tool(l, "torchrun"));
  CHECK_FALSE(any_command_has(l, "swift sft"));
  CHECK_FALSE(any_command_has(l, "\"stage\""));
}

TEST_CASE("Megatron-SWIFT writes --use_distributed_optimizer false only for a stated ZeRO 0",
          "[megatron][defaults][launch]") {
  json zero0 = qwen3_moe_on_h800s();
  zero0["training"]["zero"] = 0;
  const std::string sft = command_text(value_of("launch", zero0), "megatron-swift");
  REQUIRE_FALSE(sft.empty());
  CHECK(sft.find("--use_distributed_optimizer false") != std::string::npos);
}

TEST_CASE("Megatron-SWIFT on one GPU with no ZeRO stated keeps its default distributed optimizer",
          "[megatron][defaults][launch]") {
  // Stage 0 here is no choice of the user's: one data-parallel rank, where the two are the same.
  const json s = {{"model", "qwen2.5-7b"}, {"task", "lora"},     {"engine", "megatron"},
                  {"seq_len", 4096},       {"gpu", "h100-80gb"}, {"gpus", 1}};
  const json l = value_of("launch", s);
  const std::string sft = command_text(l, "megatron-swift");
  REQUIRE_FALSE(sft.empty());
  CHECK(l.at("plan").at("zero").get<int>() == 0);
  CHECK(sft.find("--use_distributed_optimizer") == std::string::npos);
  // An explicit plan's stated stage 0 is written.
  json planned = s;
  planned["plan"] = {{"gpu", "h100-80gb"}, {"gpus_per_instance", 2}, {"zero", 0}};
  const std::string off = command_text(value_of("launch", planned), "megatron-swift");
  REQUIRE_FALSE(off.empty());
  CHECK(off.find("--use_distributed_optimizer false") != std::string::npos);
}

TEST_CASE("Megatron on a data-parallel layout: the Megatron-SWIFT command alone, no DeepSpeed stage",
          "[megatron][defaults][launch]") {
  // Qwen2.5-7B full fine-tuning on 8 H100s at TP1 with the distributed optimizer stated: a
  // data-parallel layout, which Megatron runs; DeepSpeed commands would train another plan.
  const json s = {{"model", "qwen2.5-7b"},
                  {"task", "full"},
                  {"engine", "megatron"},
                  {"seq_len", 4096},
                  {"batch", 1},
                  {"gpu", "h100-80gb"},
                  {"gpus", 8},
                  {"tp", 1},
                  {"training", {{"zero", 1}, {"grad_checkpointing", "full"}}}};
  const json l = value_of("launch", s);
  const std::string sft = command_text(l, "megatron-swift");
  REQUIRE_FALSE(sft.empty());
  CHECK(sft.find("--use_distributed_optimizer") == std::string::npos);
  CHECK(sft.find("--moe_grouped_gemm") == std::string::npos);  // a dense model
  CHECK_FALSE(has_tool(l, "deepspeed"));
  CHECK_FALSE(has_tool(l, "llama-factory"));
  CHECK_FALSE(has_tool(l, "torchrun"));
  CHECK_FALSE(any_command_has(l, "swift sft"));
  CHECK(has_note(l, "megatron_swift_steps"));
  for (const char* stale :
       {"megatron_as_deepspeed", "dataset_placeholders", "train_py", "deepspeed_hostfile"})
    CHECK_FALSE(has_note(l, stale));
}
