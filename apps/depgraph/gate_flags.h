// The flags every CI gate of `depgraph` (audit, diff, check) shares, and how a gate's verdict
// is written in the CI formats (SARIF, JUnit XML, GitHub annotations and step summary).
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
  bool allow_empty = false;     ///< --allow-empty: a capture of nothing passes
  /// --summary FILE: the markdown step summary, written atomically; empty: with --format
  /// github, appended to the file $GITHUB_STEP_SUMMARY names (when set).
  std::string summary;

  /// The format after --json. O(1).
  std::string Format() const { return json ? "json" : format; }
  /// The options the gate model judges with. O(1).
  GateOptions Options() const { return GateOptions{strict, warnings_as_errors}; }
  /// Whether the format is one of the CI formats (sarif, junit, github). O(1).
  bool CiFormat() const;
};

/// Adds --format, --json, --strict, --warnings-as-errors, --allow-empty and --summary to a
/// gate subcommand; `json_what` says what --json writes ("schema depgraph-diff/1"), or is
/// empty when the command has no JSON report (then json is not a --format choice).
void AddGateFlags(CLI::App* cmd, GateFlags* flags, const std::string& json_what);

/// Prints each coverage gap of `report` on `err` as `warning: <where>: <gap>` (every format:
/// a CI log that only greps for races still sees it). O(gaps).
void WarnCoverageGaps(const GateReport& report, const std::string& where, std::ostream& err);

/// Writes `report` in the CI format `format` (sarif, junit or github annotations). O(findings).
void WriteGateCiFormat(const std::string& format, const GateReport& report, std::ostream& out);

/// Writes the markdown step summary where the flags say (--summary FILE atomically, else with
/// --format github appended to $GITHUB_STEP_SUMMARY); nothing when neither. False after
/// `error: <one line>` on `err` when the file cannot be written. O(findings).
bool WriteGateStepSummary(const GateFlags& flags, const GateReport& report, std::ostream& out,
                          std::ostream& err);

}  // namespace depgraph
