// depir text -> Program (grammar and semantics: docs/depir.md).
#pragma once

#include <string>
#include <string_view>

#include "depgraph_passes/ir.h"

namespace depgraph::passes {

/// Parses depir `text`. On success fills *out and returns true. On the first error returns
/// false with *err = "<filename>:<line>:<col>: <message>" (one line, e.g. "f.depir:3:7:
/// expected ')'"). Never throws or crashes on any input; nesting deeper than 256 blocks is an
/// error. O(text) time and memory (plus O(vars) per `name@k` reference).
bool ParseDepir(std::string_view text, const std::string& filename, Program* out, std::string* err);

/// Reads the file at `path` and parses it, errors prefixed with `path`. Only a regular file of
/// at most depgraph::kMaxSmallInputBytes is read: a directory, FIFO or device is refused before
/// it is opened ("p.depir: is a directory"). O(file).
bool ParseDepirFile(const std::string& path, Program* out, std::string* err);

}  // namespace depgraph::passes
