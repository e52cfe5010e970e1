// Issue 25 item 2: control characters of kernel names never reach a terminal raw; they print
// as visible escapes (\x1b) in audit, query and diff text, and ordinary names are unchanged.
#include "depgraph/support/printable_text.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "test_util.h"

namespace depgraph {
namespace {

TEST(PrintableText, EscapesControlCharactersOnly) {
  EXPECT_EQ(PrintableText("qk_matmul + softmax"), "qk_matmul + softmax");
  EXPECT_EQ(PrintableText("\xc3\xa9t\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x98\x80"),
            "\xc3\xa9t\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x98\x80");  // valid UTF-8 stays
  EXPECT_EQ(PrintableText("\x1b[2Jx\n\t\x7f"), "\\x1b[2Jx\\x0a\\x09\\x7f");
  EXPECT_EQ(PrintableText(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(PrintableText("\xc2\x9b" "1m"), "\\xc2\\x9b1m");  // U+009B CSI
  EXPECT_EQ(PrintableText("\xc2\xa0"), "\xc2\xa0");          // U+00A0 is printable
  EXPECT_EQ(PrintableText("\x9b\xff"), "\\x9b\xff");          // raw C1 byte, invalid 0xff kept
}

constexpr const char* kHostile = "\x1b[2J\x1b[H0 race(s)\xc2\x9b";

class PrintableNames : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string real = testing::SourceDir() + "/data/real/dep_probe/default/";
    std::filesystem::create_directories(dir_.File("a"));
    std::filesystem::create_directories(dir_.File("b"));
    nlohmann::json deps = nlohmann::json::parse(testing::ReadFile(real + "deps.json"));
    testing::WriteFile(dir_.File("a/deps.json"), deps.dump());
    deps["edges"].erase(deps["edges"].begin());
    testing::WriteFile(dir_.File("b/deps.json"), deps.dump());
    const nlohmann::json names = {
        {"callable_id_to_name", {{"0", std::string("NOOP") + kHostile}, {"1", kHostile}}}};
    testing::WriteFile(dir_.File("a/name_map_x.json"), names.dump());
    testing::WriteFile(dir_.File("b/name_map_x.json"), names.dump());
  }
  testing::CommandResult Run(const std::string& args) {
    return testing::RunCommand(testing::BoundedCommand(testing::CliBinary()) + " " + args,
                               dir_.path());
  }
  static void ExpectEscaped(const testing::CommandResult& r, const std::string& what) {
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << what << r.out;
    EXPECT_EQ(r.out.find("\xc2\x9b"), std::string::npos) << what;
    EXPECT_NE(r.out.find("\\x1b[2J\\x1b[H0 race(s)\\xc2\\x9b"), std::string::npos)
        << what << r.out << r.err;
  }
  testing::TempDir dir_;
};

TEST_F(PrintableNames, AuditQueryAndDiffTextEscapeControlCharacters) {
  const auto audit = Run("audit a/deps.json");
  EXPECT_EQ(audit.exit_code, 3) << audit.err;
  ExpectEscaped(audit, "audit");
  const auto query = Run("query a/deps.json --grep NOOP");
  EXPECT_EQ(query.exit_code, 0) << query.err;
  ExpectEscaped(query, "query");
  const auto diff = Run("diff a/deps.json b/deps.json");
  EXPECT_NE(diff.exit_code, 0) << diff.out << diff.err;
  ExpectEscaped(diff, "diff");
  // The GitHub annotations and step summary too.
  const auto github = Run("audit a/deps.json --format github");
  EXPECT_EQ(github.out.find('\x1b'), std::string::npos) << github.out;
  EXPECT_NE(github.out.find("\\x1b[2J"), std::string::npos) << github.out;
  // JSON keeps the name itself (escaped by JSON).
  const auto json = Run("query a/deps.json --grep NOOP --json");
  if (json.exit_code == 0) {
    EXPECT_NE(json.out.find("\\u001b[2J"), std::string::npos) << json.out;
  }
}

}  // namespace
}  // namespace depgraph
