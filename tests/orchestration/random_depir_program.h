// A seeded generator of small random depir programs, for `depgraph check` fuzzing
// (tests/orchestration/check_fuzz_test.cc).
#pragma once

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace depgraph::testing {

/// Small orchestration programs over one 64-float kernel family (fill / consume / mutate, and
/// 32-float variants on slices): AUTO or hand functions, nested AUTO and MANUAL scopes (also
/// in AUTO functions, and MANUAL ones inside loop bodies), fixed, symbolic and parallel `for`
/// loops (with and without iter args), `while` loops, if/else with yields, creates (some
/// manual_dep), slices, memref parameters aliasing one buffer, submits with TaskId tails and
/// user deps on them, TaskIds carried out of loops, branches and scopes into the deps of
/// unrelated calls in later blocks; and the shapes of issue 10 (IssueTenShape). Every
/// program is valid: it runs with Bindings() plus `cond=true` or `cond=false`.
class RandomProgram {
 public:
  /// `open_shapes` also generates the shapes the sound pass is known to fail on
  /// (DEPGRAPH_FUZZ_OPEN_SHAPES=1 in CheckFuzz; the list is at the top of random_depir_program.cc).
  explicit RandomProgram(uint32_t seed, bool open_shapes = false)
      : rng_(seed), open_shapes_(open_shapes) {}

  /// The program's text.
  std::string Text();

  /// The `--set` bindings every program needs besides `cond`: `n` (symbolic trip count),
  /// `go` and `skip` (the trip counts of `while go` / `while skip` loops: depir's `run` takes
  /// a while's trip count from the binding of its condition's name) and `qoff` (a symbolic
  /// memref offset).
  static std::vector<std::string> Bindings();

 private:
  struct Env {
    std::vector<std::pair<std::string, int>> tensors;  ///< name, element count
    std::set<std::string> pooled;       ///< tensors that may be windows of a memref pool
    std::vector<std::string> tids;      ///< TaskIds of this block, for user deps
    std::vector<std::string> far_tids;  ///< TaskIds from other blocks, kept in nested blocks
  };

  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  std::string Fresh(const char* prefix) { return prefix + std::to_string(++names_); }
  static std::string Pad(int indent) { return std::string(2 * static_cast<size_t>(indent), ' '); }
  Env EntryEnv() const;
  std::string Tensor(const Env& env, int size, bool unpooled = false);
  /// Adds tensor `name`, an alias of one of `from` (pooled when one of them is).
  static void Add(Env& env, const std::string& name, int size,
                  const std::vector<std::string>& from = {});
  std::string Block(Env& env, int depth, int indent, bool in_loop, bool hand, bool in_scope);
  std::string Stmt(Env& env, int depth, int indent, bool in_loop, bool hand, bool in_scope);

  // One function per shape (see the .cc for what each generates).
  std::string PatternBLoop(Env& env, int depth, int indent, bool hand, bool in_scope);
  std::string NestedScope(Env& env, int depth, int indent, bool in_loop, bool hand, bool in_scope);
  std::string ManualScope(Env& env, int indent, bool in_loop);
  std::string IfElse(Env& env, int depth, int indent, bool in_loop, bool hand, bool in_scope);
  std::string IterLoop(Env& env, int depth, int indent, bool hand, bool in_scope);
  std::string WhileLoop(Env& env, int depth, int indent, bool hand, bool in_scope);
  std::string CrossBlockTaskId(Env& env, int indent, bool in_loop);
  std::string ManualScopeInLoop(Env& env, int depth, int indent, bool hand, bool in_scope);
  std::string MemrefAlias(Env& env, int indent, bool in_loop);
  std::string SliceOrCreate(Env& env, int indent);
  std::string IssueTenShape(Env& env, int indent);
  std::string Call(Env& env, int indent, bool in_loop);
  std::string CallOn(Env& env, int indent, bool in_loop, const std::string& t, int size,
                     const std::string& extra_dep = "");

  std::mt19937 rng_;
  bool open_shapes_;
  int names_ = 0;
};

}  // namespace depgraph::testing
