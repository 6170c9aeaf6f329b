// Memory of quantized-weight kernels under transformers-style engines (memory_quant.cpp):
// the checkpoint's group size, the kernels' own buffers and dequantisation scratch.
#pragma once

#include "scenario/scenario.h"

namespace gpusizer {

// Weight bytes on the busiest GPU that the checkpoint's GPTQ/AWQ group size (engine_options.group_size)
// adds against precision.cpp's group of 128 (negative for larger groups); 0 for other formats.
double quant_group_size_delta_bytes(const Scenario& s);

// The group size and act-order of the weights: engine_options' where given, else the named
// checkpoint's published quantize settings (core/data/checkpoints.json) when it is loaded as stored.
std::optional<int64_t> quant_group_size(const Scenario& s);
bool quant_act_order(const Scenario& s);

// The linears the quantized format covers: engine_options.quant_scope where given, else the named
// checkpoint's published scope (core/data/checkpoints.json quant.scope) when loaded as stored, else "all".
std::string quant_scope(const Scenario& s);

// Weight bytes that quant_scope "mlp-inner" (Meta's FBGEMM FP8 recipe) keeps 16-bit
// beyond the all-linear layout of s.weights: the whole model, and on the busiest GPU.
double quant_scope_model_delta_bytes(const Scenario& s);
double quant_scope_delta_bytes(const Scenario& s);

// Buffers a quantized kernel allocates once per device at load (engine_options.quant_kernel):
// exllama v1 temp_dq / temp_state, ExLlamaV2 scratch space, turboderp ExLlama's temp buffers.
double quant_kernel_buffer_bytes(const Scenario& s);

// Transient dequantisation scratch alive inside one layer's prefill (AutoGPTQ cuda-old >= 128 rows).
double quant_dequant_scratch_bytes(const Scenario& s);

// turboderp/exllama v1's own attention: fp16 scores and an fp16 softmax copy, both alive (bytes per
// score element), over prompt chunks of at most max_input_len / batch tokens.
bool exllama_standalone(const Scenario& s);
double exllama_standalone_score_bytes(const Scenario& s);

// engine_options.summed_devices (default 1).
double summed_devices(const Scenario& s);

}  // namespace gpusizer
