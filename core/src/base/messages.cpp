#include "base/messages.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "base/format.h"

namespace gpusizer {

namespace {

using K = MessageKind;

// Grouped by kind, then by the part of the core that gives them.
const std::vector<Message> kMessages = {
    // Errors of any JSON input (base/json_reader.cpp).
    {"null", K::Error, "", "must not be null: leave the key out to get its default"},
    {"integer_range", K::Error, "min max type value",
     "must be an integer from {min} to {max}{?type:, not {type}}{?value: (got {value:json})}"},
    {"number_range", K::Error, "min max above type value",
     "must be a number {?above:above }{!above:from }{min} to {max}{?type:, not {type}}"
     "{?value: (got {value:json})}"},
    {"boolean", K::Error, "type", "must be true or false, not {type}"},
    {"string", K::Error, "type", "must be a string, not {type}"},
    {"choice", K::Error, "choices value", "must be {choices:or}{?value: (got {value:json})}"},
    {"string_list", K::Error, "", "must be an array of strings"},
    {"unknown_key", K::Error, "", "unknown key"},
    {"object", K::Error, "type", "must be a JSON object, not {type}"},
    // The text given to the module (api/api.cpp, catalog/model_names.cpp).
    {"json_depth", K::Error, "max", "JSON nested deeper than {max} levels"},
    {"input_empty", K::Error, "", "is empty: expected a scenario JSON object"},
    {"nul_byte", K::Error, "offset", "has a NUL byte at offset {offset}: JSON text holds none"},
    {"invalid_json", K::Error, "detail", "is not valid JSON: {detail}"},
    {"number_overflow", K::Error, "detail", "has a number beyond the range of a double: {detail}"},
    {"unknown_command", K::Error, "command", "unknown command \"{command}\""},
    {"resolve_form", K::Error, "", "resolve takes {\"model\": \"<name>\"}, a JSON string or plain text"},
    {"model_name_empty", K::Error, "", "is empty: give a model name or Hub id"},
    {"name_too_long", K::Error, "length max",
     "is {length} characters long: no model name has more than {max}"},
    // The message grows with what the name matched: several presets, a Hub id, suggestions; the
    // table's models list (plan/table.cpp) names a model as JSON, whatever its type.
    {"unknown_model", K::Error, "name suggestions",
     "unknown preset id \"{name}\" (see `gpusizer models`); did you mean {suggestions:or}?", true},
    // The catalog's own model list (catalog/models.cpp).
    {"aliases_list", K::Error, "", "must be a list of names"},
    {"aliases_names", K::Error, "value", "must hold non-empty strings (got {value:json})"},
    // A scenario (scenario/scenario.cpp, scenario/engine_options_parse.cpp).
    {"schema", K::Error, "", "must be 1"},
    {"model_required", K::Error, "",
     "is required: a preset id, {\"hf_config\": ...}, {\"params\": ...} or explicit fields"},
    {"model_type", K::Error, "type", "must be a preset id or an object, not {type}"},
    {"model_one_key", K::Error, "key", "an object with \"{key}\" takes no other key"},
    {"engine_serving", K::Error, "engine",
     "\"{engine}\" serves models; for training use \"deepspeed\", \"fsdp\", \"megatron\" or "
     "\"transformers\""},
    {"engine_training", K::Error, "engine",
     "\"{engine}\" is a training engine; for inference use \"vllm\", \"sglang\", \"lmdeploy\", "
     "\"tensorrt-llm\", \"transformers\" or \"llama.cpp\""},
    {"unknown_gpu", K::Error, "id", "unknown GPU id \"{id}\" (see `gpusizer gpus`)"},
    {"engine_version_unknown", K::Error, "engine versions value",
     "is not a version of {engine} gpusizer has checked: {versions:or} (got {value:json})"},
    {"engine_version_engine", K::Error, "named engine",
     "names {named}, but the scenario's engine is {engine}"},
    {"engine_option_version_fact", K::Error, "owner versions",
     "is what a {owner} version does, not a setting: name the version in engine_version ({owner} "
     "{versions:or})"},
    {"checkpoint_format_unknown", K::Error, "repo preset released",
     "the weight format of {repo} cannot be read from its name, and the published checkpoints of {preset} "
     "store {released}: give \"weights\" or paste its config.json"},
    {"checkpoint_weights", K::Error, "repo stored weights alternative",
     "{repo} stores {stored} weights: no engine loads them as {weights}{?alternative:; {alternative} is "
     "published in {weights}}"},
    {"unknown_provider", K::Error, "id",
     "unknown provider id \"{id}\" (see `gpusizer instances`; \"custom\" is your own)"},
    {"unknown_billing", K::Error, "id kinds", "unknown billing kind \"{id}\": {kinds:or}"},
    {"date", K::Error, "", "must be a date \"YYYY-MM-DD\""},
    {"tokens_sum", K::Error, "prompt_tokens output_tokens seq_len",
     "prompt_tokens + output_tokens must equal seq_len ({prompt_tokens} + {output_tokens} != {seq_len})"},
    {"exceeds_seq_len", K::Error, "seq_len", "must not exceed seq_len"},
    {"tokens_alone", K::Error, "other", "give seq_len or {other} with it"},
    {"seq_len_min", K::Error, "", "must be at least 1 token"},
    {"tp_pp_divide_gpus", K::Error, "tp pp gpus tp_pp", "tp * pp ({tp_pp}) must divide gpus ({gpus})"},
    {"tp_heads", K::Error, "heads", "must divide the attention heads ({heads})"},
    {"tp_query_groups", K::Error, "kv_heads tp",
     "must divide the {kv_heads} KV heads under Megatron-LM (Megatron-Core splits the query groups over "
     "the TP ranks); TP {tp} does not"},
    {"pp_layers", K::Error, "layers", "must not exceed the layers ({layers})"},
    {"ep_engine", K::Error, "engine",
     "expert parallelism is set for Megatron-LM training; {engine} places the experts itself"},
    {"ep_dense", K::Error, "", "needs a model with routed experts"},
    {"dp_attention_engine", K::Error, "engine",
     "is SGLang's --enable-dp-attention or vLLM's data-parallel attention; {engine} has no such option (set "
     "engine to sglang or vllm)"},
    {"speculative_method_required", K::Error, "",
     "is required: \"mtp\", \"eagle\", \"eagle3\" or \"draft_model\""},
    {"speculative_acceptance_required", K::Error, "method",
     "has no measured default for {method}: state the draft's per-token acceptance rate (above 0, below 1)"},
    {"speculative_mtp_chain", K::Error, "draft_tokens",
     "is needed for {draft_tokens} draft tokens: the default 0.85 (DeepSeek-V3 report, section 5.4.3) is "
     "one MTP module's acceptance of the second token, and a chain reusing it accepts less; state the "
     "per-token rate (above 0, below 1)"},
    {"speculative_draft_required", K::Error, "method",
     "is required for {method}: the draft's Hugging Face repository (draft_model: a catalog model)"},
    {"speculative_task", K::Error, "task", "is a serving option; {task} does not decode"},
    {"speculative_engine", K::Error, "engine",
     "is vLLM's --speculative-config or SGLang's --speculative-algorithm; {engine} is not sized with "
     "one (set engine to vllm or sglang)"},
    {"speculative_encoder", K::Error, "", "needs a decoder: an encoder generates no tokens"},
    {"speculative_mtp_layers", K::Error, "",
     "\"mtp\" needs a model with multi-token-prediction modules (config.json num_nextn_predict_layers)"},
    {"speculative_draft_vocab", K::Error, "draft vocab target",
     "{draft} has {vocab} tokens, the served model {target}: a draft must share its vocabulary"},
    {"ep_experts", K::Error, "experts", "must divide the routed experts ({experts})"},
    {"ep_ranks", K::Error, "ranks", "must divide the GPUs of a pipeline stage, gpus / pp ({ranks})"},
    {"qlora_weights", K::Error, "weights",
     "QLoRA trains adapters over a 4-bit base: use \"nf4\" (or another 4-bit format), not \"{weights}\""},
    {"gguf_training", K::Error, "", "GGUF formats are for llama.cpp inference, not training"},
    {"full_weights", K::Error, "weights",
     "full fine-tuning and pre-training update every weight in 16 or 32 bits: use \"bf16\", \"fp16\" or "
     "\"fp32\", not \"{weights}\" (quantised bases train with \"lora\" or \"qlora\")"},
    {"gguf_engine", K::Error, "engine", "GGUF formats run on engine \"llama.cpp\", not \"{engine}\""},
    {"offload_needs_zero", K::Error, "",
     "CPU offload needs ZeRO: offload_optimizer needs stage 1-3, offload_params stage 3"},
    {"offload_params_zero3", K::Error, "", "parameter offload needs ZeRO stage 3"},
    {"encoder_generates", K::Error, "", "an encoder model generates no tokens"},
    {"load_rate_required", K::Error, "", "is required: requests per second to carry, above 0"},
    {"load_training", K::Error, "", "applies to serving (task \"inference\"), not to training"},
    {"below_one", K::Error, "", "must be below 1"},
    {"group_size_zero", K::Error, "", "must be positive or -1 (one group per column)"},
    // pricing.custom_instances (scenario/scenario.cpp).
    {"instance_list", K::Error, "", "must be an array of instance objects"},
    {"instance_name_required", K::Error, "", "is required: a name for the instance type"},
    {"catalog_instance_name", K::Error, "name",
     "\"{name}\" is a catalog instance type: give yours another name (or set its price in "
     "pricing.overrides)"},
    {"duplicate_instance_name", K::Error, "name", "\"{name}\" is already a custom instance type"},
    {"instance_gpu_required", K::Error, "", "is required: a catalog GPU id (see `gpusizer gpus`)"},
    {"instance_gpus_required", K::Error, "", "is required: an integer from 1 to 64"},
    {"instance_price_required", K::Error, "", "is required: a number above 0"},
    {"instance_currency_required", K::Error, "", "is required: \"USD\" or \"CNY\""},
    // Explicit model fields and a parameter count (model/architecture.cpp).
    {"required", K::Error, "", "is required"},
    {"size_range", K::Error, "min max value", "must be from {min} to {max} (got {value})"},
    {"kv_heads_divide", K::Error, "heads kv_heads",
     "heads ({heads}) must be divisible by kv_heads ({kv_heads})"},
    {"params_range", K::Error, "", "must be a parameter count above 0 and at most 1e15"},
    {"params_no_shape", K::Error, "",
     "no Llama-like shape comes within 1 % of this count (the scaling rule starts near 1e7); give explicit "
     "fields"},
    {"head_dim_required", K::Error, "", "is required when hidden is not divisible by heads"},
    {"intermediate_required", K::Error, "",
     "is required (only an all-MoE model with expert_intermediate can leave it out)"},
    // A Hugging Face config.json (model/hf_config.cpp).
    {"config_missing", K::Error, "", "is missing from config.json"},
    {"config_kv_heads_divide", K::Error, "key heads kv_heads",
     "{key} ({heads}) is not divisible by it ({kv_heads})"},
    {"layer_indices", K::Error, "max value",
     "must be a list of layer indices from 0 to {max}{?value: (got {value:json})}"},
    {"experts_zero", K::Error, "",
     "is 0: a mixture-of-experts config needs at least 1 expert (a dense model leaves the key out)"},
    {"experts_per_token", K::Error, "experts", "is larger than the number of experts ({experts})"},
    {"layer_kinds_count", K::Error, "layers", "must list one attention kind per layer ({layers})"},
    {"layer_kinds_values", K::Error, "value", "must hold strings (got {value:json})"},
    {"minimax_layer_kinds", K::Error, "",
     "is missing from config.json: MiniMax needs each layer's attention kind (0 = lightning, 1 = softmax), "
     "or "
     "layer_types"},
    {"minimax_kind_numbers", K::Error, "value", "must hold 0 (lightning) or 1 (softmax) (got {value:json})"},
    {"minimax_kind_names", K::Error, "value",
     "must hold \"linear_attention\" or \"full_attention\" (got {value:json})"},
    {"intermediate_even", K::Error, "", "must be even (QWenMLP halves it)"},
    {"vision_config_unknown", K::Error, "model_type",
     "is not counted for model type \"{model_type}\" (known: gemma3, qwen2_5_vl, llama4, mistral3); remove "
     "it "
     "to size the language model alone"},
    {"head_dim_missing", K::Error, "hidden heads",
     "is missing from config.json, and the hidden size ({hidden}) is not divisible by the attention heads "
     "({heads})"},
    // The lookup table's input (plan/table.cpp).
    {"table_input", K::Error, "type", "must be an object (models, columns, context, pricing, filters)"},
    {"table_key", K::Error, "",
     "is not a table key (models, columns, context, pricing, filters, headroom, efficiency)"},
    {"table_models", K::Error, "", "must be a non-empty array of preset ids"},
    {"table_object", K::Error, "type", "must be an object"},
    {"context_key", K::Error, "", "is not a shared setting (seq_len, training.tokens)"},
    {"context_training_key", K::Error, "", "is not a shared setting (only tokens)"},
    {"unknown_column", K::Error, "id columns", "unknown column ({columns:list})"},
    {"unknown_column_id", K::Error, "id columns", "unknown column {id} ({columns:list})"},
    {"column_overrides", K::Error, "type", "must be an object of scenario keys"},
    {"column_setting", K::Error, "",
     "is not a setting of this column (the planner chooses gpu, gpus, tp and pp)"},
    {"column_training_key", K::Error, "", "is not a training setting"},
    // rank and launch (plan/planner.cpp, launch/launch.cpp).
    {"load_with_gpus", K::Error, "",
     "sets the GPU count through its replicas: rank with either \"gpus\" or \"load\""},
    {"no_plan_for_instance", K::Error, "instance",
     "no plan for instance type \"{instance}\": unknown, excluded by the filters or the scenario's gpu, or "
     "not "
     "on-demand"},
    {"no_fitting_plan", K::Error, "",
     "no catalog plan fits this scenario: give plan.gpu with a layout, or relax the filters"},
    {"plan_gpu_required", K::Error, "", "is required (a catalog GPU id) unless plan.instance is given"},
    {"plan_unknown_gpu", K::Error, "id", "unknown GPU id \"{id}\""},
    {"plan_instance_string", K::Error, "type", "must be a string (an instance type)"},
    // Warnings (message_warning, scenario/scenario.h). format_unsupported is composed: its text is
    // that of its kind (the Format entries below, values.kind), and also a reason's code.
    {"launch_fp16", K::Warning, "gpu",
     "{gpu} has no bf16: the commands use float16 (serving --dtype float16; training fp16 mixed precision "
     "with dynamic loss scaling, which can overflow where bf16 would not)"},
    // The serving engines that preallocate their KV cache (vLLM, SGLang) start with what is left.
    {"launch_does_not_fit", K::Warning,
     "per_gpu_bytes usable_bytes memory_bytes gpu engine static_bytes preallocates | per_gpu usable memory "
     "gpu_id static",
     "the estimate needs {per_gpu} GiB per GPU, more than the {usable} GiB usable of the {memory} GiB of "
     "{gpu_id}{?preallocates:: {engine} gives the KV cache what is left after the weights, activations and "
     "runtime ({static} GiB) and queues the requests beyond it}{!preallocates:: the commands will run out of "
     "memory}"},
    {"launch_cannot_start", K::Warning, "static_bytes usable_bytes gpu engine | static usable gpu_id",
     "the weights, activations and runtime alone need {static} GiB per GPU, more than the {usable} GiB "
     "usable "
     "on {gpu_id}: {engine} cannot start on this plan"},
    {"launch_kv_short", K::Warning, "setting sequences seq_len batch",
     "{setting} leaves KV cache for {sequences} sequences of {seq_len} tokens, fewer than the batch of "
     "{batch}: the engine will queue the rest (or refuse to start below one)"},
    {"launch_parallelism_unsupported", K::Warning, "tp pp gpus",
     "ms-swift sft, LLaMA-Factory and DeepSpeed ZeRO train data-parallel only: tp {tp} and pp {pp} cannot be "
     "expressed, and DeepSpeed checks train_batch_size against all {gpus} GPUs; use Megatron-SWIFT (megatron "
     "sft) for tensor/pipeline-parallel training. No command is generated for this plan"},
    {"launch_plan_invalid", K::Warning, "reason why", "{reason}. No command is generated for this plan"},
    {"launch_sglang_memory", K::Warning, "fraction | setting",
     "{setting} leaves less than the estimated activations and runtime buffers: lower --max-running-requests "
     "or --context-length"},
    {"launch_fraction_capped", K::Warning, "cap",
     "the estimate needs more than {cap} of each card: the memory fractions are capped at {cap}, so the KV "
     "cache may hold fewer than batch x seq_len tokens"},
    {"zero_with_pipeline", K::Warning, "",
     "DeepSpeed refuses pipeline parallelism with ZeRO stage 2 or 3; use ZeRO-1 with pp > 1"},
    {"megatron_zero", K::Warning, "",
     "Megatron-LM shards only optimizer states (distributed optimizer): sized as ZeRO-1"},
    {"megatron_layout_planned", K::Warning, "tp pp ep zero gpus gpu | gpu_name",
     "engine megatron with no layout stated: sized and launched at tp {tp} x pp {pp} x ep {ep}, ZeRO-{zero}"
     " (1: the distributed optimizer), the planner's layout for {gpus} x {gpu_name}; state tp, pp, ep "
     "or training.zero to change it"},
    {"zero_without_dp", K::Warning, "",
     "ZeRO shards over data-parallel ranks; with one rank (gpus / (tp * pp) = 1) it saves nothing"},
    {"online_fp8_load", K::Warning, "engine repo stored load_bytes alternative",
     "{engine} quantizes {repo} to fp8 after loading its {stored} weights: {load_bytes:gib} per GPU while it "
     "loads{?alternative:; the pre-quantized {alternative} loads directly}"},
    {"paged_optimizer_spill", K::Warning, "",
     "paged optimizer states do not fit beside the rest and are paged to host RAM (slower steps)"},
    {"format_unsupported", K::Warning, "gpu weights kind", "...", true},
    {"bf16_unsupported", K::Warning, "gpu",
     "{gpu} has no native bf16: use fp16 (engines fall back to fp16 or emulate bf16 slowly)"},
    {"fp8_unsupported", K::Warning, "gpu",
     "{gpu} has no fp8 tensor cores (Ada, Hopper and later do): fp8 runs as weight-only dequantisation or "
     "not at all"},
    {"slow_first_token", K::Warning, "gpu seconds prompt_tokens | seconds_text",
     "a {prompt_tokens}-token prompt arriving alone waits {seconds_text} s for its first token on {gpu}: "
     "its prefill rate is the limit (more TP, a faster card, or shorter prompts)"},
    {"no_plan_fits", K::Warning, "setting value gpus gpu instance | value_text",
     "no plan fits as given: with {setting} {value_text}, {gpus} x {gpu} ({instance}) fits"},
    {"no_rdma", K::Warning, "instances gbps | network",
     "the plan crosses {instances} instances over TCP ({network} Gbit/s, no RDMA): expect collectives "
     "several times slower than over InfiniBand/RoCE/EFA"},
    {"slow_network", K::Warning, "zero gbps min_gbps | network min",
     "ZeRO-{zero} across instances with {network} Gbit/s between them: below the {min} Gbit/s that "
     "multi-node ZeRO needs"},
    {"price_stale", K::Warning, "instance date months",
     "the price of {instance} dates from {date} ({months} months ago): check it or override it"},
    {"latency_target_unmet", K::Warning, "gpu | gpu_id",
     "even one sequence per replica misses the latency target on {gpu_id}"},
    {"context_beyond_model", K::Warning, "seq_len positions model",
     "seq_len {seq_len} is beyond the {positions} positions {model} supports (max_position_embeddings); "
     "quality degrades and engines refuse it unless rope scaling extends it"},
    {"batch_beyond_engine", K::Warning, "engine max_batch batch",
     "{engine} runs at most {max_batch} sequences at once by default (max_num_seqs / max batch size): raise "
     "it explicitly or expect queueing"},
    {"engine_no_tp", K::Warning, "engine tp",
     "engine {engine} has no tensor parallelism: tp {tp} cannot be launched with it"},
    {"engine_no_pp", K::Warning, "engine pp",
     "engine {engine} has no pipeline parallelism: pp {pp} cannot be launched with it"},
    {"model_name_resolved", K::Warning, "name preset weights",
     "\"{name}\" was read as preset \"{preset}\"{?weights: with {weights} weights}"},
    {"params_only_model", K::Warning, "",
     "the architecture was derived from the parameter count alone; give a preset or a config.json for exact "
     "KV-cache and activation sizes"},
    {"unknown_override", K::Warning, "instance",
     "no catalog or custom instance type \"{instance}\": its price is not used"},
    // Notes.
    {"path_model", K::Note, "",
     "/path/to/model stands for the model's checkpoint (an imported model has no Hugging Face id)"},
    {"version_not_launch_checked", K::Note, "engine version checked",
     "{engine} {version}: its memory accounting is that release's; the commands are written with the "
     "flags of {checked}, the version checked, and an older release may lack some"},
    {"nodes_assumed", K::Note, "gpus instances per_instance",
     "the {gpus} GPUs are assumed to be {instances} nodes of {per_instance}; give plan.gpus_per_instance to "
     "change it"},
    {"vllm_utilization", K::Note, "value held batch seq_len",
     "--gpu-memory-utilization {value} instead of vLLM's default 0.90: at 0.90 its start-up profile leaves "
     "KV cache for {held} sequences of {seq_len} tokens, and the scenario asks for {batch}"},
    {"marlin", K::Note, "quantization gpu slower",
     "--quantization {quantization}: the Marlin kernel, which vLLM 0.11 runs for this checkpoint on compute "
     "capability >= 8.0 ({gpu}); an explicit {slower} would force the slower kernel"},
    {"no_marlin", K::Note, "quantization gpu cuda",
     "--quantization {quantization}: vLLM 0.11 has no Marlin kernel for {gpu}{?cuda: (compute capability "
     "below 8.0)}{!cuda: (not a CUDA card; ROCm runs AWQ through Triton with VLLM_USE_TRITON_AWQ=1)}"},
    {"vllm_ray", K::Note, "nodes",
     "vLLM over {nodes} nodes: start a Ray cluster across them (vLLM's distributed serving guide) and run "
     "vllm serve on its head node"},
    {"max_num_seqs_per_replica", K::Note, "replicas sequences",
     "--max-num-seqs is per data-parallel replica: {replicas} replicas serve {sequences} sequences at once"},
    {"kv_format_vllm", K::Note, "kv_cache",
     "KV cache {kv_cache} cannot be expressed: vLLM 0.11 offers auto, bfloat16 and fp8 variants; the cache "
     "stays 16-bit (the capacity above counts 16-bit)"},
    {"swift_one_node", K::Note, "",
     "swift deploy runs on one node: for this multi-node plan use the vllm serve command"},
    {"swift_no_rope", K::Note, "",
     "swift deploy: no command for this context, whose YaRN override ms-swift 3.9 does not pass to its vLLM "
     "backend; use the vllm serve command"},
    {"swift_vllm_flags_missing", K::Note, "",
     "swift deploy: ms-swift 3.9 documents no flag for in-flight quantization, the KV-cache dtype or "
     "speculative decoding of the vLLM backend; use the vllm serve command for them"},
    {"sglang_nodes", K::Note, "nodes",
     "SGLang: run the command on each of the {nodes} nodes with NODE_RANK set to 0, 1, ... and MASTER_ADDR "
     "to node 0's address"},
    {"kv_format_sglang", K::Note, "kv_cache",
     "KV cache {kv_cache} cannot be expressed: SGLang 0.5 offers auto and fp8; the cache stays 16-bit (the "
     "capacity above counts 16-bit)"},
    {"transformers_replicas", K::Note, "replicas",
     "transformers serves one replica per process: run {replicas} swift deploy processes, each with its own "
     "CUDA_VISIBLE_DEVICES and --port, behind a load balancer"},
    {"bnb_pt", K::Note, "", "4-bit bitsandbytes on the pt backend: add --quant_method bnb --quant_bits 4"},
    {"publisher_checkpoint", K::Note, "repo weights preset_repo",
     "{repo}: the published {weights} checkpoint of this model, served in place of the preset's repository "
     "{preset_repo} (16-bit weights)"},
    {"quantized_checkpoint", K::Note, "weights",
     "/path/to/model stands for a checkpoint of this model stored in {weights} (gpusizer's table lists none "
     "and no engine makes it on load); AWQ/GPTQ run with --dtype float16"},
    {"int8_checkpoint", K::Note, "",
     "int8 weights: no --quantization is given; load a pre-quantized INT8 checkpoint (e.g. "
     "compressed-tensors W8A8), whose method the engines read from its config.json"},
    {"instances_independent", K::Note, "instances per_instance replicas",
     "the plan's {instances} instances serve independently: run the command on each ({instances} servers x "
     "{per_instance} replicas = {replicas} replicas) and balance requests across them; no traffic crosses "
     "instances"},
    {"replica_per_server", K::Note, "engine last_gpu more",
     "{engine} serves one replica per server: the command starts one on GPUs 0-{last_gpu}; start {more} more "
     "with their own CUDA_VISIBLE_DEVICES and port, behind a load balancer"},
    {"lmdeploy_cache_share", K::Note, "value batch seq_len needed | needed_pct",
     "--cache-max-entry-count {value} instead of LMDeploy's default 0.8: the KV cache of {batch} x {seq_len} "
     "tokens needs {needed_pct} % of the memory left after the weights"},
    {"kv_format_lmdeploy", K::Note, "",
     "KV cache fp8 cannot be expressed: LMDeploy 0.10.2 quantizes the KV cache to int8 or int4 only "
     "(--quant-policy 8|4); the cache stays 16-bit"},
    {"lmdeploy_tp_pow2", K::Note, "tp",
     "LMDeploy's --tp help says it should be a power of two; tp {tp} may be refused"},
    {"trtllm_kv_share", K::Note, "value batch seq_len needed | needed_pct",
     "--kv_cache_free_gpu_memory_fraction {value} instead of TensorRT-LLM's default 0.90: the KV cache of "
     "{batch} x {seq_len} tokens needs {needed_pct} % of the memory left after weights and buffers"},
    {"kv_format_trtllm", K::Note, "kv_cache",
     "KV cache {kv_cache} cannot be expressed for trtllm-serve's PyTorch backend (fp8 is, through "
     "kv_cache_config.dtype); the cache stays 16-bit"},
    {"trtllm_chunked_prefill", K::Note, "",
     "prompts longer than --max_num_tokens 8192 run in 8192-token chunks: enable_chunked_prefill: true in "
     "the --extra_llm_api_options YAML (as the estimate assumes)"},
    {"trtllm_modelopt", K::Note, "weights",
     "TensorRT-LLM loads {weights} weights from a checkpoint quantized with NVIDIA Model Optimizer (its "
     "quantization recipes: FP8, W4A16/W4A8 AWQ and GPTQ, NVFP4); it does not quantize on load"},
    {"trtllm_mpi", K::Note, "nodes",
     "TensorRT-LLM over {nodes} nodes runs as one MPI job: start trtllm-serve under mpirun or Slurm srun "
     "with trtllm-llmapi-launch (TensorRT-LLM's multi-node serving guide)"},
    {"llamacpp_context", K::Note, "context slots seq_len kv_bytes",
     "llama-server: -c {context} is the whole context, split over -np {slots} slots of {seq_len} tokens; its "
     "KV cache is {kv_bytes:gib} on the busiest GPU by the estimate"},
    {"gguf_path", K::Note, "file repo weights converted",
     "{file} stands for a GGUF file of {?repo:{repo}}{!repo:the model} in {weights}{?converted: "
     "(convert_hf_to_gguf.py writes 16-bit GGUF files)}"},
    {"kv_format_llamacpp", K::Note, "",
     "KV cache fp8 cannot be expressed: llama.cpp caches f16, bf16, q8_0 or q4_0; the commands use f16"},
    {"llamacpp_fa", K::Note, "",
     "-fa on although the scenario turns flash attention off: llama.cpp quantizes the V cache only with "
     "flash attention"},
    {"llamacpp_split", K::Note, "pp",
     "--split-mode layer puts consecutive layers on the {pp} GPUs (the plan's pipeline stages)"},
    {"global_batch", K::Note, "batch grad_accum dp global seq_len",
     "global batch = {batch} per GPU x {grad_accum} accumulation x {dp} data-parallel ranks = {global} "
     "samples of up to {seq_len} tokens"},
    {"recipe_accumulation", K::Note, "grad_accum tokens",
     "no training.grad_accum stated: {grad_accum} accumulation steps make each optimizer step about "
     "{tokens} tokens, the 4M-token step of LLaMA's recipe; time and cost are sized for this step"},
    {"pure_16bit", K::Note, "",
     "pure 16-bit training (training.master_weights false) cannot be expressed: the HF Trainer and DeepSpeed "
     "keep an fp32 master copy, more memory than estimated"},
    {"selective_checkpointing", K::Note, "",
     "selective checkpointing cannot be expressed in ms-swift or LLaMA-Factory: the commands checkpoint "
     "every layer"},
    {"lora_module_names", K::Note, "",
     "LoRA module names are those of Llama/Qwen checkpoints (q_proj, v_proj, ...); other families name them "
     "differently"},
    {"qlora_gptq", K::Note, "",
     "QLoRA on a GPTQ/AWQ checkpoint: point --model at it; no bitsandbytes flags are needed"},
    {"bnb_zero3", K::Note, "",
     "LLaMA-Factory sets the 4-bit storage dtype for ZeRO-3 itself; ms-swift gets --bnb_4bit_quant_storage"},
    {"fsdp_as_zero", K::Note, "zero",
     "engine fsdp: torchrun train.py runs the HF Trainer's FSDP; ms-swift, LLaMA-Factory and the deepspeed "
     "launcher use its DeepSpeed equivalent, ZeRO-{zero} (FSDP FULL_SHARD corresponds to ZeRO-3)"},
    {"fsdp_trainer", K::Note, "fsdp",
     "engine fsdp: ms-swift, LLaMA-Factory and torchrun train.py run the HF Trainer's FSDP (fsdp \"{fsdp}\", "
     "wrapping the model's decoder layers); no DeepSpeed config or launcher"},
    {"gguf_quant_assumed", K::Note, "repo",
     "{repo} is not among the listed checkpoints and no quant type was named: llama-server takes its "
     "Q4_K_M file, or its first file where it has none; the memory is that of Q4_K_M (set weights to the "
     "file's type, e.g. q8_0)"},
    {"fp8_expert_parallel", K::Note, "tp width",
     "expert parallelism on: the fp8 checkpoint's 128 x 128 blocks do not divide an expert's {width} "
     "channels over TP {tp}, so each expert stays whole on one GPU (the attention stays tensor-parallel)"},
    {"megatron_layout_only", K::Note, "tp pp",
     "tp {tp} x pp {pp}: only Megatron-LM's pretrain_gpt.py trains this layout from these commands; "
     "ms-swift sft, LLaMA-Factory and DeepSpeed ZeRO are data-parallel only and are left out"},
    {"megatron_swift_layout", K::Note, "tp pp ep",
     "tp {tp} x pp {pp} x ep {ep}: Megatron-SWIFT (ms-swift's megatron sft on Megatron-Core) fine-tunes "
     "this layout; ms-swift sft, LLaMA-Factory and DeepSpeed ZeRO are data-parallel only and are left out"},
    {"megatron_swift_steps", K::Note, "mcore",
     "three steps: swift export --to_mcore writes the checkpoint in Megatron's format ({mcore}), megatron "
     "sft trains from it (--finetune), swift export --to_hf converts the saved iteration back (set vx-xxx "
     "to the run's folder); /path/to/train.jsonl is a placeholder: set your dataset"},
    {"megatron_swift_selective", K::Note, "",
     "Megatron-SWIFT 3.9 always recomputes at least the core attention (recompute_granularity selective): "
     "activation memory falls below the estimate without checkpointing, speed a little"},
    {"megatron_rotary_base", K::Note, "theta",
     "{?theta:the model's rope_theta {theta} is not a whole number, which Megatron-LM's --rotary-base (an "
     "integer) cannot take}{!theta:the model's RoPE base (rope_theta) is not known}: pretrain_gpt.py "
     "trains with its default --rotary-base 10000; set the model's own base if it differs"},
    {"megatron_rope_scaling", K::Note, "type factor",
     "the model's rope scaling ({type}{?factor:, factor {factor}}) is not Megatron-LM's --use-rope-scaling "
     "(Llama 3.1's llama3 scaling: factor 8, low/high frequency factors 1 and 4, original context 8192; "
     "pretrain_gpt.py does not pass --rope-scaling-factor on): the command trains without scaling"},
    {"megatron_norm_epsilon", K::Note, "",
     "the model's norm epsilon is not known: pretrain_gpt.py trains with its default --norm-epsilon 1e-5"},
    {"megatron_engine_only", K::Note, "zero dp",
     "engine megatron: the Megatron command runs this plan of {dp} data-parallel ranks at ZeRO-{zero} (1: "
     "Megatron's distributed optimizer, 0: none); ms-swift sft, LLaMA-Factory and DeepSpeed ZeRO would train "
     "another and are left out (engine deepspeed writes them)"},
    {"megatron_as_deepspeed", K::Note, "",
     "engine megatron: no Megatron command is generated; the DeepSpeed commands are the nearest equivalent"},
    {"dataset_placeholders", K::Note, "template",
     "/path/to/train.jsonl and my_dataset are placeholders: set your dataset{!template:; template default "
     "stands for the model's chat template, which LLaMA-Factory 0.9.3 registers for none of its "
     "repositories}"},
    {"continued_pretraining", K::Note, "repo from_scratch",
     "swift pt and LLaMA-Factory stage pt continue from the released weights of {repo}: that is continued "
     "pre-training{?from_scratch:; the Megatron-LM pretrain_gpt.py command trains the architecture from "
     "scratch, with {repo}'s tokenizer, on your corpus (--data-path, preprocessed with "
     "tools/preprocess_data.py; $TRAIN_ITERS where training.tokens is not given)}{!from_scratch:; "
     "Megatron-LM's GPT model cannot build this architecture, so no from-scratch command is generated}"},
    {"train_py", K::Note, "",
     "train.py stands for your own Hugging Face Trainer script (TrainingArguments: --deepspeed, --fsdp); "
     "ms-swift and "
     "LLaMA-Factory launch their own"},
    {"node_rank", K::Note, "last_rank",
     "on every node set NODE_RANK (0 to {last_rank}) and MASTER_ADDR (node 0's address)"},
    {"deepspeed_hostfile", K::Note, "slots",
     "the deepspeed command's hostfile lists one line per node: <address> slots={slots}"},
    {"kv_capacity", K::Note,
     "engine setting budget_bytes sequences seq_len replicas batch per_sequence_bytes | total",
     "{engine}: {setting} leaves {budget_bytes:gib} of KV cache on each GPU, {sequences} concurrent "
     "sequences of {seq_len} tokens{?total: per replica ({total} over {replicas} replicas)}; the scenario "
     "asks for {batch} (the estimate: {per_sequence_bytes:gib} of KV cache per sequence on each GPU)"},
    {"cheapest_not_launchable", K::Note, "instance gpus tp pp instances reason why",
     "the cheapest plan, {instance} ({gpus} GPUs, tp {tp}, pp {pp}, {instances} instances), cannot be "
     "launched: "
     "{reason}; these commands are for the cheapest plan that can"},
    // Why a plan cannot be launched (the `why` of launch_plan_invalid and cheapest_not_launchable).
    {"training_data_parallel", K::Blocker, "",
     "the training commands (ms-swift sft, LLaMA-Factory, DeepSpeed ZeRO) are data-parallel only, and "
     "neither Megatron-LM's pretrain_gpt.py (pre-training) nor Megatron-SWIFT (full and LoRA fine-tunes "
     "of the families it converts) runs this model and task"},
    {"uneven_nodes", K::Blocker, "gpus instances",
     "{gpus} GPUs do not split evenly over {instances} nodes: every node of a torchrun/DeepSpeed/Ray job "
     "runs the same number of processes"},
    {"no_tp", K::Blocker, "engine tp",
     "engine {engine} does not do tensor parallelism: tp {tp} cannot be launched with it"},
    {"no_pp", K::Blocker, "engine pp",
     "engine {engine} does not do pipeline parallelism: pp {pp} cannot be launched with it"},
    {"single_machine", K::Blocker, "engine instances",
     "engine {engine} runs one model instance on one machine: a plan over {instances} nodes cannot be "
     "launched with it"},
    {"no_zero", K::Blocker, "engine zero",
     "engine {engine} does not shard model states: ZeRO-{zero} cannot be launched with it"},
    {"engine_format", K::Blocker, "engine weights", "{engine} cannot serve {weights} weights ...", true},
    {"context_beyond_window", K::Blocker, "seq_len positions model engine factor original",
     "seq_len {seq_len} is beyond the {positions} positions of {model}{?factor:: its model card extends them "
     "with YaRN factor {factor} from {original} up to that factor, and gpusizer writes that override for "
     "vLLM, SGLang and llama.cpp serving only (engine {engine} here)}{!factor: and its model card documents "
     "no rope-scaling override}"},
    {"replicas_across_nodes", K::Blocker, "",
     "data-parallel replicas spread over several nodes: start one server per replica instead (no command is "
     "generated for it)"},
    // Why a plan (rank), a GPU type (takes) or a table cell does not fit.
    // The rank's reasons name the GPU or the instance; a GPU type's (takes) name neither.
    {"too_large", K::Reason,
     "gpu headroom span instance network_gbps engine max_gpus | per_gpu layout gpu_id usable headroom_pct "
     "network one_machine",
     "needs {per_gpu} per GPU {?gpu:at}{!gpu:even at} {layout}; {?gpu:{gpu_id} has {usable} usable "
     "({headroom_pct} % headroom kept)}{!gpu:{usable} usable}{?span:; no layout across several {instance} "
     "is planned ({?network:its {network} Gbit/s network is below the 100 Gbit/s a cross-instance layout "
     "needs}{?one_machine:engine {engine} runs on one machine}{!network:{!one_machine:the provider offers "
     "no cluster network for it}})}{?max_gpus:; max_gpus is {max_gpus}}"},
    {"no_layout", K::Reason, "instance per_instance cluster engine multi_node gpus max_gpus",
     "no layout {?instance:of {?gpus:{gpus} GPUs}{!gpus:this size} can run on {instance} ({per_instance} "
     "GPUs "
     "per instance{!cluster:, no cluster network}; engine {engine}{!multi_node: runs on one machine})}"
     "{!instance:within max_gpus}{?max_gpus:; max_gpus is {max_gpus}}"},
    {"no_instance", K::Reason, "", "no instance passes the filters"},
    {"none_fits", K::Reason, " | closest", "no instance fits; closest: {closest}"},
    // The kinds of format_unsupported (values.kind): why a card cannot run the weight format.
    {"awq_volta", K::Format, "gpu weights",
     "AWQ kernels need compute capability 7.5 or newer; {gpu} (Volta) has 7.0"},
    {"fp8_old", K::Format, "gpu weights", "fp8 weights need compute capability 8.0 or newer; {gpu} is older"},
    {"fp8_blocks_sglang", K::Format, "gpu weights",
     "SGLang runs block-scaled fp8 checkpoints only on cards with fp8 tensor cores (its DeepSeek guide: "
     "FP8 on H100, H20, H200 or MI300X; BF16, INT8 or AWQ weights on A100/A800); {gpu} has none"},
    {"fp4_old", K::Format, "gpu weights",
     "{weights} weights need compute capability 8.0 or newer (vLLM's Marlin kernels; native from "
     "Blackwell); {gpu} cannot"},
    {"nvfp4_amd", K::Format, "gpu weights",
     "nvfp4 is NVIDIA's format: no AMD kernel runs it (use mxfp4 or fp8); {gpu} cannot"},
};

const nlohmann::json* value_of(const nlohmann::json& values, const std::string& name) {
  if (!values.is_object()) return nullptr;
  auto it = values.find(name);
  return it == values.end() ? nullptr : &*it;
}

[[noreturn]] void template_error(const char* text, const std::string& why) {
  throw std::logic_error(std::string("message template \"") + text + "\": " + why);
}

// The position of the "}" that closes the "{" at `open`.
size_t closing(std::string_view t, size_t open) {
  int depth = 0;
  for (size_t i = open; i < t.size(); ++i) {
    if (t[i] == '{') ++depth;
    if (t[i] == '}' && --depth == 0) return i;
  }
  return std::string_view::npos;
}

std::string joined(const nlohmann::json& items, const char* last) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? last : ", ";
    out += items[i].is_string() && std::string(last) == ", " ? items[i].get<std::string>() : items[i].dump();
  }
  return out;
}

