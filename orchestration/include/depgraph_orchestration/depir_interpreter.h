// Interprets a depir program on the runtime shim: every kernel call becomes a runtime task, so
// the shim's dependency inference and capture produce the program's deps.json.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "depgraph_passes/ir.h"
#include "depgraph_orchestration/depir_work_bound.h"

namespace depgraph::shim {
class ShimRuntime;
}  // namespace depgraph::shim

namespace depgraph {

/// What to run: the entry function and the values of free names (`--set name=value`).
struct DepirRunOptions {
  /// Orchestration function to run; empty = `main`, or the only function of the program.
  std::string entry;
  /// Values of index/bool parameters, symbolic dimensions and while trip counts, by name
  /// (true = 1, false = 0).
  std::map<std::string, int64_t> sets;
  /// File name used as the prefix of error messages.
  std::string filename;
  /// The run's work bound (depir_work_bound.h): loop iterations over all loops, and tasks
  /// submitted; past either the run stops with an error at the statement.
  int64_t max_iterations = depir_run::kMaxRunIterations;
  int64_t max_tasks = depir_run::kMaxRunTasks;
};

/// One executed `create`: the allocation task that made its tensor and the tensor's buffer.
struct CreatedTensor {
  uint64_t alloc_id = 0;     ///< raw task id of the (possibly batched) alloc_tensors call
  uint64_t buffer_addr = 0;  ///< the tensor's buffer address (tensors[].buffer_addr)
};

/// A compiler edge the run left out because generated code could not name its TaskId at the
/// call (defined in a block that had closed, or in a branch that did not run).
struct DroppedEdge {
  std::string function;  ///< orchestration function of the call
  std::string kernel;    ///< the call's kernel
  std::string edge;      ///< the edge's variable
};

/// What a run did besides the capture, for checks that compare two runs.
struct DepirRunTrace {
  /// Compiler edges left out, in execution order (one per executed call and edge).
  std::vector<DroppedEdge> dropped_edges;
  /// Every executed `create`, in execution order. Allocation tasks never appear in tasks[] and
  /// their ids and batching depend on scopes, so two runs of one program match their created
  /// tensors by this order.
  std::vector<CreatedTensor> creates;
};

/// Callable id -> name of every task kind the program can submit: kernels by their index in
/// the program, then each distinct `dynamic` op (e.g. "gather") in program order.
/// O(program).
std::vector<std::pair<int32_t, std::string>> DepirKernelNames(const passes::Program& program);

/// Runs `program` on `runtime` the way an executor runs generated orchestration code: binds
/// the runtime, opens the outer AUTO scope, interprets the entry function (loops unrolled,
/// branches and while trip counts taken from `options.sets`), closes the scope and unbinds.
/// Returns false with a one-line `*err` ("<file>: <function>: <message>") on an unbound name,
/// a shape mismatch, a malformed program or a fatal shim error; the runtime's capture is then
/// incomplete and must not be written. When `trace` is given it receives every create.
/// Cost: O(executed statements x submit cost).
bool RunDepirOnShim(const passes::Program& program, const DepirRunOptions& options,
                    shim::ShimRuntime* runtime, std::string* err, DepirRunTrace* trace = nullptr);

}  // namespace depgraph
