// AutoDeriveTaskDependencies (spec §2): derives compiler task edges in AUTO regions, rewrites
// covered directions (Input->NoDep, InOut->OutputExisting) and sets the call and function
// markers that MaterializeRuntimeScopes consumes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "depgraph_passes/ir.h"

namespace depgraph::passes {

/// One non-submit TaskId scalar in `deps=` is enough to treat a dynamic prior as covered (§2.9).
inline constexpr int kMinWindowedTaskIdTempDeps = 1;
/// Loop depth at which a dynamic `parallel` loop's records are summarised by its return vars
/// (§2.4, §2.9): only the outermost loop of an analysis; nested dynamic loops never are.
inline constexpr int kDynamicParallelSummaryDepth = 1;
/// Largest argument index that can become a direction-rewrite candidate (§2.9).
inline constexpr int64_t kMaxCandidateIndex = INT32_MAX;

/// Why an analysed region fell back to runtime tracking (§2.6), in the debug log's spelling.
enum class FallbackReason {
  kUnresolvedLocation,
  kPriorFromInactiveDynamicLoop,
  kDynamicPriorProducerRequiresScopeLift,
  kMissingPriorTaskId,
  /// depgraph's addition: the edge to the prior producer would name a value that never names
  /// a task at run time (a loop result that only carries a parameter, a slice or a created
  /// tensor), which generated code could not resolve.
  kPriorNamesNoTask,
};

/// The debug-log name of a reason, e.g. "unresolved_location". O(1).
const char* FallbackReasonName(FallbackReason reason);

/// Switches of the pass (§2.9).
struct AutoDeriveOptions {
  bool analyze_auto_scopes = false;  ///< off (default): the pass is a no-op
  bool debug_log = false;            ///< collect the rewrite-bucket log in the report
  /// Sound mode (data/passes/README.md "Soundness"): the same pass without the four ordering
  /// gaps of spec §3.4 and the gaps (e) and (f). A direction rewrite or a MANUAL marker
  /// is kept only where every hazard it relies on is provably covered: (a) an Input/InOut slot
  /// is rewritten only when every alternative of its region is contained in a covered prior
  /// write; (b) a loop with cross-iteration hazards keeps the runtime lookups of the calls
  /// involved (no rewrite, no call marker) and blocks the whole-body marker; (c) once any scope
  /// of the function fell back (or a hand function has a call outside any scope), no rewrite
  /// and no call marker survive in the function (compiler edges stay); (d) a call touching a tensor made by `create` gets no
  /// call marker and blocks the whole-body marker (a MANUAL scope drops the creator retention
  /// that keeps the buffer alive), and one touching a `manual_dep` tensor also gets no rewrite;
  /// (e) a hazard covered only by an edge to a loop's return var while the runtime does not
  /// chain the loop's iterations (a dynamic `parallel` summary; a fixed-trip write that is not
  /// InOut) names the last iteration only: that slot keeps its direction, the call gets no
  /// marker and the layer no whole-body marker; (f) likewise for a hazard covered by an edge
  /// generated code cannot name at the call (defined in a block that has closed there). In
  /// (e) and (f) the earlier call whose write the kept lookup must find loses its marker too.
  /// Compiler edges are never changed.
  /// Off = the reference.
  bool sound = false;
};

/// Outcome of one analysed region: nullopt = finished without fallback.
using RegionOutcome = std::optional<FallbackReason>;

/// What the pass observed: per analysed hand-placed AUTO scope (keyed by its pre-order index
/// among the function's RuntimeScopeStmts, 1-based) and per virtual whole body (by function
/// name), plus the debug log text (one line per bucket, '\n'-terminated).
struct AutoDeriveReport {
  std::map<std::string, std::map<int, RegionOutcome>> scopes;
  std::map<std::string, RegionOutcome> bodies;
  std::string debug_log;
};

/// Runs the pass over every function of `prog` in place. Never fails (unsupported shapes fall
/// back to runtime tracking). O(program size * accesses per region) time.
void AutoDeriveTaskDependencies(Program* prog, const AutoDeriveOptions& options,
                                AutoDeriveReport* report);

}  // namespace depgraph::passes
