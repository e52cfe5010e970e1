#include "depgraph/timing/critical_path_report.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace depgraph {

namespace {

/// printf-style formatting into a std::string (glibc rounds "%.Nf" correctly, half to even on
/// the exact binary value, as Python's format does).
std::string Format(const char* format, ...) {
  va_list args;
  va_start(args, format);
  char buf[256];
  const int n = std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  if (n < 0) return "";
  if (static_cast<size_t>(n) < sizeof buf) return std::string(buf, static_cast<size_t>(n));
  std::string out(static_cast<size_t>(n) + 1, '\0');
  va_start(args, format);
  std::vsnprintf(out.data(), out.size(), format, args);
  va_end(args);
  out.resize(static_cast<size_t>(n));
  return out;
}

/// The reference's unit conversions, in its order of double operations.
struct Units {
  double freq;
  double Micros(int64_t ticks) const { return static_cast<double>(ticks) / freq * 1e6; }
  double Millis(int64_t ticks) const { return Micros(ticks) / 1e3; }
};

double Percent(int64_t a, int64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b) * 100;
}

/// Kinds with a non-zero stall, most stalled first (ties in first-occurrence order).
std::vector<std::pair<StallKind, int64_t>> StalledKinds(const CriticalPathResult& result) {
  std::vector<std::pair<StallKind, int64_t>> kinds;
  for (const auto& entry : result.stall_by_kind) {
    if (entry.second != 0) kinds.push_back(entry);
  }
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return kinds;
}

struct Family {
  std::string name;
  int64_t compute = 0;
  int64_t stall = 0;
  size_t count = 0;
};

}  // namespace

