// Training commands and files: `swift sft`, a LLaMA-Factory YAML, a DeepSpeed ds_config.json and
// the torchrun / deepspeed launch lines over the plan's nodes. Names checked against:
//   ms-swift 3.9         docs Command-line-parameters (train_type, quant_method bnb, quant_bits,
//                        bnb_4bit_quant_storage, lora_rank, target_modules, deepspeed zero0..3,
//                        zero2_offload, zero3_offload or a file, max_length, gradient_checkpointing,
//                        optim, max_grad_norm); examples/train/multi-node/swift (NNODES, NODE_RANK,
//                        MASTER_ADDR, NPROC_PER_NODE)
//   LLaMA-Factory 0.9.3  examples/train_full/llama3_full_sft.yaml, examples/train_qlora/
//                        llama3_lora_sft_otfq.yaml (quantization_method: bitsandbytes),
//                        examples/deepspeed/ds_z3_offload_config.json, examples/README.md
//                        (FORCE_TORCHRUN=1 NNODES NODE_RANK MASTER_ADDR MASTER_PORT)
//   DeepSpeed 0.17       deepspeed.ai/docs/config-json; deepspeed/launcher/runner.py (--hostfile,
//                        --num_nodes, --num_gpus, --node_rank, --master_addr, --master_port, --no_ssh)
//   torchrun             PyTorch torchrun docs (--nnodes, --nproc_per_node, --node_rank,
//                        --master_addr, --master_port)
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "base/format.h"
#include "launch/launch_internal.h"

