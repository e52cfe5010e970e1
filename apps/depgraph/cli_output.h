// Output helpers shared by the `depgraph` subcommands that write a report: stdout or an
// atomically written file, never one of the inputs.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "depgraph/support/atomic_file.h"

namespace depgraph {

/// Writes `render`'s output atomically to `path` (a failure prints `error: <one line>` to
/// `err` and leaves no file). O(output).
template <typename Render>
bool WriteReportFile(const std::string& path, std::ostream& err, Render&& render) {
  AtomicFile file;
  std::string error;
  if (!file.Open(path, &error)) {
    err << "error: " << error << "\n";
    return false;
  }
  render(file.stream());
  if (!file.Commit(&error)) {
    err << "error: " << error << "\n";
    return false;
  }
  return true;
}

/// Writes `render`'s output to `out` or, atomically, to `path` (WriteReportFile). O(output).
template <typename Render>
bool EmitReport(const std::string& path, std::ostream& out, std::ostream& err, Render&& render) {
  if (!path.empty()) return WriteReportFile(path, err, render);
  render(out);
  out.flush();
  return true;
}

/// False after `error: <output>: is the input file ...` when `output` (if any) is one of
/// `inputs`. O(inputs).
bool OutputIsNotAnInputOrReport(const std::string& output, const std::vector<std::string>& inputs,
                                std::ostream& err);

}  // namespace depgraph
