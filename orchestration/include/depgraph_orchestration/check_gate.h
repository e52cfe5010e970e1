// `depgraph check` as a CI gate: the compiler-vs-runtime comparison of compile_check.h in the
// gate model (gate_report.h), with the same rule ids as `depgraph diff` where the meaning is
// the same (A = the runtime's graph, B = the compiled program's).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "depgraph/audit/gate_report.h"
#include "depgraph_orchestration/compile_check.h"

namespace depgraph {

/// Kernel name of a task of `graph` by its index in tasks[], from its first active slot
/// ("f7" when `names` lacks it, "dummy" without one). O(log names).
std::string CheckKernelName(const DepGraph& graph, const std::map<int32_t, std::string>& names,
                            uint32_t task_index);

/// Builds the verdict of a compared check. Rules: DG201 an ordering of the runtime graph the
/// compiled one loses (error; orderings from allocations are judged as retentions instead),
/// DG301 a created buffer nothing keeps alive any more (error), DG302 a byte-level hazard of
/// the compiled graph the runtime graph orders (error), DG202 an edge of the compiled graph no
/// runtime path implies (warning: lost parallelism; allocation lifetimes left out), DG203
/// edges implied through a path (counted, not listed) and added edges that order a pair the
/// runtime's graph races on (listed as info: a fix, not lost parallelism). Messages are the text report's lines.
/// Coverage gap: the two runs submitted different work. `label` is the program's path.
/// Cost: O(findings x log V) plus O(V + E) per graph.
GateReport CheckGateReport(const CompileCheck& check, const std::map<int32_t, std::string>& names,
                           const std::string& label, const GateOptions& options);

}  // namespace depgraph
