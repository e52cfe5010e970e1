#include "depgraph/timing/perf_sidecar.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace depgraph {
namespace {

using testing::TempDir;
using testing::WriteFile;

constexpr const char* kPath = "chip_swimlane_records.json";

// A sidecar document: level, metadata (three cores aic, aic, aiv at 50 MHz unless given)
// and rows; `extra` is spliced into the top-level object.
std::string Doc(const std::string& level, const std::string& aicore, const std::string& aicpu,
                const std::string& metadata =
                    R"({"clock_freq_hz": 50000000, "num_cores": 3, "core_types": ["aic", "aic", "aiv"]})",
                const std::string& extra = "") {
  return "{\"chip_swimlane_level\": " + level + ", \"metadata\": " + metadata +
         ", \"aicore_tasks\": " + aicore + ", \"aicpu_tasks\": " + aicpu + extra + "}";
}

struct Loaded {
  PerfSidecarStatus status;
  PerfSidecar sidecar;
  std::string err;
};

Loaded Load(const std::string& text) {
  Loaded l;
  l.status = LoadPerfSidecarText(text, kPath, &l.sidecar, &l.err);
  return l;
}

// The message of a document the reader rejects with an error the viewer catches.
std::string Unreadable(const std::string& text) {
  Loaded l = Load(text);
  EXPECT_EQ(l.status, PerfSidecarStatus::kUnreadable) << text;
  EXPECT_TRUE(l.sidecar.tasks.empty());
  return l.err;
}

// The message of a document that crashes the reference viewer.
std::string Invalid(const std::string& text) {
  Loaded l = Load(text);
  EXPECT_EQ(l.status, PerfSidecarStatus::kInvalid) << text;
  return l.err;
}

constexpr const char* kTwoRows = "[[0, 7, 1, 100, 200, 0], [2, 9, 1, 150, 300, 0]]";

TEST(PerfSidecar, Level1TakesEveryAicoreRow) {
  Loaded l = Load(Doc("1", kTwoRows, "[]"));
  ASSERT_EQ(l.status, PerfSidecarStatus::kOk) << l.err;
  EXPECT_EQ(l.sidecar.level, 1);
  EXPECT_EQ(l.sidecar.clock_freq_hz, 50000000);
  ASSERT_EQ(l.sidecar.tasks.size(), 2u);
  const PerfTask& t7 = l.sidecar.tasks[0];
  EXPECT_EQ(t7.id, 7u);
  EXPECT_EQ(t7.core_type, "aic");
  EXPECT_EQ(t7.blocks, 1u);
  EXPECT_EQ(t7.start_ticks, 100);
  EXPECT_EQ(t7.end_ticks, 200);
  // 50 MHz: one tick is 0.02 µs; the base tick is the smallest non-zero timestamp (100).
  EXPECT_EQ(l.sidecar.base_ticks, 100);
  EXPECT_DOUBLE_EQ(t7.start_us, 0.0);
  EXPECT_DOUBLE_EQ(t7.end_us, 2.0);
  EXPECT_DOUBLE_EQ(t7.duration_us, 2.0);
  EXPECT_EQ(l.sidecar.tasks[1].core_type, "aiv");
  EXPECT_DOUBLE_EQ(l.sidecar.tasks[1].start_us, 1.0);
  EXPECT_DOUBLE_EQ(l.sidecar.tasks[1].duration_us, 3.0);
  EXPECT_TRUE(l.sidecar.warnings.empty());
  EXPECT_EQ(l.sidecar.Find(9), &l.sidecar.tasks[1]);
  EXPECT_EQ(l.sidecar.Find(8), nullptr);
  EXPECT_EQ(l.sidecar.TaskIds(), (std::vector<TaskId>{7, 9}));
}

TEST(PerfSidecar, RowsOfOneTaskMergeIntoItsSpanAndCoreTypes) {
  // An SPMD task on two AIC cores, a MIX task on an AIC and an AIV core, a core outside
  // core_types (read as aiv), and the base tick lowered by receive_to_start (100 - 40 = 60).
  Loaded l = Load(Doc("1",
                      "[[0, 5, 1, 100, 200, 40], [1, 5, 1, 150, 400, 0], [0, 6, 2, 500, 600, 0],"
                      " [2, 6, 1, 520, 610, 0], [9, 8, 1, 700, 710, 0]]",
                      "[]"));
  ASSERT_EQ(l.status, PerfSidecarStatus::kOk) << l.err;
  ASSERT_EQ(l.sidecar.tasks.size(), 3u);
  EXPECT_EQ(l.sidecar.base_ticks, 60);
  const PerfTask& spmd = l.sidecar.tasks[0];
  EXPECT_EQ(spmd.core_type, "aic");
  EXPECT_EQ(spmd.blocks, 2u);
  EXPECT_EQ(spmd.start_ticks, 100);
  EXPECT_EQ(spmd.end_ticks, 400);
  EXPECT_DOUBLE_EQ(spmd.start_us, 0.8);
  EXPECT_DOUBLE_EQ(spmd.end_us, 6.8);
  EXPECT_NEAR(spmd.duration_us, 6.0, 1e-9);  // the span over both blocks
  EXPECT_EQ(l.sidecar.tasks[1].core_type, "mix");
  EXPECT_EQ(l.sidecar.tasks[1].blocks, 2u);
  EXPECT_EQ(l.sidecar.tasks[2].core_type, "aiv");  // core 9 is outside core_types
}

TEST(PerfSidecar, LegacyFiveColumnRowsAreAccepted) {
  Loaded l = Load(Doc("1", "[[0, 0, 1, 100, 200], [2, 888, 1, 50, 90]]", "[]"));
  ASSERT_EQ(l.status, PerfSidecarStatus::kOk) << l.err;
  EXPECT_EQ(l.sidecar.TaskIds(), (std::vector<TaskId>{0, 888}));
  EXPECT_EQ(l.sidecar.base_ticks, 50);
}

TEST(PerfSidecar, AicpuRowsSelectTheTasksAndUnmatchedOnesWarn) {
  // Level 2: only AICore rows matched by (core, reg_task_id) count; 777 has no AICPU row.
  Loaded l = Load(Doc("2", "[[0, 0, 1, 100, 200, 0], [2, 777, 1, 50, 90, 0]]",
                      "[[0, 1, 95, 205], [2, 2, 45, 95], [1, 5, 10, 20], [1, 6, 30, 40]]"));
  ASSERT_EQ(l.status, PerfSidecarStatus::kOk) << l.err;
  EXPECT_EQ(l.sidecar.TaskIds(), (std::vector<TaskId>{0}));
  // AICPU timestamps count for the base tick too.
  EXPECT_EQ(l.sidecar.base_ticks, 10);
  ASSERT_EQ(l.sidecar.warnings.size(), 1u);
  EXPECT_EQ(l.sidecar.warnings[0],
            "Warning: 3 aicpu_task(s) had no matching AICore record (top offenders: core 1: 2, "
            "core 2: 1); the missing AICore buffer(s) were dropped on rotation. Bump "
            "PLATFORM_AICORE_BUFFERS_PER_CORE if you see this regularly.");
}

TEST(PerfSidecar, UnmatchedWarningNamesThreeCoresMostFirstTiesInFirstSeenOrder) {
  Loaded l = Load(Doc("3", "[[0, 0, 1, 100, 200, 0]]",
                      "[[4, 9, 1, 2], [3, 9, 1, 2], [5, 9, 1, 2], [5, 8, 1, 2], [6, 9, 1, 2],"
                      " [0, 1, 1, 2]]"));
  ASSERT_EQ(l.status, PerfSidecarStatus::kOk) << l.err;
  ASSERT_EQ(l.sidecar.warnings.size(), 1u);
  EXPECT_NE(l.sidecar.warnings[0].find("Warning: 5 aicpu_task(s) had no matching AICore record "
                                       "(top offenders: core 5: 2, core 4: 1, core 3: 1); "),
            std::string::npos)
      << l.sidecar.warnings[0];
}

TEST(PerfSidecar, Level2WithoutAicpuRowsHasNoTasks) {
  Loaded l = Load(Doc("2", kTwoRows, "[]"));
  ASSERT_EQ(l.status, PerfSidecarStatus::kOk) << l.err;
  EXPECT_TRUE(l.sidecar.tasks.empty());
  EXPECT_TRUE(l.sidecar.warnings.empty());
  // ... while at level 1 AICPU rows, when present, select the tasks as well.
  Loaded level1 = Load(Doc("1", kTwoRows, "[[2, 1, 140, 310]]"));
  ASSERT_EQ(level1.status, PerfSidecarStatus::kOk) << level1.err;
  EXPECT_EQ(level1.sidecar.TaskIds(), (std::vector<TaskId>{9}));
}

TEST(PerfSidecar, TheLastAicoreRowOfAJoinKeyWins) {
  Loaded l = Load(Doc("2", "[[0, 7, 1, 100, 200, 0], [0, 8, 1, 300, 400, 0]]", "[[0, 1, 1, 2]]"));
  ASSERT_EQ(l.status, PerfSidecarStatus::kOk) << l.err;
  EXPECT_EQ(l.sidecar.TaskIds(), (std::vector<TaskId>{8}));
}

TEST(PerfSidecar, TaskIdsCoerceLikePythonIntAndWrapTo64Bits) {
  Loaded l = Load(Doc("1",
                      "[[0, \"4294967303\", 1, 100, 200, 0], [0, -1, 2, 300, 400, 0],"
                      " [0, 3.9, 3, 500, 600, 0], [0, true, 4, 700, 800, 0]]",
                      "[]"));
  ASSERT_EQ(l.status, PerfSidecarStatus::kOk) << l.err;
  EXPECT_EQ(l.sidecar.TaskIds(),
            (std::vector<TaskId>{1, 3, (uint64_t{1} << 32) | 7, UINT64_MAX}));
}

TEST(PerfSidecar, LevelAndClockCoerceLikePythonInt) {
  Loaded l = Load(Doc("\"2\"", kTwoRows, "[[0, 1, 1, 2]]",
                      R"({"clock_freq_hz": "1000000000", "core_types": ["aic"]})"));
  ASSERT_EQ(l.status, PerfSidecarStatus::kOk) << l.err;
  EXPECT_EQ(l.sidecar.level, 2);
  EXPECT_EQ(l.sidecar.clock_freq_hz, 1000000000);
  EXPECT_EQ(Load(Doc("4.7", kTwoRows, "[]")).sidecar.level, 4);  // truncated
}

// The checks of spec/timing.md §1.4, in order, with the reference reader's messages.

TEST(PerfSidecar, Check1InvalidJson) {
  EXPECT_EQ(Unreadable("{\"chip_swimlane_level\": 1,"), "line 1:column 27: expected a string key");
}

TEST(PerfSidecar, Check2Level) {
  EXPECT_EQ(Unreadable(Doc("7", kTwoRows, "[]")),
            "Unsupported chip_swimlane_level: 7 (expected 1, 2, 3, or 4)");
  EXPECT_EQ(Unreadable(Doc("0", kTwoRows, "[]")),
            "Unsupported chip_swimlane_level: 0 (expected 1, 2, 3, or 4)");
  EXPECT_EQ(Unreadable(Doc("-3.5", kTwoRows, "[]")),
            "Unsupported chip_swimlane_level: -3 (expected 1, 2, 3, or 4)");
  EXPECT_EQ(Unreadable(Doc("\"two\"", kTwoRows, "[]")),
            "invalid literal for int() with base 10: 'two'");
  EXPECT_EQ(Unreadable(Doc("\"it's\"", kTwoRows, "[]")),
            "invalid literal for int() with base 10: \"it's\"");
  EXPECT_EQ(Unreadable(Doc("\"a\\nb\\\\\"", kTwoRows, "[]")),
            "invalid literal for int() with base 10: 'a\\nb\\\\'");
  // The level is checked before the clock.
  EXPECT_EQ(Unreadable(Doc("9", kTwoRows, "[]", "{}")),
            "Unsupported chip_swimlane_level: 9 (expected 1, 2, 3, or 4)");
  // What crashes the reference viewer (int(None), a list) is an error here.
  EXPECT_EQ(Invalid(R"({"metadata": {"clock_freq_hz": 1}, "aicore_tasks": []})"),
            "chip_swimlane_records.json: chip_swimlane_level: missing");
  EXPECT_EQ(Invalid(Doc("null", kTwoRows, "[]")),
            "chip_swimlane_records.json: chip_swimlane_level: expected a number, got null");
  EXPECT_EQ(Invalid(Doc("[1]", kTwoRows, "[]")),
            "chip_swimlane_records.json: chip_swimlane_level: expected a number, got array");
}

TEST(PerfSidecar, Check3Clock) {
  EXPECT_EQ(Unreadable(Doc("1", kTwoRows, "[]", "{}")),
            "metadata missing/zero clock_freq_hz: 0");
  EXPECT_EQ(Unreadable(Doc("1", kTwoRows, "[]", "null")),
            "metadata missing/zero clock_freq_hz: 0");
  EXPECT_EQ(Unreadable(Doc("1", kTwoRows, "[]", R"({"clock_freq_hz": null})")),
            "metadata missing/zero clock_freq_hz: 0");
  EXPECT_EQ(Unreadable(Doc("1", kTwoRows, "[]", R"({"clock_freq_hz": -5})")),
            "metadata missing/zero clock_freq_hz: -5");
  EXPECT_EQ(Unreadable(Doc("1", kTwoRows, "[]", R"({"clock_freq_hz": 0.5})")),
            "metadata missing/zero clock_freq_hz: 0");
  EXPECT_EQ(Unreadable(Doc("1", kTwoRows, "[]", R"({"clock_freq_hz": "fast"})")),
            "invalid literal for int() with base 10: 'fast'");
  EXPECT_EQ(Invalid(Doc("1", kTwoRows, "[]", R"([1])")),
            "chip_swimlane_records.json: metadata: expected an object, got array");
  EXPECT_EQ(Invalid(Doc("1", kTwoRows, "[]", R"({"clock_freq_hz": [5]})")),
            "chip_swimlane_records.json: metadata.clock_freq_hz: expected a number, got array");
}

TEST(PerfSidecar, Check4DeviceAndHostOrchestratorPhasesTogether) {
  const std::string message =
      "both AICPU and host orchestrator phases are present; clock-domain source is ambiguous";
  const std::string orch = R"(, "aicpu_orchestrator_phases": [[{"start_cycles": 1}]])";
  const std::string base = R"({"clock_freq_hz": 50000000, "core_types": ["aic"])";
  EXPECT_EQ(Unreadable(Doc("4", kTwoRows, "[]", base + R"(, "orchestrator_source": "host"})",
                           orch)),
            message);
  EXPECT_EQ(Unreadable(Doc("4", kTwoRows, "[]", base + R"(, "host_capture": {}})", orch)),
            message);
  EXPECT_EQ(Unreadable(Doc("4", kTwoRows, "[]", base + "}",
                           orch + R"(, "host_orchestrator_phases": [[{"x": 1}]])")),
            message);
  // Either alone is fine; an empty list of phases is no phases.
  EXPECT_EQ(Load(Doc("4", kTwoRows, "[]", base + "}", orch)).status, PerfSidecarStatus::kOk);
  EXPECT_EQ(Load(Doc("4", kTwoRows, "[]", base + R"(, "orchestrator_source": "host"})",
                     R"(, "aicpu_orchestrator_phases": [])"))
                .status,
            PerfSidecarStatus::kOk);
}

TEST(PerfSidecar, Check5RowsOfFewerThanFiveColumns) {
  EXPECT_EQ(Unreadable(Doc("1", "[[0, 7, 1, 100, 200, 0], [0, 8, 1, 100]]", "[]")),
            "not enough values to unpack (expected at least 5, got 4)");
  EXPECT_EQ(Unreadable(Doc("1", "[[]]", "[]")),
            "not enough values to unpack (expected at least 5, got 0)");
  EXPECT_EQ(Unreadable(Doc("1", "[[0, \"x\", 1, 100, 200]]", "[]")),
            "invalid literal for int() with base 10: 'x'");
  EXPECT_EQ(Invalid(Doc("1", "[[0, 7, 1, null, 200]]", "[]")),
            "chip_swimlane_records.json: aicore_tasks[0][3]: expected a number, got null");
  EXPECT_EQ(Invalid(Doc("1", "[5]", "[]")),
            "chip_swimlane_records.json: aicore_tasks[0]: expected an array, got number");
  EXPECT_EQ(Invalid(Doc("1", "{\"a\": 1}", "[]")),
            "chip_swimlane_records.json: aicore_tasks: expected an array, got object");
}

TEST(PerfSidecar, AicpuRowsHaveExactlyFourColumns) {
  EXPECT_EQ(Unreadable(Doc("2", kTwoRows, "[[0, 1, 2]]")),
            "not enough values to unpack (expected 4, got 3)");
  EXPECT_EQ(Unreadable(Doc("2", kTwoRows, "[[0, 1, 2, 3, 4]]")),
            "too many values to unpack (expected 4)");
  EXPECT_EQ(Unreadable(Doc("2", kTwoRows, "[[\"c\", 1, 2, 3]]")),
            "invalid literal for int() with base 10: 'c'");
}

TEST(PerfSidecar, PhasesCountForTheBaseTick) {
  Loaded l = Load(Doc("3", kTwoRows, "[[0, 1, 90, 210]]", R"({"clock_freq_hz": 1000000})",
                      R"(, "aicpu_scheduler_phases": [[{"start_cycles": 0, "end_cycles": 40}]])"));
  ASSERT_EQ(l.status, PerfSidecarStatus::kOk) << l.err;
  EXPECT_EQ(l.sidecar.base_ticks, 40);
  ASSERT_EQ(l.sidecar.tasks.size(), 1u);
  EXPECT_DOUBLE_EQ(l.sidecar.tasks[0].start_us, 60.0);  // 1 MHz: one tick is 1 µs
  EXPECT_EQ(Invalid(Doc("3", kTwoRows, "[]", R"({"clock_freq_hz": 1})",
                        R"(, "aicpu_scheduler_phases": [[5]])")),
            "chip_swimlane_records.json: aicpu_scheduler_phases[0][0]: expected an object, got "
            "number");
}

// Rows are streamed into a compact form; rows of other shapes and any member order read the
// same as a DOM would.
TEST(PerfSidecar, RowsOfAnyShapeAndMembersInAnyOrder) {
  Loaded l = Load(R"({"aicore_tasks": [[0, "7", 1, 100.9, 200, 0, {"extra": [1]}],
    [1, 18446744073709551615, 1, 300, 400, 0, 9, 9], [2, 8, 1, 1e2, 250]],
    "aicpu_tasks": [], "metadata": {"clock_freq_hz": 50000000, "core_types": ["aic", "aiv"]},
    "chip_swimlane_level": 1})");
  ASSERT_EQ(l.status, PerfSidecarStatus::kOk) << l.err;
  EXPECT_EQ(l.sidecar.TaskIds(), (std::vector<TaskId>{7, 8, UINT64_MAX}));
  EXPECT_EQ(l.sidecar.tasks[0].start_ticks, 100);  // int(100.9)
  EXPECT_EQ(l.sidecar.tasks[1].core_type, "aiv");  // core 2 is outside core_types
  EXPECT_EQ(l.sidecar.tasks[2].core_type, "aiv");
  // A repeated member: the last one counts, as with json.load.
  Loaded repeated = Load(Doc("1", "[[0, 1, 1, 100, 200, 0]]", "[]", R"({"clock_freq_hz": 1})",
                             R"(, "aicore_tasks": [[0, 2, 1, 100, 200, 0]])"));
  ASSERT_EQ(repeated.status, PerfSidecarStatus::kOk) << repeated.err;
  EXPECT_EQ(repeated.sidecar.TaskIds(), (std::vector<TaskId>{2}));
  Loaded dropped = Load(Doc("1", kTwoRows, "[]", R"({"clock_freq_hz": 1})",
                            R"(, "aicore_tasks": null)"));
  ASSERT_EQ(dropped.status, PerfSidecarStatus::kOk) << dropped.err;
  EXPECT_TRUE(dropped.sidecar.tasks.empty());
  // Syntax errors inside the rows come first, with their place.
  EXPECT_EQ(Unreadable(Doc("7", "[[0, 1, 1, 100, 200, 0], [0, 1,, 2]]", "[]")),
            "line 1:column 169: invalid JSON value");
  EXPECT_EQ(Unreadable(Doc("1", "[[0, 1, 1, 1e400, 200]]", "[]")),
            "aicore_tasks[0][3]: line 1:column 6: number 1e400 is out of range (beyond a double)");
}

