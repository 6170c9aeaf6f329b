// Engine capabilities; each row cites the engine's documentation (docs/planner.md "Engine rules").
#include "scenario/engines.h"

#include "base/error.h"

namespace gpusizer {

EngineCaps engine_caps(Engine e) {
  switch (e) {
    // vLLM docs "Distributed inference and serving": tensor_parallel_size, pipeline_parallel_size,
    // multi-node over Ray; max_num_seqs default 256 (vllm/engine/arg_utils.py, v0.6-v0.10).
    case Engine::Vllm:
      return {true, true, false, true, 256};
    // SGLang server arguments: --tp-size, --pp-size (0.4.8+), --nnodes / --node-rank multi-node.
    case Engine::Sglang:
      return {true, true, false, true, 0};
    // LMDeploy TurboMind: --tp only (no pipeline), multi-node not supported by `serve api_server`;
    // --max-batch-size default 256 (lmdeploy/messages.py TurbomindEngineConfig).
    case Engine::Lmdeploy:
      return {true, false, false, false, 256};
    // TensorRT-LLM: --tp_size, --pp_size, multi-node via MPI; trtllm-serve --max_batch_size default 2048.
    case Engine::TensorrtLlm:
      return {true, true, false, true, 2048};
    // transformers generate(): device_map="auto" places consecutive layers on GPUs (a sequential
    // pipeline); under the HF Trainer, ZeRO comes from the DeepSpeed or FSDP integration.
    case Engine::Transformers:
      return {false, true, true, false, 0};
    // llama.cpp: --split-mode layer (default) splits layers across GPUs of one host; -np parallel slots.
    case Engine::LlamaCpp:
      return {false, true, false, false, 0};
    // DeepSpeed: ZeRO 0-3 and PipelineModule; AutoTP training is not what `deepspeed` runs by default.
    case Engine::Deepspeed:
      return {false, true, true, true, 0};
    // PyTorch FSDP: FULL_SHARD / SHARD_GRAD_OP over data-parallel ranks, no TP/PP of its own.
    case Engine::Fsdp:
      return {false, false, true, true, 0};
    // Megatron-LM: --tensor-model-parallel-size, --pipeline-model-parallel-size, distributed optimizer.
    case Engine::Megatron:
      return {true, true, true, true, 0};
  }
  return {};
}

namespace {

// Each project's own spelling of its name, as its documentation writes it.
struct EngineName {
  Engine engine;
  const char* name;
};
constexpr EngineName kEngineNames[] = {{Engine::Vllm, "vLLM"},
                                       {Engine::Sglang, "SGLang"},
                                       {Engine::Lmdeploy, "LMDeploy"},
                                       {Engine::TensorrtLlm, "TensorRT-LLM"},
                                       {Engine::Transformers, "Transformers"},
                                       {Engine::LlamaCpp, "llama.cpp"},
                                       {Engine::Deepspeed, "DeepSpeed"},
                                       {Engine::Fsdp, "PyTorch FSDP"},
                                       {Engine::Megatron, "Megatron-LM"}};

}  // namespace

nlohmann::json engine_names_json() {
  nlohmann::json out = nlohmann::json::object();
  for (const EngineName& n : kEngineNames) out[to_string(n.engine)] = n.name;
  return out;
}

std::vector<Warning> workload_warnings(const Scenario& s) {
  std::vector<Warning> out;
  const int64_t positions = s.model.max_positions;
  // config.json max_position_embeddings (with its rope scaling already applied where the family
  // ships it so: Llama 3.1's 131072); beyond it the model was never trained.
  if (positions > 0 && s.seq_len > positions) {
    out.push_back(
        message_warning("context_beyond_model", "seq_len",
                        {{"seq_len", s.seq_len}, {"positions", positions}, {"model", s.model.name}}));
  }
  const EngineCaps caps = engine_caps(s.engine);
  if (!is_training(s.task) && caps.max_batch > 0 && s.batch > caps.max_batch) {
    out.push_back(message_warning(
        "batch_beyond_engine", "batch",
        {{"engine", to_string(s.engine)}, {"max_batch", caps.max_batch}, {"batch", s.batch}}));
  }
  if (s.tp > 1 && !caps.tensor_parallel) {
    out.push_back(message_warning("engine_no_tp", "tp", {{"engine", to_string(s.engine)}, {"tp", s.tp}}));
  }
  if (s.pp > 1 && !caps.pipeline_parallel) {
    out.push_back(message_warning("engine_no_pp", "pp", {{"engine", to_string(s.engine)}, {"pp", s.pp}}));
  }
  return out;
}

}  // namespace gpusizer
