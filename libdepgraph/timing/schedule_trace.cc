#include "depgraph/timing/schedule_trace.h"

#include <cstdio>
#include <string>

#include "depgraph/support/json_writer.h"

namespace depgraph {

namespace {

class TraceWriter {
 public:
  TraceWriter(const ScheduleTraceInput& input, std::ostream& out) : in_(input), out_(out) {}

  // Microseconds from base, three decimals (nanoseconds at up to 1 GHz).
  void Time(int64_t ticks) {
    const double t = static_cast<double>(ticks - in_.machine.base);
    const double us = in_.freq_hz > 0 ? t / static_cast<double>(in_.freq_hz) * 1e6 : t;
    Number(us);
  }
  void Duration(int64_t ticks) {
    const double t = static_cast<double>(ticks);
    Number(in_.freq_hz > 0 ? t / static_cast<double>(in_.freq_hz) * 1e6 : t);
  }
  void Number(double value) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.3f", value);
    buf_ += buf;
  }
  void Begin() {
    buf_ += first_ ? "\n" : ",\n";
    first_ = false;
  }
  void Meta(const char* what, int tid, const std::string& name, int64_t sort_index) {
    Begin();
    buf_ += "{\"ph\": \"M\", \"pid\": 1, \"tid\": " + std::to_string(tid) + ", \"name\": \"";
    buf_ += what;
    buf_ += "\", \"args\": {\"name\": ";
    AppendJsonString(&buf_, name);
    buf_ += "}}";
    if (sort_index >= 0) {
      Begin();
      buf_ += "{\"ph\": \"M\", \"pid\": 1, \"tid\": " + std::to_string(tid) +
              ", \"name\": \"thread_sort_index\", \"args\": {\"sort_index\": " +
              std::to_string(sort_index) + "}}";
    }
  }
  // A complete slice; `args` is JSON object text.
  void Slice(int tid, const std::string& name, const char* cat, int64_t start, int64_t length,
             const std::string& args) {
    Begin();
    buf_ += "{\"ph\": \"X\", \"pid\": 1, \"tid\": " + std::to_string(tid) + ", \"name\": ";
    AppendJsonString(&buf_, name);
    buf_ += ", \"cat\": \"";
    buf_ += cat;
    buf_ += "\", \"ts\": ";
    Time(start);
    buf_ += ", \"dur\": ";
    Duration(length);
    buf_ += ", \"args\": " + args + "}";
    Flush(false);
  }
  void Raw(const std::string& text) { buf_ += text; }
  void Flush(bool all) {
    if (all || buf_.size() > (1u << 16)) {
      out_ << buf_;
      buf_.clear();
    }
  }
  std::string TaskName(uint32_t t) const {
    const Task& task = in_.graph.tasks[t];
    const std::string id = FormatTaskId(task.id, display_);
    const int64_t node = in_.graph.FindNode(task.id);
    if (node >= 0 && !in_.labels[node].func_name.empty()) {
      return in_.labels[node].func_name + "(" + id + ")";
    }
    return (task.HasActiveKernel() ? "task(" : "dummy(") + id + ")";
  }
  std::string TimeArg(int64_t ticks) {
    std::string saved;
    saved.swap(buf_);
    Time(ticks);
    saved.swap(buf_);
    return saved;
  }

 private:
  const ScheduleTraceInput& in_;
  std::ostream& out_;
  std::string buf_;
  bool first_ = true;
  IdDisplay display_ = in_.graph.Display();
};

}  // namespace

void WriteScheduleTrace(const ScheduleTraceInput& input, std::ostream& out) {
  TraceWriter w(input, out);
  const MachineModel& m = input.machine;
  w.Raw("{\"traceEvents\": [");
  w.Meta("process_name", 0, "depgraph simulate", -1);
  w.Meta("thread_name", 0, "scheduler", 0);
  for (uint32_t c = 0; c < m.aic + m.aiv; ++c) {
    const std::string name = (c < m.aic ? "AIC_" : "AIV_") + std::to_string(c);
    w.Meta("thread_name", static_cast<int>(c) + 1, name, c + 1);
  }
  const SimulationResult& r = input.result;
  for (size_t i = 0; i < r.runs.size(); ++i) {
    const CoreRun& run = r.runs[i];
    const std::string name = w.TaskName(run.task);
    const std::string args = "{\"task\": " + JsonId(input.graph.tasks[run.task].id) +
                             ", \"block\": " + std::to_string(run.block) +
                             ", \"ready_us\": " + w.TimeArg(r.tasks[run.task].ready) +
                             ", \"dispatch_us\": " + w.TimeArg(run.dispatch) + "}";
    const bool block_start =
        i == 0 || r.runs[i - 1].task != run.task || r.runs[i - 1].block != run.block;
    if (block_start && m.dispatch > 0) {
      w.Slice(0, "dispatch " + name, "scheduler", run.decided, m.dispatch, args);
    }
    w.Slice(static_cast<int>(run.core) + 1, name, "kernel", run.start, run.end - run.start, args);
  }
  if (m.dummy_cost > 0) {
    for (uint32_t t = 0; t < input.graph.tasks.size(); ++t) {
      const SimulatedTask& s = r.tasks[t];
      if (s.start < 0 || input.graph.tasks[t].HasActiveKernel()) continue;
      w.Slice(0, w.TaskName(t), "scheduler", s.start, m.dummy_cost,
              "{\"task\": " + JsonId(input.graph.tasks[t].id) + "}");
    }
  }
  w.Raw("\n], \"displayTimeUnit\": \"ns\"}\n");
  w.Flush(true);
}

}  // namespace depgraph
