#include "depgraph/timing/timing_records.h"

#include <gtest/gtest.h>

#include <string>

#include "depgraph/support/json_writer.h"
#include "test_util.h"

namespace depgraph {
namespace {

std::string LoadError(const std::string& text) {
  TimingRecords records;
  std::string err;
  EXPECT_FALSE(LoadTimingRecordsText(text, "rec.json", &records, &err)) << text;
  EXPECT_TRUE(records.rows.empty());
  return err;
}

TEST(TimingRecords, LoadsTheCollectorLayout) {
  const std::string text = R"({
    "chip_swimlane_level": 2,
    "metadata": {"clock_freq_hz": 50000000, "num_cores": 3, "core_types": ["aic", "aiv", "aiv"]},
    "aicore_tasks": [[0, 8589934592, 1, 120000000052, 120000000486, 7],
                     [2, "17", 1, 10, 20, 0],
                     [1, 5, 3, 11, 12]],
    "aicpu_tasks": [[0, 1, 120000000040, 120000000495]]
  })";
  TimingRecords records;
  std::string err;
  ASSERT_TRUE(LoadTimingRecordsText(text, "rec.json", &records, &err)) << err;
  EXPECT_EQ(records.level.state, FieldState::kValid);
  EXPECT_EQ(records.level.value, 2);
  EXPECT_EQ(records.clock_freq_hz.value, 50000000);
  EXPECT_EQ(records.num_cores.value, 3);
  ASSERT_EQ(records.core_types.size(), 3u);
  EXPECT_EQ(records.CoreType(0), "aic");
  EXPECT_EQ(records.CoreType(7), "aiv");  // outside the array: the converter's default
  ASSERT_EQ(records.rows.size(), 3u);
  const TimingRow& row = records.rows[0];
  EXPECT_EQ(row.core, 0);
  EXPECT_EQ(records.TaskKey(row), "8589934592");
  EXPECT_TRUE(row.has_task_id);
  EXPECT_EQ(row.task_id, 8589934592u);
  EXPECT_EQ(row.reg_task_id, 1);
  EXPECT_EQ(row.start, 120000000052);
  EXPECT_EQ(row.end, 120000000486);
  EXPECT_EQ(row.columns, 6u);
  EXPECT_EQ(records.TaskKey(records.rows[1]), "17");
  EXPECT_EQ(records.rows[1].task_id, 17u);
  EXPECT_EQ(records.rows[2].columns, 5u);  // legacy v2 row
  EXPECT_EQ(records.aicpu_state, FieldState::kValid);
  ASSERT_EQ(records.aicpu_rows.size(), 1u);
  EXPECT_EQ(records.aicpu_rows[0].finish, 120000000495);
}

TEST(TimingRecords, TaskKeysAreWhatPythonStrPrints) {
  TimingRecords records;
  std::string err;
  ASSERT_TRUE(LoadTimingRecordsText(
      R"({"aicore_tasks": [[0, " 7", 0, 1, 2, 0], [0, -0, 0, 1, 2, 0], [0, 5.0, 0, 1, 2, 0],
                           [0, true, 0, 1, 2, 0], [0, null, 0, 1, 2, 0], [0, "0x10", 0, 1, 2, 0],
                           [0, -1, 0, 1, 2, 0], [0, 18446744073709551616, 0, 1, 2, 0]]})",
      "rec.json", &records, &err))
      << err;
  ASSERT_EQ(records.rows.size(), 8u);
  EXPECT_EQ(records.TaskKey(records.rows[0]), " 7");  // verbatim: does not join with 7
  EXPECT_EQ(records.rows[0].task_id, 7u);             // but its numeric value is 7
  EXPECT_EQ(records.TaskKey(records.rows[1]), "0");
  EXPECT_EQ(records.TaskKey(records.rows[2]), "5.0");
  EXPECT_EQ(records.rows[2].task_id, 5u);
  EXPECT_EQ(records.TaskKey(records.rows[3]), "True");
  EXPECT_EQ(records.TaskKey(records.rows[4]), "None");
  EXPECT_FALSE(records.rows[4].has_task_id);
  EXPECT_FALSE(records.rows[5].has_task_id);
  EXPECT_EQ(records.rows[6].task_id, UINT64_MAX);  // negatives wrap
  EXPECT_EQ(records.TaskKey(records.rows[7]), "18446744073709551616");
  EXPECT_FALSE(records.rows[7].has_task_id);
  EXPECT_EQ(records.keys.size(), 8u);  // one key per distinct text, in order of first row
  EXPECT_EQ(records.rows[7].key, 7u);
}

