// The message list (base/messages.h): one entry per code, each template filled from its fields.
#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <string>

#include "base/error.h"
#include "base/messages.h"
#include "gpusizer/api.h"

using namespace gpusizer;

namespace {

// A value for `name` that suits the format its template gives it.
nlohmann::json sample_values(const Message& m) {
  nlohmann::json values = nlohmann::json::object();
  for (const std::string& f : message_fields(m)) values[f] = "x";
  const std::string en = m.en;
  for (const std::string& f : message_fields(m)) {
    if (en.find("{" + f + ":or}") != std::string::npos || en.find("{" + f + ":list}") != std::string::npos)
      values[f] = {"a", "b", "c"};
    if (en.find("{" + f + ":gib}") != std::string::npos) values[f] = 3.5 * (1 << 30);
  }
  return values;
}

}  // namespace

TEST_CASE("Every message code is unique and has a kind, fields and English", "[messages]") {
  std::set<std::string> codes;
  for (const Message& m : messages()) {
    INFO(m.code);
    CHECK(std::regex_match(m.code, std::regex("[a-z][a-z0-9_]*")));
    CHECK(codes.insert(m.code).second);
    CHECK(std::string(m.en).size() > 0);
    CHECK(std::string(to_string(m.kind)).size() > 0);
    const std::vector<std::string> fields = message_fields(m);
    CHECK(std::set<std::string>(fields.begin(), fields.end()).size() == fields.size());
  }
  CHECK(codes.size() >= 90);
}

TEST_CASE("Every template names only its entry's fields, and filled from them leaves no placeholder",
          "[messages]") {
  for (const Message& m : messages()) {
    INFO(m.code << ": " << m.en);
    std::vector<std::string> fields = message_fields(m);
    const std::vector<std::string> text_fields = message_text_fields(m);
    for (const std::string& name : text_fields)
      CHECK(std::find(fields.begin(), fields.end(), name) == fields.end());
    fields.insert(fields.end(), text_fields.begin(), text_fields.end());
    for (const std::string& name : template_names(m.en))
      CHECK(std::find(fields.begin(), fields.end(), name) != fields.end());
    if (m.composed) continue;
    nlohmann::json text_values = nlohmann::json::object();
    for (const std::string& f : text_fields) text_values[f] = "x";
    const std::string text = message_text(m, sample_values(m), text_values);
    CHECK_FALSE(std::regex_search(text, std::regex(R"(\{[?!]?[a-z_]+(:[a-z]+)?\})")));
    CHECK(text.find("{?") == std::string::npos);
    CHECK(text.find("{!") == std::string::npos);
  }
}

TEST_CASE("A template's formats and conditions", "[messages]") {
  CHECK(message_text("number_range", {{"min", 0.0}, {"max", 1.0}, {"above", true}, {"value", 2}}) ==
        "must be a number above 0.0 to 1.0 (got 2)");
  CHECK(message_text("number_range", {{"min", 0.0}, {"max", 1.0}, {"above", false}, {"type", "string"}}) ==
        "must be a number from 0.0 to 1.0, not string");
  CHECK(message_text("choice", {{"choices", {"a", "b", "c"}}, {"value", "d"}}) ==
        "must be \"a\", \"b\" or \"c\" (got \"d\")");
  CHECK(message_text("choice", {{"choices", {0, 1, 2, 3}}}) == "must be 0, 1, 2 or 3");
  CHECK(message_text("unknown_column", {{"id", "x"}, {"columns", {"a", "b"}}}) == "unknown column (a, b)");
  CHECK(message_text("no_rdma", {{"instances", 2}, {"gbps", 25.0}}, {{"network", "25"}}) ==
        "the plan crosses 2 instances over TCP (25 Gbit/s, no RDMA): expect collectives several times slower "
        "than over InfiniBand/RoCE/EFA");
  CHECK(message_fields(message("no_rdma")) == std::vector<std::string>{"instances", "gbps"});
  CHECK(message_text_fields(message("no_rdma")) == std::vector<std::string>{"network"});
  CHECK(message_text("model_name_resolved",
                     {{"name", "llama 8b"}, {"preset", "llama-3.1-8b"}, {"weights", ""}}) ==
        "\"llama 8b\" was read as preset \"llama-3.1-8b\"");
}

TEST_CASE("A site that passes a value its entry does not name, or leaves one out, is a bug", "[messages]") {
  CHECK_THROWS_AS(message_text("tp_heads", {{"heads", 3}, {"layers", 4}}), std::logic_error);
  CHECK_THROWS_AS(message_text("tp_heads", nlohmann::json::object()), std::logic_error);
  CHECK_THROWS_AS(message_text("no_such_code", nlohmann::json::object()), std::logic_error);
  CHECK_THROWS_AS(message_text("unknown_model", {{"name", "x"}, {"suggestions", {"a"}}}), std::logic_error);
  // A value of the text alone goes apart from the values, and only under a name after " | ".
  CHECK_THROWS_AS(message_text("no_rdma", {{"instances", 2}, {"gbps", 25.0}, {"network", "25"}}),
                  std::logic_error);
  CHECK_THROWS_AS(message_text("no_rdma", {{"instances", 2}, {"gbps", 25.0}}, {{"instances", 2}}),
                  std::logic_error);
  CHECK_THROWS_AS(message_text("no_rdma", {{"instances", 2}, {"gbps", 25.0}}), std::logic_error);
  const InputError e("tp", "tp_heads", {{"heads", 40}});
  CHECK(std::string(e.what()) == "must divide the attention heads (40)");
  CHECK(e.code == "tp_heads");
}

TEST_CASE("The messages command lists every entry", "[messages][api]") {
  const ApiResult r = run_command("messages", "");
  REQUIRE(r.ok);
  REQUIRE(r.value.size() == messages().size());
  for (size_t i = 0; i < messages().size(); ++i) {
    const nlohmann::json& e = r.value[i];
    CHECK(e.at("code") == messages()[i].code);
    CHECK(e.at("kind") == to_string(messages()[i].kind));
    CHECK(e.at("fields").size() == message_fields(messages()[i]).size());
    CHECK(e.at("en") == messages()[i].en);
    CHECK(e.value("text_fields", nlohmann::json::array()).size() ==
          message_text_fields(messages()[i]).size());
  }
}
