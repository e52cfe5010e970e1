// The Walker of AutoDeriveTaskDependencies: the main walk (spec §2.3-§2.8) over one function,
// on the pre-pass facts, and the analysis layers it keeps. Internal header. Its member
// functions live by concern in auto_derive_walk.cc (statements, scopes, loops),
// auto_derive_call_site.cc (a call's accesses, hazards, edges and rewrite candidates) and
// auto_derive_rewrites.cc (sound-mode restrictions, stripping and applying the rewrites).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "access_record.h"
#include "ambiguous_bindings.h"
#include "auto_derive_prepass.h"
#include "depgraph_passes/auto_derive_task_dependencies.h"
#include "depgraph_passes/ir.h"
#include "depgraph_passes/lexical_blocks.h"

namespace depgraph::passes::auto_derive_detail {

/// One analysis layer (a region or the container).
struct Layer {
  bool active = false;
  bool fallback = false;
  std::optional<FallbackReason> reason;
  int candidate_count = 0;
  int task_call_count = 0;
  bool layer_unsupported = false;
  /// Sound mode: a loop in it has uncovered cross-iteration hazards (b) or a call in it touches a
  /// created (runtime-allocated) tensor (d): no whole-body MANUAL marker.
  bool sound_no_layer_manual = false;
};

/// What a producer named inside a loop body becomes after the loop: the loop return var
/// `target`; `direct` = one side is a TaskId (such a mapping wins over an indirect one).
struct RemapTarget {
  VarId target = -1;
  bool direct = false;
};

/// The walk over one function: records the accesses of its calls in the analysed AUTO regions,
/// derives compiler edges and direction-rewrite candidates from the hazards between them, and
/// rewrites the function and fills the report. One Walker per function, run once.
class Walker {
 public:
  /// Computes the pre-pass facts and task-backed vars of `fn`; sound mode also its created
  /// roots, lexical blocks and ambiguous bindings. O(pre-passes + statements).
  Walker(const Program& prog, Function* fn, const AutoDeriveOptions& opts, AutoDeriveReport* report);

  /// Walks the function and rewrites it in place (see RunBody). O(calls x records in scope).
  /// Sound mode: a helper that another function calls starts with every parameter written
  /// and read by an earlier task of its caller, whose TaskId the helper cannot name. A hazard
  /// against it makes the region fall back (missing_prior_task_id), so the helper keeps the
  /// runtime's lookups instead of assuming its parameters have no earlier writer.
  void Run();

  /// Walks the body as a single hand-placed scope, a whole-body AUTO layer (then sets the
  /// function's layer marker and its report entry) or a container of scopes, and strips or
  /// applies the rewrites found. O(calls x records in scope).
  void RunBody();

 private:
  // ---- walking -------------------------------------------------------------------------
  /// Walks the statements of `body` in order. O(their walk).
  void WalkBody(std::vector<Stmt>* body);
  /// Dispatches one statement: scopes, loops, ifs (tracking the open branch), calls and
  /// sound-mode `dynamic` ops. O(its walk).
  void WalkStmt(Stmt* s);
  /// The 1-based pre-order index of scope `target` among the function's scopes (the report's
  /// key), 0 if absent. O(statements).
  int ScopeIndex(const Stmt* target);
  /// ScopeIndex's recursion: counts the scopes of `body` in *idx until `t`, whose index goes
  /// to *found. O(statements).
  static void Count(const std::vector<Stmt>& body, const Stmt* t, int* idx, int* found);
  /// An AUTO scope (MANUAL ones are skipped): walks it as its own layer and frame, reports its
  /// outcome, then strips it on fallback or hands its records and candidates to the enclosing
  /// frame and layer (applies them when no layer encloses it). O(its walk + statements).
  void Scope(Stmt* s);
  /// The `yield` that ends `body`, or nullptr. O(1).
  static const Stmt* TrailingYield(const std::vector<Stmt>& body);
  /// Per var a loop's records may name as producer (its yielded values, their canonical
  /// TaskIds, its iter args): the loop return var that names it after the loop. O(returns x
  /// log returns).
  std::map<VarId, RemapTarget> RemapTable(const Stmt& s);
  /// Whether the value loop `s` yields for its return var `ret` is defined by a statement of
  /// the loop body (so the return var names the task that made it in the last iteration),
  /// rather than carried unchanged from before the loop. O(body statements).
  bool YieldsValueMadeInBody(const Stmt& s, VarId ret) const;
  /// Whether a statement of `body` (nested ones included) defines `v`. O(statements x defs).
  static bool DefinedIn(const std::vector<Stmt>& body, VarId v);
  /// A loop return var with a Known location that may alias and overlap `alt`, or -1.
  /// O(returns x alternatives).
  VarId CoveringReturnVar(const Stmt& s, const StorageAlt& alt);
  /// A `for` or `while` loop: walks its body once, tracks dynamic (not fixed-trip) loops, and
  /// re-expresses the producers of its records as the loop's return vars (single-iteration
  /// and fixed-trip loops, the dynamic `parallel` summary); sound mode also checks (b) and
  /// marks last-iteration-only writes (e). O(body walk + records x returns, sound: + body
  /// records^2).
  void Loop(Stmt* s);

