// Shared by the launch_*.cpp files: the resolved context of one launch and the text helpers every
// generator uses.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/text.h"
#include "catalog/catalog.h"
#include "catalog/checkpoints.h"
#include "launch/launch_result.h"
#include "plan/estimate.h"
#include "scenario/engines.h"

namespace gpusizer {

// Documentation each generator's flag names were checked against (docs/launch.md, "Versions").
extern const char* const kVllmVersion;
extern const char* const kSglangVersion;
extern const char* const kLmdeployVersion;
extern const char* const kTrtllmVersion;
extern const char* const kLlamaCppVersion;
extern const char* const kSwiftVersion;
extern const char* const kLlamaFactoryVersion;
extern const char* const kDeepspeedVersion;
extern const char* const kTorchrunVersion;
extern const char* const kMegatronVersion;

struct LaunchContext {
  Scenario s;  // the scenario with the plan's gpu, gpus, tp, pp and ZeRO stage applied
  const Gpu* gpu = nullptr;
  LaunchPlan plan;
  EngineCaps caps;    // engine_caps(s.engine)
  Estimate estimate;  // of `s`
  bool fp16 = false;  // compute in float16: the card has no bf16, or the weights are fp16
  std::string model;  // what --model gets: the scenario's checkpoint, or a placeholder
  const ModelLaunchFacts* facts = nullptr;  // remote code, rope scaling (catalog/checkpoints.h)
  int64_t nproc_per_node = 1;  // GPUs used on each node (plan.gpus / plan.instances, checked exact)

  int64_t dp() const { return plan.gpus / (plan.tp * plan.pp); }
  bool multi_node() const { return plan.instances > 1; }
  // Serving: every replica inside one node, so each node runs its own independent server(s).
  bool independent_nodes() const { return multi_node() && nproc_per_node % (plan.tp * plan.pp) == 0; }
  // Serving: one model replica spread over several nodes (tensor/pipeline parallel across them).
  bool spans_nodes() const { return multi_node() && !independent_nodes(); }
  // Serving: data-parallel replicas one server command runs (on one node when nodes are independent).
  int64_t node_dp() const { return independent_nodes() ? nproc_per_node / (plan.tp * plan.pp) : dp(); }
  bool remote_code() const { return facts && facts->trust_remote_code; }
  // The model card's vllm serve flags when the checkpoint is one of the repositories they apply to.
  bool card_vllm_args() const {
    return facts && !facts->vllm_args.empty() &&
           lower_case(model).rfind(lower_case(facts->vllm_args_repos), 0) == 0;
  }
  // seq_len beyond the model's native window (max_position_embeddings).
  bool beyond_window() const { return s.model.max_positions > 0 && s.seq_len > s.model.max_positions; }
  // The model card's YaRN override when it reaches seq_len; nullptr when none does.
  const RopeScaling* yarn() const {
    if (!beyond_window() || !facts || !facts->rope_scaling) return nullptr;
    const RopeScaling& r = *facts->rope_scaling;
    return static_cast<double>(s.seq_len) <= r.factor * static_cast<double>(r.original_max_positions)
               ? &r
               : nullptr;
  }
};

// The model card's rope_scaling as config.json JSON: {"rope_type":"yarn","factor":4.0,...}.
std::string rope_scaling_json(const RopeScaling& r);

// Why the plan cannot be launched validly by its engine with the generated commands ("" when it
// can): a layout the engine does not run (engine_caps), GPUs that do not split evenly over the
// nodes, tensor/pipeline parallelism for the data-parallel training tools.
// `detail`, when given, gets {"code", ...values} of the reason (docs/errors.md, launch_plan_invalid).
std::string launch_blocker(const LaunchContext& c, nlohmann::json* detail = nullptr);

// Serving: each engine's own command (launch_serving.cpp: vLLM, SGLang, transformers via
// ms-swift; launch_serving_engines.cpp: LMDeploy, TensorRT-LLM, llama.cpp).
void add_serving(const LaunchContext& c, Launch& out);
void add_lmdeploy(const LaunchContext& c, Launch& out);
void add_trtllm(const LaunchContext& c, Launch& out);
void add_llamacpp(const LaunchContext& c, Launch& out);
void add_training(const LaunchContext& c, Launch& out);
// Note replica_per_server where one server command runs one replica and the node holds more.
void multi_replica_note(const LaunchContext& c, const std::string& engine, Launch& out);
// Whether Megatron-LM's GPT model builds the architecture (megatron/core/models/gpt), and whether
// the plan is a pre-training run it launches from scratch (pretrain_gpt.py).
bool megatron_gpt_builds(const Architecture& a);
bool megatron_pretrain(const LaunchContext& c);
// Whether Megatron-SWIFT converts the model's family, and whether the plan is a fine-tune it runs
// (full or LoRA, under TP, PP or EP or with engine megatron: ms-swift's `megatron sft`).
bool megatron_swift_builds(const Architecture& a);
bool megatron_finetune(const LaunchContext& c);

// The text helpers below are noexcept: they only build short strings, so the one exception they
// could raise is running out of memory, which ends the program (std::terminate).
// Adds note `code` of the message registry (base/messages.h) to notes, its English filled from
// `values` and the values of the text alone, `text`, and to note_details with its code and values.
void add_note(Launch& out, const char* code, nlohmann::json values = nlohmann::json::object(),
              const nlohmann::json& text = nlohmann::json::object());
void add_note(Launch& out, const Warning& note) noexcept;
// Appends a command line or a config file.
void add_command(Launch& out, const char* tool, const char* version, const char* kind, const char* filename,
                 std::string text) noexcept;

// The KV cache an engine's memory setting leaves on each GPU, from the estimate's memory parts.
struct KvCapacity {
  double budget_bytes = 0;        // bytes the engine gives the KV cache on each GPU
  double per_sequence_bytes = 0;  // one sequence of seq_len tokens on each GPU (estimate's kv_cache / batch)
  int64_t sequences = 0;          // whole sequences of seq_len that fit, per replica
};
KvCapacity kv_capacity(const LaunchContext& c, double budget_bytes);
// "leaves 12.3 GiB of KV cache per GPU: 24 concurrent sequences of 8192 tokens (the scenario asks 16)"
Warning kv_capacity_note(const LaunchContext& c, const std::string& engine, const std::string& setting,
                         const KvCapacity& k) noexcept;
// The warning when the capacity holds fewer than `batch` sequences ("" code = none added).
void warn_if_short(const LaunchContext& c, const std::string& setting, const KvCapacity& k,
                   Launch& out) noexcept;

// Serving helpers shared by launch_serving.cpp and launch_serving_engines.cpp.
double round_up2(double x);          // rounded up to hundredths
bool pre_quantized(WeightFormat f);  // AWQ/GPTQ: a checkpoint quantized before loading
// Model types vLLM will not run in float16 (Gemma 2 and 3, PLaMo 2, GLM-4): their AWQ/GPTQ
// checkpoints are served in bf16 where the card has it (Marlin kernels), else not on vLLM.
bool vllm_refuses_float16(const Architecture& a);
std::string serving_dtype(
    const LaunchContext& c) noexcept;  // AWQ/GPTQ: float16; else dtype_name (float32 for fp32)
// KV bytes the engine really caches per byte the estimate counted: 1 when it has the scenario's
// KV format, else 16-bit over the asked format (kv_bytes_per_token of the memory API).
double kv_scale(const LaunchContext& c, bool engine_has_format);
KvCapacity scaled_capacity(const LaunchContext& c, double budget_bytes, double scale);

// One piece of a note, warning or command text: a literal, a string, or an integer (written as
// std::to_string writes it); cat() joins them.
class Piece {
 public:
  Piece(const char* s) : p_(s), n_(kLiteral) {}
  Piece(const std::string& s) : p_(s.data()), n_(s.size()) {}
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>,
                             int> = 0>
  Piece(T v) : n_(kInteger), i_(static_cast<int64_t>(v)) {}
  void append_to(std::string& out) const noexcept;

