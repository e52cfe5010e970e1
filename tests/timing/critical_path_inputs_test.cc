#include "depgraph/timing/critical_path_inputs.h"

#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace depgraph {
namespace {

using testing::TempDir;
using testing::WriteFile;

std::string DepsError(const std::string& text) {
  CriticalPathDeps deps;
  std::string err;
  EXPECT_FALSE(LoadCriticalPathDepsText(text, "deps.json", &deps, &err)) << text;
  return err;
}

TEST(CriticalPathDeps, KeysAreTextsEdgesInFileOrderLastTaskWins) {
  CriticalPathDeps deps;
  std::string err;
  ASSERT_TRUE(LoadCriticalPathDepsText(
      R"({"tasks": [{"task_id": "8589934592", "kernel_ids": [-1, null, 3], "args": [1]},
                    {"task_id": 5, "kernel_ids": [0, -1, -1]},
                    {"task_id": "5", "kernel_ids": [-1, 2, 2]},
                    {"task_id": "6"}],
          "tensors": [{"x": 1}],
          "edges": [{"pred": "8589934592", "succ": 5, "source": "tensormap"},
                    {"pred": "99", "succ": "6"}]})",
      "deps.json", &deps, &err))
      << err;
  ASSERT_EQ(deps.edges.size(), 2u);
  EXPECT_EQ(deps.keys[deps.edges[0].first], "8589934592");
  EXPECT_EQ(deps.keys[deps.edges[0].second], "5");
  EXPECT_EQ(deps.keys[deps.edges[1].first], "99");
  const auto callable = [&](const char* key) { return deps.callables[deps.Find(key)]; };
  EXPECT_EQ(callable("8589934592").state, CallableRef::kId);
  EXPECT_EQ(callable("8589934592").id, "3");
  EXPECT_EQ(callable("5").id, "2");  // the later entry with the same id text wins
  EXPECT_EQ(callable("6").state, CallableRef::kNone);
  EXPECT_FALSE(deps.is_task[deps.Find("99")]);
  EXPECT_EQ(deps.Find("7"), -1);
}

TEST(CriticalPathDeps, ErrorsNameTheFileAndTheJsonPath) {
  EXPECT_EQ(DepsError("[]"), "deps.json: expected a JSON object at the top level, got array");
  EXPECT_EQ(DepsError(R"({"edges": []})"), "deps.json: missing \"tasks\"");
  EXPECT_EQ(DepsError(R"({"tasks": []})"), "deps.json: missing \"edges\"");
  EXPECT_EQ(DepsError(R"({"tasks": {}, "edges": []})"),
            "deps.json: tasks: expected an array, got an object");
  EXPECT_EQ(DepsError(R"({"tasks": [{"task_id": 1}, {"kernel_ids": []}], "edges": []})"),
            "deps.json: tasks[1]: missing \"task_id\"");
  EXPECT_EQ(DepsError(R"({"tasks": [], "edges": [{"pred": 1}]})"),
            "deps.json: edges[0]: missing \"succ\"");
  EXPECT_EQ(DepsError(R"({"tasks": [], "edges": [{"pred": [1], "succ": 2}]})"),
            "deps.json: edges[0].pred: expected a task id (a number or a string), got an array");
  EXPECT_EQ(DepsError(R"({"tasks": [], "edges": [3]})"),
            "deps.json: edges[0]: expected an object, got number");
  EXPECT_EQ(DepsError(R"({"tasks": [], "edges": [)"),
            "deps.json: line 1:column 25: unexpected end of file inside an array");
}

