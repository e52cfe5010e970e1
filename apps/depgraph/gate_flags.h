// The flags every CI gate of `depgraph` (audit, diff, check) shares, and how a gate's verdict
// is written in each output format.
#pragma once

#include <ostream>
#include <string>

#include "depgraph/audit/gate_report.h"

namespace CLI {
class App;
}

namespace depgraph {

/// The gate flags as parsed.
struct GateFlags {
  std::string format = "text";  ///< --format: text, json, sarif, junit, github
  bool json = false;            ///< --json: the same as --format json
  bool strict = false;          ///< --strict: a coverage gap fails the gate
  bool warnings_as_errors = false;  ///< --warnings-as-errors: a warning fails the gate
  bool allow_empty = false;     ///< --allow-empty: a capture without tasks passes
  std::string summary;          ///< --summary FILE (github format; default $GITHUB_STEP_SUMMARY)

  /// The format after --json. O(1).
  std::string Format() const { return json ? "json" : format; }
  /// The options the gate model judges with. O(1).
  GateOptions Options() const { return GateOptions{strict, warnings_as_errors}; }
  /// Whether the format is one of the CI formats (sarif, junit, github). O(1).
  bool CiFormat() const;
};

/// Adds --format, --json, --strict, --warnings-as-errors, --allow-empty and --summary to a
/// gate subcommand; `what` names what --json writes (e.g. "schema depgraph-diff/1").
void AddGateFlags(CLI::App* cmd, GateFlags* flags, const std::string& what);

/// Prints each coverage gap of `report` on `err` as `warning: <where>: <gap>` (every format:
/// a CI log that only greps for races still sees it). O(gaps).
void WarnCoverageGaps(const GateReport& report, const std::string& where, std::ostream& err);

/// Writes `report` in a CI format (sarif, junit, github) to `out`; for github also appends
/// the markdown summary to --summary or $GITHUB_STEP_SUMMARY (false with `error: ...` on
/// `err` when that file cannot be written). O(findings).
bool WriteGateCiFormat(const GateFlags& flags, const GateReport& report, std::ostream& out,
                       std::ostream& err);

}  // namespace depgraph