TEST(TimingRecords, ScalarsAreRecordedNotJudged) {
  TimingRecords records;
  std::string err;
  ASSERT_TRUE(LoadTimingRecordsText(
      R"({"chip_swimlane_level": "x", "metadata": {"clock_freq_hz": "50000000"}})", "r", &records,
      &err))
      << err;
  EXPECT_EQ(records.level.state, FieldState::kInvalid);
  EXPECT_EQ(records.level.text, "x");
  EXPECT_EQ(records.clock_freq_hz.state, FieldState::kValid);
  EXPECT_EQ(records.clock_freq_hz.value, 50000000);
  EXPECT_EQ(records.aicore_state, FieldState::kAbsent);
  ASSERT_TRUE(LoadTimingRecordsText(
      R"({"metadata": {"clock_freq_hz": 50000000.7}, "aicore_tasks": []})", "r", &records, &err));
  EXPECT_EQ(records.clock_freq_hz.value, 50000000);  // int() truncates
  EXPECT_EQ(records.clock_freq_hz.text, "50000000.7");
  EXPECT_EQ(records.aicore_state, FieldState::kValid);
  EXPECT_EQ(records.level.state, FieldState::kAbsent);
  ASSERT_TRUE(
      LoadTimingRecordsText(R"({"metadata": {"clock_freq_hz": null}})", "r", &records, &err));
  EXPECT_EQ(records.clock_freq_hz.state, FieldState::kInvalid);
  EXPECT_EQ(records.clock_freq_hz.text, "None");
}

TEST(TimingRecords, BadAicpuRowsOnlyMarkThatPart) {
  TimingRecords records;
  std::string err;
  ASSERT_TRUE(LoadTimingRecordsText(
      R"({"aicore_tasks": [[0, 1, 0, 1, 2, 0]], "aicpu_tasks": [[0, 1, 2, 3], [0, "a", 2, 3], [1]],
          "metadata": {"core_types": ["aic", 3]}})",
      "rec.json", &records, &err))
      << err;
  EXPECT_EQ(records.rows.size(), 1u);
  EXPECT_EQ(records.aicpu_state, FieldState::kInvalid);
  EXPECT_EQ(records.aicpu_error, "rec.json: aicpu_tasks[1][1]: expected an integer, got \"a\"");
  EXPECT_EQ(records.aicpu_rows.size(), 1u);
  EXPECT_EQ(records.core_types_state, FieldState::kInvalid);
}

TEST(TimingRecords, ErrorsNameTheFileAndTheJsonPath) {
  EXPECT_EQ(LoadError("[1]"), "rec.json: expected a JSON object at the top level, got array");
  EXPECT_EQ(LoadError(R"({"aicore_tasks": {}})"),
            "rec.json: aicore_tasks: expected an array of rows, got an object");
  EXPECT_EQ(LoadError(R"({"aicore_tasks": [[0, 1, 0, 1, 2, 0], 5]})"),
            "rec.json: aicore_tasks[1]: expected a row (an array of at least 5 values), got 5");
  EXPECT_EQ(LoadError(R"({"aicore_tasks": [[0, 1, 0, 1]]})"),
            "rec.json: aicore_tasks[0]: expected at least 5 values [core_id, task_id, "
            "reg_task_id, start_ticks, end_ticks, ...], got 4");
  EXPECT_EQ(LoadError(R"({"aicore_tasks": [[0, 1, 0, 1, 2, 0], [0, 1, 0, 1.5, 2, 0]]})"),
            "rec.json: aicore_tasks[1][3]: expected an integer tick count, got 1.5");
  EXPECT_EQ(LoadError(R"({"aicore_tasks": [[0, 1, 0, 1, "2", 0]]})"),
            "rec.json: aicore_tasks[0][4]: expected an integer tick count, got \"2\"");
  EXPECT_EQ(LoadError(R"({"aicore_tasks": [["0", 1, 0, 1, 2, 0]]})"),
            "rec.json: aicore_tasks[0][0]: expected an integer core id, got \"0\"");
  EXPECT_EQ(LoadError(R"({"aicore_tasks": [[0, [1], 0, 1, 2, 0]]})"),
            "rec.json: aicore_tasks[0][1]: expected a task id (a number or a string), got an "
            "array");
  EXPECT_EQ(LoadError("{\"aicore_tasks\": [[0, 1, 0, 1, 2, 0]"),
            "rec.json: line 1:column 37: unexpected end of file inside an array");
}

