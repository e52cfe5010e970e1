// Small JSON documents (name maps, run descriptions) parsed by JsonReader into an ordered
// nlohmann DOM: one syntax checker and one set of messages for every JSON input.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace depgraph {

/// Parses `text`, one RFC 8259 document, into *out. Syntax is checked by JsonReader (strings
/// must be well-formed UTF-8, no lone surrogate escapes, at most 512 levels of nesting), so
/// errors read "line L:column C: <what>". Objects keep their key order (ordered_json); a
/// repeated key keeps its first place and its last value, as Python's json does. Integers
/// that fit are int64 / uint64, other numbers double; a number beyond the range of a double
/// ("1e400") is an error naming its JSON path ("tensors[0].values[1]: number 1e400 is out of
/// range"; line:column at the top level). Returns false with the message in *err.
/// Cost: O(|text|) time, the DOM's memory.
bool ParseJsonDocument(std::string_view text, nlohmann::ordered_json* out, std::string* err);

class JsonReader;
/// Reads the next value of `reader` into *out with ParseJsonDocument's rules, for readers that
/// stream the bulk of a document and keep the rest as a DOM (`path` prefixes the JSON paths of
/// number range errors). False with the message in *err. O(size of the value).
bool ReadJsonValue(JsonReader* reader, std::string_view path, nlohmann::ordered_json* out,
                   std::string* err);

}  // namespace depgraph
