// The one list of the core's messages: every error, warning, launch note, launch blocker, "why it
// does not fit" reason and unsupported-format kind is one entry with its stable code, the names of
// the values it embeds and its English text, a template filled from those values. A site names
// the entry and passes the values; the English comes from here, and the page words the same code
// in its own language from the same values (the `messages` command lists every entry).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusizer {

enum class MessageKind { Error, Warning, Note, Blocker, Reason, Format };
const char* to_string(MessageKind k);

// Templates: {name} is the value of `name` (a string as it is, anything else as JSON: 12, 0.5,
// true, ["a","b"]); {name:json} is its JSON even for a string ("h999" with its quotes);
// {name:or} joins an array's items as JSON, the last with " or " ("a", "b" or "c"); {name:gib}
// is a byte count in GiB with two decimals ("12.34 GiB"). {?name:text} is `text` (itself a
// template) where `name` is given and not false, "" or null; {!name:text} where it is not.
struct Message {
  const char* code;
  MessageKind kind;
  // The names of its values, space-separated ("heads kv_heads"); after " | ", the names of values
  // only the English needs (a figure already formatted as the text shows it), which the JSON
  // `values` leave out: a reader in another language formats the values themselves.
  const char* fields;
  const char* en;  // the English template
  // The English text is built at the site from pieces no template expresses; `en` is then the
  // common shape of it, for a reader of the list, and never filled.
  bool composed = false;
};

const std::vector<Message>& messages();
// The entry of `code`; std::logic_error where there is none (a bug at the calling site).
const Message& message(std::string_view code);
std::vector<std::string> message_fields(const Message& m);
// The names after " | " in `fields`: values of the text alone.
std::vector<std::string> message_text_fields(const Message& m);
// The English text of the entry filled from `values` and the text-only values `text`;
// std::logic_error for a composed entry, for a value its entry does not name, and for a
// placeholder whose value is missing (a site that does not pass the entry's fields).
std::string message_text(const Message& m, const nlohmann::json& values,
                         const nlohmann::json& text = nlohmann::json::object());
std::string message_text(std::string_view code, const nlohmann::json& values,
                         const nlohmann::json& text = nlohmann::json::object());
// The value names a template refers to, in its order (duplicates kept).
std::vector<std::string> template_names(std::string_view text);

// [{"code", "kind", "fields", "en"}, ...] ("text_fields" where it has some, "composed": true where
// so): the `messages` command.
nlohmann::json messages_json();

}  // namespace gpusizer
