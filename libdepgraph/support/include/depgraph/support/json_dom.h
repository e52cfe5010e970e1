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

/// `value` as compact JSON for an error message (as value.dump() writes it), cut after about
/// `max_bytes` bytes with "..." so that a huge value never becomes a huge (or unallocatable)
/// message; strings are escaped, invalid UTF-8 replaced. O(max_bytes) time and memory.
std::string JsonValueForMessage(const nlohmann::ordered_json& value, size_t max_bytes = 80);

/// Appends `doc` as Python's json.dumps(doc, indent=indent, ensure_ascii=False) writes it:
/// members in DOM order, `": "` between key and value, `","` + newline between items, each
/// level indented by `indent` more spaces, `{}` / `[]` for empty containers; strings as
/// AppendPythonJsonString, integers in decimal, doubles as Python's repr (json_writer.h).
/// No trailing newline. `level` is the nesting depth at which `doc` itself sits inside an
/// enclosing dump (its members get (level + 1) x indent spaces). Cost: O(size of the output);
/// recursion as deep as the document.
void AppendPythonJsonDump(const nlohmann::ordered_json& doc, int indent, std::string* out,
                          int level = 0);

}  // namespace depgraph
