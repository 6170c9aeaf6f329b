// A validated workload: the spec's scenario JSON (docs/scenario.md) as plain data.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "model/architecture.h"
#include "model/precision.h"
#include "scenario/engine_options.h"

namespace gpusizer {

enum class Task { Inference, Full, Lora, Qlora, Pretrain };
enum class Engine { Vllm, Sglang, Lmdeploy, TensorrtLlm, Transformers, LlamaCpp, Deepspeed, Fsdp, Megatron };
enum class Optimizer { Adamw, Adamw8bit, PagedAdamw8bit, Sgd, Adafactor };
enum class Checkpointing { None, Selective, Full };
enum class LoraTargets { AllLinear, Attention, Qv };

const char* to_string(Task t);
const char* to_string(Engine e);
const char* to_string(Optimizer o);
const char* to_string(Checkpointing c);
const char* to_string(LoraTargets t);
bool is_training(Task t);

// A warning about a legal but unusual choice; `code` is stable (the page translates it).
struct Warning {
  Warning() = default;
  Warning(const char* code_, const char* field_, std::string message_,
          nlohmann::json values_ = nlohmann::json::object());
  Warning(const char* code_, std::string field_, std::string message_,
          nlohmann::json values_ = nlohmann::json::object());
  Warning(std::string code_, std::string field_, std::string message_,
          nlohmann::json values_ = nlohmann::json::object());
  std::string code;                                  // "bf16_unsupported", "params_only_model", ...
  std::string field;                                 // the scenario field it is about
  std::string message;                               // English text
  nlohmann::json values = nlohmann::json::object();  // the figures and names the text embeds (docs/errors.md)
};

// The warning or note of message `code` (base/messages.h) about `field`: its English filled from
// `values` and the values of the text alone, `text`.
Warning message_warning(const char* code, std::string field, nlohmann::json values = nlohmann::json::object(),
                        const nlohmann::json& text = nlohmann::json::object());

struct Training {
  Optimizer optimizer = Optimizer::Adamw;
  bool master_weights = true;
  Checkpointing grad_checkpointing = Checkpointing::None;
  int zero = 0;
  bool offload_optimizer = false;
  bool offload_params = false;
  int64_t lora_rank = 8;
  LoraTargets lora_targets = LoraTargets::AllLinear;
  int64_t grad_accum = 1;
  // The input named grad_accum; pre-training otherwise takes its recipe's step
  // (apply_layout_defaults).
  bool grad_accum_stated = false;
  std::optional<double> tokens;
};

struct Efficiency {
  std::optional<double> mfu;        // model FLOPs utilisation override, (0, 1]
  std::optional<double> bandwidth;  // achieved share of memory bandwidth override, (0, 1]
  std::optional<bool> cuda_graphs;  // decode steps replayed as CUDA graphs; default per engine (speed.cpp)
};

// Planner inputs (project additions, see docs/scenario.md).
struct Pricing {
  std::string currency = "USD";             // currency of rankings and costs: "USD" or "CNY"
  std::optional<double> cny_per_usd;        // default: the catalog's documented rate
  std::map<std::string, double> overrides;  // instance type -> price per hour, its own currency
  // The user's own instance types (provider_id "custom", on-demand); plans point into this vector.
  std::vector<Instance> custom_instances;
};
struct Filters {
  std::vector<std::string> providers;  // provider ids; empty = all
  std::vector<std::string> gpus;       // GPU ids; empty = all
  std::optional<int64_t> max_gpus;
  std::vector<std::string> billing = {"on-demand"};  // billing kinds ranked (catalog.h); empty = all
  bool marketplaces =
      true;  // rank marketplace rows (Instance::marketplace); the lookup table defaults to false
};

// Serving at a load (project addition, docs/scenario.md): the request rate to carry and the
// latency targets; prompt and output lengths come from the scenario.
struct Load {
  double requests_per_s = 0;
  std::optional<double> ttft_s;  // time to first token target
  std::optional<double> tpot_s;  // time per output token target
};

// The checkpoint a scenario sizes and launches: the Hub repository the user named, kept as
// written, or the preset's own, with the format its weights are stored in (docs/scenario.md).
struct Checkpoint {
  std::string repo;     // "" for a pasted config.json or a parameter count (no Hub id)
  std::string variant;  // "base", "instruct", "chat", "distill", "reasoning", "coder"; "" unknown
  WeightFormat stored = WeightFormat::Bf16;  // the format of its weights
  bool named = false;                        // the user named this repository (a Hub id)
  bool modelscope = false;                   // ... as ModelScope's (ModelNameMatch::modelscope)
  bool listed = false;                       // a published checkpoint of core/data/checkpoints.json
  std::string gguf_file;                     // a GGUF repository's file of the stored format
  bool gguf_repo = false;                    // a GGUF repository: one file per quant type
  bool gguf_quant_assumed = false;           // an unlisted GGUF repository, no quant type named
  std::string preset_repo;  // the preset's repository when `weights` chose another published checkpoint
  std::optional<int64_t> group_size;  // its GPTQ/AWQ group size where published (-1: per column)
  std::optional<bool> act_order;      // its GPTQ desc_act where published
  std::string quant_scope;            // the linears its format covers where published ("" unread)
};

// Facts of an engine version that change the memory or speed accounting; the scenario's
// engine_version sets them (engine_versions.cpp), the input cannot.
struct VersionFacts {
  // vLLM's count of the memory outside PyTorch: "increase" (0.6.5+, PR #10511's memory_profiling:
  // the non-torch memory grown since the worker's baseline, CUDA context excluded) or "device"
  // (0.6.3 to 0.6.4.post1, worker.py determine_num_available_blocks: device used minus torch
  // allocated, CUDA context included).
  std::string non_torch_accounting = "increase";
  // Kernels of MLA + routed-expert models (DeepSeek-V2/V3) for speed (speed.cpp): "tuned" (current
  // engines, the roofline's shares) or "triton" (SGLang 0.4.1: Triton MLA attention and Triton
  // fused MoE with block-wise FP8, before FlashInfer MLA, DeepGEMM and H200-tuned MoE configs).
  std::string mla_moe_kernels = "tuned";
  // transformers generate() before 4.45 computed fp32 logits of every prompt position (4.45+ keeps
  // the last one, logits_to_keep).
  bool full_prompt_logits = false;
  // transformers before 4.36 kept past_key_values as tuples: each decode step concatenates into a
  // new cache while the previous one is still referenced (DynamicCache from 4.36).
  bool legacy_kv_cache = false;
};

struct Scenario {
  Architecture model;
  Checkpoint checkpoint;
  nlohmann::json model_input;  // the model as given (preset id or object), for round trips
  Task task = Task::Inference;
  Engine engine = Engine::Vllm;
  WeightFormat weights = WeightFormat::Bf16;
  KvFormat kv_cache = KvFormat::Bf16;
  int64_t batch = 1;
  int64_t seq_len = 2048;
  int64_t prompt_tokens = 1024;
  int64_t output_tokens = 1024;
  bool flash_attention = true;
  std::optional<std::string> gpu;  // catalog id
  int64_t gpus = 1;
  int64_t tp = 1;
  int64_t pp = 1;
  // Expert-parallel degree (Megatron-LM --expert-model-parallel-size): each rank holds 1/ep of the
  // routed experts, whole (expert TP 1, --expert-tensor-parallel-size 1, as Megatron-Core's MoE
  // recipes run it); the expert grid ep x pp spans the GPUs, so ep divides gpus / pp.
  int64_t ep = 1;
  // Which of gpu/gpus/tp/pp/ep/zero the input set; the planner chooses the others.
  bool gpus_set = false, tp_set = false, pp_set = false, ep_set = false, zero_set = false;
  Training training;
  Efficiency efficiency;
  EngineOptions engine_options;  // vLLM / SGLang start-up options (engine_options.cpp)
  std::string engine_version;    // a version of engine_versions.h: the one named, else the newest checked
  VersionFacts version_facts;    // what that version does (engine_versions.cpp), not a user's setting
  double headroom = 0.10;        // share of GPU memory the planner keeps free
  Pricing pricing;
  Filters filters;
  std::optional<Load> load;          // serving: rank by the cost of carrying this load
  std::optional<std::string> today;  // "YYYY-MM-DD": the day prices are judged on (age warnings)
  std::vector<Warning> warnings;     // from parsing (e.g. a model given only by its size)