TEST(CriticalPathNames, NamesFollowTheReferenceRules) {
  // Timed tasks: 1 (kernel 0, named), 2 (kernel 7, absent from the map), 3 (no kernel),
  // 4 (not in deps.json), 5 (a string kernel id after a valid one: never reached).
  TimingRecords records;
  std::string err;
  ASSERT_TRUE(LoadTimingRecordsText(
      R"({"aicore_tasks": [[0,1,0,0,1,0],[0,2,0,1,2,0],[0,3,0,2,3,0],[0,4,0,3,4,0],[0,5,0,4,5,0]]})",
      "r", &records, &err));
  const TaskTimings timings = ReduceTaskTimings(records);
  CriticalPathDeps deps;
  ASSERT_TRUE(LoadCriticalPathDepsText(
      R"({"tasks": [{"task_id": 1, "kernel_ids": [0, -1, -1]},
                    {"task_id": 2, "kernel_ids": [-1, 7, 0]},
                    {"task_id": 3, "kernel_ids": [-1, -1, -1]},
                    {"task_id": 5, "kernel_ids": [1, "x"]}], "edges": []})",
      "deps.json", &deps, &err));
  CriticalPathNames names;
  ASSERT_TRUE(LoadCriticalPathNamesText(
      R"({"callable_id_to_name": {"0": "qk_0_aic", "1": "", "3": 5}})", "nm.json", &names, &err));
  std::vector<TaskName> out;
  ASSERT_TRUE(NameTimedTasks(timings, deps, names, "deps.json", "nm.json", &out, &err)) << err;
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].name, "qk_0_aic");
  EXPECT_EQ(out[1].name, "cid7");
  EXPECT_EQ(out[2].name, "unknown");
  EXPECT_EQ(out[3].name, "unknown");
  EXPECT_EQ(out[4].name, "");  // an empty name is used as it is

  // A flat map is not read (no fallback), so kernel 0 becomes cid0.
  ASSERT_TRUE(LoadCriticalPathNamesText(R"({"0": "QK"})", "nm.json", &names, &err));
  ASSERT_TRUE(NameTimedTasks(timings, deps, names, "deps.json", "nm.json", &out, &err));
  EXPECT_EQ(out[0].name, "cid0");

  // A non-string value is only an error where the report uses it.
  ASSERT_TRUE(
      LoadCriticalPathNamesText(R"({"callable_id_to_name": {"0": 5}})", "nm.json", &names, &err));
  ASSERT_TRUE(NameTimedTasks(timings, deps, names, "deps.json", "nm.json", &out, &err));
  EXPECT_FALSE(out[0].is_string);

  // A null map fails as soon as a task with a kernel id is named.
  ASSERT_TRUE(
      LoadCriticalPathNamesText(R"({"callable_id_to_name": null})", "nm.json", &names, &err));
  EXPECT_FALSE(NameTimedTasks(timings, deps, names, "deps.json", "nm.json", &out, &err));
  EXPECT_EQ(err, "nm.json: callable_id_to_name: expected an object, got null");
  EXPECT_FALSE(LoadCriticalPathNamesText("{", "nm.json", &names, &err));
  EXPECT_EQ(err, "nm.json: line 1:column 2: unexpected end of file inside an object");
}

TEST(CriticalPathNames, AStringKernelIdBeforeAnyValidOneFails) {
  TimingRecords records;
  std::string err;
  ASSERT_TRUE(LoadTimingRecordsText(R"({"aicore_tasks": [[0,1,0,0,1,0]]})", "r", &records, &err));
  const TaskTimings timings = ReduceTaskTimings(records);
  CriticalPathDeps deps;
  ASSERT_TRUE(LoadCriticalPathDepsText(
      R"({"tasks": [{"task_id": 1, "kernel_ids": [-1, "3"]}], "edges": []})", "deps.json", &deps,
      &err));
  CriticalPathNames names;
  std::vector<TaskName> out;
  EXPECT_FALSE(NameTimedTasks(timings, deps, names, "deps.json", "nm.json", &out, &err));
  EXPECT_EQ(err, "deps.json: tasks[0].kernel_ids[1]: expected a number, got a string");
}

TEST(KernelFamily, StripsTheLongestSuffixForm) {
  EXPECT_EQ(KernelFamily("gate_0_aic"), "gate");
  EXPECT_EQ(KernelFamily("hc_pre_fused_3_aic"), "hc_pre_fused");
  EXPECT_EQ(KernelFamily("exp_up_mm_2"), "exp_up_mm");
  EXPECT_EQ(KernelFamily("qk_aiv"), "qk");
  EXPECT_EQ(KernelFamily("a_1_2"), "a_1");
  EXPECT_EQ(KernelFamily("x_aic_3"), "x_aic");
  EXPECT_EQ(KernelFamily("QK"), "QK");
  EXPECT_EQ(KernelFamily("cid3"), "cid3");
  EXPECT_EQ(KernelFamily("unknown"), "unknown");
  EXPECT_EQ(KernelFamily("qk_12_aiv\n"), "qk\n");  // `$` matches before a final newline
  EXPECT_EQ(KernelFamily("_7"), "");
  EXPECT_EQ(KernelFamily("v12_aic"), "v12");
  EXPECT_EQ(KernelFamily(""), "");
}

