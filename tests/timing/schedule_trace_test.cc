#include "depgraph/timing/schedule_trace.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "test_util.h"

namespace depgraph {
namespace {

// 1 (kernel 0, named QK) -> 2 (a dummy), and 3 (kernel 1, unnamed: "f1", 2 blocks of 20), on
// 1 AIC + 1 AIV core at 1 MHz (a tick is a microsecond): dispatch 5, launch 2, dummy 4.
// 1: taken at 0 (scheduler busy 0-5), runs 2-12 on AIC_0, done 12. 3 is ready at 0, before
// the dummy (ready 12): block 0 taken at 5, runs 7-27 on AIV_1; block 1 taken at 10, waits for
// the core: dispatched 27, runs 29-49. The dummy is taken at 15 (scheduler free) for 4.
TEST(ScheduleTrace, ExactEventsOfASmallSchedule) {
  const DepGraph g = testing::LoadText(R"({"tasks":[
      {"task_id":"1","kernel_ids":[0,-1,-1]},{"task_id":"2","kernel_ids":[-1,-1,-1]},
      {"task_id":"3","kernel_ids":[-1,1,-1],"block_num":2}],
      "edges":[{"pred":"1","succ":"2","source":"explicit"}]})");
  NameMap names;
  names.names = {{"0", "QK"}};
  const std::vector<TaskLabel> labels = ResolveTaskLabels(g, names);
  MachineModel m;
  m.aic = 1;
  m.aiv = 1;
  m.dispatch = 5;
  m.launch = 2;
  m.dummy_cost = 4;
  TaskWork work;
  work.ticks = {10, 20};
  work.first = {0, 1, 1, 2};
  SimulationOptions options;
  options.record_runs = true;
  SimulationResult result;
  std::string err;
  ASSERT_TRUE(SimulateSchedule(g, m, work, options, &result, &err)) << err;
  std::ostringstream out;
  WriteScheduleTrace(ScheduleTraceInput{g, labels, m, result, 1000000}, out);
  const std::string meta =
      "{\"traceEvents\": [\n"
      "{\"ph\": \"M\", \"pid\": 1, \"tid\": 0, \"name\": \"process_name\", \"args\": {\"name\": "
      "\"depgraph simulate\"}},\n"
      "{\"ph\": \"M\", \"pid\": 1, \"tid\": 0, \"name\": \"thread_name\", \"args\": {\"name\": "
      "\"scheduler\"}},\n"
      "{\"ph\": \"M\", \"pid\": 1, \"tid\": 0, \"name\": \"thread_sort_index\", \"args\": "
      "{\"sort_index\": 0}},\n"
      "{\"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"name\": \"thread_name\", \"args\": {\"name\": "
      "\"AIC_0\"}},\n"
      "{\"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"name\": \"thread_sort_index\", \"args\": "
      "{\"sort_index\": 1}},\n"
      "{\"ph\": \"M\", \"pid\": 1, \"tid\": 2, \"name\": \"thread_name\", \"args\": {\"name\": "
      "\"AIV_1\"}},\n"
      "{\"ph\": \"M\", \"pid\": 1, \"tid\": 2, \"name\": \"thread_sort_index\", \"args\": "
      "{\"sort_index\": 2}},\n";
  auto slice = [](int tid, const std::string& name, const char* cat, const char* ts,
                  const char* dur, const std::string& args) {
    return "{\"ph\": \"X\", \"pid\": 1, \"tid\": " + std::to_string(tid) + ", \"name\": \"" + name +
           "\", \"cat\": \"" + cat + "\", \"ts\": " + ts + ", \"dur\": " + dur +
           ", \"args\": " + args + "}";
  };
  const std::string a1 =
      "{\"task\": \"1\", \"block\": 0, \"ready_us\": 0.000, \"dispatch_us\": 0.000}";
  const std::string a30 =
      "{\"task\": \"3\", \"block\": 0, \"ready_us\": 0.000, \"dispatch_us\": 5.000}";
  const std::string a31 =
      "{\"task\": \"3\", \"block\": 1, \"ready_us\": 0.000, \"dispatch_us\": 27.000}";
  const std::string expected =
      meta + slice(0, "dispatch QK(1)", "scheduler", "0.000", "5.000", a1) + ",\n" +
      slice(1, "QK(1)", "kernel", "2.000", "10.000", a1) + ",\n" +
      slice(0, "dispatch f1(3)", "scheduler", "5.000", "5.000", a30) + ",\n" +
      slice(2, "f1(3)", "kernel", "7.000", "20.000", a30) + ",\n" +
      slice(0, "dispatch f1(3)", "scheduler", "10.000", "5.000", a31) + ",\n" +
      slice(2, "f1(3)", "kernel", "29.000", "20.000", a31) + ",\n" +
      slice(0, "dummy(2)", "scheduler", "15.000", "4.000", "{\"task\": \"2\"}") +
      "\n], \"displayTimeUnit\": \"ns\"}\n";
  EXPECT_EQ(out.str(), expected);
  EXPECT_TRUE(nlohmann::json::accept(out.str()));

  // Issue 26: streamed while the simulation runs (no run kept), the same bytes.
  SimulationOptions streaming;
  std::ostringstream streamed;
  ScheduleTraceStream stream(g, labels, m, 1000000, streamed);
  streaming.run_sink = &stream;
  SimulationResult streamed_result;
  ASSERT_TRUE(SimulateSchedule(g, m, work, streaming, &streamed_result, &err)) << err;
  stream.Finish(streamed_result);
  EXPECT_TRUE(streamed_result.runs.empty());
  EXPECT_EQ(streamed.str(), expected);
}

}  // namespace
}  // namespace depgraph
