#include "depgraph/timing/schedule_trace.h"

#include <charconv>
#include <string>

#include "depgraph/support/json_writer.h"

namespace depgraph {

/// Formats the trace's events into a buffer flushed to the stream every 64 KiB.
class ScheduleTraceStream::Writer {
 public:
  Writer(const DepGraph& graph, const std::vector<TaskLabel>& labels, const MachineModel& machine,
         int64_t freq_hz, std::ostream& out)
      : graph_(graph), labels_(labels), machine_(machine), freq_hz_(freq_hz), out_(out) {}

  // Microseconds from base, three decimals (nanoseconds at up to 1 GHz).
  void Time(int64_t ticks) {
    const double t = static_cast<double>(ticks - machine_.base);
    const double us = freq_hz_ > 0 ? t / static_cast<double>(freq_hz_) * 1e6 : t;
    Number(us);
  }
  void Duration(int64_t ticks) {
    const double t = static_cast<double>(ticks);
    Number(freq_hz_ > 0 ? t / static_cast<double>(freq_hz_) * 1e6 : t);
  }
  // As printf("%.3f") writes it (to_chars with a precision is specified to match), without
  // printf's multi-precision path: a third of the trace's cost before.
  void Number(double value) {
    char buf[400];  // room for any double in fixed notation
    const auto result = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, 3);
    buf_.append(buf, result.ptr);
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
  const DepGraph& graph() const { return graph_; }
  const MachineModel& machine() const { return machine_; }
  void Flush(bool all) {
    if (all || buf_.size() > (1u << 16)) {
      out_ << buf_;
      buf_.clear();
    }
  }
  std::string TaskName(uint32_t t) const {
    const Task& task = graph_.tasks[t];
    const std::string id = FormatTaskId(task.id, display_);
    const int64_t node = graph_.FindNode(task.id);
    if (node >= 0 && !labels_[node].func_name.empty()) {
      return labels_[node].func_name + "(" + id + ")";
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
  const DepGraph& graph_;
  const std::vector<TaskLabel>& labels_;
  const MachineModel& machine_;
  int64_t freq_hz_;
  std::ostream& out_;
  std::string buf_;
  bool first_ = true;
  IdDisplay display_ = graph_.Display();
};

ScheduleTraceStream::ScheduleTraceStream(const DepGraph& graph,
                                         const std::vector<TaskLabel>& labels,
                                         const MachineModel& machine, int64_t freq_hz,
                                         std::ostream& out)
    : writer_(std::make_unique<Writer>(graph, labels, machine, freq_hz, out)) {
  Writer& w = *writer_;
  w.Raw("{\"traceEvents\": [");
  w.Meta("process_name", 0, "depgraph simulate", -1);
  w.Meta("thread_name", 0, "scheduler", 0);
  for (uint32_t c = 0; c < machine.aic + machine.aiv; ++c) {
    const std::string name = (c < machine.aic ? "AIC_" : "AIV_") + std::to_string(c);
    w.Meta("thread_name", static_cast<int>(c) + 1, name, c + 1);
  }
}

ScheduleTraceStream::~ScheduleTraceStream() = default;

void ScheduleTraceStream::OnRun(const CoreRun& run, int64_t ready) {
  Writer& w = *writer_;
  const std::string name = w.TaskName(run.task);
  const std::string args = "{\"task\": " + JsonId(w.graph().tasks[run.task].id) +
                           ", \"block\": " + std::to_string(run.block) +
                           ", \"ready_us\": " + w.TimeArg(ready) +
                           ", \"dispatch_us\": " + w.TimeArg(run.dispatch) + "}";
  const bool block_start = !any_run_ || last_task_ != run.task || last_block_ != run.block;
  any_run_ = true;
  last_task_ = run.task;
  last_block_ = run.block;
  const int64_t dispatch = w.machine().dispatch;
  if (block_start && dispatch > 0) {
    w.Slice(0, "dispatch " + name, "scheduler", run.decided, dispatch, args);
  }
  w.Slice(static_cast<int>(run.core) + 1, name, "kernel", run.start, run.end - run.start, args);
}

void ScheduleTraceStream::Finish(const SimulationResult& result) {
  Writer& w = *writer_;
  const DepGraph& graph = w.graph();
  if (w.machine().dummy_cost > 0) {
    for (uint32_t t = 0; t < graph.tasks.size(); ++t) {
      const SimulatedTask& s = result.tasks[t];
      if (s.start < 0 || graph.tasks[t].HasActiveKernel()) continue;
      w.Slice(0, w.TaskName(t), "scheduler", s.start, w.machine().dummy_cost,
              "{\"task\": " + JsonId(graph.tasks[t].id) + "}");
    }
  }
  w.Raw("\n], \"displayTimeUnit\": \"ns\"}\n");
  w.Flush(true);
}

void WriteScheduleTrace(const ScheduleTraceInput& input, std::ostream& out) {
  ScheduleTraceStream stream(input.graph, input.labels, input.machine, input.freq_hz, out);
  for (const CoreRun& run : input.result.runs) {
    stream.OnRun(run, input.result.tasks[run.task].ready);
  }
  stream.Finish(input.result);
}

}  // namespace depgraph
