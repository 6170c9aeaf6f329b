// Parameter counts of every preset against the reference numbers, the KV-cache fields, the
// linear-module list, the scaling rule of from_param_count and the explicit-field object.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "model/architecture.h"

using gpusizer::Architecture;
using gpusizer::InputError;
using nlohmann::json;

namespace {

struct Expected {
  const char* id;
  double total;
  double active;  // == total for dense models
};

// total_params and active_params of shared/reference/facts_models.json, in its order.
const Expected kFacts[] = {
    {"llama-7b", 6738415616, 6738415616},
    {"llama-13b", 13015864320, 13015864320},
    {"llama-33b", 32528943616, 32528943616},
    {"llama-65b", 65285660672, 65285660672},
    {"llama-2-7b", 6738415616, 6738415616},
    {"llama-2-13b", 13015864320, 13015864320},
    {"llama-2-70b", 68976648192, 68976648192},
    {"llama-3-8b", 8030261248, 8030261248},
    {"llama-3.1-8b", 8030261248, 8030261248},
    {"llama-3-70b", 70553706496, 70553706496},
    {"llama-3.1-70b", 70553706496, 70553706496},
    {"llama-3.1-405b", 405853388800, 405853388800},
    {"llama-3.2-1b", 1235814400, 1235814400},
    {"llama-3.2-3b", 3212749824, 3212749824},
    {"qwen-7b", 7721324544, 7721324544},
    {"qwen-14b", 14167290880, 14167290880},
    {"qwen-72b", 72287920128, 72287920128},
    {"qwen2.5-0.5b", 494032768, 494032768},
    {"qwen2.5-1.5b", 1543714304, 1543714304},
    {"qwen2.5-3b", 3085938688, 3085938688},
    {"qwen2.5-7b", 7615616512, 7615616512},
    {"qwen2.5-14b", 14770033664, 14770033664},
    {"qwen2.5-32b", 32763876352, 32763876352},
    {"qwen2.5-72b", 72706203648, 72706203648},
    {"qwen3-0.6b", 596049920, 596049920},
    {"qwen3-1.7b", 1720574976, 1720574976},
    {"qwen3-4b", 4022468096, 4022468096},
    {"qwen3-8b", 8190735360, 8190735360},
    {"qwen3-14b", 14768307200, 14768307200},
    {"qwen3-32b", 32762123264, 32762123264},
    {"qwen3-30b-a3b", 30532122624, 3353032704},
    {"qwen3-235b-a22b", 235093634560, 22190763520},
    {"baichuan-7b", 7000559616, 7000559616},
    {"baichuan2-7b", 7505973248, 7505973248},
    {"baichuan2-13b", 13896668160, 13896668160},
    {"chatglm-6b", 6173286400, 6173286400},
    {"chatglm3-6b", 6243584000, 6243584000},
    {"glm-4-9b", 9399951360, 9399951360},
    {"mistral-7b", 7241732096, 7241732096},
    {"mixtral-8x7b", 46702792704, 12879925248},
    {"mixtral-8x22b", 140630071296, 39161468928},
    {"deepseek-v3", 671026419200, 37552297472},
    {"yi-34b", 34388917248, 34388917248},
    {"internlm2-7b", 7737708544, 7737708544},
    {"internlm2-20b", 19861149696, 19861149696},
    {"gemma-2-9b", 9241705984, 9241705984},
    {"gemma-2-27b", 27227128320, 27227128320},
    {"phi-3-mini-4k", 3821079552, 3821079552},
    {"bert-base", 109482240, 109482240},
    {"bert-large", 335141888, 335141888},
    {"gpt2", 124439808, 124439808},
    {"gpt2-medium", 354823168, 354823168},
    {"gpt2-large", 774030080, 774030080},
    {"gpt2-xl", 1557611200, 1557611200},
};

const Architecture& preset(const std::string& id) {
  const Architecture* a = gpusizer::find_preset(id);
  if (!a) FAIL("no preset " << id);
  return *a;
}

std::string explicit_error(const json& fields) {
  try {
    gpusizer::from_explicit_fields(fields);
  } catch (const InputError& e) {
    return e.field;
  }
  return "no error";
}

const gpusizer::LinearModule& module(const std::vector<gpusizer::LinearModule>& all,
                                     const std::string& name) {
  for (const auto& m : all) {
    if (m.name == name) return m;
  }
  FAIL("no module " << name);
  return all.front();
}

// The presets added for 2025-26 models, against the totals their makers publish. `active`
// follows each maker's definition, which differs: "all" counts every weight a token touches
// (input embedding included, as count_params does), "no_embedding" leaves out the input
// embedding (OpenAI's gpt-oss table, DeepSeek, Moonshot), "no_embedding_head" leaves out the
// embedding and the LM head (Zhipu's GLM-4.5). `exact_total`: the Hub's safetensors total
// (the "Model size" of the repository page) where the count reproduces it to the parameter.
enum class ActiveDef { All, NoEmbedding, NoEmbeddingHead };
struct Published {
  const char* id;
  double total;        // as published (model card, technical report or Hub page)
  double active;       // as published, 0 for dense models
  double active_step;  // the unit of the published active figure's last digit ("37B": 1e9)
  ActiveDef active_def;
  double exact_total;  // 0 where the source gives only a rounded figure
  const char* source;
};
const Published kPublished[] = {
    {"llama-3.3-70b", 70.6e9, 0, 0, ActiveDef::All, 70553706496,
     "meta-llama/Llama-3.3-70B-Instruct Hub page: 70.6B"},
    {"deepseek-r1", 671e9, 37e9, 1e9, ActiveDef::NoEmbedding, 0,
     "deepseek-ai/DeepSeek-R1 model card: 671B total, 37B activated"},
    {"deepseek-v3.1", 671e9, 37e9, 1e9, ActiveDef::NoEmbedding, 0,
     "deepseek-ai/DeepSeek-V3.1 model card: 671B total, 37B activated"},
    {"deepseek-r1-distill-qwen-7b", 7.62e9, 0, 0, ActiveDef::All, 7615616512, "Hub page: 7.62B"},
    {"deepseek-r1-distill-qwen-14b", 14.8e9, 0, 0, ActiveDef::All, 14770033664, "Hub page: 14.8B"},
    {"deepseek-r1-distill-qwen-32b", 32.8e9, 0, 0, ActiveDef::All, 32763876352, "Hub page: 32.8B"},
    {"deepseek-r1-distill-llama-8b", 8.03e9, 0, 0, ActiveDef::All, 8030261248, "Hub page: 8.03B"},
    {"deepseek-r1-distill-llama-70b", 70.6e9, 0, 0, ActiveDef::All, 70553706496, "Hub page: 70.6B"},
    {"kimi-k2", 1.03e12, 32e9, 1e9, ActiveDef::NoEmbedding, 1026408232448,
     "moonshotai/Kimi-K2-Instruct: 1T total, 32B activated (card); 1.03T (Hub)"},
    {"qwen3-coder-480b-a35b", 480e9, 35e9, 1e9, ActiveDef::All, 480154875392,
     "Qwen/Qwen3-Coder-480B-A35B-Instruct card: 480B total, 35B activated"},
    {"glm-4.5", 355e9, 32e9, 1e9, ActiveDef::NoEmbeddingHead, 0,
     "zai-org/GLM-4.5 card: 355B total, 32B active"},
    {"glm-4.5-air", 106e9, 12e9, 1e9, ActiveDef::NoEmbeddingHead, 0,
     "zai-org/GLM-4.5-Air card: 106B total, 12B active"},
    {"gpt-oss-20b", 20.91e9, 3.61e9, 1e7, ActiveDef::NoEmbedding, 0,
     "gpt-oss model card, table 1: 20.91B total, 3.61B active"},
    {"gpt-oss-120b", 116.83e9, 5.13e9, 1e7, ActiveDef::NoEmbedding, 0,
     "gpt-oss model card, table 1: 116.83B total, 5.13B active"},
    {"gemma-3-1b", 1.0e9, 0, 0, ActiveDef::All, 999885952,
     "Gemma 3 technical report table 1: 302M embedding + 698M non-embedding"},
    {"gemma-3-4b", 4.3e9, 0, 0, ActiveDef::All, 4300079472,
     "report table 1: 417M vision + 675M embedding + 3,209M non-embedding"},
    {"gemma-3-12b", 12.2e9, 0, 0, ActiveDef::All, 12187325040, "report table 1: 417M + 1,012M + 10,759M"},
    {"gemma-3-27b", 27.4e9, 0, 0, ActiveDef::All, 27432406640, "report table 1: 417M + 1,416M + 25,600M"},
    {"llama-4-scout", 109e9, 17e9, 1e9, ActiveDef::All, 108641793536,
     "meta-llama/Llama-4-Scout-17B-16E card: 109B total, 17B active"},
    {"llama-4-maverick", 400e9, 17e9, 1e9, ActiveDef::All, 0,
     "meta-llama/Llama-4-Maverick-17B-128E card: 400B total, 17B active"},
    {"qwen2.5-vl-7b", 8.29e9, 0, 0, ActiveDef::All, 8292166656,
     "Qwen/Qwen2.5-VL-7B-Instruct Hub page: 8.29B"},
    {"qwen2.5-vl-72b", 73.4e9, 0, 0, ActiveDef::All, 0, "Qwen/Qwen2.5-VL-72B-Instruct Hub page: 73.4B"},
    {"mistral-small-3-24b", 23.6e9, 0, 0, ActiveDef::All, 23572403200,
     "mistralai/Mistral-Small-24B-Instruct-2501 Hub page: 23.6B"},
    {"mistral-small-3.1-24b", 24e9, 0, 0, ActiveDef::All, 0,
     "mistralai/Mistral-Small-3.1-24B-Instruct-2503 card: 24B"},
    {"phi-4", 14.7e9, 0, 0, ActiveDef::All, 14659507200, "microsoft/phi-4 Hub page: 14.7B"},
    {"qwen3-next-80b-a3b", 80e9, 3e9, 1e9, ActiveDef::NoEmbeddingHead, 0,
     "Qwen/Qwen3-Next-80B-A3B-Instruct card: 80B total, 3B activated"},
    {"minimax-m1", 456e9, 45.9e9, 1e8, ActiveDef::NoEmbeddingHead, 456089655296,
     "MiniMax-01 report and MiniMaxAI/MiniMax-M1-80k: 456B total, 45.9B activated"},
    {"minimax-text-01", 456e9, 45.9e9, 1e8, ActiveDef::NoEmbeddingHead, 456089655296,
     "MiniMax-AI/MiniMax-01 MiniMax-Text-01 card: 456B total, 45.9B activated"},
};

// Published active counts are rounded: within 1 %, or within half a unit of their last digit
// ("37B" covers 36.5B to 37.5B), whichever is wider.
double tolerance(double published, double step) { return std::max(0.01 * published, 0.5 * step); }

}  // namespace

