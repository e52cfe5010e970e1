#include "depgraph/graph/name_map.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "depgraph/internal/message_quote.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/json_dom.h"

namespace depgraph {

namespace {
bool IsDecimal(const std::string& key) {
  if (key.empty()) return false;
  for (char c : key) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}
}  // namespace

const std::string* NameMap::Find(long long id) const {
  auto it = names.find(std::to_string(id));
  if (it == names.end() || it->second.empty()) return nullptr;
  return &it->second;
}

NameMapStatus LoadNameMap(const std::string& path, NameMap* map, std::string* err) {
  map->names.clear();
  std::string text;
  InputFileError read_error;
  if (!ReadInputFile(path, kMaxSmallInputBytes, &text, &read_error)) {
    *err = PythonOpenErrorMessage(path, read_error);
    switch (read_error.status) {
      case InputFileStatus::kCannotOpen:
      case InputFileStatus::kReadError:
      case InputFileStatus::kDirectory:
        return NameMapStatus::kUnreadable;  // Python's wording, as the reference tool prints it
      default:  // a FIFO, a device, an oversized file: refused, never read
        return NameMapStatus::kInvalid;
    }
  }
  return LoadNameMapText(text, path, map, err);
}

NameMapStatus LoadNameMapText(std::string_view text, const std::string& path, NameMap* map,
                              std::string* err) {
  map->names.clear();
  // One syntax checker for every JSON input: invalid UTF-8, lone surrogate escapes and
  // syntax errors are reported at their line and column.
  nlohmann::ordered_json doc;
  std::string syntax_error;
  if (!ParseJsonDocument(text, &doc, &syntax_error)) {
    *err = syntax_error;
    return NameMapStatus::kUnreadable;
  }
  const std::string shown_path = EscapeForMessage(path);
  if (!doc.is_object()) {
    *err = shown_path + ": expected a JSON object at the top level, got " +
           std::string(doc.type_name());
    return NameMapStatus::kInvalid;
  }
  const nlohmann::ordered_json* mapping = &doc;
  std::string prefix;
  auto inner = doc.find("callable_id_to_name");
  // The reference rule: use the inner map only when it is "truthy" (non-empty).
  if (inner != doc.end() && !inner->is_null() && !(inner->is_boolean() && !inner->get<bool>()) &&
      !(inner->is_number() && inner->get<double>() == 0) &&
      !((inner->is_object() || inner->is_array() || inner->is_string()) && inner->empty())) {
    if (!inner->is_object()) {
      *err = shown_path + ": callable_id_to_name: expected an object, got " +
             std::string(inner->type_name());
      return NameMapStatus::kInvalid;
    }
    mapping = &*inner;
    prefix = "callable_id_to_name";
  }
  for (auto it = mapping->begin(); it != mapping->end(); ++it) {
    if (it.value().is_string()) {
      map->names[it.key()] = it.value().get<std::string>();
    } else if (prefix.empty() && !IsDecimal(it.key())) {
      // Outer-object fallback: metadata such as "level": 2 is not a name, but makes the map
      // non-empty as the reference tool's does. Keep an empty name (never resolves).
      map->names[it.key()] = "";
    } else {
      *err = shown_path + ": " + JsonPathMember(prefix, it.key()) +
             ": expected a string name, got " + std::string(it.value().type_name());
      map->names.clear();
      return NameMapStatus::kInvalid;
    }
  }
  return NameMapStatus::kOk;
}

std::string DiscoverNameMap(const std::string& directory) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = directory.empty() ? fs::path(".") : fs::path(directory);
  std::string best;
  fs::file_time_type best_time;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.size() < 13 || name.compare(0, 8, "name_map") != 0 ||
        name.compare(name.size() - 5, 5, ".json") != 0) {
      continue;
    }
    std::error_code file_ec;
    if (!it->is_regular_file(file_ec)) continue;
    fs::file_time_type time = it->last_write_time(file_ec);
    if (file_ec) continue;
    if (best.empty() || time > best_time || (time == best_time && name > best)) {
      best = name;
      best_time = time;
    }
  }
  if (best.empty()) return "";
  return (dir / best).string();
}

}  // namespace depgraph
