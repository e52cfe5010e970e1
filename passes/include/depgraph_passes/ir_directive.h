// depir directives kept as data for a test runner: `run` (pass switches) and `expect` (facts).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace depgraph::passes {

/// `run flag...`, e.g. `run analyze debug`. Flags are kept verbatim, in order.
struct RunDirective {
  std::vector<std::string> flags;
  bool operator==(const RunDirective&) const = default;
  /// True when `flag` was given. O(flags).
  bool Has(const std::string& flag) const;
};

/// What an `expect` line is about.
enum class TargetKind {
  kCall,    ///< `k#N`: the N-th call (1-based, program order) of kernel k
  kScope,   ///< `scope#N`: the N-th RuntimeScopeStmt in pre-order, after the pass
  kFunc,    ///< `func f`
  kStderr,  ///< `stderr`
  kMat,     ///< `mat f`: scope tree of f after MaterializeRuntimeScopes
};

/// The target of an expectation.
struct ExpectTarget {
  TargetKind kind = TargetKind::kCall;
  std::string name;   ///< kernel (kCall) or function (kFunc, kMat)
  int64_t index = 0;  ///< N of kCall / kScope
  bool operator==(const ExpectTarget&) const = default;
};

/// How a fact is written.
enum class FactForm {
  kFlag,    ///< `mark`
  kList,    ///< `edges=[a, b@2]` (items verbatim, `@k` refs unresolved)
  kValue,   ///< `key=item`
  kString,  ///< `"text"` (key empty)
};

/// One fact of an expectation. Items are kept as written (identifiers, `name@k`, integers,
/// direction words); a runner resolves them against the program (var_numbering.h).
struct Fact {
  FactForm form = FactForm::kFlag;
  std::string key;
  std::vector<std::string> items;
  std::string text;  ///< kString
  bool operator==(const Fact&) const = default;
};

/// `expect target fact...`. `line` is the source line (not compared).
struct ExpectDirective {
  ExpectTarget target;
  std::vector<Fact> facts;
  int line = 0;
  bool operator==(const ExpectDirective& o) const { return target == o.target && facts == o.facts; }
};

/// depir text of a target, e.g. "consume#1", "func main". O(size).
std::string TargetText(const ExpectTarget& target);

/// depir text of a fact, e.g. "edges=[a, b@2]", "\"x\\\"y\"". O(size).
std::string FactText(const Fact& fact);

}  // namespace depgraph::passes