TEST_CASE("new presets: totals and active counts within 1 % of the published figures") {
  for (const Published& e : kPublished) {
    const Architecture& a = preset(e.id);
    const gpusizer::ParamCounts p = gpusizer::count_params(a);
    INFO(e.id << ": total " << p.total << ", active " << p.active << " (" << e.source << ")");
    CHECK(std::fabs(p.total - e.total) <= 0.01 * e.total);
    if (e.exact_total > 0) CHECK(p.total == e.exact_total);
    if (e.active > 0) {
      double active = p.active;
      if (e.active_def != ActiveDef::All) active -= p.embedding;
      if (e.active_def == ActiveDef::NoEmbeddingHead) active -= p.lm_head;
      INFO("active by the maker's definition: " << active);
      CHECK(std::fabs(active - e.active) <= tolerance(e.active, e.active_step));
    } else {
      CHECK(p.active == p.total - p.vision);
    }
  }
}

TEST_CASE("MiniMax-M1's count reproduces the byte total of its safetensors index") {
  // MiniMax-AI/MiniMax-M1 model.safetensors.index.json: "total_size": 912210767872. The count
  // in bf16 (2 bytes) plus the 80 routers (6144 x 32) held in fp32 (2 more bytes each) is it to
  // the byte; 45.9B active leaves out the embedding and the LM head (200064 x 6144 each).
  const gpusizer::ParamCounts p = gpusizer::count_params(preset("minimax-m1"));
  CHECK(p.total * 2 + 80.0 * 6144 * 32 * 2 == 912210767872.0);
  CHECK(p.active - p.embedding - p.lm_head == 45944920064.0);
}

