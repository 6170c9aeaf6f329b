// Typed model names to presets: a normaliser (tokens), an exact match on the normalised id,
// name, Hub repo and aliases of each preset, a unique-prefix match ("qwen3 30b"), and an edit
// distance over the normalised text for "did you mean" (and for a one-letter typo).
#include "catalog/model_names.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/json_reader.h"
#include "base/text.h"
#include "catalog/checkpoints.h"

namespace gpusizer {
namespace {

// Longer text is no model name (the longest Hub id with a URL is under 200 characters); it is
// refused before the edit distances, which grow with the product of the lengths.
constexpr size_t kMaxNameLength = 256;

bool is_sep(char c) {
  return c == ' ' || c == '-' || c == '_' || c == '/' || c == ':' || c == ',' || c == '\t';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return c >= 'a' && c <= 'z'; }

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::string lower_trim(const std::string& text) { return lower_case(trim(text)); }

// "https://huggingface.co/Qwen/X/tree/main", "hf.co/Qwen/X", "modelscope.cn/models/qwen/X" ->
// "Qwen/X" (case kept); a bare "org/name" stays.
std::string strip_url(std::string s) {
  const auto cut = [&s](const char* prefix) {
    const std::string p(prefix);
    if (lower_case(s.substr(0, p.size())) == p) s = s.substr(p.size());
  };
  for (const char* p : {"https://", "http://", "www."}) cut(p);
  for (const char* host :
       {"huggingface.co/", "hf.co/", "modelscope.cn/models/", "modelscope.cn/", "hf-mirror.com/"})
    cut(host);
  // Keep org/name: drop what follows ("/tree/main", "/resolve/main/config.json", "/blob/...").
  const size_t first = s.find('/');
  if (first != std::string::npos) {
    const size_t second = s.find('/', first + 1);
    if (second != std::string::npos) s = s.substr(0, second);
  }
  return s;
}

struct FormatWord {
  const char* word;
  WeightFormat format;
};
// GGUF quant types, matched inside the text (they contain underscores, a separator).
constexpr FormatWord kGgufWords[] = {
    {"q8_0", WeightFormat::Q8_0},     {"q6_k", WeightFormat::Q6_K}, {"q5_k_m", WeightFormat::Q5_K_M},
    {"q5_k_s", WeightFormat::Q5_K_S}, {"q5_0", WeightFormat::Q5_0}, {"q4_k_m", WeightFormat::Q4_K_M},
    {"q4_k_s", WeightFormat::Q4_K_S}, {"q4_0", WeightFormat::Q4_0}, {"q3_k_m", WeightFormat::Q3_K_M},
    {"q2_k", WeightFormat::Q2_K},
};
// Single tokens that name a checkpoint's storage format (Hub naming conventions: Qwen "-AWQ",
// "-GPTQ-Int4/-Int8", "-FP8"; unsloth/bitsandbytes "-bnb-4bit"; OpenAI/NVIDIA "mxfp4"/"nvfp4").
constexpr FormatWord kFormatWords[] = {
    {"awq", WeightFormat::AwqInt4}, {"fp8", WeightFormat::Fp8},   {"nf4", WeightFormat::Nf4},
    {"bf16", WeightFormat::Bf16},   {"fp16", WeightFormat::Fp16}, {"fp32", WeightFormat::Fp32},
    {"int4", WeightFormat::Int4},   {"int8", WeightFormat::Int8},
};
// Words that do not change the architecture: chat/instruct tunes, repo suffixes, format
// wrappers whose bits another word gives, release dates (four digits, handled apart).
const char* const kNoise[] = {"instruct", "chat",     "it",        "hf",      "base",     "pt",
                              "model",    "meta",     "gguf",      "dynamic", "bnb",      "4bit",
                              "8bit",     "thinking", "reasoning", "latest",  "original", "sft",
                              "rl",       "w4a16",    "w8a8",      "turbo"};

bool is_noise(const std::string& t) {
  for (const char* n : kNoise) {
    if (t == n) return true;
  }
  // A release date such as 2507 or 0528 (Qwen3-2507, DeepSeek-R1-0528): four digits.
  return t.size() == 4 && std::all_of(t.begin(), t.end(), is_digit);
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// A misspelt noise word ("instrcut") is still noise: within 2 edits of a word of 6+ letters.
bool near_noise(const std::string& t) {
  if (t.size() < 6 || !std::all_of(t.begin(), t.end(), is_alpha)) return false;
  for (const char* n : kNoise) {
    const std::string word(n);
    if (word.size() >= 6 && edit_distance(t, word) <= 2) return true;
  }
  return false;
}

// Splits where a letter meets a digit ("qwen2.5" -> "qwen" "2.5", "a3b" -> "a" "3b"); a digit
// followed by letters stays one token ("72b", "8x7b", "0.5b").
void split_token(const std::string& t, std::vector<std::string>* out) {
  std::string cur;
  for (size_t i = 0; i < t.size(); ++i) {
    if (i > 0 && is_alpha(t[i - 1]) && is_digit(t[i]) && !cur.empty()) {
      out->push_back(cur);
      cur.clear();
    }
    cur.push_back(t[i]);
  }
  if (!cur.empty()) out->push_back(cur);
}

struct Parsed {
  std::string key;              // normalised tokens joined by spaces
  std::string hub_id;           // org/name when given
  bool modelscope_url = false;  // given as a modelscope.cn address
  bool has_weights = false;
  WeightFormat weights = WeightFormat::Bf16;
  std::string weights_token;
};

Parsed parse(const std::string& text) {
  Parsed p;
  const std::string original = strip_url(trim(text));
  p.modelscope_url = lower_case(text).find("modelscope.cn/") != std::string::npos;
  std::string s = lower_case(original);
  const size_t slash = s.find('/');
  const bool spaced = s.find(' ') != std::string::npos;
  if (slash != std::string::npos && slash > 0 && slash + 1 < s.size() && !spaced) p.hub_id = original;
  if (slash != std::string::npos) s = s.substr(slash + 1);  // the organisation says nothing of the shape
  for (const char* ext : {".gguf", ".safetensors"}) {
    const std::string e(ext);
    if (s.size() > e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0)
      s.resize(s.size() - e.size());
  }
  // GGUF quant types first: their underscores are separators below.
  for (const FormatWord& g : kGgufWords) {
    const std::string w(g.word);
    const size_t at = s.find(w);
    const bool bounded = at != std::string::npos && (at == 0 || is_sep(s[at - 1]) || s[at - 1] == '.') &&
                         (at + w.size() == s.size() || is_sep(s[at + w.size()]) || s[at + w.size()] == '.');
    if (bounded) {
      p.has_weights = true;
      p.weights = g.format;
      p.weights_token = w;
      s.replace(at, w.size(), " ");
      break;
    }
  }
  std::vector<std::string> raw;
  std::string cur;
  for (char c : s) {
    if (is_sep(c)) {
      if (!cur.empty()) raw.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) raw.push_back(cur);
  const bool gptq = std::find(raw.begin(), raw.end(), "gptq") != raw.end();
  const bool eight = std::find(raw.begin(), raw.end(), "int8") != raw.end() ||
                     std::find(raw.begin(), raw.end(), "8bit") != raw.end();
  const bool bnb4 = std::find(raw.begin(), raw.end(), "bnb") != raw.end() ||
                    std::find(raw.begin(), raw.end(), "4bit") != raw.end();
  std::vector<std::string> tokens;
  for (const std::string& t : raw) {
    if (t == "gptq") {
      p.has_weights = true;
      p.weights = eight ? WeightFormat::GptqInt8
                        : WeightFormat::GptqInt4;  // TheBloke/Qwen "-GPTQ": 4-bit unless Int8
      p.weights_token = eight ? "gptq-int8" : "gptq-int4";
      continue;
    }
    bool format = false;
    for (const FormatWord& f : kFormatWords) {
      if (t == f.word) {
        format = true;
        if (!gptq) {  // "-GPTQ-Int4": the gptq word decides
          p.has_weights = true;
          p.weights = f.format;
          p.weights_token = t;
        }
      }
    }
    if (format || is_noise(t) || near_noise(t)) continue;
    split_token(t, &tokens);
  }
  if (bnb4 && !p.has_weights) {  // unsloth "-bnb-4bit": bitsandbytes NF4
    p.has_weights = true;
    p.weights = WeightFormat::Nf4;
    p.weights_token = "bnb-4bit";
  }
  for (size_t i = 0; i < tokens.size(); ++i) p.key += (i ? " " : "") + tokens[i];
  return p;
}

std::string compact(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c != ' ') out.push_back(c);
  }
  return out;
}

struct Entry {
  std::string key;
  std::string compact;
  const Architecture* preset;
};

// Every normalised name of every preset (id, display name, Hub repo, aliases), built once.
const std::vector<Entry>& entries() {
  static const std::vector<Entry> all = [] {
    std::vector<Entry> out;
    for (const Architecture& a : model_presets()) {
      std::vector<std::string> names = {a.id, a.name, a.hf_repo};
      names.insert(names.end(), a.aliases.begin(), a.aliases.end());
      std::set<std::string> seen;
      for (const std::string& n : names) {
        if (n.empty()) continue;
        const std::string key = parse(n).key;
        if (key.empty() || !seen.insert(key).second) continue;
        out.push_back({key, compact(key), &a});
      }
    }
    return out;
  }();
  return all;
}

// The digits of a key ("qwen 2.5 72b" -> "2.572"): a typo may not change a size or a version.
std::string digits(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (is_digit(c) || c == '.') out.push_back(c);
  }
  return out;
}

void add_unique(std::vector<std::string>* ids, const std::string& id) {
  if (std::find(ids->begin(), ids->end(), id) == ids->end()) ids->push_back(id);
}

}  // namespace

