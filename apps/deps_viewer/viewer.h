// deps_viewer's main flow: load, select edges, render, report.
#pragma once

#include <ostream>

#include "viewer_options.h"

namespace depgraph {

/// Runs deps_viewer with parsed options, writing its messages to `out` (stdout) and `err`
/// (stderr). `err_is_terminal` enables progress reports on long loads. Returns the exit code:
/// 0 success, 1 bad input or I/O error (no output file is left behind), 3 a cycle under
/// --strict.
int RunViewer(const ViewerOptions& options, std::ostream& out, std::ostream& err,
              bool err_is_terminal);

/// Parses argv and runs; what main() calls.
int ViewerMain(int argc, char** argv);

}  // namespace depgraph