TEST_CASE("MTP modules are counted apart; vision towers in the total, not in active") {
  // DeepSeek-V3 README: 685B on the Hub = 671B main model + 14B MTP module.
  const gpusizer::ParamCounts r1 = gpusizer::count_params(preset("deepseek-r1"));
  CHECK(r1.total + r1.mtp == Approx(685e9).epsilon(0.005));
  CHECK(r1.mtp == Approx(14e9).epsilon(0.05));
  CHECK(gpusizer::count_params(preset("kimi-k2")).mtp == 0);     // num_nextn_predict_layers 0
  CHECK(gpusizer::count_params(preset("glm-4.5")).mtp > 3.9e9);  // one MoE block of 160 experts
  const gpusizer::ParamCounts vl = gpusizer::count_params(preset("qwen2.5-vl-7b"));
  CHECK(vl.vision == 676550144);
  CHECK(vl.total - vl.vision == gpusizer::count_params(preset("qwen2.5-7b")).total);
  CHECK(vl.active == vl.total - vl.vision);
}

TEST_CASE("every preset's parameter count matches facts_models.json within 0.5 %") {
  for (const Expected& e : kFacts) {
    const gpusizer::ParamCounts p = gpusizer::count_params(preset(e.id));
    INFO(e.id << ": total " << p.total << ", active " << p.active);
    CHECK(p.total == Approx(e.total).epsilon(0.005));
    CHECK(p.active == Approx(e.active).epsilon(0.005));
    CHECK(p.total == e.total);  // the formulas are the facts file's: exact, not just close
    CHECK(p.active == e.active);
  }
}

