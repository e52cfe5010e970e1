#include "depgraph/graph/name_map.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "depgraph/graph/task_label.h"
#include "depgraph/support/input_file.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::TempDir;
using testing::WriteFile;

NameMapStatus Load(const std::string& content, NameMap* map, std::string* err) {
  TempDir dir;
  WriteFile(dir.File("name_map.json"), content);
  return LoadNameMap(dir.File("name_map.json"), map, err);
}

TEST(NameMap, AcceptsSceneTestAndFlatFormats) {
  NameMap map;
  std::string err;
  ASSERT_EQ(Load(R"({"level":2,"orchestrator_name":"X","callable_id_to_name":{"0":"QK"}})", &map,
                 &err),
            NameMapStatus::kOk);
  EXPECT_EQ(map.names.size(), 1u);
  EXPECT_EQ(*map.Find(0), "QK");
  ASSERT_EQ(Load(R"({"0":"QK","1":"SF"})", &map, &err), NameMapStatus::kOk);
  EXPECT_EQ(*map.Find(1), "SF");
  EXPECT_EQ(map.Find(2), nullptr);
}

TEST(NameMap, TextEntryPointMatchesTheFileLoader) {  // the fuzz harness's entry point
  const std::string text = R"({"callable_id_to_name":{"0":"QK","1":7}})";
  NameMap from_file, from_text;
  std::string file_err, text_err;
  EXPECT_EQ(Load(text, &from_file, &file_err), NameMapStatus::kInvalid);
  EXPECT_EQ(LoadNameMapText(text, "name_map.json", &from_text, &text_err),
            NameMapStatus::kInvalid);
  EXPECT_EQ(text_err, "name_map.json: callable_id_to_name.1: expected a string name, got number");
  EXPECT_TRUE(from_text.empty());
  EXPECT_EQ(LoadNameMapText("{\"0\":", "m.json", &from_text, &text_err),
            NameMapStatus::kUnreadable);
  ASSERT_EQ(LoadNameMapText(R"({"3":"PV"})", "m.json", &from_text, &text_err), NameMapStatus::kOk);
  EXPECT_EQ(*from_text.Find(3), "PV");
}

TEST(NameMap, EmptyInnerMapFallsBackToOuterObject) {  // reference quirk 2
  NameMap map;
  std::string err;
  ASSERT_EQ(Load(R"({"callable_id_to_name":{}})", &map, &err), NameMapStatus::kOk);
  EXPECT_FALSE(map.empty());
  ASSERT_EQ(Load(R"({"level":2,"orchestrator_name":"Orch"})", &map, &err), NameMapStatus::kOk);
  EXPECT_FALSE(map.empty());
  ASSERT_EQ(Load("{}", &map, &err), NameMapStatus::kOk);
  EXPECT_TRUE(map.empty());
}

TEST(NameMap, WrongShapesAreErrorsNotCrashes) {
  NameMap map;
  std::string err;
  EXPECT_EQ(Load("[1]", &map, &err), NameMapStatus::kInvalid);
  EXPECT_NE(err.find("expected a JSON object at the top level, got array"), std::string::npos);
  EXPECT_EQ(Load(R"({"callable_id_to_name":{"3":5}})", &map, &err), NameMapStatus::kInvalid);
  EXPECT_NE(err.find("callable_id_to_name.3: expected a string name, got number"),
            std::string::npos);
  EXPECT_EQ(Load(R"({"3":5})", &map, &err), NameMapStatus::kInvalid);
}

TEST(NameMap, UnreadableIsAWarningCase) {
  NameMap map;
  std::string err;
  EXPECT_EQ(LoadNameMap("/nonexistent/name_map.json", &map, &err), NameMapStatus::kUnreadable);
  EXPECT_EQ(Load("{not json", &map, &err), NameMapStatus::kUnreadable);
}

// Input that is not JSON, including text that is not UTF-8, is still the warning case, now
// with the place of the problem.
TEST(NameMap, NotJsonOrNotUtf8IsUnreadableAtItsPlace) {
  NameMap map;
  std::string err;
  EXPECT_EQ(Load("{not json", &map, &err), NameMapStatus::kUnreadable);
  EXPECT_EQ(err, "line 1:column 2: expected a string key");
  EXPECT_EQ(Load("{\"0\": \"Q\xffK\"}", &map, &err), NameMapStatus::kUnreadable);
  EXPECT_EQ(err, "line 1:column 9: invalid UTF-8 in string");
  EXPECT_TRUE(map.empty());
  EXPECT_EQ(Load("{\"0\": \"\xc0\x80\"}", &map, &err), NameMapStatus::kUnreadable);
  EXPECT_EQ(err, "line 1:column 8: invalid UTF-8 in string");
  EXPECT_EQ(Load(R"({"0": "Q\ud800"})", &map, &err), NameMapStatus::kUnreadable);
  EXPECT_EQ(err, "line 1:column 9: lone UTF-16 surrogate in \\u escape");
  ASSERT_EQ(Load("{\"0\": \"caf\xc3\xa9\"}", &map, &err), NameMapStatus::kOk) << err;
  EXPECT_EQ(*map.Find(0), "caf\xc3\xa9");
}

