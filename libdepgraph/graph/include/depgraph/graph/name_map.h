// Kernel-name maps (`name_map*.json`): loading and sibling auto-discovery.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

namespace depgraph {

/// Kernel names by callable id, as written by SceneTest (`callable_id_to_name`) or flat.
struct NameMap {
  /// Decimal callable id ("3") -> name. Non-string values are rejected at load time.
  std::unordered_map<std::string, std::string> names;
  /// True iff the map has any entry (the viewer's "non-empty map" test).
  bool empty() const { return names.empty(); }
  /// Name of callable `id`, or nullptr if absent or empty.
  const std::string* Find(long long id) const;
};

/// Outcome of LoadNameMap.
enum class NameMapStatus {
  kOk,
  kUnreadable,  ///< missing file, a directory or not JSON: the viewer warns and goes on
  kInvalid,     ///< valid JSON of the wrong shape, a FIFO, device or oversized file: an error
};

/// Loads a name map. The mapping is `callable_id_to_name` when that key holds a non-empty
/// object, else the whole top-level object (the reference tool's rule, kept for
/// compatibility: `{"callable_id_to_name":{}}` yields the outer object). On kUnreadable or
/// kInvalid, *err holds the reason on one line: kUnreadable "line L:column C: message" for
/// input that is not JSON (syntax, ill-formed UTF-8, a lone surrogate escape), kInvalid
/// "file: json.path: message" (user text in it escaped, depgraph/message_quote.h). Only a
/// regular file of at most kMaxSmallInputBytes is read (depgraph/input_file.h); anything else
/// is refused before it is opened, so a FIFO never blocks and a device is never read.
/// Cost: O(file size).
NameMapStatus LoadNameMap(const std::string& path, NameMap* map, std::string* err);

/// Same as LoadNameMap for an in-memory document (never kUnreadable for a missing file: only
/// for invalid JSON); `path` names the document in messages. Cost: O(text size).
NameMapStatus LoadNameMapText(std::string_view text, const std::string& path, NameMap* map,
                              std::string* err);

/// The sibling `name_map*.json` regular file of `directory` to use: newest mtime, ties broken
/// by the lexicographically greatest name; "" if there is none. O(directory entries).
std::string DiscoverNameMap(const std::string& directory);

}  // namespace depgraph
