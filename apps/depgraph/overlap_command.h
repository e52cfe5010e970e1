// `depgraph overlap RECORDS A B`: did two tasks run at the same time in a profiled run, and
// if not, why not (a dependency path, another predecessor, a busy core, a late dispatch)?
#pragma once

#include <ostream>
#include <string>

namespace CLI {
class App;
}

namespace depgraph {

/// Arguments of `depgraph overlap`.
struct OverlapArgs {
  std::string records;     ///< chip_swimlane_records.json (or l2_perf_records.json)
  std::string a, b;        ///< the two tasks: raw ids or "(ring, local)"
  std::string deps_json;   ///< --deps-json ("": deps.json beside the records)
  std::string func_names;  ///< --func-names ("": the newest sibling name_map*.json)
  bool json = false;       ///< --json: the answer as JSON on stdout
};

/// Registers the `overlap` subcommand on `app`; *args must outlive the parse. Returns it.
CLI::App* AddOverlapCommand(CLI::App* app, OverlapArgs* args);

/// Runs `depgraph overlap`: exit 0 answered (either way), 1 bad input or unknown task, one
/// line on `err`. Cost: the loads, then AnswerOverlap (task_overlap.h).
int RunOverlapCommand(const OverlapArgs& args, std::ostream& out, std::ostream& err);

}  // namespace depgraph