  // ---- per call --------------------------------------------------------------------------
  /// Makes the current layer fall back; its first reason is the one reported. O(1).
  void Fallback(FallbackReason reason);
  /// A var in the debug log: `name#id`, or `null`. O(name).
  std::string VarText(VarId v) const;
  /// Appends the bucket line of argument `arg` of `call` to the debug log, when it is on.
  /// O(line length).
  void Log(const Expr& call, size_t arg, const std::string& bucket, const std::string& extra);
  /// The debug log's spelling of a direction. O(1).
  static const char* DirText(ArgDir d);
  /// The debug log's spelling of an access kind. O(1).
  static const char* AccessText(Access a);
  /// Whether a read of `v` at the current point of the walk is one of rule (k)'s bindings.
  /// O(log V + open ifs).
  bool AmbiguousHere(VarId v) const;
  /// Sound mode (h): a `dynamic` op (gather family) is a task that reads its tensor operands
  /// whole, and the pass gives it no edges. When any of those buffers has an earlier access in
  /// the analysed region, only the runtime's lookup orders the op: no MANUAL scope may hold it
  /// (no whole-body marker, no rewrite or marker of the function, as for (c)).
  /// Its reads are recorded with no nameable producer, so a later writer of those buffers
  /// cannot be rewritten past them either. O(operands x records).
  void DynamicSite(const Expr& op);
  /// A call in an analysed layer (`assign` = its statement, nullptr for an eval): its producer
  /// TaskId, user edges and accesses; the hazard scan against every earlier record (a fallback,
  /// or compiler edges); its rewrite candidates; its own records; the edges and marker set on
  /// it. O(accesses x records in the open frames).
  void CallSite(Expr* call, Stmt* assign);
  /// Whether `ks` holds every slot of the TaskId array `a` (of known positive extent).
  /// O(extent x log |ks|).
  bool FullSlots(VarId a, const std::set<int64_t>& ks) const;
  /// Appends `v` to *out unless it is negative or already there. O(|out|).
  static void AddUnique(std::vector<VarId>* out, VarId v);

  // ---- sound mode (AutoDeriveOptions::sound) -----------------------------------------------
  /// (e), (f) The current call keeps its runtime lookup because the edge to `prior`'s task does
  /// not cover the hazard; the lookup only finds that task if it publishes, which it does only
  /// outside a MANUAL scope: its call marker goes (markers already set are on earlier calls).
  /// O(1).
  static void KeepPublishing(const Record& prior);
  /// Roots (and MemRef aliases) of every `create` in `body`, recursively; those of
  /// `create(..) manual_dep` also into manual_dep_roots_. O(statements x alternatives).
  void CollectCreatedRoots(const std::vector<Stmt>& body);
  /// (d) True when `alt` may alias the storage of one of `roots`. O(|roots|).
  bool TouchesRootIn(const std::set<VarId>& roots, const StorageAlt& alt) const;
  /// (b) After walking a counted loop's body: every pair of records of the body (a record with
  /// itself included) that alias, overlap and conflict is a hazard between two iterations, which
  /// the pass never covers with an edge. The calls involved keep their runtime lookups (their
  /// rewrite candidates and call markers are dropped) and every enclosing layer loses the
  /// whole-body marker. Two kinds of pairs are ordered or disjoint without the runtime: bands
  /// of one parent at the loop's own index (disjoint when the step is at least the band's
  /// extent), and a submit with itself when its user deps name the loop-carried TaskId that the
  /// loop yields from that submit (`deps=[last]`, `yield tid`: iteration k+1 waits on k).
  /// O(body records^2).
  void SoundCrossIteration(const Stmt& loop, size_t begin);
  /// (c) Once any scope of the function fell back (or a hand function has a call outside any
  /// scope), those accesses were never seen by the rest of the analysis: drop every rewrite
  /// candidate and call marker of `body` (edges stay). O(Strip) when it strips, else O(1).
  void SoundStripAfterFallback(std::vector<Stmt>* body);

  // ---- stripping and application ---------------------------------------------------------
  /// Drops the rewrite candidates and call markers of every call in `body` (recursively), and
  /// with `edges` its compiler edges too. O(statements x log pending).
  void Strip(std::vector<Stmt>* body, bool edges);
  /// Applies, and forgets, the pending rewrite candidates of the calls in `body` (recursively):
  /// Input -> NoDep, InOut -> OutputExisting. O(statements x log pending + candidates).
  void ApplyPending(std::vector<Stmt>* body);

  const Program& prog_;
  Function* fn_;
  const AutoDeriveOptions& opts_;
  AutoDeriveReport* report_;
  FunctionFacts facts_;
  std::vector<uint8_t> task_backed_;  ///< per var: may name a task at run time
  std::optional<AmbiguousBindings> ambiguous_;  ///< sound (k)
  std::vector<const Stmt*> open_ifs_;           ///< the ifs the walk is inside
  std::vector<std::pair<const Stmt*, bool>> open_branches_;  ///< and in which branch of each
  std::vector<std::vector<Record>> frames_;
  std::vector<Layer> layers_;
  int loop_depth_ = 0;
  int next_dyn_id_ = 0;
  std::vector<std::pair<int, int>> dyn_stack_;  ///< (id, depth)
  std::set<int> active_dyn_;
  std::map<const Expr*, std::vector<int>> pending_;  ///< transient candidate indices
  /// Some scope of the function fell back, or a hand function's call outside any scope was
  /// skipped: accesses the analysis never recorded (sound mode strips rewrites and markers).
  bool unseen_accesses_ = false;
  std::set<VarId> manual_dep_roots_;                 ///< sound mode: roots of manual_dep tensors
  std::set<VarId> created_roots_;                    ///< sound mode: roots of every created tensor
  std::optional<LexicalBlocks> blocks_;              ///< sound mode: what a call can name
};

}  // namespace depgraph::passes::auto_derive_detail
