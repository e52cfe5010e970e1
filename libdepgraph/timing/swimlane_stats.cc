#include "depgraph/timing/swimlane_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <vector>

#include "depgraph/timing/swimlane_trace.h"
#include "raw_records.h"

namespace depgraph {

namespace {

/// Python's format(x, ".<digits>f").
std::string Fixed(double x, int digits) {
  if (std::isnan(x)) return "nan";
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

/// Characters (code points) of a UTF-8 string, as Python's len() counts them.
size_t Chars(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}
std::string Left(const std::string& s, size_t width) {
  const size_t n = Chars(s);
  return n >= width ? s : s + std::string(width - n, ' ');
}
std::string Right(const std::string& s, size_t width) {
  const size_t n = Chars(s);
  return n >= width ? s : std::string(width - n, ' ') + s;
}

/// format(value, "<12") of a name-map value (strings, numbers; booleans print as 1 / 0).
std::string NameCell(const ordered_json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  return PyStrOfJson(v);
}

struct FuncStats {
  std::vector<double> durations, heads, tails, propagations, local_setups;
  double total_exec = 0.0, total_latency = 0.0;
};

/// Python's sum() of floats (3.11: left to right from the integer 0).
double Sum(const std::vector<double>& values) {
  double s = 0.0;
  for (double v : values) s += v;
  return s;
}

}  // namespace

bool CheckSwimlaneStatisticsNames(const SwimlaneRecords& records, const SwimlaneNames& names,
                                  std::string* err) {
  if (!names.any) return true;
  std::vector<int64_t> checked;
  for (const SwimlaneTask& t : records.tasks) {
    if (std::find(checked.begin(), checked.end(), t.func_id) != checked.end()) continue;
    checked.push_back(t.func_id);
    const ordered_json* v = names.Find(t.func_id);
    if (v != nullptr && (v->is_null() || v->is_array() || v->is_object())) {
      *err = "callable_id_to_name[\"" + std::to_string(t.func_id) + "\"]: expected a name, got " +
             v->type_name();
      return false;
    }
  }
  return true;
}

std::string RenderSwimlaneStatistics(const SwimlaneRecords& records, const SwimlaneNames& names) {
  const bool aicpu = records.level >= 2;
  std::vector<int64_t> first_seen;
  std::map<int64_t, FuncStats> stats;
  double min_dispatch = std::numeric_limits<double>::infinity();
  double max_finish = -std::numeric_limits<double>::infinity();
  double min_aicore = std::numeric_limits<double>::infinity();
  double max_aicore = -std::numeric_limits<double>::infinity();
  for (const SwimlaneTask& t : records.tasks) {
    auto [it, fresh] = stats.try_emplace(t.func_id);
    if (fresh) first_seen.push_back(t.func_id);
    FuncStats& s = it->second;
    s.durations.push_back(t.duration_us);
    min_aicore = std::min(min_aicore, t.receive_us);
    max_aicore = std::max(max_aicore, t.end_us);
    s.local_setups.push_back(t.local_setup_us);
    if (!aicpu) continue;
    s.heads.push_back(t.start_us - t.dispatch_us);
    s.tails.push_back(t.finish_us - t.end_us);
    if (t.has_propagation) s.propagations.push_back(t.propagation_us);
    const double latency = t.finish_us - t.dispatch_us;
    s.total_exec += t.duration_us;
    s.total_latency += latency;
    min_dispatch = std::min(min_dispatch, t.dispatch_us);
    max_finish = std::max(max_finish, t.finish_us);
  }
  static const char* const kLevels[] = {"unknown", "AICore timing only", "AICore + AICPU timing",
                                        "AICore + AICPU timing + scheduler phases",
                                        "full collection with orchestrator phases"};
  const std::string rule(140, '='), thin(140, '-');
  std::string out = "\n" + rule + "\nTask Statistics by Function\n";
  out += "  Source chip_swimlane_level: " + std::to_string(records.level) + " (" +
         kLevels[records.level >= 1 && records.level <= 4 ? records.level : 0] +
         "; recorded in chip_swimlane_records.json)\n";
  out += "  Exec = kernel time on AICore; Latency = dispatch->finish (incl. head OH + Exec + tail OH)\n";
  out += "  Head OH split (v3): Prop = NoC propagation (dispatch_ts\xE2\x86\x92" "AICore receive); Local = "
         "dcci+ack (receive\xE2\x86\x92start)\n";
  out += rule + "\n";
  out += Left("Func_ID", 8) + " " + Left("Func_Name", 12) + " " + Right("Count", 5) + "   " +
         Right("Avg Exec(us)", 12) + "  " + Right("Avg Latency(us)", 15) + "  " + Right("Exec%", 6) +
         "   " + Right("Avg Head OH(us)", 15) + "  " + Right("Avg Tail OH(us)", 15) + "  " +
         Right("Avg Prop(us)", 12) + "  " + Right("Avg Local(us)", 13) + "\n";
  out += thin + "\n";
  int64_t total_count = 0;
  double total_duration = 0.0;
  for (const auto& [func_id, s] : stats) {
    const int64_t count = static_cast<int64_t>(s.durations.size());
    const double sum_duration = Sum(s.durations);
    const double avg_duration = sum_duration / static_cast<double>(count);
    total_count += count;
    total_duration += sum_duration;
    const ordered_json* name = names.Find(func_id);
    const std::string func_name = name != nullptr ? NameCell(*name) : "func_" + SwimlaneFuncLetters(func_id);
    const double avg_head = s.heads.empty() ? 0.0 : Sum(s.heads) / static_cast<double>(s.heads.size());
    const double avg_tail = s.tails.empty() ? 0.0 : Sum(s.tails) / static_cast<double>(s.tails.size());
    const double avg_latency = s.total_latency / static_cast<double>(count);
    const double ratio = s.total_latency > 0 ? s.total_exec / s.total_latency * 100 : 0.0;
    const std::string prop = s.propagations.empty()
                                 ? Right("-", 12)
                                 : Right(Fixed(Sum(s.propagations) / static_cast<double>(s.propagations.size()), 2), 12);
    const std::string local = s.local_setups.empty()
                                  ? Right("-", 13)
                                  : Right(Fixed(Sum(s.local_setups) / static_cast<double>(s.local_setups.size()), 2), 13);
    out += Left(std::to_string(func_id), 8) + " " + Left(func_name, 12) + " " +
           Right(std::to_string(count), 5) + "   " + Right(Fixed(avg_duration, 2), 12) + "  " +
           Right(aicpu ? Fixed(avg_latency, 2) : "-", 15) + "  " +
           Right(aicpu ? Fixed(ratio, 1) + "%" : "-", 6) + "   " +
           Right(aicpu ? Fixed(avg_head, 2) : "-", 15) + "  " +
           Right(aicpu ? Fixed(avg_tail, 2) : "-", 15) + "  " + prop + "  " + local + "\n";
  }
  out += thin + "\n";
  double total_latency = 0.0;  // summed in order of first appearance, as the reference does
  for (int64_t func_id : first_seen) total_latency += stats[func_id].total_latency;
  out += Left("TOTAL", 21) + " " + Right(std::to_string(total_count), 5) + "   " +
         Right(Fixed(total_duration, 2), 12) + "  " + Right(aicpu ? Fixed(total_latency, 2) : "-", 15) +
         "\n";
  if (aicpu && min_dispatch != std::numeric_limits<double>::infinity() &&
      max_finish != -std::numeric_limits<double>::infinity()) {
    out += "\nTotal Test Time: " + Fixed(max_finish - min_dispatch, 2) +
           " us (from earliest dispatch to latest finish)\n";
  } else if (records.level == 1 && min_aicore != std::numeric_limits<double>::infinity() &&
             max_aicore != -std::numeric_limits<double>::infinity()) {
    out += "\nAICore Observed Span: " + Fixed(max_aicore - min_aicore, 2) +
           " us (from earliest AICore receive to latest AICore end)\n";
  }
  if (aicpu && total_count > 0 && total_latency > 0) {
    const double n = static_cast<double>(total_count);
    out += "\n--- Task execution vs Scheduler overhead ---\n";
    out += "  Per-task (all):  Avg Exec = " + Fixed(total_duration / n, 2) +
           " us,  Avg Latency (dispatch->finish) = " + Fixed(total_latency / n, 2) +
           " us,  Exec/Latency = " + Fixed(total_duration / total_latency * 100, 2) + "%\n";
    out += "  (Latency = dispatch\xE2\x86\x92" "finish; Exec = AICore kernel time per task)\n";
  }
  out += std::string(110, '=') + "\n";
  return out;
}

}  // namespace depgraph
