// Pre-quantized checkpoints on the Hugging Face Hub for presets: what `--model` names when the
// scenario serves AWQ or GPTQ weights. Only repositories whose Hub pages were seen (the source
// column) are listed; they hold the Instruct model, quantized by the model's publisher or by
// Hugging Face's hugging-quants.
#include "launch/launch_internal.h"

namespace gpusizer {
namespace {

struct QuantizedCheckpoint {
  const char* preset;
  WeightFormat format;
  const char* repo;
  const char* source;  // the Hub page read
};

constexpr QuantizedCheckpoint kCheckpoints[] = {
    {"qwen2.5-3b", WeightFormat::AwqInt4, "Qwen/Qwen2.5-3B-Instruct-AWQ",
     "huggingface.co/Qwen/Qwen2.5-3B-Instruct-AWQ (tokenizer.json page, 4-bit awq)"},
    {"qwen2.5-7b", WeightFormat::AwqInt4, "Qwen/Qwen2.5-7B-Instruct-AWQ",
     "huggingface.co/Qwen/Qwen2.5-7B-Instruct-AWQ (tokenizer.json page, 4-bit awq)"},
    {"qwen2.5-7b", WeightFormat::GptqInt4, "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4",
     "huggingface.co/Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4/tree/refs%2Fpr%2F1 (4-bit gptq)"},
    {"qwen2.5-14b", WeightFormat::AwqInt4, "Qwen/Qwen2.5-14B-Instruct-AWQ",
     "huggingface.co/Qwen/Qwen2.5-14B-Instruct-AWQ (tokenizer.json page, 4-bit awq)"},
    {"qwen2.5-32b", WeightFormat::AwqInt4, "Qwen/Qwen2.5-32B-Instruct-AWQ",
     "huggingface.co/Qwen/Qwen2.5-32B-Instruct-AWQ/tree/251a85a7 (5 safetensors shards, 4-bit awq)"},
    {"qwen2.5-72b", WeightFormat::AwqInt4, "Qwen/Qwen2.5-72B-Instruct-AWQ",
     "huggingface.co/Qwen/Qwen2.5-72B-Instruct-AWQ/tree/bfe0f13f (11 safetensors shards, 4-bit awq)"},
    {"qwen2.5-72b", WeightFormat::GptqInt4, "Qwen/Qwen2.5-72B-Instruct-GPTQ-Int4",
     "huggingface.co/Qwen/Qwen2.5-72B-Instruct-GPTQ-Int4/tree/b9531a83 (4-bit gptq)"},
    {"qwen2.5-72b", WeightFormat::GptqInt8, "Qwen/Qwen2.5-72B-Instruct-GPTQ-Int8",
     "huggingface.co/Qwen/Qwen2.5-72B-Instruct-GPTQ-Int8 (merges.txt page, 8-bit gptq)"},
    {"qwen3-8b", WeightFormat::AwqInt4, "Qwen/Qwen3-8B-AWQ",
     "huggingface.co/Qwen/Qwen3-8B-AWQ (listed on a Hub activity page: Text Generation, 8B, updated May 21, "
     "2025)"},
    {"llama-3.1-8b", WeightFormat::AwqInt4, "hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4",
     "huggingface.co/jburmeister/Meta-Llama-3.1-8B-Instruct-AWQ-INT4 ('Duplicate from "
     "hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4')"},
    {"llama-3.1-70b", WeightFormat::AwqInt4, "hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4",
     "huggingface.co/hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4/tree/e8fe2dc6 (autoawq, 4-bit)"},
};

}  // namespace

std::string quantized_checkpoint(const std::string& preset_id, WeightFormat f) noexcept {
  for (const QuantizedCheckpoint& q : kCheckpoints) {
    if (q.format == f && preset_id == q.preset) return q.repo;
  }
  return "";
}

}  // namespace gpusizer