// Keys echoed into messages are escaped: one line, no raw control characters.
TEST(NameMap, EchoedKeysAreEscaped) {
  NameMap map;
  std::string err;
  EXPECT_EQ(Load(R"({"callable_id_to_name":{"a\nb\u001b":5}})", &map, &err),
            NameMapStatus::kInvalid);
  EXPECT_NE(err.find(": callable_id_to_name[\"a\\nb\\u001B\"]: expected a string name, got number"),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
}

TEST(NameMap, SpecialAndOversizedFilesAreRefusedNotRead) {
  TempDir dir;
  NameMap map;
  std::string err;
  const std::string fifo = dir.File("name_map.json");
  testing::MakeFifo(fifo);
  {
    testing::FifoUnblocker unblocker(fifo);  // without the refusal: end-of-file, not a hang
    EXPECT_EQ(LoadNameMap(fifo, &map, &err), NameMapStatus::kInvalid);
    EXPECT_EQ(err, fifo + ": is a FIFO, not a regular file");
  }
  // A sparse file just over the bound: refused by its size, nothing is read.
  const std::string big = dir.File("big.json");
  WriteFile(big, "");
  std::filesystem::resize_file(big, kMaxSmallInputBytes + 1);
  EXPECT_EQ(LoadNameMap(big, &map, &err), NameMapStatus::kInvalid);
  EXPECT_EQ(
      err, big + ": is larger than the limit of " + std::to_string(kMaxSmallInputBytes) + " bytes");
  // A directory stays the reference tool's warning case.
  EXPECT_EQ(LoadNameMap(dir.path(), &map, &err), NameMapStatus::kUnreadable);
  EXPECT_EQ(err, "[Errno 21] Is a directory: '" + dir.path() + "'");
}

TEST(NameMap, DiscoveryPicksNewestThenGreatestName) {  // reference test 1, spec §6.2 E
  namespace fs = std::filesystem;
  TempDir dir;
  EXPECT_EQ(DiscoverNameMap(dir.path()), "");
  WriteFile(dir.File("name_map_b.json"), "{}");
  WriteFile(dir.File("name_map_case.json"), "{}");
  WriteFile(dir.File("name_map_a.json"), "{}");
  WriteFile(dir.File("other.json"), "{}");
  auto now = fs::file_time_type::clock::now();
  fs::last_write_time(dir.File("name_map_b.json"), now - std::chrono::hours(2));
  fs::last_write_time(dir.File("name_map_case.json"), now - std::chrono::hours(2));
  fs::last_write_time(dir.File("name_map_a.json"), now - std::chrono::hours(1));
  EXPECT_EQ(DiscoverNameMap(dir.path()), dir.File("name_map_a.json"));
  fs::last_write_time(dir.File("name_map_a.json"), now - std::chrono::hours(2));
  EXPECT_EQ(DiscoverNameMap(dir.path()), dir.File("name_map_case.json"));
  WriteFile(dir.File("name_mapping.json"), "{}");
  fs::last_write_time(dir.File("name_mapping.json"), now);
  EXPECT_EQ(DiscoverNameMap(dir.path()), dir.File("name_mapping.json"));
}

TEST(TaskLabel, MergesKernelSlotsWithNames) {  // spec §2.3, §6.2 D, reference test 8
  DepGraph g = testing::LoadText(R"({"tasks":[{"task_id":1,"kernel_ids":[3,-1,-1]},
    {"task_id":2,"kernel_ids":[-1,4,4]},{"task_id":3,"kernel_ids":[3,4,4]},
    {"task_id":4,"kernel_ids":[3,9,-1]}],"edges":[{"pred":5,"succ":1}]})");
  NameMap names;
  names.names = {{"3", "QK"}, {"4", "SF"}};
  std::vector<TaskLabel> labels = ResolveTaskLabels(g, names);
  EXPECT_EQ(labels[g.FindNode(1)].func_name, "QK");
  EXPECT_EQ(labels[g.FindNode(1)].core, CoreType::kAic);
  EXPECT_EQ(labels[g.FindNode(2)].func_name, "SF");
  EXPECT_EQ(labels[g.FindNode(2)].core, CoreType::kAiv);
  EXPECT_EQ(labels[g.FindNode(3)].func_name, "QK + SF");
  EXPECT_EQ(labels[g.FindNode(3)].core, CoreType::kMix);
  EXPECT_EQ(labels[g.FindNode(4)].func_name, "QK + f9");
  EXPECT_EQ(labels[g.FindNode(5)].kind, TaskKind::kAlloc);
  EXPECT_TRUE(ResolveTaskLabels(g, NameMap{})[g.FindNode(1)].func_name.empty());
}

}  // namespace
}  // namespace depgraph