TEST_CASE("the catalog holds every facts and published model once, and each passes validation") {
  const auto& all = gpusizer::model_presets();
  CHECK(all.size() == sizeof kFacts / sizeof kFacts[0] + sizeof kPublished / sizeof kPublished[0]);
  std::set<std::string> ids;
  for (const Architecture& a : all) {
    CHECK(ids.insert(a.id).second);
    CHECK_FALSE(a.name.empty());
    CHECK_FALSE(a.hf_repo.empty());
    CHECK_NOTHROW(gpusizer::validate_architecture(a, "model"));
  }
  CHECK(gpusizer::find_preset("LLAMA-2-7B") == nullptr);  // ids are lower-case, matched exactly
  CHECK(gpusizer::find_preset("") == nullptr);
}

TEST_CASE("presets carry the fields the KV cache depends on") {
  const Architecture& llama = preset("llama-3.1-8b");
  CHECK(llama.layers == 32);
  CHECK(llama.kv_heads == 8);
  CHECK(llama.head_dim == 128);
  CHECK(llama.max_positions == 131072);
  CHECK(preset("llama-2-70b").kv_heads == 8);
  CHECK(preset("qwen2.5-7b").kv_heads == 4);
  CHECK(preset("chatglm3-6b").kv_heads == 2);
  CHECK(preset("qwen3-0.6b").head_dim == 128);  // decoupled from hidden / heads = 64
  CHECK(preset("gemma-2-9b").head_dim == 256);
  CHECK(preset("gemma-2-9b").sliding_window == 4096);
  CHECK(preset("gemma-2-9b").sliding_window_layers == 21);  // even layers of 42
  CHECK(preset("mistral-7b").sliding_window == 4096);
  CHECK(preset("qwen2.5-7b").sliding_window == 0);
  const Architecture& ds = preset("deepseek-v3");
  CHECK(ds.mla.kv_lora_rank == 512);
  CHECK(ds.mla.qk_rope_head_dim == 64);
  CHECK(ds.layers == 61);  // 61 x (512 + 64) values per token
  CHECK(ds.dense_layers == 3);
  CHECK(preset("bert-base").encoder);
  CHECK_FALSE(preset("gpt2").encoder);
  CHECK(preset("gpt2").learned_positions == 1024);
}

