// Published checkpoints of the presets (core/data/checkpoints.json, embedded at build time):
// each Hugging Face repository with the preset it shares its architecture with, its variant and
// the format its weights are stored in; and the launch facts of a model family (remote code,
// the rope-scaling override its model card documents). Every entry in the file carries its source;
// the sources and other notes for people are not kept here, and are embedded as "" (cmake/embed.cmake).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/precision.h"

namespace gpusizer {

struct PublishedCheckpoint {
  std::string preset;                         // core/data/models.json id
  std::string repo;                           // "Qwen/Qwen2.5-72B-Instruct-AWQ", as on its model card
  std::string variant;                        // "base", "instruct", "chat", "distill", "reasoning" or "coder"
  WeightFormat weights = WeightFormat::Bf16;  // the stored format
  bool block_scaled = false;                  // fp8 with block scales (DeepSeek's 128 x 128)
  std::string gguf_file;                      // a GGUF repository's file of `weights` (first part when split)
  std::optional<double> total_size_bytes;     // model.safetensors.index.json metadata.total_size
  // GPTQ/AWQ quantize settings its model card or quantize config states (checkpoints.json quant)
  std::optional<int64_t> group_size;  // -1: one group per column
  std::optional<bool> desc_act;       // GPTQ act-order
  std::string quant_scope;    // quant.scope: the linears its format covers ("all", "mlp-inner"; "" unread)
  int64_t max_positions = 0;  // its own context window where it differs from the preset's (0: the preset's)
};

// The rope-scaling override a model card documents for contexts beyond its native window.
struct RopeScaling {
  std::string type;  // "yarn"
  double factor = 1;
  int64_t original_max_positions = 0;
};

struct ModelLaunchFacts {
  std::string preset;
  bool trust_remote_code = false;  // its config.json maps classes to code in the repository
  std::optional<RopeScaling> rope_scaling;
  std::string llamafactory_template;  // the chat template LLaMA-Factory 0.9.3 registers for it
  // vllm serve flags its model card requires ({flag, value}), for repositories whose id starts
  // with vllm_args_repos (the publisher's own, which hold the files those flags read).
  std::vector<std::pair<std::string, std::string>> vllm_args;
  std::string vllm_args_repos;
};

const std::vector<PublishedCheckpoint>& published_checkpoints();
// The entry of `repo` (compared without case), or nullptr; a GGUF repository holds a file per
// format: the one in `format` where given and listed, else its first.
const PublishedCheckpoint* find_published_checkpoint(const std::string& repo,
                                                     std::optional<WeightFormat> format = std::nullopt);
// A checkpoint of `preset` stored in `format`, the instruct (or chat) variant first; nullptr if none.
const PublishedCheckpoint* published_checkpoint_of(const std::string& preset, WeightFormat format);
// The launch facts of `preset`, or nullptr when it needs none.
const ModelLaunchFacts* model_launch_facts(const std::string& preset);

}  // namespace gpusizer