TEST(TimingRecords, FileLoaderRefusesWhatIsNotARegularFile) {
  testing::TempDir dir;
  TimingRecords records;
  std::string err;
  EXPECT_FALSE(LoadTimingRecords(dir.path(), &records, &err));
  EXPECT_NE(err.find("directory"), std::string::npos) << err;
  EXPECT_FALSE(LoadTimingRecords(dir.File("missing.json"), &records, &err));
  testing::WriteFile(dir.File("r.json"), R"({"aicore_tasks": [[3, 9, 1, 5, 8, 0]]})");
  ASSERT_TRUE(LoadTimingRecords(dir.File("r.json"), &records, &err)) << err;
  EXPECT_EQ(records.rows.size(), 1u);
}

TEST(TimingRecords, RepeatedKeysKeepTheLastValue) {
  TimingRecords records;
  std::string err;
  ASSERT_TRUE(LoadTimingRecordsText(
      R"({"aicore_tasks": [[0, 1, 0, 1, 2, 0]],
          "aicore_tasks": [[0, 2, 0, 1, 2, 0], [0, 3, 0, 1, 2, 0]]})",
      "r", &records, &err));
  ASSERT_EQ(records.rows.size(), 2u);
  EXPECT_EQ(records.TaskKey(records.rows[0]), "2");
}

TEST(TimingRecords, RowsWithTheSameIdTextShareAKey) {
  TimingRecords records;
  std::string err;
  ASSERT_TRUE(LoadTimingRecordsText(
      R"({"aicore_tasks": [[0, 7, 0, 1, 2, 0], [1, "7", 0, 1, 2, 0], [2, " 7", 0, 1, 2, 0],
                           [3, 8, 0, 1, 2, 0], [4, 7.0, 0, 1, 2, 0], [5, 8, 0, 1, 2, 0]]})",
      "r", &records, &err));
  EXPECT_EQ(records.keys, (std::vector<std::string>{"7", " 7", "8", "7.0"}));
  std::vector<uint32_t> keys;
  for (const TimingRow& row : records.rows) keys.push_back(row.key);
  EXPECT_EQ(keys, (std::vector<uint32_t>{0, 0, 1, 2, 3, 2}));
}

