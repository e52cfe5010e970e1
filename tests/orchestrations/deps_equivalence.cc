#include "deps_equivalence.h"

#include <cstdint>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <sstream>
#include <vector>

namespace depgraph::testing {

namespace {

using Json = nlohmann::ordered_json;

/// The runtime's tensor id: FNV-1a-64 over addr (8 bytes LE) then version (4 bytes LE).
uint64_t Fnv1a(uint64_t addr, int32_t version) {
  uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&h](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 0x100000001b3ull;
    }
  };
  mix(addr, 8);
  mix(static_cast<uint32_t>(version), 4);
  return h;
}

/// A u64 written as a decimal string (the writer's form for ids and addresses).
bool ParseU64(const Json& v, uint64_t* out) {
  if (!v.is_string()) return false;
  const std::string& s = v.get_ref<const std::string&>();
  if (s.empty() || s.size() > 20) return false;
  uint64_t r = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    uint64_t next = r * 10 + static_cast<uint64_t>(c - '0');
    if (next / 10 != r) return false;
    r = next;
  }
  *out = r;
  return true;
}

/// Replaces every "tensor_id" value in `v` by its image under `ids`; blanks "buffer_addr".
/// False (with the path) if an id is not in the map.
bool Normalise(Json* v, const std::map<std::string, std::string>& ids, const std::string& path,
               std::string* diff) {
  if (v->is_object()) {
    for (auto it = v->begin(); it != v->end(); ++it) {
      const std::string child = path + "." + it.key();
      if (it.key() == "tensor_id") {
        if (!it.value().is_string()) {
          *diff = child + ": tensor_id is not a string";
          return false;
        }
        auto found = ids.find(it.value().get<std::string>());
        if (found == ids.end()) {
          *diff = child + ": tensor id " + it.value().get<std::string>() + " not in tensors[]";
          return false;
        }
        it.value() = found->second;
      } else if (it.key() == "buffer_addr") {
        it.value() = "";
      } else if (!Normalise(&it.value(), ids, child, diff)) {
        return false;
      }
    }
  } else if (v->is_array()) {
    for (size_t i = 0; i < v->size(); ++i) {
      if (!Normalise(&(*v)[i], ids, path + "[" + std::to_string(i) + "]", diff)) return false;
    }
  }
  return true;
}

/// First difference between two normalised documents, as "path: expected X, got Y".
bool FirstDifference(const Json& e, const Json& a, const std::string& path, std::string* diff) {
  if (e.type() != a.type()) {
    *diff = path + ": expected " + e.dump() + ", got " + a.dump();
    return true;
  }
  if (e.is_object()) {
    auto ei = e.begin();
    auto ai = a.begin();
    for (; ei != e.end() && ai != a.end(); ++ei, ++ai) {
      if (ei.key() != ai.key()) {
        *diff = path + ": expected key \"" + ei.key() + "\", got \"" + ai.key() + "\"";
        return true;
      }
      if (FirstDifference(ei.value(), ai.value(), path + "." + ei.key(), diff)) return true;
    }
    if (ei != e.end() || ai != a.end()) {
      *diff = path + ": expected " + std::to_string(e.size()) + " keys, got " +
              std::to_string(a.size());
      return true;
    }
    return false;
  }
  if (e.is_array()) {
    for (size_t i = 0; i < e.size() && i < a.size(); ++i) {
      if (FirstDifference(e[i], a[i], path + "[" + std::to_string(i) + "]", diff)) return true;
    }
    if (e.size() != a.size()) {
      *diff = path + ": expected " + std::to_string(e.size()) + " elements, got " +
              std::to_string(a.size());
      return true;
    }
    return false;
  }
  if (e != a) {
    *diff = path + ": expected " + e.dump() + ", got " + a.dump();
    return true;
  }
  return false;
}

/// One tensors[] row: its id and address.
struct TensorRow {
  std::string id;
  uint64_t addr = 0;
};

/// Reads tensors[] and checks that the ids are the FNV-1a hash of (addr, version).
bool ReadTensors(const Json& doc, const char* which, std::vector<TensorRow>* rows,
                 std::string* diff) {
  if (!doc.is_object() || !doc.contains("tensors") || !doc["tensors"].is_array()) {
    *diff = std::string(which) + ": no tensors[] array";
    return false;
  }
  const Json& tensors = doc["tensors"];
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Json& t = tensors[i];
    const std::string path = std::string(which) + " tensors[" + std::to_string(i) + "]";
    uint64_t id = 0;
    TensorRow row;
    if (!t.is_object() || !t.contains("tensor_id") || !ParseU64(t["tensor_id"], &id) ||
        !t.contains("buffer_addr") || !ParseU64(t["buffer_addr"], &row.addr) ||
        !t.contains("version") || !t["version"].is_number_integer()) {
      *diff = path + ": malformed row";
      return false;
    }
    if (Fnv1a(row.addr, t["version"].get<int32_t>()) != id) {
      *diff = path + ": tensor_id is not FNV-1a(buffer_addr, version)";
      return false;
    }
    row.id = t["tensor_id"].get<std::string>();
    rows->push_back(row);
  }
  return true;
}

