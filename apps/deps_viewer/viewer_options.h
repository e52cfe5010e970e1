// Command line of deps_viewer: the reference tool's flags plus depgraph's additions.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "depgraph/edge_mode.h"

namespace depgraph {

/// Parsed deps_viewer options.
struct ViewerOptions {
  std::string input;        ///< deps.json; empty = newest outputs/**/deps.json
  std::string output;       ///< -o; empty = <input dir>/<stem>.<ext>
  std::string format = "text";  ///< text | html | dot | json
  EdgeMode edge_mode = EdgeMode::kFull;
  std::string engine = "dot";
  std::string direction = "LR";
  std::string func_names;   ///< --func-names; empty = auto-discover name_map*.json
  bool show_tensor_info = false;
  bool explain = false;     ///< add the retained-for-lifetime line under the reduced headline
  bool strict = false;      ///< a cycle in a reduction mode exits 3
  bool stats = false;       ///< print tasks, edges, depth, width, redundant, retained
  /// --layout for html: "graphviz" or "layered" (the explorer page); empty = by graph size.
  std::string layout;
};

/// Parses argv like the reference tool's argparse: long options may be abbreviated to any
/// unambiguous prefix. Returns -1 when the program should go on, else the exit code
/// (0 after --help, 2 on a usage error, messages written to `out` / `err`).
int ParseViewerOptions(const std::vector<std::string>& args, ViewerOptions* options,
                       std::ostream& out, std::ostream& err);

}  // namespace depgraph
