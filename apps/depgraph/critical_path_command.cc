#include "critical_path_command.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_set>
#include <vector>

#include "depgraph/internal/py_int.h"
#include "depgraph/support/atomic_file.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/json_dom.h"
#include "depgraph/timing/critical_path.h"
#include "depgraph/timing/critical_path_inputs.h"
#include "depgraph/timing/critical_path_report.h"
#include "depgraph/timing/merged_trace.h"
#include "depgraph/timing/rank_discovery.h"

namespace depgraph {

namespace fs = std::filesystem;

namespace {

/// Python int() of a command-line value, as argparse's type=int; false if it would raise.
bool ParseIntArgument(const std::string& text, int64_t* value) {
  const PyInt v = PyIntFromString(text);
  if (v.status == PyInt::kOverflow) {  // beyond any tick count: clamp, the comparisons agree
    *value = text.find('-') != std::string::npos ? INT64_MIN / 2 : INT64_MAX / 2;
    return true;
  }
  if (v.status != PyInt::kOk) return false;
  constexpr __int128 kBound = INT64_MAX / 2;
  *value = static_cast<int64_t>(std::clamp<__int128>(v.value, -kBound, kBound));
  return true;
}

/// Every proper prefix of `name` that no other of `names` starts with.
std::vector<std::string> UniquePrefixes(const std::string& name,
                                        const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (size_t n = 1; n < name.size(); ++n) {
    const std::string prefix = name.substr(0, n);
    const bool unique = std::none_of(names.begin(), names.end(), [&](const std::string& other) {
      return other != name && other.compare(0, prefix.size(), prefix) == 0;
    });
    if (unique) out.push_back(prefix);
  }
  return out;
}

/// One rank's outcome, for stdout and --json.
struct RankOutcome {
  fs::path dir;
  std::string label;
  RankAnalysis analysis;
  RankReport report;
  fs::path report_path;
  std::string traces = "none";  ///< "written", "none" (no merged trace), "invalid"
  std::string trace_error;
  fs::path merged;
};

bool WriteFile(const fs::path& path, const std::string& content, std::ostream& err) {
  AtomicFile file;
  std::string error;
  if (!file.Open(path.string(), &error)) {
    err << "error: " << error << "\n";
    return false;
  }
  file.stream() << content;
  if (!file.Commit(&error)) {
    err << "error: " << error << "\n";
    return false;
  }
  return true;
}

/// Builds both CPM traces of a rank; writes them only when both are valid (§3.14).
/// Returns false on a fatal error (exit 1); an invalid trace sets outcome->traces.
bool MakeTraces(RankOutcome* outcome, std::ostream& err) {
  outcome->merged = NewestMatching(outcome->dir, "merged_swimlane", ".json");
  if (outcome->merged.empty()) {
    err << "Warning: no merged_swimlane*.json in " << outcome->dir.string()
        << "; skipped Perfetto critical-path traces\n";
    return true;
  }
  const auto invalid = [&](const std::string& message) {
    outcome->traces = "invalid";
    outcome->trace_error = message;
    err << "error: invalid merged_swimlane*.json in " << outcome->dir.string() << ": " << message
        << "\n";
    return true;
  };
  const auto fatal = [&](const std::string& message) {  // the reference crashes (exit 1)
    err << "error: " << outcome->merged.string() << ": " << message << "\n";
    return false;
  };
  // Renames both outputs into place, or neither.
  const auto commit = [&](AtomicFile* static_file, AtomicFile* observed_file) {
    std::string error;
    if (!AtomicFile::CommitTogether({static_file, observed_file}, &error)) {
      err << "error: " << error << "\n";
      return false;
    }
    outcome->traces = "written";
    return true;
  };
  const TaskTimings& timings = outcome->analysis.timings;
  const CriticalPathResult& result = outcome->analysis.result;
  std::unordered_set<std::string> static_keys, observed_keys;
  for (uint32_t t : result.static_path) static_keys.insert(timings.tasks[t].key);
  for (const ObservedStep& step : result.observed_path) {
    observed_keys.insert(timings.tasks[step.task].key);
  }
  const std::vector<const std::unordered_set<std::string>*> criticals = {&static_keys,
                                                                         &observed_keys};
  const fs::path static_path = outcome->dir / "CPM_static.json";
  const fs::path observed_path = outcome->dir / "CPM_observed.json";
  std::string error;
  MergedTraceStatus status;
  {
    // Both traces in one pass that reads the trace and writes as it reads; committed only when
    // both are whole. When an output cannot be opened or the trace needs two passes, the
    // temporaries go and the two-pass route below decides, in the reference's order.
    AtomicFile static_file, observed_file;
    std::string open_error;
    if (static_file.Open(static_path.string(), &open_error) &&
        observed_file.Open(observed_path.string(), &open_error)) {
      status = StreamMergedTraceRewrites(outcome->merged.string(), criticals,
                                         {&static_file.stream(), &observed_file.stream()}, &error);
      if (status == MergedTraceStatus::kFatal) return fatal(error);
      if (status == MergedTraceStatus::kInvalid) return invalid(error);
      if (status == MergedTraceStatus::kOk) return commit(&static_file, &observed_file);
    }
  }
  // The two-pass route: read and check the whole trace, check its bars, and only then open
  // the outputs.
  MergedTrace trace;
  status = LoadMergedTrace(outcome->merged.string(), &trace, &error);
  if (status == MergedTraceStatus::kFatal) return fatal(error);
  if (status == MergedTraceStatus::kInvalid) return invalid(error);
  if (CheckCriticalBars(trace, criticals, &error) != MergedTraceStatus::kOk) {
    return invalid(error);
  }
  AtomicFile static_file, observed_file;
  if (!static_file.Open(static_path.string(), &error) ||
      !observed_file.Open(observed_path.string(), &error)) {
    err << "error: " << error << "\n";
    return false;
  }
  if (RewriteMergedTraces(trace, criticals, {&static_file.stream(), &observed_file.stream()},
                          &error) != MergedTraceStatus::kOk) {
    return invalid(error);
  }
  return commit(&static_file, &observed_file);
}

/// The per-rank results as JSON (schema depgraph-critical-path/1, docs/timing.md).
std::string ResultsJson(const fs::path& root,
                        const std::vector<std::unique_ptr<RankOutcome>>& ranks, int64_t tol) {
  using nlohmann::ordered_json;
  ordered_json doc = ordered_json::object();
  doc["schema"] = "depgraph-critical-path/1";
  doc["root"] = root.string();
  doc["tol_ticks"] = tol;
  doc["ranks"] = ordered_json::array();
  for (const auto& rank : ranks) {
    const RankAnalysis& a = rank->analysis;
    const CriticalPathResult& r = a.result;
    const auto task_json = [&](uint32_t t) {
      const TaskTiming& task = a.timings.tasks[t];
      ordered_json j = ordered_json::object();
      j["task_id"] = task.key;
      j["name"] = a.names[t].is_string ? ordered_json(a.names[t].name) : ordered_json(nullptr);
      j["start_ticks"] = task.start;
      j["end_ticks"] = task.end;
      j["blocks"] = task.blocks;
      return j;
    };
    ordered_json j = ordered_json::object();
    j["label"] = rank->label;
    j["dir"] = rank->dir.string();
    j["clock_freq_hz"] = a.clock_freq_hz;
    j["tasks"] = r.task_count;
    j["happens_before_edges"] = r.kept_edges;
    j["t0_ticks"] = r.t0;
    j["makespan_ticks"] = r.makespan;
    ordered_json static_path = ordered_json::object();
    static_path["length_ticks"] = r.cpm;
    static_path["tasks"] = ordered_json::array();
    for (uint32_t t : r.static_path) static_path["tasks"].push_back(task_json(t));
    j["static_path"] = std::move(static_path);
    ordered_json observed = ordered_json::object();
    observed["compute_ticks"] = r.compute_total;
    observed["stall_ticks"] = r.stall_total;
    observed["stall_by_kind"] = ordered_json::object();
    for (const auto& [kind, ticks] : r.stall_by_kind)
      observed["stall_by_kind"][StallKindName(kind)] = ticks;
    observed["tasks"] = ordered_json::array();
    for (const ObservedStep& step : r.observed_path) {
      ordered_json t = task_json(step.task);
      t["kind"] = StallKindName(step.kind);
      t["stall_ticks"] = step.stall;
      t["compute_ticks"] = step.compute;
      observed["tasks"].push_back(std::move(t));
    }
    j["observed_path"] = std::move(observed);
    j["report"] = rank->report_path.string();
    j["traces"] = rank->traces;
    if (rank->traces == "invalid") j["trace_error"] = rank->trace_error;
    doc["ranks"].push_back(std::move(j));
  }
  std::string out;
  AppendPythonJsonDump(doc, 2, &out);
  out.push_back('\n');
  return out;
}

/// False with a one-line *error when a file the run would write (a rank's report, its CPM
/// traces, the --json file) is a file the run reads (any rank's records, deps.json, name map or
/// merged trace) or another output of the run. Nothing is written before this check.
/// Cost: O(ranks^2) stat(2) calls.
bool CheckOutputsAreNotInputs(const std::vector<fs::path>& dirs, const CriticalPathArgs& args,
                              std::string* error) {
  std::vector<std::string> inputs, outputs;
  for (const fs::path& dir : dirs) {
    inputs.push_back((dir / kRecordsName).string());
    inputs.push_back((dir / kLegacyRecordsName).string());
    inputs.push_back((dir / "deps.json").string());
    inputs.push_back(NewestMatching(dir, "name_map", ".json").string());
    inputs.push_back(NewestMatching(dir, "merged_swimlane", ".json").string());
  }
  for (const char* name : {kRecordsName, kLegacyRecordsName, "deps.json", "CPM_static.json",
                           "CPM_observed.json"}) {
    if (args.report == name) {
      *error = "--report " + args.report + " names a file the run reads or writes";
      return false;
    }
  }
  for (const fs::path& dir : dirs) {
    const std::string report = (dir / args.report).string();
    if (!CheckOutputIsNotAnInput(report, inputs, error)) return false;
    outputs.push_back(report);
    outputs.push_back((dir / "CPM_static.json").string());
    outputs.push_back((dir / "CPM_observed.json").string());
  }
  if (args.json.empty()) return true;
  if (!CheckOutputIsNotAnInput(args.json, inputs, error)) return false;
  for (const std::string& output : outputs) {
    if (!CheckOutputsDiffer(args.json, output, error)) return false;
  }
  return true;
}

}  // namespace

CriticalPathCommand::CriticalPathCommand(CLI::App* app) {
  command_ = app->add_subcommand(
      "critical-path",
      "Static CPM and observed critical path of every rank directory under ROOT (timing records "
      "+ deps.json + name map): a markdown report per rank, CPM_static.json and "
      "CPM_observed.json from its merged trace. Exit 0, 2: an invalid merged trace or no rank, "
      "1: bad input.");
  CriticalPathArgs& a = args_;
  const auto integer = [](const std::string& text) {
    int64_t v;
    return ParseIntArgument(text, &v) ? std::string() : "invalid int value: '" + text + "'";
  };
  command_->add_option("root", a.root, "build directory to search, or a file in it")->required();
  // The long options, then every unique prefix of each as a hidden alias (argparse accepts
  // `--std` for `--stdout`); the extensions take no prefix of the reference's options.
  struct Long {
    std::string name;
    std::string* value;  // nullptr for a flag
    bool* flag;
    std::string help;
    std::function<std::string(const std::string&)> check;
  };
  const std::vector<Long> longs = {
      {"report", &a.report, nullptr,
       "report file name in each rank dir (default "
       "critical_path_report.md)",
       nullptr},
      {"top", &a.top, nullptr, "rows of the kernel-family table (default 25)", integer},
      {"tol", &a.tol, nullptr, "tolerance in ticks for \"finished before\" (default 2)", integer},
      {"stdout", nullptr, &a.to_stdout, "also print the combined report", nullptr},
      {"json", &a.json, nullptr, "write the per-rank results as JSON to FILE", nullptr},
      {"accept-v2-rows", nullptr, &a.accept_v2_rows,
       "read legacy 5-column aicore_tasks rows (the reference stops on them)", nullptr},
      {"cpm-weight", &a.cpm_weight, nullptr,
       "what a task weighs in the static CPM: span (default, the reference) or longest-block",
       [](const std::string& text) {
         return text == "span" || text == "longest-block"
                    ? std::string()
                    : "expected span or longest-block, got '" + text + "'";
       }},
  };
  std::vector<std::string> names = {"help"};
  for (const Long& l : longs) names.push_back(l.name);
  for (const Long& l : longs) {
    std::vector<std::string> spellings = {l.name};
    for (std::string& p : UniquePrefixes(l.name, names)) spellings.push_back(std::move(p));
    for (size_t i = 0; i < spellings.size(); ++i) {
      CLI::Option* option = l.value ? command_->add_option("--" + spellings[i], *l.value, l.help)
                                    : command_->add_flag("--" + spellings[i], *l.flag, l.help);
      if (l.value) option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
      if (l.check) option->check(CLI::Validator(l.check, "", ""));
      if (i > 0) option->group("");
    }
  }
  command_->set_help_flag("-h,--help", "print this help and exit");
  for (const std::string& p : UniquePrefixes("help", names)) {
    command_->add_flag_callback("--" + p, [] { throw CLI::CallForHelp(); })->group("");
  }
}

int CriticalPathCommand::Run(std::ostream& out, std::ostream& err) const {
  return RunCriticalPathCommand(args_, out, err);
}

int RunCriticalPathCommand(const CriticalPathArgs& args, std::ostream& out, std::ostream& err) {
  int64_t top = 25, tol = 2;
  if (!ParseIntArgument(args.top, &top) || !ParseIntArgument(args.tol, &tol)) {
    err << "error: --top and --tol take integers\n";
    return 2;
  }
  // §3.2, in this order.
  fs::path root = ResolvePath(args.root);
  std::error_code ec;
  if (!fs::exists(root, ec)) {
    err << "error: path not found: " << root.string() << "\n";
    return 2;
  }
  if (fs::is_regular_file(root, ec)) root = root.parent_path();
  if (args.report.find('/') != std::string::npos || args.report == ".") {
    err << "error: --report must be a filename, not a path\n";
    return 2;
  }
  std::vector<std::string> discovery_warnings;
  const std::vector<fs::path> dirs = DiscoverRanks(root, &discovery_warnings);
  for (const std::string& w : discovery_warnings) err << "warning: " << w << "\n";
  if (dirs.empty()) {
    err << "error: no " << kRecordsName << " (+deps.json+name_map*.json) found under "
        << root.string() << ". Did the run use --enable-chip-swimlane?\n";
    return 2;
  }
  {
    std::string error;
    if (!CheckOutputsAreNotInputs(dirs, args, &error)) {
      err << "error: " << error << "\n";
      return 1;
    }
  }

  // --json FILE is opened (its temporary created) before any rank's file is written, so a FILE
  // that cannot be written fails with nothing written.
  AtomicFile json_file;
  if (!args.json.empty()) {
    std::string error;
    if (!json_file.Open(args.json, &error)) {
      err << "error: " << error << "\n";
      return 1;
    }
  }

  std::vector<std::unique_ptr<RankOutcome>> ranks;
  bool any_invalid = false;
  for (const fs::path& dir : dirs) {
    auto outcome = std::make_unique<RankOutcome>();
    outcome->dir = dir;
    outcome->label = RankLabel(root, dir);
    RankFiles files;
    std::error_code e;
    files.records =
        (dir / (fs::exists(dir / kRecordsName, e) ? kRecordsName : kLegacyRecordsName)).string();
    files.deps = (dir / "deps.json").string();
    files.names = NewestMatching(dir, "name_map", ".json").string();
    files.accept_legacy_rows = args.accept_v2_rows;
    files.options.tol = tol;
    files.options.cpm_weight =
        args.cpm_weight == "longest-block" ? CpmWeight::kLongestBlock : CpmWeight::kSpan;
    std::string error;
    if (!AnalyzeRankFiles(files, &outcome->analysis, &error)) {
      err << "error: " << error << "\n";
      return 1;
    }
    const RankReportInput input{outcome->label, &outcome->analysis.timings,
                                &outcome->analysis.result, &outcome->analysis.names,
                                outcome->analysis.clock_freq_hz};
    if (!RenderRankReport(input, top, &outcome->report, &error)) {
      err << "error: " << files.records << ": " << error << "\n";
      return 1;
    }
    outcome->report_path = dir / args.report;
    if (!WriteFile(outcome->report_path, CriticalPathDocument({&outcome->report}), err)) return 1;
    if (!MakeTraces(outcome.get(), err)) return 1;
    any_invalid = any_invalid || outcome->traces == "invalid";
    ranks.push_back(std::move(outcome));
  }
  if (!args.json.empty()) {
    std::string error;
    json_file.stream() << ResultsJson(root, ranks, tol);
    if (!json_file.Commit(&error)) {
      err << "error: " << error << "\n";
      return 1;
    }
  }

  out << "Analyzed " << ranks.size() << " rank(s) under " << root.string() << "\n";
  for (const auto& rank : ranks) out << rank->report.summary << "\n";
  for (const auto& rank : ranks) out << "Report written to: " << rank->report_path.string() << "\n";
  for (const auto& rank : ranks) {
    if (rank->traces != "written") continue;
    out << "Perfetto trace written to: " << (rank->dir / "CPM_static.json").string() << "\n";
    out << "Perfetto trace written to: " << (rank->dir / "CPM_observed.json").string() << "\n";
  }
  if (args.to_stdout) {
    std::vector<const RankReport*> reports;
    for (const auto& rank : ranks) reports.push_back(&rank->report);
    out << "\n" << CriticalPathDocument(reports) << "\n";  // print() adds a newline
  }
  out.flush();
  return any_invalid ? 2 : 0;
}

}  // namespace depgraph