TEST(PerfSidecar, TopLevelThatIsNoObjectIsAnError) {
  EXPECT_EQ(Invalid("[1, 2]"),
            "chip_swimlane_records.json: expected a JSON object at the top level, got array");
}

TEST(PerfSidecar, FilesReportPythonsOpenErrors) {
  TempDir dir;
  PerfSidecar sidecar;
  std::string err;
  EXPECT_EQ(LoadPerfSidecar(dir.File("absent.json"), &sidecar, &err),
            PerfSidecarStatus::kUnreadable);
  EXPECT_EQ(err, "[Errno 2] No such file or directory: '" + dir.File("absent.json") + "'");
  EXPECT_EQ(LoadPerfSidecar(dir.path(), &sidecar, &err), PerfSidecarStatus::kUnreadable);
  EXPECT_EQ(err, "[Errno 21] Is a directory: '" + dir.path() + "'");
  testing::MakeFifo(dir.File("fifo.json"));
  testing::FifoUnblocker unblock(dir.File("fifo.json"));
  EXPECT_EQ(LoadPerfSidecar(dir.File("fifo.json"), &sidecar, &err),
            PerfSidecarStatus::kUnreadable);
  EXPECT_EQ(err, dir.File("fifo.json") + ": is a FIFO, not a regular file");
  WriteFile(dir.File("ok.json"), Doc("1", kTwoRows, "[]"));
  ASSERT_EQ(LoadPerfSidecar(dir.File("ok.json"), &sidecar, &err), PerfSidecarStatus::kOk) << err;
  EXPECT_EQ(sidecar.tasks.size(), 2u);
  // A failed load leaves nothing behind.
  EXPECT_EQ(LoadPerfSidecar(dir.File("absent.json"), &sidecar, &err),
            PerfSidecarStatus::kUnreadable);
  EXPECT_TRUE(sidecar.tasks.empty());
}

}  // namespace
}  // namespace depgraph