TEST_CASE("Qwen v1 and ChatGLM-6B traps are stored as the model computes") {
  CHECK(preset("qwen-7b").intermediate == 11008);  // config 22016 is w1 + w2
  CHECK(preset("qwen-72b").intermediate == 24576);
  const Architecture& glm = preset("chatglm-6b");
  CHECK(glm.mlp == gpusizer::MlpKind::Plain);
  CHECK(glm.norm == gpusizer::NormKind::Layer);
  CHECK(glm.tied_embeddings);
}

TEST_CASE("linear modules: the shapes LoRA and the FLOP count use") {
  const auto dense = gpusizer::linear_modules(preset("llama-3.1-8b"));
  CHECK(module(dense, "q").in == 4096);
  CHECK(module(dense, "q").out == 4096);
  CHECK(module(dense, "k").out == 1024);  // 8 KV heads x 128
  CHECK(module(dense, "down").in == 14336);
  CHECK(module(dense, "down").count == 32);

  const auto moe = gpusizer::linear_modules(preset("qwen3-30b-a3b"));
  CHECK(module(moe, "expert_up").count == 128 * 48);
  CHECK(module(moe, "expert_up").active_count == 8 * 48);
  CHECK(module(moe, "expert_up").group == "experts");
  CHECK(module(moe, "router").out == 128);

  const auto mla = gpusizer::linear_modules(preset("deepseek-v3"));
  CHECK(module(mla, "q_a").out == 1536);
  CHECK(module(mla, "kv_a").out == 512 + 64);
  CHECK(module(mla, "kv_b").out == 128 * (128 + 128));
  CHECK(module(mla, "gate").count == 3);  // the dense layers
  CHECK(module(mla, "shared_up").count == 58);
  CHECK(module(mla, "shared_up").group == "mlp");

  const auto plain = gpusizer::linear_modules(preset("gpt2"));
  for (const auto& m : plain) CHECK(m.name != "gate");
}

TEST_CASE("parameter counts split into parts that add up") {
  for (const char* id : {"llama-3.2-1b", "deepseek-v3", "bert-base", "qwen3-30b-a3b"}) {
    const Architecture& a = preset(id);
    const gpusizer::ParamCounts p = gpusizer::count_params(a);
    double linear = 0;
    for (const auto& m : gpusizer::linear_modules(a))
      linear += double(m.in) * double(m.out) * double(m.count);
    INFO(id);
    CHECK(linear == p.linear);
    CHECK(p.total == p.embedding + p.lm_head + p.linear + p.other);
    CHECK(p.per_layer_linear_max > 0);
    CHECK(p.per_layer_linear_max * double(a.layers) >= p.linear);
  }
  CHECK(gpusizer::count_params(preset("llama-3.2-1b")).lm_head == 0);  // tied
  CHECK(gpusizer::count_params(preset("llama-3.1-8b")).lm_head == 128256.0 * 4096);
}

TEST_CASE("from_param_count lands within 2 % over the whole range") {
  for (double params : {2e7, 1e8, 1.24e9, 7e9, 13e9, 70e9, 405e9, 1e12, 1e14}) {
    const Architecture a = gpusizer::from_param_count(params);
    INFO(params << ": hidden " << a.hidden << ", layers " << a.layers);
    CHECK(gpusizer::count_params(a).total == Approx(params).epsilon(0.02));
    CHECK_NOTHROW(gpusizer::validate_architecture(a, "model.params"));
  }
  const Architecture seven = gpusizer::from_param_count(7e9);
  CHECK(seven.head_dim == 128);
  CHECK(seven.kv_heads == 8);
  CHECK(seven.hidden == Approx(128.0 * double(seven.layers)).epsilon(0.25));  // Llama-2 aspect
}

TEST_CASE("from_param_count rejects counts the rule cannot meet") {
  for (double bad : {0.0, -7e9, 1e308, std::nan(""), 1e3}) {
    try {
      gpusizer::from_param_count(bad);
      FAIL("no error for " << bad);
    } catch (const InputError& e) {
      CHECK(e.field == "model.params");
    }
  }
}