std::string normalize_model_name(const std::string& text) { return parse(text).key; }

ModelNameMatch match_found(const std::string& text);

// A name without a format of its own means the released checkpoint (gpt-oss: mxfp4); another
// repository of the model says nothing of its format (scenario.cpp checkpoint_format_unknown).
ModelNameMatch match_model_name(const std::string& text) {
  ModelNameMatch m = match_found(text);
  const bool own = m.hub_id.empty() || m.matched_by == "checkpoint" ||
                   (m.preset && lower_trim(m.hub_id) == lower_trim(m.preset->hf_repo));
  if (m.preset && own && !m.has_weights && !m.preset->checkpoint_weights.empty() &&
      parse_weight_format(m.preset->checkpoint_weights, &m.weights)) {
    m.has_weights = true;
    m.weights_token = "checkpoint";
  }
  return m;
}

ModelNameMatch match_found(const std::string& text) {
  ModelNameMatch m;
  if (text.size() > kMaxNameLength) return m;
  const Parsed p = parse(text);
  m.has_weights = p.has_weights;
  m.weights = p.weights;
  m.weights_token = p.weights_token;
  m.hub_id = p.hub_id;
  m.modelscope = p.modelscope_url;
  if (p.key.empty()) return m;
  // A published checkpoint (core/data/checkpoints.json) names its preset and its format.
  if (const PublishedCheckpoint* c = p.hub_id.empty() ? nullptr : find_published_checkpoint(p.hub_id)) {
    // ModelScope spells some organisations in another case than Hugging Face does ("qwen/Qwen2.5-
    // 7B-Instruct" on modelscope.cn, "Qwen/..." on huggingface.co): an id that differs from the
    // listed one only there was copied from ModelScope.
    const std::string org = p.hub_id.substr(0, p.hub_id.find('/'));
    if (c->repo.compare(0, org.size(), org) != 0) m.modelscope = true;
    if (const Architecture* a = find_preset(c->preset)) {
      m.preset = a;
      m.matched_by = "checkpoint";
      if (is_quantized(c->weights)) {
        m.has_weights = true;
        m.weights = c->weights;
        // fp8 and fp4 releases train from 16-bit weights, as a preset's release does (scenario.cpp).
        const bool released = c->weights == WeightFormat::Fp8 || c->weights == WeightFormat::Mxfp4 ||
                              c->weights == WeightFormat::Nvfp4;
        m.weights_token = released ? "checkpoint" : "repository";
      }
      return m;
    }
  }
  const std::string exact_id = lower_trim(text);
  for (const Architecture& a : model_presets()) {
    if (a.id == exact_id) {
      m.preset = &a;
      m.matched_by = "id";
      return m;
    }
  }
  const std::string c = compact(p.key);
  for (const Entry& e : entries()) {
    if (e.key == p.key || e.compact == c) {
      m.preset = e.preset;
      m.matched_by = "alias";
      return m;
    }
  }
  // Unique prefix over whole tokens: "qwen 3 30b" is qwen3-30b-a3b; "gemma 3" is four sizes.
  std::vector<const Architecture*> prefixed;
  for (const Entry& e : entries()) {
    if (e.key.rfind(p.key + " ", 0) == 0 &&
        std::find(prefixed.begin(), prefixed.end(), e.preset) == prefixed.end()) {
      prefixed.push_back(e.preset);
    }
  }
  if (prefixed.size() == 1) {
    m.preset = prefixed.front();
    m.matched_by = "prefix";
    return m;
  }
  if (prefixed.size() > 1) {
    m.ambiguous = true;
    for (const Architecture* a : prefixed) add_unique(&m.suggestions, a->id);
    return m;
  }
  // Edit distance over the compact key: one edit (same digits) is a typo and resolves;
  // up to a third of the length is suggested.
  std::multimap<size_t, const Architecture*> ranked;
  for (const Entry& e : entries()) ranked.emplace(edit_distance(c, e.compact), e.preset);
  if (!ranked.empty()) {
    const auto best = ranked.begin();
    const auto second = std::next(best);
    const bool unique_best =
        second == ranked.end() || second->first > best->first || second->second == best->second;
    if (best->first <= 1 && c.size() >= 5 && unique_best) {
      for (const Entry& e : entries()) {
        if (e.preset == best->second && edit_distance(c, e.compact) == best->first &&
            digits(e.key) == digits(p.key)) {
          m.preset = best->second;
          m.matched_by = "fuzzy";
          return m;
        }
      }
    }
  }
  const size_t limit = std::max<size_t>(3, c.size() / 3);
  for (const auto& [distance, preset] : ranked) {
    if (distance > limit || m.suggestions.size() >= 3) break;
    add_unique(&m.suggestions, preset->id);
  }
  return m;
}