std::string formatted(const nlohmann::json& v, std::string_view format) {
  if (format.empty()) return v.is_string() ? v.get<std::string>() : v.dump();
  if (format == "json") return v.dump();
  if (format == "or") return joined(v, " or ");
  if (format == "list") return joined(v, ", ");
  if (format == "gib") return fixed(v.get<double>() / (1024.0 * 1024.0 * 1024.0), 2) + " GiB";
  throw std::logic_error("unknown message format \"" + std::string(format) + "\"");
}

// Fills `t` (a template or a part of one) into `out`; with `names`, lists its value names instead.
void fill(const char* whole, std::string_view t, const nlohmann::json* values, std::string* out,
          std::vector<std::string>* names) {
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] != '{' || i + 1 >= t.size() || t[i + 1] == '"' || t[i + 1] == '.') {
      if (out) out->push_back(t[i]);
      continue;
    }
    const size_t end = closing(t, i);
    if (end == std::string_view::npos) template_error(whole, "unclosed {");
    const std::string_view inner = t.substr(i + 1, end - i - 1);
    if (inner[0] == '?' || inner[0] == '!') {
      const size_t colon = inner.find(':');
      if (colon == std::string_view::npos) template_error(whole, "a condition without ':'");
      const std::string name(inner.substr(1, colon - 1));
      if (names) {
        names->push_back(name);
        fill(whole, inner.substr(colon + 1), nullptr, nullptr, names);
      } else {
        const nlohmann::json* v = value_of(*values, name);
        const bool given = v != nullptr && !v->is_null() && *v != false && *v != "";
        if (given == (inner[0] == '?')) fill(whole, inner.substr(colon + 1), values, out, nullptr);
      }
    } else {
      const size_t colon = inner.find(':');
      const std::string name(inner.substr(0, colon));
      const std::string_view format = colon == std::string_view::npos ? "" : inner.substr(colon + 1);
      if (names) {
        names->push_back(name);
      } else {
        const nlohmann::json* v = value_of(*values, name);
        if (!v) template_error(whole, "no value for {" + name + "}");
        *out += formatted(*v, format);
      }
    }
    i = end;
  }
}

}  // namespace

