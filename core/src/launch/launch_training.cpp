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
#include <string>

#include <nlohmann/json.hpp>

#include "launch/launch_internal.h"

namespace gpusizer {
namespace {

constexpr double kGradientClipping = 1.0;  // ms-swift's and the HF Trainer's max_grad_norm default
const char* const kDsConfig = "ds_config.json";
const char* const kLlamaFactoryYaml = "train.yaml";

int64_t global_batch(const LaunchContext& c) { return c.s.batch * c.s.training.grad_accum * c.dp(); }

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

nlohmann::json precision_block(const LaunchContext& c) {
  if (!c.fp16) return nlohmann::json({{"enabled", true}});
  // Dynamic loss scaling (loss_scale 0) with DeepSpeed's documented defaults.
  return nlohmann::json({{"enabled", true},
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
  nlohmann::json j = nlohmann::json(
      {{"train_batch_size", global_batch(c)},
       {"train_micro_batch_size_per_gpu", c.s.batch},
       {"gradient_accumulation_steps", c.s.training.grad_accum},
       {"gradient_clipping", kGradientClipping},
       {"zero_allow_untested_optimizer", true}});  // the HF Trainer's optimizer, not DeepSpeed's
  j[c.fp16 ? "fp16" : "bf16"] = precision_block(c);
  j["zero_optimization"] = zero;
  return j.dump(2) + "\n";
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

void add_swift_sft(const LaunchContext& c, Launch& out) {
  Flags f;
  f.add("--model", c.model)
      .add("--train_type", lora(c) ? "lora" : "full")
      .add("--torch_dtype", dtype_name(c));
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
  if (c.plan.zero > 0) f.add("--deepspeed", swift_deepspeed(c));
  f.add("--max_length", c.s.seq_len);
  f.add("--per_device_train_batch_size", c.s.batch);
  f.add("--gradient_accumulation_steps", c.s.training.grad_accum);
  f.add("--gradient_checkpointing",
        c.s.training.grad_checkpointing == Checkpointing::None ? "false" : "true");
  if (!hf_optim(c.s.training.optimizer).empty()) f.add("--optim", hf_optim(c.s.training.optimizer));
  f.add("--max_grad_norm", "1.0");
  f.add("--dataset", "/path/to/train.jsonl");
  f.add("--output_dir", "output");
  const std::string head = cat({node_env(c), "NPROC_PER_NODE=", c.nproc_per_node, " \\\nswift ",
                                c.s.task == Task::Pretrain ? "pt" : "sft"});
  add_command(out, "ms-swift", kSwiftVersion, "shell", "", shell_command(head, f));
}

std::string llamafactory_yaml(const LaunchContext& c) {
  std::string y = cat({"### model\nmodel_name_or_path: ", c.model, "\n"});
  if (bnb_4bit(c)) y += "quantization_bit: 4\nquantization_method: bitsandbytes\n";
  y += cat({"\n### method\nstage: ", c.s.task == Task::Pretrain ? "pt" : "sft", "\ndo_train: true\n",
            "finetuning_type: ", lora(c) ? "lora" : "full", "\n"});
  if (lora(c)) {
    const std::string modules = lora_modules(c.s.training.lora_targets, ",");
    y += cat({"lora_rank: ", c.s.training.lora_rank,
              "\nlora_target: ", modules.empty() ? "all" : modules.c_str(), "\n"});
  }
  if (c.plan.zero > 0) y += cat({"deepspeed: ", kDsConfig, "\n"});
  y += cat({"\n### dataset\ndataset: my_dataset\ntemplate: default\ncutoff_len: ", c.s.seq_len, "\n",
            "\n### output\noutput_dir: saves/run\n", "\n### train\nper_device_train_batch_size: ", c.s.batch,
            "\ngradient_accumulation_steps: ", c.s.training.grad_accum, "\n"});
  const std::string optim = hf_optim(c.s.training.optimizer);
  if (!optim.empty()) y += cat({"optim: ", optim, "\n"});
  y += cat({"max_grad_norm: 1.0\n", c.fp16 ? "fp16" : "bf16", ": true\n", "disable_gradient_checkpointing: ",
            c.s.training.grad_checkpointing == Checkpointing::None ? "true" : "false", "\n"});
  return y;
}

void add_llamafactory(const LaunchContext& c, Launch& out) {
  add_command(out, "llama-factory", kLlamaFactoryVersion, "yaml", kLlamaFactoryYaml, llamafactory_yaml(c));
  add_command(out, "llama-factory", kLlamaFactoryVersion, "shell", "",
              cat({node_env(c), "FORCE_TORCHRUN=1 llamafactory-cli train ", kLlamaFactoryYaml, "\n"}));
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
  for (Flags* flags : {&t, &d}) flags->add("train.py").add("--deepspeed", kDsConfig);
  add_command(out, "torchrun", kTorchrunVersion, "shell", "", shell_command("torchrun", t));
  add_command(out, "deepspeed", kDeepspeedVersion, "shell", "", shell_command("deepspeed", d));
}

void add_training_notes(const LaunchContext& c, Launch& out) {
  const Training& t = c.s.training;
  add_note(out, "global_batch",
           {{"batch", c.s.batch},
            {"grad_accum", t.grad_accum},
            {"dp", c.dp()},
            {"global", global_batch(c)},
            {"seq_len", c.s.seq_len}});
  if (!t.master_weights) add_note(out, "pure_16bit");
  if (t.grad_checkpointing == Checkpointing::Selective) add_note(out, "selective_checkpointing");
  if (t.lora_targets != LoraTargets::AllLinear && lora(c)) add_note(out, "lora_module_names");
  if (c.s.task == Task::Qlora && !bnb_4bit(c)) add_note(out, "qlora_gptq");
  if (c.plan.zero == 3 && bnb_4bit(c)) add_note(out, "bnb_zero3");
  if (c.s.engine == Engine::Fsdp) add_note(out, "fsdp_as_zero", {{"zero", c.plan.zero}});
  if (c.s.engine == Engine::Megatron) add_note(out, "megatron_as_deepspeed");
  add_note(out, "dataset_placeholders");
  add_note(out, "train_py");
  if (c.multi_node()) {
    add_note(out, "node_rank", {{"last_rank", c.plan.instances - 1}, {"slots", c.nproc_per_node}});
  }
}

}  // namespace

void add_training(const LaunchContext& c, Launch& out) {
  add_swift_sft(c, out);
  add_llamafactory(c, out);
  add_command(out, "deepspeed", kDeepspeedVersion, "json", kDsConfig, ds_config_text(c));
  add_launchers(c, out);
  add_training_notes(c, out);
}

}  // namespace gpusizer