namespace gpusizer {
namespace {

const char* const kMaxGradNorm = "1.0";  // ms-swift's and the HF Trainer's max_grad_norm default
const char* const kDsConfig = "ds_config.json";
const char* const kLlamaFactoryYaml = "train.yaml";

// Sequences an optimizer step takes: micro-batch x accumulation x data-parallel ranks (pre-training
// with no accumulation named: the recipe's, apply_layout_defaults in scenario.cpp).
int64_t global_batch(const LaunchContext& c) { return c.s.batch * c.dp() * c.s.training.grad_accum; }

bool bnb_4bit(const LaunchContext& c) {
  return c.s.task == Task::Qlora && (c.s.weights == WeightFormat::Nf4 || c.s.weights == WeightFormat::Int4);
}
bool lora(const LaunchContext& c) { return c.s.task == Task::Lora || c.s.task == Task::Qlora; }

// Hugging Face TrainingArguments.optim names; "" for the default AdamW.
std::string hf_optim(Optimizer o) {
  switch (o) {
    case Optimizer::Adamw8bit:
      return "adamw_bnb_8bit";
    case Optimizer::PagedAdamw8bit:
      return "paged_adamw_8bit";
    case Optimizer::Sgd:
      return "sgd";
    case Optimizer::Adafactor:
      return "adafactor";
    default:
      return "";
  }
}

// Module names of Llama/Qwen-style checkpoints; ms-swift separates them by spaces, LLaMA-Factory by commas.
std::string lora_modules(LoraTargets t, const char* sep) {
  switch (t) {
    case LoraTargets::Attention:
      return cat({"q_proj", sep, "k_proj", sep, "v_proj", sep, "o_proj"});
    case LoraTargets::Qv:
      return cat({"q_proj", sep, "v_proj"});
    default:
      return "";
  }
}

// The optimizer steps that train on training.tokens (global batch x seq_len tokens each, rounded
// up); none when the scenario names no token count (the tools' own epochs then).
std::optional<int64_t> steps_for_tokens(const LaunchContext& c) {
  if (!c.s.training.tokens) return std::nullopt;
  const double per_step = static_cast<double>(global_batch(c)) * static_cast<double>(c.s.seq_len);
  return static_cast<int64_t>(std::ceil(*c.s.training.tokens / per_step));
}

// "auto": the HF Trainer fills the value from its own arguments (transformers
// integrations/deepspeed.py, HfTrainerDeepSpeedConfig.trainer_config_process) and refuses a fixed
// one that differs from them ("Please correct the following DeepSpeed config values that mismatch
// TrainingArguments values"). Every command here runs the HF Trainer, which gets the figures.
const char* const kAuto = "auto";

nlohmann::json precision_block(const LaunchContext& c) {
  if (!c.fp16) return nlohmann::json({{"enabled", kAuto}});
  // Dynamic loss scaling (loss_scale 0) with DeepSpeed's documented defaults.
  return nlohmann::json({{"enabled", kAuto},
                         {"loss_scale", 0},
                         {"loss_scale_window", 1000},
                         {"initial_scale_power", 16},
                         {"hysteresis", 2},
                         {"min_loss_scale", 1}});
}

// Keys come out sorted (nlohmann::json): DeepSpeed reads them by name, and one JSON type keeps
// the wasm small (ordered_json would instantiate the whole library twice).
std::string ds_config_text(const LaunchContext& c) {
  nlohmann::json zero = nlohmann::json({{"stage", c.plan.zero}});
  const nlohmann::json cpu = nlohmann::json({{"device", "cpu"}, {"pin_memory", true}});
  if (c.s.training.offload_optimizer) zero["offload_optimizer"] = cpu;
  if (c.s.training.offload_params) zero["offload_param"] = cpu;
  zero["overlap_comm"] = true;
  zero["contiguous_gradients"] = true;
  if (c.plan.zero == 3) zero["stage3_gather_16bit_weights_on_model_save"] = true;  // a loadable checkpoint
  nlohmann::json j = nlohmann::json({{"train_batch_size", kAuto},
                                     {"train_micro_batch_size_per_gpu", kAuto},
                                     {"gradient_accumulation_steps", kAuto},
                                     {"gradient_clipping", kAuto},
                                     {"zero_allow_untested_optimizer", true}});  // the HF Trainer's optimizer
  j[c.fp16 ? "fp16" : "bf16"] = precision_block(c);
  j["zero_optimization"] = zero;
  return j.dump(2) + "\n";
}

// Engine fsdp with sharded gradients: the HF Trainer's own FSDP (TrainingArguments.fsdp, which
// ms-swift's and LLaMA-Factory's arguments inherit; with auto_wrap it wraps the model's
// _no_split_modules), in every data-parallel command instead of DeepSpeed. "" otherwise.
std::string fsdp_option(const LaunchContext& c) {
  if (c.s.engine != Engine::Fsdp || c.plan.zero < 2) return "";
  std::string how = c.plan.zero >= 3 ? "full_shard auto_wrap" : "shard_grad_op auto_wrap";
  if (c.s.training.offload_optimizer || c.s.training.offload_params) how += " offload";
  return how;
}

// ms-swift's built-in configs when one matches the plan exactly; else the generated file.
std::string swift_deepspeed(const LaunchContext& c) {
  const bool opt = c.s.training.offload_optimizer, par = c.s.training.offload_params;
  if (!opt && !par) return cat({"zero", c.plan.zero});
  if (c.plan.zero == 2 && opt && !par) return "zero2_offload";
  if (c.plan.zero == 3 && opt && par) return "zero3_offload";
  return kDsConfig;
}

// NNODES=... NPROC_PER_NODE=... prefixes read by ms-swift and LLaMA-Factory.
std::string node_env(const LaunchContext& c) {
  std::string env = visible_devices(c);
  if (c.multi_node()) {
    env += cat({"NNODES=", c.plan.instances, " NODE_RANK=", kNodeRank, " MASTER_ADDR=", kMasterAddr,
                " MASTER_PORT=", kMasterPort, " "});
  }
  return env;
}

// Fine-tuning steps derived from training.tokens count full sequences, which holds only when the
// samples are packed; FlashAttention keeps packed samples apart.
bool packed(const LaunchContext& c) { return c.s.training.tokens.has_value() && c.s.flash_attention; }

void add_swift_sft(const LaunchContext& c, Launch& out) {
  Flags f;
  f.add("--model", c.model);
  add_swift_hub(c, f);
  f.add("--train_type", lora(c) ? "lora" : "full").add("--torch_dtype", dtype_name(c));
  if (bnb_4bit(c)) {
    f.add("--quant_method", "bnb");
    f.add("--quant_bits", "4");
    // QLoRA under ZeRO-3 shards the 4-bit weights only when they are stored in the compute dtype.
    if (c.plan.zero == 3) f.add("--bnb_4bit_quant_storage", dtype_name(c));
  }
  if (lora(c)) {
    f.add("--lora_rank", c.s.training.lora_rank);
    const std::string modules = lora_modules(c.s.training.lora_targets, " ");
    f.add("--target_modules", modules.empty() ? "all-linear" : modules);
  }
  if (!fsdp_option(c).empty()) {
    f.add("--fsdp", cat({"\"", fsdp_option(c), "\""}));
  } else if (c.plan.zero > 0) {
    f.add("--deepspeed", swift_deepspeed(c));
  }
  f.add("--max_length", c.s.seq_len);
  f.add("--per_device_train_batch_size", c.s.batch);
  f.add("--gradient_accumulation_steps", c.s.training.grad_accum);
  f.add("--gradient_checkpointing",
        c.s.training.grad_checkpointing == Checkpointing::None ? "false" : "true");
  if (!hf_optim(c.s.training.optimizer).empty()) f.add("--optim", hf_optim(c.s.training.optimizer));
  f.add("--max_grad_norm", kMaxGradNorm);
  if (const auto steps = steps_for_tokens(c)) {
    f.add("--max_steps", *steps);
    // Steps counted in full sequences: the samples are packed into them, kept apart by
    // FlashAttention's varlen path (ms-swift's Command-line-parameters: --packing, --attn_impl).
    if (packed(c)) f.add("--packing", "true").add("--attn_impl", "flash_attn");
  }
  f.add("--dataset", "/path/to/train.jsonl");
  f.add("--output_dir", "output");
  const std::string head = cat({node_env(c), "NPROC_PER_NODE=", c.nproc_per_node, " \\\nswift ",
                                c.s.task == Task::Pretrain ? "pt" : "sft"});
  add_command(out, "ms-swift", kSwiftVersion, "shell", "", shell_command(head, f));
}

// The chat template LLaMA-Factory 0.9.3 registers for the model's repositories (catalog/checkpoints.h).
std::string llamafactory_template(const LaunchContext& c) {
  return c.facts && !c.facts->llamafactory_template.empty() ? c.facts->llamafactory_template : "default";
}

// LLaMA-Factory 0.9.3's examples (examples/train_lora/llama3_lora_sft.yaml,
// examples/train_full/llama3_full_sft.yaml): learning rate 1.0e-4 for LoRA, 1.0e-5 for full; the
// YAML's logging_steps 10, save_steps 500, 3 epochs, cosine schedule and warmup 0.1 are theirs too.
const char* learning_rate(const LaunchContext& c) { return lora(c) ? "1.0e-4" : "1.0e-5"; }

std::string llamafactory_yaml(const LaunchContext& c) {
  std::string y = cat({"### model\nmodel_name_or_path: ", c.model, "\n"});
  if (c.remote_code()) y += "trust_remote_code: true\n";
  if (bnb_4bit(c)) y += "quantization_bit: 4\nquantization_method: bitsandbytes\n";
  y += cat({"\n### method\nstage: ", c.s.task == Task::Pretrain ? "pt" : "sft", "\ndo_train: true\n",
            "finetuning_type: ", lora(c) ? "lora" : "full", "\n"});
  if (lora(c)) {
    const std::string modules = lora_modules(c.s.training.lora_targets, ",");
    y += cat({"lora_rank: ", c.s.training.lora_rank,
              "\nlora_target: ", modules.empty() ? "all" : modules.c_str(), "\n"});
  }
  if (!fsdp_option(c).empty()) {
    y += cat({"fsdp: ", fsdp_option(c), "\n"});
  } else if (c.plan.zero > 0) {
    y += cat({"deepspeed: ", kDsConfig, "\n"});
  }
  y += cat({"\n### dataset\ndataset: my_dataset\ntemplate: ", llamafactory_template(c),
            "\ncutoff_len: ", c.s.seq_len, "\n"});
  // As ms-swift's: neat_packing keeps the packed samples from attending to each other (flash_attn fa2).
  if (packed(c)) y += "packing: true\nneat_packing: true\nflash_attn: fa2\n";
  y += cat({"\n### output\noutput_dir: saves/run\nlogging_steps: 10\nsave_steps: 500\n",
            "\n### train\nper_device_train_batch_size: ", c.s.batch, "\ngradient_accumulation_steps: ",
            c.s.training.grad_accum, "\nlearning_rate: ", learning_rate(c), "\n"});
  const auto steps = steps_for_tokens(c);
  y += steps ? cat({"max_steps: ", *steps, "\n"}) : std::string("num_train_epochs: 3.0\n");
  y += "lr_scheduler_type: cosine\nwarmup_ratio: 0.1\n";
  const std::string optim = hf_optim(c.s.training.optimizer);
  if (!optim.empty()) y += cat({"optim: ", optim, "\n"});
  y += cat({"max_grad_norm: ", kMaxGradNorm, "\n", c.fp16 ? "fp16" : "bf16", ": true\n",
            "disable_gradient_checkpointing: ",
            c.s.training.grad_checkpointing == Checkpointing::None ? "true" : "false", "\n"});
  return y;
}

void add_llamafactory(const LaunchContext& c, Launch& out) {
  add_command(out, "llama-factory", kLlamaFactoryVersion, "yaml", kLlamaFactoryYaml, llamafactory_yaml(c));
  add_command(out, "llama-factory", kLlamaFactoryVersion, "shell", "",
              cat({node_env(c), modelscope_env(c, "USE_MODELSCOPE_HUB"),
                   "FORCE_TORCHRUN=1 llamafactory-cli train ", kLlamaFactoryYaml, "\n"}));
}

// The generic launchers, for a Hugging Face Trainer script of one's own (train.py).
void add_launchers(const LaunchContext& c, Launch& out) {
  Flags t, d;
  t.add("--nnodes", c.plan.instances).add("--nproc_per_node", c.nproc_per_node);
  if (c.multi_node()) {
    t.add("--node_rank", kNodeRank).add("--master_addr", kMasterAddr).add("--master_port", kMasterPort);
    d.add("--hostfile", "hostfile")
        .add("--num_nodes", c.plan.instances)
        .add("--num_gpus", c.nproc_per_node)
        .add("--node_rank", kNodeRank)
        .add("--master_addr", kMasterAddr)
        .add("--master_port", kMasterPort)
        .add("--no_ssh");
  } else {
    d.add("--num_gpus", c.nproc_per_node);
  }
  // train.py's TrainingArguments carry the figures ds_config.json leaves "auto". Engine fsdp:
  // torchrun's train.py runs the Trainer's own FSDP, which excludes --deepspeed and the deepspeed
  // launcher.
  const std::string fsdp = fsdp_option(c);
  for (Flags* flags : {&t, &d}) {
    flags->add("train.py");
    if (!fsdp.empty()) {
      flags->add("--fsdp", cat({"\"", fsdp, "\""}));
    } else {
      flags->add("--deepspeed", kDsConfig);
    }
    flags->add("--per_device_train_batch_size", c.s.batch)
        .add("--gradient_accumulation_steps", c.s.training.grad_accum)
        .add(c.fp16 ? "--fp16" : "--bf16", "true")
        .add("--max_grad_norm", kMaxGradNorm)
        .add("--gradient_checkpointing",
             c.s.training.grad_checkpointing == Checkpointing::None ? "false" : "true")
        .add("--learning_rate", learning_rate(c));
    if (!hf_optim(c.s.training.optimizer).empty()) flags->add("--optim", hf_optim(c.s.training.optimizer));
    if (const auto steps = steps_for_tokens(c)) flags->add("--max_steps", *steps);
  }
  add_command(out, "torchrun", kTorchrunVersion, "shell", "", shell_command("torchrun", t));
  if (fsdp.empty())
    add_command(out, "deepspeed", kDeepspeedVersion, "shell", "", shell_command("deepspeed", d));
}

// Pre-training from scratch: Megatron-LM's pretrain_gpt.py with the model's architecture, the
// plan's parallelism and batch (flags: megatron/training/arguments.py at core_v0.15.3; launch as
// in its examples/llama and examples/mixtral scripts: CUDA_DEVICE_MAX_CONNECTIONS=1 torchrun).
// LLaMA, table 2: the 3.0e-4 peak for 6.7B and 13B, 1.5e-4 from 32.5B; a line between them.
constexpr double kSmallPretrainParams = 20e9;
constexpr int64_t kWarmupSteps = 2000;  // LLaMA, section 2.3

void add_megatron_pretrain(const LaunchContext& c, Launch& out) {
  const Architecture& a = c.s.model;
  Flags t;
  t.add("--nproc_per_node", c.nproc_per_node).add("--nnodes", c.plan.instances);
  if (c.multi_node())
    t.add("--node_rank", kNodeRank).add("--master_addr", kMasterAddr).add("--master_port", kMasterPort);
  t.add("pretrain_gpt.py");
  t.add("--num-layers", a.layers).add("--hidden-size", a.hidden).add("--num-attention-heads", a.heads);
  if (a.intermediate > 0) t.add("--ffn-hidden-size", a.intermediate);
  if (a.kv_heads != a.heads) t.add("--group-query-attention").add("--num-query-groups", a.kv_heads);
  if (a.head_dim > 0 && a.head_dim * a.heads != a.hidden) t.add("--kv-channels", a.head_dim);
  t.add("--seq-length", c.s.seq_len).add("--max-position-embeddings", std::max(c.s.seq_len, a.max_positions));
  t.add("--position-embedding-type", "rope");
  // The model's RoPE base (--rotary-base takes an integer; default 10000) and Llama 3.1's scaling:
  // --use-rope-scaling applies factor 8, low/high frequency factors 1 and 4 over an original 8192
  // context (rotary_pos_embedding.py _apply_scaling; gpt_builders.py passes no --rope-scaling-factor
  // on), so only a model with those four values gets it.
  const RopeScalingConfig& rope = a.rope_scaling;
  if (a.rope_theta > 0 && a.rope_theta == std::floor(a.rope_theta)) {
    t.add("--rotary-base", static_cast<int64_t>(a.rope_theta));
  } else {
    add_note(out, "megatron_rotary_base", {{"theta", a.rope_theta}});
  }
  if (rope.type == "llama3" && rope.factor == 8 && rope.low_freq_factor == 1 && rope.high_freq_factor == 4 &&
      rope.original_max_positions == 8192) {
    t.add("--use-rope-scaling");
  } else if (!rope.type.empty()) {
    add_note(out, "megatron_rope_scaling", {{"type", rope.type}, {"factor", rope.factor}});
  }
  t.add("--normalization", a.norm == NormKind::Rms ? "RMSNorm" : "LayerNorm");
  // arguments.py: --norm-epsilon defaults to 1e-5.
  if (a.norm_eps > 0 && a.norm_eps != 1e-5) t.add("--norm-epsilon", scientific(a.norm_eps, 6));
  if (a.norm_eps == 0) add_note(out, "megatron_norm_epsilon");
  if (a.mlp == MlpKind::Gated) t.add("--swiglu");
  if (!a.tied_embeddings) t.add("--untie-embeddings-and-output-weights");
  t.add("--disable-bias-linear");
  if (a.attn_bias == AttnBias::Qkv) t.add("--add-qkv-bias");
  if (a.qk_norm) t.add("--qk-layernorm");
  if (a.experts > 0) {
    t.add("--num-experts", a.experts).add("--moe-router-topk", a.experts_per_token);
    t.add("--moe-ffn-hidden-size", a.expert_intermediate);
    if (a.shared_experts > 0) {
      const int64_t shared =
          a.shared_expert_intermediate > 0 ? a.shared_expert_intermediate : a.expert_intermediate;
      t.add("--moe-shared-expert-intermediate-size", shared * a.shared_experts);
    }
    t.add("--moe-grouped-gemm");
    // examples/mixtral/train_mixtral_8x7b_distributed.sh: experts balanced by an auxiliary loss
    // (arguments.py's coefficient defaults to 0), tokens dispatched all-to-all.
    t.add("--moe-router-load-balancing-type", "aux_loss").add("--moe-aux-loss-coeff", "1e-2");
    t.add("--moe-token-dispatcher-type", "alltoall");
  }
  t.add("--tensor-model-parallel-size", c.plan.tp).add("--pipeline-model-parallel-size", c.plan.pp);
  // Expert parallelism with whole experts per rank (expert TP 1), as the plan was sized.
  if (c.plan.ep > 1) t.add("--expert-model-parallel-size", c.plan.ep).add("--expert-tensor-parallel-size", 1);
  if (c.plan.tp > 1) t.add("--sequence-parallel");
  if (c.plan.zero > 0) t.add("--use-distributed-optimizer");  // shards the optimizer states (ZeRO-1)
  t.add("--micro-batch-size", c.s.batch).add("--global-batch-size", global_batch(c));
  t.add(c.fp16 ? "--fp16" : "--bf16");
  if (c.s.training.grad_checkpointing == Checkpointing::Full)
    t.add("--recompute-granularity", "full")
        .add("--recompute-method", "uniform")
        .add("--recompute-num-layers", 1);
  if (c.s.training.grad_checkpointing == Checkpointing::Selective)
    t.add("--recompute-granularity", "selective");
  // LLaMA (arXiv 2302.13971, section 2.3 and table 2): AdamW beta1 0.9, beta2 0.95, weight decay
  // 0.1, gradient clipping 1.0, 2000 warmup steps, cosine to 10 % of a peak of 3.0e-4 (6.7B,
  // 13B) or 1.5e-4 (32.5B, 65.2B): here by the parameters each token meets (an MoE's active ones).
  const bool small = count_params(a).active <= kSmallPretrainParams;
  t.add("--lr", small ? "3.0e-4" : "1.5e-4").add("--min-lr", small ? "3.0e-5" : "1.5e-5");
  t.add("--lr-decay-style", "cosine");
  t.add("--adam-beta1", "0.9")
      .add("--adam-beta2", "0.95")
      .add("--weight-decay", "0.1")
      .add("--clip-grad", "1.0");
  if (const auto steps = steps_for_tokens(c)) {
    t.add("--train-iters", *steps).add("--lr-warmup-iters", std::min<int64_t>(kWarmupSteps, *steps / 10));
  } else {
    t.add("--train-iters", "$TRAIN_ITERS").add("--lr-warmup-iters", kWarmupSteps);
  }
  t.add("--tokenizer-type", "HuggingFaceTokenizer").add("--tokenizer-model", c.model);
  // --split as examples/gpt3/train_gpt3_175b_distributed.sh; --log-interval 100 is arguments.py's default.
  t.add("--data-path", "/path/to/corpus_text_document").add("--split", "949,50,1");
  // examples/gpt3/train_gpt3_175b_distributed.sh: a checkpoint every 10,000 steps, resumed with
  // --load, 10 evaluation batches every 1,000.
  t.add("--save", "/path/to/checkpoints").add("--load", "/path/to/checkpoints").add("--save-interval", 10000);
  t.add("--eval-interval", 1000).add("--eval-iters", 10).add("--log-interval", 100);
  add_command(out, "megatron-lm", kMegatronVersion, "shell", "",
              shell_command("CUDA_DEVICE_MAX_CONNECTIONS=1 torchrun", t));
}

// Fine-tuning a checkpoint under tensor, pipeline or expert parallelism: Megatron-SWIFT (ms-swift's
// `megatron sft`, Megatron-Core underneath), which converts the Hugging Face weights to Megatron's
// format and back (docs/source_en/Megatron-SWIFT/Quick-start.md at v3.9.0: swift export --to_mcore,
// megatron sft --load ... --finetune true, swift export --to_hf). It reads the architecture (RoPE
// base and scaling, norm epsilon, MoE shapes) from the checkpoint's config.json (swift/megatron/
// model/config.py), so the command names no architecture flags.
// The folder `swift export --to_mcore` writes the checkpoint's Megatron weights to.
std::string mcore_folder(const LaunchContext& c) {
  return c.model.substr(c.model.find_last_of('/') + 1) + "-mcore";
}

void add_megatron_swift(const LaunchContext& c, Launch& out) {
  const std::string name = c.model.substr(c.model.find_last_of('/') + 1);
  const std::string mcore = mcore_folder(c);
  Flags e;
  e.add("--model", c.model);
  add_swift_hub(c, e);
  e.add("--to_mcore", "true").add("--torch_dtype", dtype_name(c)).add("--output_dir", mcore);
  add_command(out, "ms-swift", kSwiftVersion, "shell", "", shell_command("swift export", e));
  Flags f;
  f.add("--load", mcore)
      .add("--dataset", "/path/to/train.jsonl")
      .add("--train_type", lora(c) ? "lora" : "full");
  if (lora(c)) {
    f.add("--lora_rank", c.s.training.lora_rank);
    const std::string modules = lora_modules(c.s.training.lora_targets, " ");
    f.add("--target_modules", modules.empty() ? "all-linear" : modules);
  }
  f.add("--tensor_model_parallel_size", c.plan.tp).add("--pipeline_model_parallel_size", c.plan.pp);
  if (c.plan.tp > 1) f.add("--sequence_parallel", "true");
  if (c.s.model.experts > 0) {
    // Whole experts per rank (expert TP 1, the default), as the plan was sized; grouped GEMMs and
    // the auxiliary balance loss of ms-swift's MoE examples (examples/megatron/moe/qwen3_moe.sh and
    // deepseek_v3.sh at v3.9.0: --moe_aux_loss_coeff 1e-3; its default 0 turns the loss off).
    // megatron_args.py: moe_grouped_gemm defaults to False at v3.9.0 (True from v3.10.0), so it is written.
    f.add("--expert_model_parallel_size", c.plan.ep).add("--moe_grouped_gemm", "true");
    f.add("--moe_aux_loss_coeff", "1e-3");
  }
  // Megatron-SWIFT shards the optimizer states by default (megatron_args.py: use_distributed_optimizer
  // True, at v3.9.0 as at 4.x): turned off only where the input states ZeRO 0. An unstated stage 0
  // (a planned layout with one data-parallel rank, an explicit plan without one) keeps the default:
  // at worst it shards more than was sized.
  if (c.plan.zero == 0 && c.plan.zero_stated) f.add("--use_distributed_optimizer", "false");
  f.add("--micro_batch_size", c.s.batch).add("--global_batch_size", global_batch(c));
  // recompute_granularity takes selective or full (megatron_args.py at v3.9.0; selective is its
  // default and recomputes only the core attention).
  if (c.s.training.grad_checkpointing == Checkpointing::Full) {
    f.add("--recompute_granularity", "full")
        .add("--recompute_method", "uniform")
        .add("--recompute_num_layers", 1);
  } else {
    f.add("--recompute_granularity", "selective");
  }
  f.add("--finetune", "true");
  f.add(c.fp16 ? "--fp16" : "--bf16", "true");
  // The learning rates of ms-swift's Megatron examples (full 1e-5 to 1e-6, LoRA 1e-4 to 1e-5;
  // warmup 5 %), the same peaks as the data-parallel commands (learning_rate).
  f.add("--lr", learning_rate(c))
      .add("--min_lr", lora(c) ? "1.0e-5" : "1.0e-6")
      .add("--lr_warmup_fraction", "0.05");
  f.add("--max_length", c.s.seq_len);
  if (const auto steps = steps_for_tokens(c)) {
    f.add("--train_iters", *steps);
    if (packed(c)) f.add("--packing", "true");
  } else {
    f.add("--max_epochs", 1);
  }
  // Every 200 steps, as ms-swift's MoE and multi-node examples at v3.9.0 (examples/megatron/moe/
  // qwen3_moe.sh, multi-node/node1.sh: --save_interval 200).
  f.add("--save", "megatron_output/" + name).add("--save_interval", 200);
  f.add("--no_save_optim", "true").add("--no_save_rng", "true");
  const std::string head = cat({"PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True' ", node_env(c),
                                "NPROC_PER_NODE=", c.nproc_per_node, " \\\nmegatron sft"});
  add_command(out, "megatron-swift", kSwiftVersion, "shell", "", shell_command(head, f));
  Flags h;
  h.add("--mcore_model", "megatron_output/" + name + "/vx-xxx").add("--to_hf", "true");
  h.add("--torch_dtype", dtype_name(c)).add("--output_dir", "megatron_output/" + name + "/vx-xxx-hf");
  add_command(out, "ms-swift", kSwiftVersion, "shell", "", shell_command("swift export", h));
}

bool data_parallel_layout(const LaunchContext& c) {
  return c.plan.tp == 1 && c.plan.pp == 1 && c.plan.ep == 1;
}

// Engine megatron with a Megatron command for the task (Megatron-SWIFT's fine-tuning, Megatron-LM's
// pre-training): that command runs the plan, whose stage is Megatron's distributed optimizer, not a
// DeepSpeed ZeRO stage.
bool megatron_engine_runs(const LaunchContext& c) {
  return c.s.engine == Engine::Megatron && (megatron_finetune(c) || megatron_pretrain(c));
}

// Whether the data-parallel tools' commands (ms-swift sft, LLaMA-Factory, DeepSpeed) are written: a
// data-parallel layout of an engine other than a Megatron that runs it.
bool data_parallel_commands(const LaunchContext& c) {
  return data_parallel_layout(c) && !megatron_engine_runs(c);
}

void add_training_notes(const LaunchContext& c, Launch& out) {
  const Training& t = c.s.training;
  add_note(out, "global_batch",
           {{"batch", c.s.batch},
            {"grad_accum", t.grad_accum},
            {"dp", c.dp()},
            {"global", global_batch(c)},
            {"seq_len", c.s.seq_len}});
  if (c.s.task == Task::Pretrain && !t.grad_accum_stated) {
    add_note(out, "recipe_accumulation",
             {{"grad_accum", t.grad_accum},
              {"tokens", static_cast<double>(global_batch(c)) * static_cast<double>(c.s.seq_len)}});
  }
  if (!t.master_weights) add_note(out, "pure_16bit");
  if (t.grad_checkpointing == Checkpointing::Selective && data_parallel_commands(c))
    add_note(out, "selective_checkpointing");
  if (t.lora_targets != LoraTargets::AllLinear && lora(c)) add_note(out, "lora_module_names");
  if (c.s.task == Task::Qlora && !bnb_4bit(c)) add_note(out, "qlora_gptq");
  if (c.plan.zero == 3 && bnb_4bit(c)) add_note(out, "bnb_zero3");
  if (!fsdp_option(c).empty()) {
    add_note(out, "fsdp_trainer", {{"fsdp", fsdp_option(c)}});
  } else if (c.s.engine == Engine::Fsdp) {
    add_note(out, "fsdp_as_zero", {{"zero", c.plan.zero}});
  }
  if (c.s.engine == Engine::Megatron && !megatron_pretrain(c) && !megatron_finetune(c))
    add_note(out, "megatron_as_deepspeed");
  if (megatron_finetune(c)) {
    add_note(out, "megatron_swift_steps", {{"mcore", mcore_folder(c)}});
    if (t.grad_checkpointing == Checkpointing::None) add_note(out, "megatron_swift_selective");
  }
  // The notes of the data-parallel tools' commands (absent under tensor, pipeline or expert parallelism).
  if (data_parallel_commands(c)) {
    add_note(out, "dataset_placeholders",
             {{"template", llamafactory_template(c) == "default" ? "" : llamafactory_template(c)}});
    add_note(out, "train_py");
    if (c.s.task == Task::Pretrain) {
      add_note(out, "continued_pretraining",
               {{"repo", c.model}, {"from_scratch", megatron_gpt_builds(c.s.model)}});
    }
  }
  if (c.multi_node()) {
    add_note(out, "node_rank", {{"last_rank", c.plan.instances - 1}});
    // The hostfile only the deepspeed launcher reads (data-parallel commands, add_launchers).
    if (data_parallel_commands(c) && fsdp_option(c).empty())
      add_note(out, "deepspeed_hostfile", {{"slots", c.nproc_per_node}});
  }
}

}  // namespace

// What Megatron-LM's GPT model (megatron/core/models/gpt) cannot build: MLA, linear or lightning
// attention, sliding windows, attention sinks, gated attention output, encoders, learned
// positions, biases on every projection, extra norms (Gemma 2).
bool megatron_gpt_builds(const Architecture& a) {
  return a.mla.kv_lora_rank == 0 && a.linear_attn_layers == 0 && !a.lightning_attn && a.sliding_window == 0 &&
         !a.attn_sinks && !a.attn_output_gate && !a.encoder && a.learned_positions == 0 &&
         a.vision_params == 0 && a.attn_bias != AttnBias::All && !a.mlp_bias && !a.expert_bias &&
         a.norms_per_layer == 2;
}

bool megatron_pretrain(const LaunchContext& c) {
  return c.s.task == Task::Pretrain && megatron_gpt_builds(c.s.model);
}

// The model families Megatron-SWIFT 3.9 converts to Megatron-Core (swift/megatron/model/gpt/
// __init__.py and qwen3_next.py at v3.9.0: qwen2/2.5, llama 1-3.3, Yi, the DeepSeek-R1 distills,
// qwen3 and qwen3_moe, deepseek_v3 / r1 / v3.1, glm4_5, qwen3_next; not Mixtral, Mistral, Gemma,
// Phi, Baichuan, ChatGLM or InternLM2).
bool megatron_swift_builds(const Architecture& a) {
  for (const char* f : {"llama", "qwen2", "qwen3", "qwen3_moe", "deepseek_v3", "glm4_moe", "qwen3_next"}) {
    if (a.family == f) return true;
  }
  return false;
}

bool megatron_finetune(const LaunchContext& c) {
  const bool parallel = c.plan.tp > 1 || c.plan.pp > 1 || c.plan.ep > 1;
  return (c.s.task == Task::Full || c.s.task == Task::Lora) && megatron_swift_builds(c.s.model) &&
         (parallel || c.s.engine == Engine::Megatron);
}

void add_training(const LaunchContext& c, Launch& out) {
  // Tensor or pipeline parallelism: only Megatron-LM's pretrain_gpt.py expresses it (launch_blocker
  // refuses the rest); the data-parallel tools' commands would train another layout.
  // Engine megatron on a data-parallel layout: its own command alone as well.
  if (!data_parallel_commands(c)) {
    if (megatron_finetune(c)) {
      add_megatron_swift(c, out);
    } else {
      add_megatron_pretrain(c, out);
    }
    if (!data_parallel_layout(c)) {
      if (megatron_finetune(c)) {
        add_note(out, "megatron_swift_layout", {{"tp", c.plan.tp}, {"pp", c.plan.pp}, {"ep", c.plan.ep}});
      } else {
        add_note(out, "megatron_layout_only", {{"tp", c.plan.tp}, {"pp", c.plan.pp}});
      }
    } else {
      add_note(out, "megatron_engine_only", {{"zero", c.plan.zero}, {"dp", c.dp()}});
    }
    add_training_notes(c, out);
    return;
  }
  add_swift_sft(c, out);
  add_llamafactory(c, out);
  if (fsdp_option(c).empty())
    add_command(out, "deepspeed", kDeepspeedVersion, "json", kDsConfig, ds_config_text(c));
  add_launchers(c, out);
  if (c.s.engine != Engine::Megatron && megatron_pretrain(c)) add_megatron_pretrain(c, out);
  add_training_notes(c, out);
}

}  // namespace gpusizer