TEST_CASE("explicit fields reproduce a preset and apply the defaults") {
  const Architecture a = gpusizer::from_explicit_fields(json{{"name", "my llama"},
                                                             {"layers", 32},
                                                             {"hidden", 4096},
                                                             {"heads", 32},
                                                             {"intermediate", 11008},
                                                             {"vocab", 32000}});
  CHECK(a.kv_heads == 32);
  CHECK(a.head_dim == 128);
  CHECK(a.name == "my llama");
  CHECK(gpusizer::count_params(a).total == gpusizer::count_params(preset("llama-2-7b")).total);

  const Architecture mixtral = gpusizer::from_explicit_fields(json{{"layers", 32},
                                                                   {"hidden", 4096},
                                                                   {"heads", 32},
                                                                   {"kv_heads", 8},
                                                                   {"intermediate", 14336},
                                                                   {"vocab", 32000},
                                                                   {"experts", 8},
                                                                   {"experts_per_token", 2}});
  CHECK(mixtral.expert_intermediate == 14336);
  CHECK(gpusizer::count_params(mixtral).active == gpusizer::count_params(preset("mixtral-8x7b")).active);

  const Architecture plain = gpusizer::from_explicit_fields(json{{"layers", 12},
                                                                 {"hidden", 768},
                                                                 {"heads", 12},
                                                                 {"intermediate", 3072},
                                                                 {"vocab", 50257},
                                                                 {"mlp", "plain"},
                                                                 {"tied_embeddings", true}});
  CHECK(plain.mlp == gpusizer::MlpKind::Plain);
  CHECK(gpusizer::count_params(plain).lm_head == 0);

  const Architecture all_moe = gpusizer::from_explicit_fields(json{{"layers", 48},
                                                                   {"hidden", 2048},
                                                                   {"heads", 32},
                                                                   {"kv_heads", 4},
                                                                   {"head_dim", 128},
                                                                   {"vocab", 151936},
                                                                   {"experts", 128},
                                                                   {"experts_per_token", 8},
                                                                   {"expert_intermediate", 768}});
  CHECK(all_moe.intermediate == 0);  // no dense layer needs it
}

TEST_CASE("explicit fields: every error names its field") {
  const json base = {
      {"layers", 32}, {"hidden", 4096}, {"heads", 32}, {"intermediate", 11008}, {"vocab", 32000}};
  const auto with = [&base](const char* key, const json& value) {
    json j = base;
    j[key] = value;
    return j;
  };
  CHECK(explicit_error(with("layer", 32)) == "model.layer");  // unknown key
  CHECK(explicit_error(with("layers", "32")) == "model.layers");
  CHECK(explicit_error(with("layers", -1)) == "model.layers");
  CHECK(explicit_error(with("layers", 0)) == "model.layers");
  CHECK(explicit_error(with("hidden", 4096.5)) == "model.hidden");
  CHECK(explicit_error(with("hidden", 1e308)) == "model.hidden");
  CHECK(explicit_error(with("vocab", json::object())) == "model.vocab");
  CHECK(explicit_error(with("kv_heads", 5)) == "model.kv_heads");  // 32 % 5 != 0
  CHECK(explicit_error(with("mlp", "swiglu")) == "model.mlp");
  CHECK(explicit_error(with("tied_embeddings", 1)) == "model.tied_embeddings");
  CHECK(explicit_error(with("name", 7)) == "model.name");
  CHECK(explicit_error(with("experts_per_token", 2)) == "model.experts_per_token");  // no experts
  CHECK(explicit_error(with("heads", 3)) == "model.head_dim");                       // 4096 / 3 is no integer
  json missing = base;
  missing.erase("vocab");
  CHECK(explicit_error(missing) == "model.vocab");
  json moe = with("experts", 8);
  moe["experts_per_token"] = 9;
  CHECK(explicit_error(moe) == "model.experts_per_token");
  CHECK(explicit_error(json::array()) == "model");
}

TEST_CASE("validate_architecture names the field under the given prefix") {
  Architecture a = preset("llama-3.1-8b");
  a.kv_heads = 7;
  try {
    gpusizer::validate_architecture(a, "model.hf_config");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.field == "model.hf_config.kv_heads");
  }
  a = preset("deepseek-v3");
  a.dense_layers = 62;
  CHECK_THROWS_AS(gpusizer::validate_architecture(a, "model"), InputError);
  a = preset("gemma-2-9b");
  a.sliding_window_layers = 43;
  CHECK_THROWS_AS(gpusizer::validate_architecture(a, "model"), InputError);
}
