// orch_runner's run description read from text (LoadRunDescriptionText), and the inputs the
// run_description fuzz harness found (docs/fuzzing.md).
#include "entry_args.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace depgraph::orch_runner {
namespace {

TEST(RunDescriptionText, LoadsWhatTheFileLoaderLoads) {
  RunDescription d;
  std::string err;
  ASSERT_TRUE(LoadRunDescriptionText(
      R"({"tensors":[{"name":"bt","shape":[1,3],"dtype":"INT32","values":[2,2,0]}],)"
      R"("scalars":[16,"0x2a"],"kernel_names":["QK","PV"]})",
      "case.json", "", &d, &err))
      << err;
  ASSERT_EQ(d.tensors.size(), 1u);
  EXPECT_EQ(d.tensors[0].data.size(), 12u);
  EXPECT_EQ(d.scalars, (std::vector<uint64_t>{16, 42}));
  EXPECT_EQ(d.kernel_names.size(), 2u);
}

TEST(RunDescriptionText, ErrorsNameTheDocumentAndThePath) {
  RunDescription d;
  std::string err;
  EXPECT_FALSE(LoadRunDescriptionText(
      R"({"tensors":[{"shape":[2],"dtype":"INT8","values":[1,300]}]})", "case.json", "", &d, &err));
  EXPECT_EQ(err, "case.json: tensors[0].values[1]: 300 does not fit INT8");
}

// Fuzz finding (corpus/run_description/crash-number-overflow.json): a number beyond the double
// range made the re-parse that locates a syntax error throw out_of_range, which nothing caught,
// so orch_runner died in std::terminate instead of reporting the number and its path.
TEST(RunDescriptionText, NumberOverflowIsInvalidJsonNotACrash) {
  for (const char* text : {"1e333", R"({"scalars":[1e400]})", R"({"tensors":-1e999})"}) {
    RunDescription d;
    std::string err;
    EXPECT_FALSE(LoadRunDescriptionText(text, "case.json", "", &d, &err)) << text;
    EXPECT_EQ(err.rfind("case.json: ", 0), 0u) << err;
    EXPECT_NE(err.find("is out of range (beyond a double)"), std::string::npos) << err;
  }
}

// Fuzz finding (corpus/run_description/crash-newline-key.json): keys and scalar strings were
// echoed raw, so a key holding a newline split the one-line error message in two.
TEST(RunDescriptionText, MessagesEscapeControlCharacters) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"\n":[]})", R"(case.json: ["\n"]: unknown key)"},
      {R"({"tensors":[{"shape":[1],"dtype":"INT8","a\tb":0}]})",
       R"(case.json: tensors[0]["a\tb"]: unknown key)"},
      {R"({"kernel_names":{"1\r":"QK"}})",
       R"(case.json: kernel_names["1\r"]: expected "<id>": "<name>" with an id in 0..2147483647)"},
      {R"({"scalars":["7\u0001"]})",
       R"(case.json: scalars[0]: scalar "7\u0001": expected a u64 (decimal or 0x hex), )"
       "a negative integer, f32:X or f64:X"},
  };
  for (const auto& [text, message] : cases) {
    RunDescription d;
    std::string err;
    EXPECT_FALSE(LoadRunDescriptionText(text, "case.json", "", &d, &err)) << text;
    EXPECT_EQ(err, message);
  }
}

}  // namespace
}  // namespace depgraph::orch_runner