bool RenderRankReport(const RankReportInput& input, int64_t top, RankReport* out,
                      std::string* err) {
  const CriticalPathResult& r = *input.result;
  const std::vector<TaskTiming>& tasks = input.timings->tasks;
  const std::vector<TaskName>& names = *input.names;
  if (input.clock_freq_hz == 0) {
    *err = "clock_freq_hz is 0: cannot convert ticks to time";
    return false;
  }
  // Families of the observed path (the reference crashes on a non-string name here).
  std::vector<Family> families;
  for (const ObservedStep& step : r.observed_path) {
    const TaskName& name = names[step.task];
    if (!name.is_string) {
      *err = "task " + tasks[step.task].key + " on the observed path has a non-string name (" +
             name.name + ") in the name map";
      return false;
    }
    const std::string family = KernelFamily(name.name);
    auto it = std::find_if(families.begin(), families.end(),
                           [&](const Family& f) { return f.name == family; });
    if (it == families.end()) {
      families.push_back(Family{family, 0, 0, 0});
      it = families.end() - 1;
    }
    it->compute += step.compute;
    it->stall += step.stall;
    ++it->count;
  }
  std::stable_sort(families.begin(), families.end(),
                   [](const Family& a, const Family& b) { return a.compute > b.compute; });

  const Units u{static_cast<double>(input.clock_freq_hz)};
  const int64_t m = r.makespan;
  const std::vector<std::pair<StallKind, int64_t>> kinds = StalledKinds(r);
  std::vector<std::string>& lines = out->section;
  lines.clear();
  lines.push_back("");
  lines.push_back("## Rank `" + input.label + "`");
  lines.push_back("");
  lines.push_back("- tasks: " + std::to_string(r.task_count) +
                  " | happens-before edges: " + std::to_string(r.kept_edges));
  lines.push_back(Format("- **makespan**: %.3f ms", u.Millis(m)));
  lines.push_back(Format("- **static CPM path**: %.3f ms (%.1f%% of makespan) over %zu tasks",
                         u.Millis(r.cpm), Percent(r.cpm, m), r.static_path.size()));
  lines.push_back(Format("- **observed critical path**: %zu tasks", r.observed_path.size()));
  lines.push_back(Format("  - compute: %.3f ms (%.1f%%)", u.Millis(r.compute_total),
                         Percent(r.compute_total, m)));
  lines.push_back(Format("  - stall (runtime scheduling): %.3f ms (%.1f%%)",
                         u.Millis(r.stall_total), Percent(r.stall_total, m)));
  for (const auto& [kind, ticks] : kinds) {
    lines.push_back(Format("    - %s: %.3f ms (%.1f%%)", StallKindName(kind), u.Millis(ticks),
                           Percent(ticks, m)));
  }
  const int64_t tiled = r.compute_total + r.stall_total;
  lines.push_back("  - tiling check: compute+stall = " + std::to_string(tiled) +
                  " ticks vs makespan " + std::to_string(m) + " ticks (" +
                  (tiled == m ? std::string("exact") : "diff " + std::to_string(tiled - m)) + ")");
  lines.push_back("");
  lines.push_back("### Time on the observed critical path, by kernel family");
  lines.push_back("");
  lines.push_back("| kernel family | compute ms | % makespan | stall ms | # on path |");
  lines.push_back("|---|---:|---:|---:|---:|");
  for (size_t i = 0; top > 0 && i < families.size() && i < static_cast<uint64_t>(top); ++i) {
    const Family& f = families[i];
    lines.push_back("| " + f.name +
                    Format(" | %.3f | %.1f%% | %.3f | %zu |", u.Millis(f.compute),
                           Percent(f.compute, m), u.Millis(f.stall), f.count));
  }
  lines.push_back("");
  lines.push_back("### Observed critical path \xE2\x80\x94 all " +
                  std::to_string(r.observed_path.size()) + " tasks");
  lines.push_back("");
  lines.push_back(
      "| # | kernel | task \xC2\xB5s | compute \xC2\xB5s (%mk) | stall \xC2\xB5s (%mk) | stall "
      "kind |");
  lines.push_back("|---:|---|---:|---:|---:|---|");
  for (size_t i = 0; i < r.observed_path.size(); ++i) {
    const ObservedStep& step = r.observed_path[i];
    lines.push_back("| " + std::to_string(i) + " | " + names[step.task].name +
                    Format(" | %.1f | %.1f (%.2f%%) | %.1f (%.2f%%) | ",
                           u.Micros(tasks[step.task].span()), u.Micros(step.compute),
                           Percent(step.compute, m), u.Micros(step.stall), Percent(step.stall, m)) +
                    (step.stall != 0 ? StallKindName(step.kind) : "") + " |");
  }

  std::string detail;
  for (const auto& [kind, ticks] : kinds) {
    if (!detail.empty()) detail += ", ";
    detail += Format("%s %.1f%%", StallKindName(kind), Percent(ticks, m));
  }
  out->summary = "[" + input.label + "]" +
                 Format(" makespan=%.3fms  CPM=%.2fms(%.0f%%)  compute=%.1f%%  stall=%.1f%% (",
                        u.Millis(m), u.Millis(r.cpm), Percent(r.cpm, m),
                        Percent(r.compute_total, m), Percent(r.stall_total, m)) +
                 detail + ")";
  return true;
}

std::string CriticalPathDocument(const std::vector<const RankReport*>& ranks) {
  std::string out =
      "# Critical-path report (chip swimlane)\n"
      "\n"
      "Generated by `python -m simpler_setup.tools.critical_path`. Times are device wall-clock; "
      "percentages are of each rank's makespan.\n"
      "\n"
      "- **Static CPM path**: dependency-limited latency floor (unlimited cores).\n"
      "- **Observed path**: the as-executed critical path; its per-task compute + the "
      "runtime-scheduling stall before each task tile the makespan exactly.\n"
      "- **stall kinds**: `data-wait` = waiting on an upstream producer; `core-wait` = waiting "
      "for the assigned core to be freed (resource serialization); `front-gap` = "
      "launch/dispatch delay before the first task.\n"
      "\n";
  for (const RankReport* rank : ranks) {
    for (const std::string& line : rank->section) {
      out += line;
      out += '\n';
    }
  }
  return out;
}

}  // namespace depgraph
