// Rendering one edge selection into the chosen output format.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "depgraph/edge_mode.h"
#include "depgraph/graph.h"
#include "depgraph/task_label.h"
#include "viewer_options.h"

namespace depgraph {

/// Everything a renderer needs.
struct RenderRequest {
  const DepGraph& graph;
  const std::vector<TaskLabel>& labels;
  const EdgeSelection& selection;
  const std::string& source;  ///< normalised input path, printed in reports
  const ViewerOptions& options;
};

/// Writes the output for options.format (text, html, dot or json) to `out` and sets *summary
/// to the parenthesised part of the final "Wrote ..." line. False with *err on failure.
/// Cost: O(V + E) for text/dot/json; html adds the Graphviz layout.
bool RenderOutput(const RenderRequest& request, std::ostream& out, std::string* summary,
                  std::string* err);

/// The JSON export: summary plus the selected pairs, ids as decimal strings. O(V + E).
void WriteJsonExport(const RenderRequest& request, std::ostream& out);

}  // namespace depgraph