 private:
  static constexpr size_t kLiteral = static_cast<size_t>(-1);
  static constexpr size_t kInteger = static_cast<size_t>(-2);
  const char* p_ = nullptr;
  size_t n_;
  int64_t i_ = 0;
};
std::string cat(std::initializer_list<Piece> pieces) noexcept;

// The flags of one command line, each "--flag value" on a continued line; an empty value writes the
// flag alone.
class Flags {
 public:
  Flags& add(const char* name, Piece value = "") noexcept;
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// Speculative decoding's flags (launch_speculative.cpp); nothing without engine_options.speculative.
void add_vllm_speculative(const LaunchContext& c, Flags& f);
void add_sglang_speculative(const LaunchContext& c, Flags& f);

// `head` (environment assignments and the program) and its flags, one per continued line.
std::string shell_command(const std::string& head, const Flags& flags) noexcept;
// The multi-node placeholders every node fills in: "$NODE_RANK", "$MASTER_ADDR".
extern const char* const kNodeRank;
extern const char* const kMasterAddr;
extern const char* const kMasterPort;

std::string fixed2(double value) noexcept;                // "0.87": two decimals, for memory fractions
std::string gib_text(double bytes) noexcept;              // "12.3 GiB"
std::string percent_text(double share) noexcept;          // 3.08 -> "308": a share as whole percent
std::string dtype_name(const LaunchContext& c) noexcept;  // "bfloat16" or "float16"
// "CUDA_VISIBLE_DEVICES=0,1,...,n-1 " (with the trailing space).
std::string devices_env(int64_t n) noexcept;
// CUDA_VISIBLE_DEVICES=0,1 prefix when the plan uses fewer GPUs than its instance has, else "".
std::string visible_devices(const LaunchContext& c) noexcept;
// The first replica's GPUs (tp x pp of them) when the plan holds several replicas, else visible_devices.
std::string replica_devices(const LaunchContext& c) noexcept;
// "<var>=true " when the checkpoint is a ModelScope id (the tool's switch to fetch from ModelScope:
// VLLM_USE_MODELSCOPE, SGLANG_USE_MODELSCOPE, LMDEPLOY_USE_MODELSCOPE, USE_MODELSCOPE_HUB), else "".
std::string modelscope_env(const LaunchContext& c, const char* var) noexcept;
// ms-swift fetches from ModelScope unless told --use_hf (swift/llm/argument/base_args/base_args.py at
// v3.9.3: use_hf False): a Hugging Face id gets --use_hf true.
void add_swift_hub(const LaunchContext& c, Flags& f) noexcept;

}  // namespace gpusizer
