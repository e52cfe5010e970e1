// Printer tests: parse -> print -> parse -> print is stable and the structures compare equal,
// for the §5.3 examples, a program using every construct, and every data/passes/*.depir file.
#include "depgraph_passes/depir_printer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "depgraph_passes/depir_parser.h"
#include "depir_examples.h"

namespace depgraph::passes {
namespace {

/// Checks the round trip of `text`; returns the first printed form.
std::string RoundTrip(const std::string& text, const std::string& name) {
  Program a, b;
  std::string err;
  EXPECT_TRUE(ParseDepir(text, name, &a, &err)) << err;
  std::string printed = PrintDepir(a);
  EXPECT_TRUE(ParseDepir(printed, name + "(printed)", &b, &err)) << err << "\n" << printed;
  EXPECT_EQ(PrintDepir(b), printed);
  EXPECT_TRUE(a == b) << name << " structure changed by printing:\n" << printed;
  return printed;
}

TEST(DepirPrinter, ExamplesRoundTrip) {
  RoundTrip(testing::kExampleT62, "t62");
  RoundTrip(testing::kExampleT34, "t34");
  RoundTrip(testing::kExampleT46, "t46");
}

TEST(DepirPrinter, CanonicalTextOfT34) {
  EXPECT_EQ(RoundTrip(testing::kExampleT34, "t34"),
            "kernel fill(out t: f32[64]) -> t\n"
            "kernel consume(in x: f32[64]) -> x\n"
            "\n"
            "orch main(scratch: f32[64]) {\n"
            "  carried = scratch\n"
            "  last_tid = task_invalid()\n"
            "  carried, last_tid = for _i in range(0, 4) iter(carried = carried, last_tid = last_tid) {\n"
            "    carried, last_tid = submit fill(carried) [inout]\n"
            "    yield carried, last_tid\n"
            "  }\n"
            "  out = consume(carried) [in]\n"
            "  return out\n"
            "}\n"
            "\n"
            "run analyze\n"
            "expect consume#1 edges=[last_tid@4] dirs=[nodep] mark\n"
            "expect fill#1 edges=[] dirs=[inout]\n"
            "expect func main layer_manual\n"
            "expect mat main \"MANUAL{ range{ fill } consume }\"\n");
}


TEST(DepirPrinter, EveryConstructRoundTrips) {
  std::string printed = RoundTrip(testing::kEverything, "everything");
  EXPECT_NE(printed.find("g2 = dynamic gather_mask(src, index)"), std::string::npos) << printed;
  EXPECT_NE(printed.find("for i in parallel(n, 64, 16) {"), std::string::npos) << printed;
  EXPECT_NE(printed.find("g: f32[4, 8] = dynamic gather(src, index)"), std::string::npos) << printed;
}

// A compiler edge or use naming a shadowed definition prints as name@k and reads back as such.
TEST(DepirPrinter, ShadowedReferencesPrintWithOrdinal) {
  Program p;
  std::string err;
  ASSERT_TRUE(ParseDepir("kernel f(out t: f32[4]) -> t\n"
                         "orch m(x: f32[4]) {\n"
                         "  y, tid = submit f(x) [oe]\n"
                         "  y, tid = submit f(y) [oe]\n"
                         "  z = f(y) [in]\n"
                         "}\n",
                         "s", &p, &err))
      << err;
  Function& fn = p.functions[0];
  VarId first_tid = fn.body[0].defs[1];
  fn.body[2].expr.attrs.compiler_manual_dep_edges = std::vector<VarId>{first_tid, fn.body[1].defs[1]};
  fn.body[2].expr.attrs.scope_candidate = true;
  std::string printed = PrintDepir(p);
  EXPECT_NE(printed.find("z = f(y) [in] edges=[tid@1, tid] mark"), std::string::npos) << printed;
  Program q;
  ASSERT_TRUE(ParseDepir(printed, "s2", &q, &err)) << err;
  EXPECT_TRUE(p == q);
}

// Every reference program written for issue 5 round-trips (none yet is not a failure).
TEST(DepirPrinter, DataFilesRoundTrip) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(DEPGRAPH_SOURCE_DIR) / "data" / "passes";
  if (!fs::exists(dir)) GTEST_SKIP() << "no " << dir;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".depir") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.string());
    Program p;
    std::string err;
    if (!ParseDepirFile(f.string(), &p, &err)) {
      ADD_FAILURE() << err;
      continue;
    }
    std::string printed = PrintDepir(p);
    Program q;
    ASSERT_TRUE(ParseDepir(printed, f.filename().string() + "(printed)", &q, &err)) << err << "\n" << printed;
    EXPECT_EQ(PrintDepir(q), printed);
    EXPECT_TRUE(p == q) << printed;
  }
}

}  // namespace
}  // namespace depgraph::passes