/// Ids of the buffers named by creator edges (runtime-allocated outputs), in first-seen order.
std::vector<std::string> HeapTensorIds(const Json& doc) {
  std::vector<std::string> ids;
  std::set<std::string> seen;
  if (!doc.contains("edges") || !doc["edges"].is_array()) return ids;
  for (const Json& e : doc["edges"]) {
    if (!e.is_object() || !e.contains("source") || e["source"] != "creator" ||
        !e.contains("tensor_id") || !e["tensor_id"].is_string()) {
      continue;
    }
    const std::string id = e["tensor_id"].get<std::string>();
    if (seen.insert(id).second) ids.push_back(id);
  }
  return ids;
}

}  // namespace

bool DepsEquivalent(const std::string& expected_json, const std::string& actual_json,
                    std::string* diff) {
  Json expected = Json::parse(expected_json, nullptr, false);
  Json actual = Json::parse(actual_json, nullptr, false);
  if (expected.is_discarded() || actual.is_discarded()) {
    *diff = expected.is_discarded() ? "expected: invalid JSON" : "actual: invalid JSON";
    return false;
  }
  // Same serialisation: one line, no spaces, '\n' after the final '}' (runtime.md §7).
  for (const auto& [doc, text, which] :
       {std::tuple(&expected, &expected_json, "expected"), std::tuple(&actual, &actual_json, "actual")}) {
    if (doc->dump() + "\n" != *text) {
      *diff = std::string(which) + ": not in the runtime's compact one-line form";
      return false;
    }
  }
  std::vector<TensorRow> e_rows, a_rows;
  if (!ReadTensors(expected, "expected", &e_rows, diff) ||
      !ReadTensors(actual, "actual", &a_rows, diff)) {
    return false;
  }
  if (e_rows.size() != a_rows.size()) {
    *diff = "tensors: expected " + std::to_string(e_rows.size()) + " rows, got " +
            std::to_string(a_rows.size());
    return false;
  }
  // The bijections, fixed by tensors[] order: ids, and addresses.
  std::map<std::string, std::string> id_map, id_back;
  std::map<uint64_t, uint64_t> addr_map, addr_back;
  std::map<std::string, uint64_t> e_addr, a_addr;
  for (size_t i = 0; i < e_rows.size(); ++i) {
    const std::string path = "tensors[" + std::to_string(i) + "]";
    if (!id_map.emplace(e_rows[i].id, a_rows[i].id).second ||
        !id_back.emplace(a_rows[i].id, e_rows[i].id).second) {
      *diff = path + ": tensor id repeated in tensors[]";
      return false;
    }
    auto [fwd, fwd_new] = addr_map.emplace(e_rows[i].addr, a_rows[i].addr);
    auto [back, back_new] = addr_back.emplace(a_rows[i].addr, e_rows[i].addr);
    if (fwd->second != a_rows[i].addr || back->second != e_rows[i].addr) {
      *diff = path + ": address structure differs (buffers shared in one file, not the other)";
      return false;
    }
    e_addr[e_rows[i].id] = e_rows[i].addr;
    a_addr[a_rows[i].id] = a_rows[i].addr;
  }
  // Every other field identical once ids are mapped and addresses blanked.
  Json e_norm = expected;
  Json a_norm = actual;
  std::map<std::string, std::string> identity;
  for (const auto& [e, a] : id_map) identity.emplace(a, a);
  if (!Normalise(&e_norm, id_map, "", diff)) {
    *diff = "expected" + *diff;
    return false;
  }
  if (!Normalise(&a_norm, identity, "", diff)) {
    *diff = "actual" + *diff;
    return false;
  }
  if (FirstDifference(e_norm, a_norm, "", diff)) {
    if (!diff->empty() && (*diff)[0] == '.') diff->erase(0, 1);
    if (diff->empty() || (*diff)[0] == ':') *diff = "(top level)" + *diff;
    return false;
  }
  // Runtime-allocated buffers at the same relative offsets.
  std::vector<std::string> heap = HeapTensorIds(expected);
  for (size_t i = 1; i < heap.size(); ++i) {
    const uint64_t e_delta = e_addr.at(heap[i]) - e_addr.at(heap[0]);
    const uint64_t a_delta = a_addr.at(id_map.at(heap[i])) - a_addr.at(id_map.at(heap[0]));
    if (e_delta != a_delta) {
      std::ostringstream msg;
      msg << "heap layout: buffer of tensor " << heap[i] << " lies at offset "
          << static_cast<int64_t>(e_delta) << " from the first allocated buffer, got "
          << static_cast<int64_t>(a_delta);
      *diff = msg.str();
      return false;
    }
  }
  return true;
}

bool DepsFilesEquivalent(const std::string& expected_path, const std::string& actual_path,
                         std::string* diff) {
  std::string texts[2];
  const std::string paths[2] = {expected_path, actual_path};
  for (int i = 0; i < 2; ++i) {
    std::ifstream in(paths[i], std::ios::binary);
    if (!in) {
      *diff = paths[i] + ": cannot read";
      return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    texts[i] = ss.str();
  }
  return DepsEquivalent(texts[0], texts[1], diff);
}

}  // namespace depgraph::testing