const char* to_string(MessageKind k) {
  switch (k) {
    case MessageKind::Error:
      return "error";
    case MessageKind::Warning:
      return "warning";
    case MessageKind::Note:
      return "note";
    case MessageKind::Blocker:
      return "blocker";
    case MessageKind::Reason:
      return "reason";
    case MessageKind::Format:
      return "format";
  }
  return "";
}

const std::vector<Message>& messages() { return kMessages; }

const Message& message(std::string_view code) {
  // Built once: warnings and notes are looked up while ranking hundreds of plans.
  static const std::unordered_map<std::string_view, const Message*> by_code = [] {
    std::unordered_map<std::string_view, const Message*> map;
    for (const Message& m : kMessages) map.emplace(m.code, &m);
    return map;
  }();
  auto it = by_code.find(code);
  if (it != by_code.end()) return *it->second;
  throw std::logic_error("no message has the code \"" + std::string(code) + "\"");
}

namespace {

std::vector<std::string> words(std::string_view rest) {
  std::vector<std::string> out;
  while (!rest.empty()) {
    const size_t space = rest.find(' ');
    if (space != 0) out.emplace_back(rest.substr(0, space));
    rest = space == std::string_view::npos ? "" : rest.substr(space + 1);
  }
  return out;
}

constexpr std::string_view kTextOnly = " | ";

}  // namespace

