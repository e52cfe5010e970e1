// Command line of deps_viewer: the reference tool's flags plus depgraph's additions.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "depgraph/reduce/edge_mode.h"

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
  bool strict = false;      ///< a cycle exits 3, in every edge mode
  bool stats = false;       ///< print tasks, edges, depth, width, redundant, retained
  /// --layout for html: "graphviz" or "layered" (the explorer page); empty = by graph size.
  std::string layout;
  /// --dot-layout-form: the dot output is the DOT the html page lays out (every pair, the
  /// unselected ones in the background colour) instead of only the selected pairs.
  bool dot_layout_form = false;
  /// --layout-timeout: stop a Graphviz layout after this many seconds (0 = no limit).
  double layout_timeout = 0;
  /// --threads: threads that load the input (0 = every core); never changes the output.
  unsigned threads = 0;
};

/// Parses argv like the reference tool's argparse: long options may be abbreviated to any
/// unambiguous prefix, `--opt=value` and `--opt value` both work, `--` ends the options.
/// Returns -1 when the program should go on, else the exit code: 0 after --help (the help
/// text on `out`) or --version, 2 on a usage error (one line on `err` in our own words: an
/// unknown option names the closest real one, a bad value lists the accepted ones). O(argc x
/// options).
int ParseViewerOptions(const std::vector<std::string>& args, ViewerOptions* options,
                       std::ostream& out, std::ostream& err);

}  // namespace depgraph