  int64_t dp() const { return gpus / (tp * pp); }
};

// Defaults that follow the layout (gpus, tp, pp), applied wherever a layout is set (parsing, the
// planner's candidates, a launch's plan): pre-training with no training.grad_accum takes the
// accumulation that makes the recipe's step of ~4M tokens at this data-parallel size.
void apply_layout_defaults(Scenario& s);

// Whether the scenario runs DP attention (engine_options.dp_attention): the option set, an MLA model,
// more than one TP rank (speed_dp_attention.cpp, memory_inference.cpp). `tp` is then the GPUs one
// DP-attention replica spans: SGLang --tp tp --enable-dp-attention --dp-size tp, or vLLM
// --tensor-parallel-size 1 --data-parallel-size tp --enable-expert-parallel (vllm_dp_attention).
bool dp_attention(const Scenario& s);
// DP attention on vLLM: TP 1 on every rank, the routed experts over EP = DP = tp ranks, everything
// else whole on each rank (memory_inference.cpp weights_per_gpu, speed_dp_attention.cpp).
bool vllm_dp_attention(const Scenario& s);
// The format a model is released in where that is not 16-bit (models.json checkpoint_weights:
// DeepSeek-V3 and Kimi K2 fp8, gpt-oss mxfp4); nullopt for a 16-bit release.
std::optional<WeightFormat> low_bit_release(const Architecture& a);
// Sequences one engine core runs, the --max-num-seqs the launch writes: engine_options.max_num_seqs
// where stated, else the batch, or under vLLM's DP attention one DP rank's share of it.
int64_t engine_core_sequences(const Scenario& s);

// Whether the scenario's engine can split the model's attention over `tp` ranks: the heads divide,
// and under Megatron-Core the KV heads (query groups) too (megatron/core/transformer/attention.py:
// divide(num_query_groups, world_size) asserts; the serving engines replicate KV heads instead).
bool tp_splits_attention(const Scenario& s, int64_t tp);

// The checkpoint of preset `a` served or trained in `weights`: its published checkpoint in that
// format where there is one (core/data/checkpoints.json), else its own repository.
Checkpoint preset_checkpoint(const Architecture& a, WeightFormat weights);

// The ids each choice of a scenario takes, for the page's selects (catalog_json):
// {"tasks", "engines": {"inference", "training"}, "optimizers", "checkpointing", "lora_targets",
//  "zero_stages", "currencies"}.
nlohmann::json scenario_choices_json();

// Parses and validates one scenario object. Throws InputError naming the field.
Scenario parse_scenario(const nlohmann::json& input);

// Checks the cross-field rules (tp*pp divides gpus, heads divisible by tp, ...) of a scenario
// whose fields were set in code (the planner); throws InputError naming the field.
void validate_scenario(const Scenario& s);

// The scenario back as spec JSON (model as explicit fields), for plans and the URL state.
nlohmann::json scenario_to_json(const Scenario& s);

}  // namespace gpusizer