TEST(AnalyzeRankFiles, ReferenceCrashCasesAreOneLineErrors) {
  TempDir dir;
  const std::string deps = R"({"tasks": [], "edges": []})";
  WriteFile(dir.File("deps.json"), deps);
  WriteFile(dir.File("name_map.json"), "{}");
  RankFiles files;
  files.records = dir.File("r.json");
  files.deps = dir.File("deps.json");
  files.names = dir.File("name_map.json");
  RankAnalysis analysis;
  std::string err;
  const auto fails = [&](const std::string& records, const std::string& message) {
    WriteFile(dir.File("r.json"), records);
    EXPECT_FALSE(AnalyzeRankFiles(files, &analysis, &err)) << records;
    EXPECT_EQ(err, message);
  };
  fails(R"({"aicore_tasks": [[0,1,0,0,1,0]]})",
        dir.File("r.json") + ": metadata.clock_freq_hz: missing");
  fails(R"({"metadata": {"clock_freq_hz": "fast"}, "aicore_tasks": [[0,1,0,0,1,0]]})",
        dir.File("r.json") + ": metadata.clock_freq_hz: expected an integer, got \"fast\"");
  fails(R"({"metadata": {"clock_freq_hz": 1}})", dir.File("r.json") + ": aicore_tasks: missing");
  fails(R"({"metadata": {"clock_freq_hz": 1}, "aicore_tasks": []})",
        "no aicore_tasks records in " + dir.File("r.json") + " (empty/failed profiling run?)");
  fails(R"({"metadata": {"clock_freq_hz": 1}, "aicore_tasks": [[0,1,0,0,1,0], [0,1,0,0,1]]})",
        dir.File("r.json") +
            ": aicore_tasks[1]: expected 6 values, got 5 (--accept-v2-rows reads rows of 5 or "
            "more)");
  files.accept_legacy_rows = true;
  EXPECT_TRUE(AnalyzeRankFiles(files, &analysis, &err)) << err;
  EXPECT_EQ(analysis.result.task_count, 1u);
  EXPECT_EQ(analysis.clock_freq_hz, 1);
}

}  // namespace
}  // namespace depgraph

namespace depgraph {
namespace {

// Issue 25 item 6: ticks whose differences overflow int64 gave a negative makespan (exit 0,
// UBSan overflow); a non-positive or fractional clock_freq_hz gave negative times or "is 0".
TEST(AnalyzeRankFiles, TickAndClockRangesAreOneLineErrors) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), R"({"tasks": [], "edges": []})");
  WriteFile(dir.File("name_map.json"), "{}");
  RankFiles files;
  files.records = dir.File("r.json");
  files.deps = dir.File("deps.json");
  files.names = dir.File("name_map.json");
  RankAnalysis analysis;
  std::string err;
  const std::string r = dir.File("r.json");
  const auto fails = [&](const std::string& records, const std::string& message) {
    WriteFile(dir.File("r.json"), records);
    EXPECT_FALSE(AnalyzeRankFiles(files, &analysis, &err)) << records;
    EXPECT_EQ(err, message);
  };
  fails(R"({"metadata": {"clock_freq_hz": 1},
            "aicore_tasks": [[0,1,0,-9223372036854775807,9223372036854775807,0]]})",
        r + ": aicore_tasks[0][3]: -9223372036854775807 is out of range (below 2^62 in "
            "magnitude)");
  fails(R"({"metadata": {"clock_freq_hz": 1},
            "aicore_tasks": [[0,1,0,0,99999999999999999999,0]]})",
        r + ": aicore_tasks[0][4]: 99999999999999999999 is out of range (below 2^62 in "
            "magnitude)");
  fails(R"({"metadata": {"clock_freq_hz": -5}, "aicore_tasks": [[0,1,0,0,1,0]]})",
        r + ": metadata.clock_freq_hz: must be a positive integer, at least 1 Hz, got -5");
  fails(R"({"metadata": {"clock_freq_hz": 1e-300}, "aicore_tasks": [[0,1,0,0,1,0]]})",
        r + ": metadata.clock_freq_hz: must be a positive integer, at least 1 Hz, got 1e-300");
  fails(R"({"metadata": {"clock_freq_hz": 99999999999999999999}, "aicore_tasks": [[0,1,0,0,1,0]]})",
        r + ": metadata.clock_freq_hz: must be a positive integer, at least 1 Hz, got "
            "99999999999999999999");
  fails(R"({"metadata": {"clock_freq_hz": 0}, "aicore_tasks": [[0,1,0,0,1,0]]})",
        r + ": metadata.clock_freq_hz: missing or zero: cannot convert ticks to time");
}

}  // namespace
}  // namespace depgraph
