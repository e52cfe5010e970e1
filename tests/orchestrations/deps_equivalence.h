// Structural equivalence of two deps.json captures: identical except for absolute addresses.
#pragma once

#include <string>

namespace depgraph::testing {

/// Compares a produced deps.json (`actual`) with a reference one (`expected`). They are
/// equivalent iff
///  * both are in the runtime's serialisation (one line, no spaces, '\n' at the end);
///  * every field other than `buffer_addr` and the tensor ids is identical, with the same key
///    order, in tasks[], tensors[] and edges[] (same lengths, same order);
///  * tensor ids map one-to-one, the bijection being fixed by tensors[] order, and every
///    `tensor_id` in args and edges maps consistently through it;
///  * each file's tensor ids are FNV-1a(buffer_addr, version) (runtime.md §6);
///  * the address structure is the same: equal addresses map to equal addresses, and the
///    runtime-allocated buffers (those named by creator edges) lie at the same offsets from one
///    another (ring heap layout, packing of outputs, distance between rings).
/// On a difference returns false and a one-line description with the JSON path.
/// O(size of the files + heap buffers).
bool DepsEquivalent(const std::string& expected_json, const std::string& actual_json,
                    std::string* diff);

/// DepsEquivalent on two files; a read or parse error is reported as a difference.
bool DepsFilesEquivalent(const std::string& expected_path, const std::string& actual_path,
                         std::string* diff);

}  // namespace depgraph::testing
