// The compiler-vs-runtime check of one depir program (`depgraph check`): derive, run the
// original and the compiled program on the runtime shim, and compare the two captures.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "depgraph/audit/audit.h"
#include "depgraph/audit/graph_diff.h"
#include "depgraph/graph/graph.h"
#include "depgraph/reduce/byte_region.h"
#include "depgraph_orchestration/buffer_retention.h"
#include "depgraph_orchestration/depir_interpreter.h"
#include "depgraph_passes/ir.h"

namespace depgraph {

/// Runs AutoDeriveTaskDependencies over `program` in place (`analyze` turns on
/// analyze_auto_scopes, `sound` the variant without the reference's gaps), then
/// MaterializeRuntimeScopes when `materialize`. The pass's rewrite-bucket log goes to
/// *debug_log when given. O(program size x accesses per region).
void DeriveProgram(passes::Program* program, bool analyze, bool materialize, bool sound,
                   std::string* debug_log);

/// Interprets `program` on a fresh runtime shim and loads the captured deps.json into *graph
/// (errors name `label`); the run's creates and dropped compiler edges go to *trace.
/// Cost: O(executed statements x submit cost + capture size).
bool CaptureDepirRun(const passes::Program& program, const DepirRunOptions& options,
                     const std::string& label, DepGraph* graph, DepirRunTrace* trace,
                     std::string* err);

/// The kernel submits of a captured run, and how many of them ran in a MANUAL scope.
struct ManualSubmitCount {
  size_t kernel_submits = 0;
  size_t manual = 0;
};

/// Counts the kernel submits of `graph` and those in MANUAL scopes. O(tasks).
ManualSubmitCount CountManualSubmits(const DepGraph& graph);

/// An ordering of the runtime graph that the compiled graph loses (tasks matched by submit
/// order), with the first byte range where the two tasks conflict, if any.
struct LostOrdering {
  DiffPair pair;
  std::optional<ByteInterval> conflict;
};

/// How a compiler edge the compiled run left out is counted: (function, kernel, edge variable).
using DroppedEdgeKey = std::tuple<std::string, std::string, std::string>;

/// Everything `depgraph check` compares, for the caller to print.
struct CompileCheck {
  DepGraph runtime_graph;   ///< the original program's capture (runtime inference only)
  DepGraph compiled_graph;  ///< the derived and materialized program's capture
  DepirRunTrace runtime_trace;
  DepirRunTrace compiled_trace;
  /// The runtime graph (A) against the compiled one (B), tasks matched by submit order.
  GraphDiff diff;
  /// Compiler edges generated code cannot name at their call, counted per key, key order.
  std::map<DroppedEdgeKey, size_t> dropped_edges;
  /// Orderings the compiled graph loses, in the diff's order; orderings from allocations are
  /// judged per created tensor instead (lost_retentions).
  std::vector<LostOrdering> lost_orderings;
  /// Created tensors whose buffer a task no longer keeps alive (buffer_retention.h).
  std::vector<LostRetention> lost_retentions;
  /// Races of the compiled graph (index into compiled_audit.races.races) whose task pair the
  /// runtime graph does not race on.
  std::vector<size_t> new_hazards;
  /// Task pairs (indices into the runtime graph's tasks[], first < second as the audit lists
  /// them) the runtime graph races on: hazards compare by pair only.
  std::set<std::pair<uint32_t, uint32_t>> runtime_race_pairs;
  AuditResult runtime_audit;
  AuditResult compiled_audit;
  /// Orderings, retentions and hazards together: 0 means the compiled program keeps every
  /// ordering the runtime would have enforced.
  size_t Failures() const {
    return lost_orderings.size() + lost_retentions.size() + new_hazards.size();
  }
};

/// How CheckCompiledProgram ended.
enum class CompileCheckStatus {
  kCompared,        ///< *check holds the comparison
  kOriginalFailed,  ///< the original program does not run (*err says why): the user's error
  kCompiledFailed,  ///< the original runs, the compiled one does not (*err): a pass bug
  kError,           ///< the comparison itself failed (a cyclic capture; *err)
};

/// Derives `original` (analyze on, then materialize; `sound` as in DeriveProgram), runs both
/// programs and compares them: every ordering of the original's graph the compiled graph
/// loses, every created tensor whose buffer a task no longer keeps alive, and every byte-level
/// race of the compiled graph that the original does not have for the same two tasks.
/// `label` (the program's path) prefixes error messages. Cost: two shim runs, a diff and two
/// audits of the produced graphs.
CompileCheckStatus CheckCompiledProgram(const passes::Program& original,
                                        const DepirRunOptions& options, bool sound,
                                        const std::string& label, CompileCheck* check,
                                        std::string* err);

}  // namespace depgraph
