#include "swimlane_command.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <thread>
#include <vector>

#include "depgraph/internal/message_quote.h"
#include "depgraph/internal/py_int.h"
#include "depgraph/support/atomic_file.h"
#include "depgraph/timing/rank_discovery.h"
#include "depgraph/timing/swimlane_inputs.h"
#include "depgraph/timing/swimlane_records.h"
#include "depgraph/timing/swimlane_stats.h"
#include "depgraph/timing/swimlane_trace.h"
#include "kernel_config.h"
#include "records_paths.h"

namespace depgraph {

namespace fs = std::filesystem;

namespace {

std::string Fixed3(double x) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.3f", x);
  return buf;
}

/// The stdout lines the reference prints about a loaded records file under -v.
void PrintDataInfo(const SwimlaneRecords& r, std::vector<std::string>* lines) {
  lines->push_back("");
  lines->push_back("=== Performance Data ===");
  lines->push_back("  L2 perf level: " + std::to_string(r.level));
  lines->push_back("  Task Count: " + std::to_string(r.tasks.size()));
  if (!r.tasks.empty()) {
    double lo = r.tasks[0].start_us, hi = r.tasks[0].end_us;
    for (const SwimlaneTask& t : r.tasks) {
      if (t.start_us < lo) lo = t.start_us;
      if (t.end_us > hi) hi = t.end_us;
    }
    lines->push_back("  Time Range: " + Fixed3(lo) + " us - " + Fixed3(hi) + " us (span: " +
                     Fixed3(hi - lo) + " us)");
  }
  lines->push_back("");
  if (!r.scheduler.empty()) {
    size_t records = 0;
    for (const auto& thread : r.scheduler) records += thread.size();
    lines->push_back("  Scheduler threads: " + std::to_string(r.scheduler.size()));
    lines->push_back("  Total phase records: " + std::to_string(records));
  }
  if (!r.orchestrator.empty()) {
    size_t records = 0;
    for (const auto& thread : r.orchestrator) records += thread.size();
    lines->push_back("  Orchestrator threads: " + std::to_string(r.orchestrator.size()));
    lines->push_back("  Total orchestrator phase records: " + std::to_string(records));
    if (records) lines->push_back("  Orchestrator: " + std::to_string(records) + " tasks submitted");
  }
  if (!r.core_to_thread.empty()) {
    lines->push_back("  Core-to-thread mapping: " + std::to_string(r.core_to_thread.size()) + " cores");
  }
}

/// The -v listing of a name mapping, by int() of its keys (false when a key is no integer:
/// the reference's sort fails there).
bool ListNames(const SwimlaneNames& names, std::vector<std::string>* lines, std::string* bad_key) {
  std::vector<std::pair<__int128, std::pair<std::string, std::string>>> entries;
  for (auto it = names.names.begin(); it != names.names.end(); ++it) {
    const PyInt key = PyIntFromString(it.key());
    if (key.status != PyInt::kOk) {
      *bad_key = it.key();
      return false;
    }
    entries.push_back({key.value, {it.key(), PythonStrOfJson(it.value())}});
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& e : entries) lines->push_back("    func_id=" + e.second.first + ": " + e.second.second);
  return true;
}

}  // namespace

