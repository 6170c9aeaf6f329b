#include "scenario/starting_points.h"

namespace gpusizer {

namespace {

StartingPoint inference() {
  StartingPoint p;
  p.task = Task::Inference;
  p.engine = Engine::Vllm;         // the most deployed open serving engine
  p.weights = WeightFormat::Bf16;  // the precision open checkpoints ship in: no quantisation loss
  p.kv_cache = KvFormat::Bf16;     // vLLM's kv-cache-dtype "auto": the cache in the weights' dtype
  p.seq_len = 4096;                // a chat or retrieval context every current model supports
  p.batch = 8;                     // a few concurrent requests on one replica, not a load test
  return p;
}

StartingPoint full() {
  StartingPoint p;
  p.task = Task::Full;
  p.engine = Engine::Deepspeed;                // the usual stack for ZeRO-sharded fine-tuning
  p.weights = WeightFormat::Bf16;              // bf16 mixed precision, what current GPUs train in
  p.seq_len = 2048;                            // a typical instruction-tuning sample length
  p.batch = 4;                                 // a per-GPU micro-batch, accumulation makes the rest
  p.optimizer = Optimizer::Adamw;              // the optimizer of nearly every fine-tuning recipe
  p.grad_checkpointing = Checkpointing::Full;  // activations recomputed: memory, not speed, binds
  p.zero = 3;                                  // weights, gradients and states sharded across GPUs
  return p;
}

StartingPoint lora() {
  StartingPoint p;
  p.task = Task::Lora;
  p.engine = Engine::Transformers;             // Hugging Face Trainer with PEFT, where LoRA is usually run
  p.weights = WeightFormat::Bf16;              // the frozen base in the precision it ships in
  p.seq_len = 2048;                            // a typical instruction-tuning sample length
  p.batch = 4;                                 // a per-GPU micro-batch, accumulation makes the rest
  p.optimizer = Optimizer::Adamw;              // the Trainer's default, over the adapter weights only
  p.grad_checkpointing = Checkpointing::Full;  // activations dominate once the base is frozen
  p.lora_rank = 16;                            // the rank of common PEFT recipes (8-64)
  p.lora_targets = LoraTargets::AllLinear;     // every linear layer: the QLoRA paper's finding
  return p;
}

StartingPoint qlora() {
  StartingPoint p;
  p.task = Task::Qlora;
  p.engine = Engine::Transformers;             // bitsandbytes 4-bit loading runs in Transformers
  p.weights = WeightFormat::Nf4;               // the QLoRA paper's 4-bit NormalFloat base
  p.seq_len = 2048;                            // a typical instruction-tuning sample length
  p.batch = 4;                                 // a per-GPU micro-batch, accumulation makes the rest
  p.optimizer = Optimizer::PagedAdamw8bit;     // the QLoRA paper's paged 8-bit optimizer
  p.grad_checkpointing = Checkpointing::Full;  // the QLoRA recipe's setting
  p.lora_rank = 16;                            // the rank of common PEFT recipes (8-64)
  p.lora_targets = LoraTargets::AllLinear;     // every linear layer: the QLoRA paper's finding
  return p;
}

StartingPoint pretrain() {
  StartingPoint p;
  p.task = Task::Pretrain;
  p.engine = Engine::Megatron;                      // the engine of large pre-training runs
  p.weights = WeightFormat::Bf16;                   // bf16 mixed precision, what current GPUs train in
  p.seq_len = 4096;                                 // Llama 2's pre-training context
  p.batch = 1;                                      // a per-GPU micro-batch; data parallelism makes the rest
  p.optimizer = Optimizer::Adamw;                   // the optimizer of published pre-training runs
  p.grad_checkpointing = Checkpointing::Selective;  // Megatron's selective recomputation (attention only)
  p.zero = 1;                                       // Megatron's distributed optimizer shards the states
  return p;
}

}  // namespace

const std::vector<StartingPoint>& starting_points() {
  static const std::vector<StartingPoint> points = {inference(), full(), lora(), qlora(), pretrain()};
  return points;
}

nlohmann::json starting_point_json(const StartingPoint& p) {
  nlohmann::json j = {{"engine", to_string(p.engine)},
                      {"weights", to_string(p.weights)},
                      {"seq_len", p.seq_len},
                      {"batch", p.batch}};
  if (p.kv_cache) j["kv_cache"] = to_string(*p.kv_cache);
  nlohmann::json t = nlohmann::json::object();
  if (p.optimizer) t["optimizer"] = to_string(*p.optimizer);
  if (p.grad_checkpointing) t["grad_checkpointing"] = to_string(*p.grad_checkpointing);
  if (p.zero) t["zero"] = *p.zero;
  if (p.lora_rank) t["lora_rank"] = *p.lora_rank;
  if (p.lora_targets) t["lora_targets"] = to_string(*p.lora_targets);
  if (!t.empty()) j["training"] = t;
  return j;
}

nlohmann::json starting_points_json() {
  nlohmann::json out = nlohmann::json::object();
  for (const StartingPoint& p : starting_points()) out[to_string(p.task)] = starting_point_json(p);
  return out;
}

}  // namespace gpusizer