ModelNameMatch resolve_model_name(const std::string& text, const std::string& field) {
  ModelNameMatch m = match_model_name(text);
  if (m.preset) return m;
  if (text.size() > kMaxNameLength) {
    throw_error(field, "name_too_long", {{"length", text.size()}, {"max", kMaxNameLength}});
  }
  std::string message = "unknown preset id \"" + text + "\" (see `gpusizer models`)";
  if (m.ambiguous) {
    message += "; several presets match, say which";
  } else if (!m.hub_id.empty()) {
    message += "; for a Hub model that is not a preset, give its config.json as {\"hf_config\": {...}}";
  }
  if (!m.suggestions.empty()) {
    message += "; did you mean ";
    for (size_t i = 0; i < m.suggestions.size(); ++i) {
      message += (i == 0 ? "" : i + 1 == m.suggestions.size() ? " or " : ", ") + m.suggestions[i];
    }
    message += "?";
  }
  throw_composed_error(field, message, "unknown_model", {{"name", text}, {"suggestions", m.suggestions}});
}

nlohmann::json resolve_json(const std::string& input) {
  std::string text = trim(input);
  if (!text.empty() && (text.front() == '"' || text.front() == '{')) {
    nlohmann::json j;
    try {
      j = parse_json(text);
    } catch (const nlohmann::json::exception& e) {
      throw_error("input", "invalid_json", {{"detail", e.what()}});
    }
    if (j.is_object()) {
      if (j.size() != 1 || !j.contains("model") || !j.at("model").is_string()) {
        throw_error("model", "resolve_form");
      }
      j = j.at("model");
    }
    text = j.get<std::string>();
  }
  if (trim(text).empty()) throw_error("model", "model_name_empty");
  if (text.size() > kMaxNameLength) resolve_model_name(text, "model");  // throws: too long
  const ModelNameMatch m = match_model_name(text);
  nlohmann::json out = nlohmann::json({{"input", text},
                                       {"found", m.preset != nullptr},
                                       {"matched_by", m.matched_by},
                                       {"ambiguous", m.ambiguous},
                                       {"suggestions", m.suggestions}});
  out["id"] = m.preset ? nlohmann::json(m.preset->id) : nlohmann::json();
  out["name"] = m.preset ? nlohmann::json(m.preset->name) : nlohmann::json();
  out["hf_repo"] = m.preset ? nlohmann::json(m.preset->hf_repo) : nlohmann::json();
  out["weights"] = m.has_weights ? nlohmann::json(to_string(m.weights)) : nlohmann::json();
  out["weights_from"] = m.has_weights ? nlohmann::json(m.weights_token) : nlohmann::json();
  out["hub_id"] = m.hub_id.empty() ? nlohmann::json() : nlohmann::json(m.hub_id);
  out["hub"] =
      m.hub_id.empty() ? nlohmann::json() : nlohmann::json(m.modelscope ? "modelscope" : "huggingface");
  out["config_urls"] = nlohmann::json::array();
  if (!m.preset) {
    try {
      resolve_model_name(text, "model");
    } catch (const InputError& e) {
      out["message"] = e.what();
    }
    if (!m.hub_id.empty()) {
      out["config_urls"] = {"https://huggingface.co/" + m.hub_id + "/resolve/main/config.json",
                            "https://modelscope.cn/models/" + m.hub_id + "/resolve/master/config.json"};
    }
  }
  return out;
}

}  // namespace gpusizer