TEST(TaskTimings, ReducesRowsToOneIntervalPerTaskInRowOrder) {
  TimingRecords records;
  std::string err;
  // Task 4 is SPMD over cores 0 and 2 (two blocks on core 0), task 1 single.
  ASSERT_TRUE(LoadTimingRecordsText(
      R"({"aicore_tasks": [[0, 4, 1, 10, 20, 0], [0, 1, 2, 21, 30, 0], [0, 4, 3, 31, 35, 0],
                           [2, 4, 1, 12, 25, 0]]})",
      "r", &records, &err));
  const TaskTimings timings = ReduceTaskTimings(records);
  ASSERT_EQ(timings.tasks.size(), 2u);
  const TaskTiming& spmd = timings.tasks[0];
  EXPECT_EQ(spmd.key, "4");
  EXPECT_EQ(spmd.start, 10);
  EXPECT_EQ(spmd.end, 35);
  EXPECT_EQ(spmd.span(), 25);
  EXPECT_EQ(spmd.work, 10 + 4 + 13);
  EXPECT_EQ(spmd.longest_block, 13);
  EXPECT_EQ(spmd.blocks, 3u);
  const auto cores = timings.CoresOf(0);
  EXPECT_EQ(std::vector<int64_t>(cores.begin(), cores.end()), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(spmd.first_row, 0u);
  EXPECT_EQ(timings.tasks[1].key, "1");
  EXPECT_EQ(timings.tasks[1].core_count, 1u);
  EXPECT_EQ(timings.tasks[1].first_row, 1u);
  EXPECT_EQ(timings.row_task, (std::vector<uint32_t>{0, 1, 0, 0}));
  EXPECT_EQ(timings.t0, 10);
  EXPECT_EQ(timings.t1, 35);
  EXPECT_EQ(timings.makespan(), 25);
  ASSERT_NE(timings.Find("1"), nullptr);
  EXPECT_EQ(timings.Find("1")->end, 30);
  EXPECT_EQ(timings.Find("01"), nullptr);
  EXPECT_DOUBLE_EQ(TicksToMicros(50, 50000000), 1.0);

  // Rows not grouped by core: a core seen again is not listed twice.
  ASSERT_TRUE(LoadTimingRecordsText(
      R"({"aicore_tasks": [[0, 4, 1, 1, 2, 0], [1, 4, 1, 2, 3, 0], [0, 4, 2, 3, 4, 0]]})", "r",
      &records, &err));
  const TaskTimings mixed = ReduceTaskTimings(records);
  const auto seen = mixed.CoresOf(0);
  EXPECT_EQ(std::vector<int64_t>(seen.begin(), seen.end()), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(mixed.tasks[0].blocks, 3u);
}

// Found while writing the timing_inputs fuzzer: ticks of exactly +-2^62 were accepted and their
// difference (2^63) overflowed int64, as did a task's summed work; ticks must now be below 2^62
// in magnitude and the work saturates.
TEST(TaskTimings, TickBoundIsExclusiveAndWorkSaturates) {
  EXPECT_EQ(LoadError(R"({"aicore_tasks": [[0, 1, 1, -4611686018427387904, 0]]})"),
            "rec.json: aicore_tasks[0][3]: -4611686018427387904 is out of range (below 2^62 in "
            "magnitude)");
  EXPECT_EQ(LoadError(R"({"aicore_tasks": [[0, 1, 1, 0, 4611686018427387904]]})"),
            "rec.json: aicore_tasks[0][4]: 4611686018427387904 is out of range (below 2^62 in "
            "magnitude)");
  TimingRecords records;
  std::string err;
  ASSERT_TRUE(LoadTimingRecordsText(
      R"({"aicore_tasks": [[0, 1, 1, -4611686018427387903, 4611686018427387903],
                           [1, 1, 1, -4611686018427387903, 4611686018427387903]]})",
      "rec.json", &records, &err))
      << err;
  const TaskTimings timings = ReduceTaskTimings(records);
  ASSERT_EQ(timings.tasks.size(), 1u);
  EXPECT_EQ(timings.tasks[0].span(), INT64_MAX - 1);
  EXPECT_EQ(timings.tasks[0].work, INT64_MAX);
  EXPECT_EQ(timings.makespan(), INT64_MAX - 1);
}

TEST(JsonWriterPython, FloatReprAndStringEscapes) {
  EXPECT_EQ(PythonFloatRepr(100.0), "100.0");
  EXPECT_EQ(PythonFloatRepr(0.00001), "1e-05");
  EXPECT_EQ(PythonFloatRepr(0.0001), "0.0001");
  EXPECT_EQ(PythonFloatRepr(0.0025), "0.0025");
  EXPECT_EQ(PythonFloatRepr(1e16), "1e+16");
  EXPECT_EQ(PythonFloatRepr(1e15), "1000000000000000.0");
  EXPECT_EQ(PythonFloatRepr(1.5e16), "1.5e+16");
  EXPECT_EQ(PythonFloatRepr(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(PythonFloatRepr(-0.0), "-0.0");
  EXPECT_EQ(PythonFloatRepr(0.0), "0.0");
  EXPECT_EQ(PythonFloatRepr(8.68), "8.68");
  EXPECT_EQ(PythonFloatRepr(5.879999999999999), "5.879999999999999");
  EXPECT_EQ(PythonFloatRepr(1234567.0), "1234567.0");
  EXPECT_EQ(PythonFloatRepr(1e-300), "1e-300");
  EXPECT_EQ(PythonFloatRepr(-2.5e-7), "-2.5e-07");
  std::string out;
  AppendPythonJsonFloat(&out, -1.0 / 0.0);
  EXPECT_EQ(out, "-Infinity");
  out.clear();
  AppendPythonJsonString(&out, "\xc2\xb5s \"q\" \\ \t\b\f\r\n\x01\x7f");
  EXPECT_EQ(out, "\"\xc2\xb5s \\\"q\\\" \\\\ \\t\\b\\f\\r\\n\\u0001\x7f\"");
}

}  // namespace
}  // namespace depgraph