std::vector<std::string> message_fields(const Message& m) {
  const std::string_view all = m.fields;
  return words(all.substr(0, all.find(kTextOnly)));
}

std::vector<std::string> message_text_fields(const Message& m) {
  const std::string_view all = m.fields;
  const size_t bar = all.find(kTextOnly);
  return bar == std::string_view::npos ? std::vector<std::string>()
                                       : words(all.substr(bar + kTextOnly.size()));
}

namespace {

void check_names(const Message& m, const nlohmann::json& values, const std::vector<std::string>& names) {
  for (auto it = values.begin(); it != values.end(); ++it) {
    if (std::find(names.begin(), names.end(), it.key()) == names.end())
      throw std::logic_error(std::string("message \"") + m.code + "\" has no field \"" + it.key() + "\"");
  }
}

}  // namespace

std::string message_text(const Message& m, const nlohmann::json& values, const nlohmann::json& text) {
  if (m.composed) throw std::logic_error(std::string("message \"") + m.code + "\" is composed at its site");
  check_names(m, values, message_fields(m));
  check_names(m, text, message_text_fields(m));
  nlohmann::json all = values;
  for (auto it = text.begin(); it != text.end(); ++it) all[it.key()] = *it;
  std::string out;
  fill(m.en, m.en, &all, &out, nullptr);
  return out;
}

std::string message_text(std::string_view code, const nlohmann::json& values, const nlohmann::json& text) {
  return message_text(message(code), values, text);
}

std::vector<std::string> template_names(std::string_view text) {
  std::vector<std::string> names;
  const std::string whole(text);
  fill(whole.c_str(), text, nullptr, nullptr, &names);
  return names;
}

nlohmann::json messages_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const Message& m : kMessages) {
    nlohmann::json e = {
        {"code", m.code}, {"kind", to_string(m.kind)}, {"fields", message_fields(m)}, {"en", m.en}};
    const std::vector<std::string> text_fields = message_text_fields(m);
    if (!text_fields.empty()) e["text_fields"] = text_fields;
    if (m.composed) e["composed"] = true;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace gpusizer
