// Issue 25 item 4: a cycle message is bounded (first and last ids and the length), short
// cycles keep the full list.
#include "depgraph/support/cycle_text.h"

#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace depgraph {
namespace {

std::string Ids(size_t count) {
  return CycleMessage("p", count, [&](size_t i) {
    return std::to_string(i + 1 == count ? 1 : i + 1);
  });
}

TEST(CycleMessage, ShortCyclesAreListedInFull) {
  EXPECT_EQ(Ids(3), "p: 1 -> 2 -> 1");
  EXPECT_EQ(Ids(16), "p: 1 -> 2 -> 3 -> 4 -> 5 -> 6 -> 7 -> 8 -> 9 -> 10 -> 11 -> 12 -> 13 -> 14 -> "
                     "15 -> 1");
  EXPECT_EQ(Ids(17), "p of 16 tasks: 1 -> 2 -> 3 -> ... -> 15 -> 16 -> 1");
  EXPECT_EQ(Ids(200001), "p of 200000 tasks: 1 -> 2 -> 3 -> ... -> 199999 -> 200000 -> 1");
}

std::string RingCapture(int n) {
  std::string text = R"({"tasks":[],"edges":[)";
  for (int i = 1; i <= n; ++i) {
    text += (i > 1 ? "," : "") + std::string(R"({"pred":")") + std::to_string(i) +
            R"(","succ":")" + std::to_string(i % n + 1) + R"("})";
  }
  return text + "]}";
}

TEST(CycleMessage, AuditAndDiffOfALongCycleStayShort) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("ring.json"), RingCapture(20000));
  testing::WriteFile(dir.File("ok.json"), testing::CaptureJson({{1, 2, "x"}}));
  const std::string bin = testing::BoundedCommand(testing::CliBinary());
  for (const char* args : {" audit ring.json", " diff ok.json ring.json"}) {
    const auto r = testing::RunCommand(bin + args, dir.path());
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_LT(r.err.size(), 200u) << args << r.err.substr(0, 300);
    EXPECT_NE(r.err.find("ring.json: dependency graph has a cycle of 20000 tasks: "),
              std::string::npos)
        << r.err.substr(0, 300);
    EXPECT_NE(r.err.find(" -> ... -> "), std::string::npos) << r.err.substr(0, 300);
    EXPECT_EQ(r.err.back(), '\n');
  }
}

}  // namespace
}  // namespace depgraph
