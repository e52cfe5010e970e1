#include "sched_overhead_command.h"

#include <filesystem>
#include <thread>
#include <vector>

#include "depgraph/internal/message_quote.h"
#include "depgraph/timing/sched_overhead.h"
#include "depgraph/timing/sched_overhead_report.h"
#include "depgraph/timing/swimlane_inputs.h"
#include "depgraph/timing/swimlane_records.h"
#include "records_paths.h"

namespace depgraph {

namespace fs = std::filesystem;

SchedOverheadCommand::SchedOverheadCommand(CLI::App* app) {
  command_ = app->add_subcommand(
      "sched-overhead",
      "Timing records of a level-3/4 run (chip_swimlane_records.json) + deps.json -> is the "
      "scheduler the bottleneck? Overhead verdict, AICore switches, head/tail overhead, "
      "scheduler loop breakdown, critical-path attribution (as sched_overhead_analysis.py). "
      "Exit 0, 1: bad input.");
  SchedOverheadArgs& a = args_;
  struct Long {
    std::string name;
    std::string* value;  // nullptr for a flag
    bool* flag;
    std::string help;
  };
  const std::vector<Long> longs = {
      {"chip-swimlane-records-json", &a.records, nullptr,
       "the run's chip_swimlane_records.json (default: the newest "
       "outputs/*/chip_swimlane_records.json)"},
      {"deps-json", &a.deps_json, nullptr,
       "deps.json of a separate --enable-dep-gen run (default: deps.json beside the records)"},
      {"json", nullptr, &a.json, "print the numbers as JSON instead of the report"},
  };
  std::vector<std::string> names = {"help"};
  for (const Long& l : longs) names.push_back(l.name);
  for (const Long& l : longs) {
    std::vector<std::string> spellings = {l.name};
    for (std::string& p : UniquePrefixes(l.name, names)) spellings.push_back(std::move(p));
    for (size_t i = 0; i < spellings.size(); ++i) {
      const std::string flags = "--" + spellings[i];
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

int SchedOverheadCommand::Run(std::ostream& out, std::ostream& err) const {
  return RunSchedOverheadCommand(args_, out, err);
}

int RunSchedOverheadCommand(const SchedOverheadArgs& args, std::ostream& out, std::ostream& err) {
  const auto fail = [&](const std::string& message) {
    err << "error: " << message << "\n";
    return 1;
  };
  std::string records_path;
  if (!args.records.empty()) {
    records_path = PythonPath(args.records);
  } else {
    records_path = NewestRunRecords();
    if (records_path.empty()) {
      return fail(EscapeForMessage((fs::current_path() / "outputs").string()) +
                  ": no outputs/*/chip_swimlane_records.json found (run with "
                  "--enable-chip-swimlane first, or pass --chip-swimlane-records-json)");
    }
  }
  const std::string records_name = EscapeForMessage(records_path);
  std::error_code ec;
  if (!fs::exists(records_path, ec)) return fail(records_name + ": records file not found");

  // deps.json is required: --deps-json, else the one beside the records.
  std::string deps_path;
  if (!args.deps_json.empty()) {
    deps_path = PythonPath(args.deps_json);
  } else {
    deps_path = SiblingPath(records_path, "deps.json");
    if (!fs::exists(deps_path, ec)) {
      return fail(records_name +
                  ": no deps.json beside it; the analysis needs the task DAG: capture it in a "
                  "separate run with --enable-dep-gen (not together with --enable-chip-swimlane) "
                  "and pass --deps-json");
    }
  }

  // deps.json is read on a second thread while the records are.
  struct DepsLoad {
    SwimlaneDeps deps;
    std::string warning, error;
    SwimlaneDepsStatus status = SwimlaneDepsStatus::kMissing;
  } loaded;
  std::thread deps_thread([&loaded, &deps_path] {
    loaded.status = LoadSwimlaneDeps(deps_path, &loaded.deps, &loaded.warning, &loaded.error);
  });
  SwimlaneRecords records;
  std::string error;
  const bool records_ok = LoadSwimlaneRecords(records_path, &records, &error);
  deps_thread.join();
  if (!records_ok) return fail(error);
  const std::string deps_name = EscapeForMessage(deps_path);
  switch (loaded.status) {
    case SwimlaneDepsStatus::kOk:
      break;
    case SwimlaneDepsStatus::kMissing:
      return fail(deps_name + ": deps.json not found");
    case SwimlaneDepsStatus::kUnreadable: {
      // The loader words it as the swimlane converter's warning; keep the reason.
      const std::string prefix = "Warning: failed to read " + deps_path + ": ";
      const bool worded = loaded.warning.rfind(prefix, 0) == 0;
      const std::string why = worded ? loaded.warning.substr(prefix.size()) : loaded.warning;
      return fail(deps_name + ": cannot read deps.json: " + why);
    }
    case SwimlaneDepsStatus::kError:
      return fail(loaded.error);
  }
  SchedOverheadReport report;
  if (!AnalyzeSchedOverhead(records, loaded.deps, records_name, &report, &error)) {
    return fail(error);
  }
  out << (args.json ? RenderSchedOverheadJson(report, records_path, deps_path)
                    : RenderSchedOverheadText(report, records_path, deps_path));
  out.flush();
  return 0;
}

}  // namespace depgraph