SwimlaneCommand::SwimlaneCommand(CLI::App* app) {
  command_ = app->add_subcommand(
      "swimlane",
      "Timing records (chip_swimlane_records.json) + deps.json + kernel names -> a Perfetto "
      "trace (merged_swimlane.json beside the records) and a per-function table: a drop-in for "
      "swimlane_converter.py. Exit 0, 1: bad input.");
  SwimlaneArgs& a = args_;
  command_->add_option("input", a.input,
                       "records file (default: the newest outputs/*/chip_swimlane_records.json)");
  struct Long {
    std::string name;
    char short_name;
    std::string* value;  // nullptr for a flag
    bool* flag;
    std::string help;
  };
  const std::vector<Long> longs = {
      {"output", 'o', &a.output, nullptr, "the trace (default: <records dir>/merged_swimlane.json)"},
      {"kernel-config", 'k', &a.kernel_config, nullptr,
       "kernel_config.py giving KERNELS' func_id -> name (run by python3)"},
      {"func-names", 0, &a.func_names, nullptr,
       "name_map*.json for kernel names (default: the one sibling name_map*.json)"},
      {"deps-json", 0, &a.deps_json, nullptr, "deps.json for the arrows (default: beside the records)"},
      {"verbose", 'v', nullptr, &a.verbose, "progress lines"},
      {"overhead", 0, nullptr, &a.overhead,
       "8 overhead counter tracks (idle / ready / overhead per core type); needs deps.json"},
  };
  std::vector<std::string> names = {"help"};
  for (const Long& l : longs) names.push_back(l.name);
  for (const Long& l : longs) {
    std::vector<std::string> spellings = {l.name};
    for (std::string& p : UniquePrefixes(l.name, names)) spellings.push_back(std::move(p));
    for (size_t i = 0; i < spellings.size(); ++i) {
      std::string flags = "--" + spellings[i];
      if (i == 0 && l.short_name) flags = std::string("-") + l.short_name + "," + flags;
      CLI::Option* option = l.value ? command_->add_option(flags, *l.value, l.help)
                                    : command_->add_flag(flags, *l.flag, l.help);
      if (l.value) option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
      if (i > 0) option->group("");
    }
  }
  command_->set_help_flag("-h,--help", "print this help and exit");
  for (const std::string& p : UniquePrefixes("help", names)) {
    command_->add_flag_callback("--" + p, [] { throw CLI::CallForHelp(); })->group("");
  }
}

int SwimlaneCommand::Run(std::ostream& out, std::ostream& err) const {
  return RunSwimlaneCommand(args_, out, err);
}

int RunSwimlaneCommand(const SwimlaneArgs& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> lines;  // stdout, printed once everything succeeded
  const auto fail = [&](const std::string& message) {
    err << "error: " << message << "\n";
    return 1;
  };
  // The records file.
  std::string input;
  if (!args.input.empty()) {
    input = PythonPath(args.input);
    std::error_code ec;
    if (!fs::exists(args.input, ec)) return fail(EscapeForMessage(input) + ": input file not found");
  } else {
    input = NewestRunRecords();
    if (input.empty()) {
      return fail(EscapeForMessage((fs::current_path() / "outputs").string()) +
                  ": no outputs/*/chip_swimlane_records.json found (run with "
                  "--enable-chip-swimlane first, or name the records file)");
    }
    if (args.verbose) lines.push_back("Auto-selected latest file: " + input);
  }
  // deps.json is read on a second thread while the records are (its result is used, and its
  // warnings printed, only where the reference reads it: after the records and the names).
  const std::string deps_path = args.deps_json.empty() ? SiblingPath(input, "deps.json") : PythonPath(args.deps_json);
  struct DepsLoad {
    SwimlaneDeps deps;
    std::string warning, error;
    SwimlaneDepsStatus status = SwimlaneDepsStatus::kMissing;
  };
  DepsLoad loaded;
  std::thread deps_thread([&loaded, &deps_path] {
    loaded.status = LoadSwimlaneDeps(deps_path, &loaded.deps, &loaded.warning, &loaded.error);
  });
  struct Joiner {
    std::thread& t;
    ~Joiner() {
      if (t.joinable()) t.join();
    }
  } joiner{deps_thread};
  if (args.verbose) lines.push_back("Reading performance data from: " + input);
  SwimlaneRecords records;
  std::string error;
  if (!LoadSwimlaneRecords(input, &records, &error)) return fail(error);
  for (const std::string& w : records.warnings) err << w << "\n";
  if (args.verbose) PrintDataInfo(records, &lines);

  // Kernel names: --func-names, else the one sibling name map (not with -k), else -k.
  SwimlaneNames names;
  std::string names_path = args.func_names.empty() ? "" : PythonPath(args.func_names);
  if (names_path.empty() && args.kernel_config.empty()) {
    const std::vector<fs::path> siblings = SiblingNameMaps(ParentPath(input));
    if (siblings.size() == 1) {
      names_path = SiblingPath(input, siblings[0].filename().string());
    } else if (siblings.size() > 1) {
      std::string listed;
      for (size_t i = 0; i < siblings.size(); ++i) listed += (i ? ", " : "") + siblings[i].filename().string();
      err << "Warning: multiple sibling name maps found next to " << input << ": " << listed
          << "; pass --func-names explicitly.\n";
    }
  }
  if (!names_path.empty() || !args.kernel_config.empty()) {
    const bool from_config = names_path.empty();
    if (from_config) {
      if (args.verbose) lines.push_back("Loading kernel config from: " + args.kernel_config);
      nlohmann::ordered_json doc;
      std::vector<std::string> warnings;
      if (!LoadKernelConfig(args.kernel_config, &doc, &warnings, &error)) return fail(error);
      for (const std::string& w : warnings) err << w << "\n";
      if (!SwimlaneNamesFromJson(doc, args.kernel_config, &names, &error)) return fail(error);
    } else {
      if (args.verbose) {
        lines.push_back(std::string(args.func_names.empty() ? "Auto-discovered" : "Loading") +
                        " func names from: " + names_path);
      }
      if (!LoadSwimlaneNames(names_path, &names, &error)) return fail(error);
    }
    if (args.verbose && !names.is_object) {
      return fail(EscapeForMessage(from_config ? args.kernel_config : names_path) +
                  ": callable_id_to_name: expected an object");
    }
    if (args.verbose) {
      lines.push_back("  Loaded " + std::to_string(names.names.size()) + " function name mappings" +
                      (from_config ? " from kernel_config.py:" : ":"));
      std::string bad_key;
      if (!ListNames(names, &lines, &bad_key)) {
        return fail(EscapeForMessage(from_config ? args.kernel_config : names_path) +
                    ": callable_id_to_name: key " + QuoteForMessage(bad_key) + " is not an integer");
      }
      if (!from_config && PythonTruthy(names.orchestrator_name)) {
        lines.push_back("  Orchestrator: " + PythonStrOfJson(names.orchestrator_name));
      }
      lines.push_back("");
    }
  }

  const std::string output = args.output.empty() ? SiblingPath(input, "merged_swimlane.json") : PythonPath(args.output);
  deps_thread.join();
  SwimlaneDeps& deps = loaded.deps;
  const SwimlaneDepsStatus status = loaded.status;
  if (status == SwimlaneDepsStatus::kError) return fail(loaded.error);
  if (!loaded.warning.empty()) err << loaded.warning << "\n";
  const bool have_deps = status == SwimlaneDepsStatus::kOk;
  if (have_deps && deps.has_edges && args.verbose) {
    lines.push_back("  Using deps.json edges (" + std::to_string(deps.edge_count) + " total) from " + deps_path);
    if (deps.has_kernel_ids) {
      lines.push_back("  Using deps.json kernel_ids for " + std::to_string(deps.kernel_ids.size()) +
                      " tasks (level=1 name recovery)");
    }
  }
  if (!(have_deps && deps.has_edges)) {
    err << "Warning: no usable deps.json at " << deps_path
        << "; Perfetto trace will have no dependency arrows. Run a dep_gen capture "
           "(--enable-dep-gen) and pass --deps-json <path> to add them.\n";
  }

  ResolveSwimlaneFuncIds(&records, have_deps ? &deps : nullptr);
  if (!CheckSwimlaneStatisticsNames(records, names, &error)) {
    return fail(EscapeForMessage(names_path.empty() ? args.kernel_config : names_path) + ": " + error);
  }
  SwimlaneTraceOptions options;
  options.overhead = args.overhead;
  options.verbose = args.verbose;
  options.output_display = output;
  SwimlaneTraceLog log;
  AtomicFile file;
  if (!file.Open(output, &error)) return fail(error);
  if (!WriteSwimlaneTrace(records, have_deps ? &deps : nullptr, names, options, file.stream(), &log,
                          &error)) {
    return fail(EscapeForMessage(output) + ": " + error);
  }
  if (!file.Commit(&error)) return fail(error);
  for (const std::string& w : log.err) err << w << "\n";
  if (args.overhead && !(have_deps && deps.has_edges)) {
    err << "Warning: --overhead needs deps.json for task readiness; no deps found, Overhead "
           "Analysis track skipped.\n";
  }
  for (const std::string& line : lines) out << line << "\n";
  for (const std::string& line : log.out) out << line << "\n";
  out << "\n\xE2\x9C\x93 Conversion complete\n  Input:  " << input << "\n  Output: " << output
      << "\n\nTo visualize: Open https://ui.perfetto.dev/ and drag in " << output << "\n";
  out << RenderSwimlaneStatistics(records, names);
  out << "\nScheduler-overhead deep-dive: run sched_overhead_analysis manually with a "
         "separately-captured deps.json (--enable-dep-gen).\n";
  out.flush();
  return 0;
}

}  // namespace depgraph
