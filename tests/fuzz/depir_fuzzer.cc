// Fuzz harness of the depir parser (ParseDepir) and printer (PrintDepir): any text either
// parses or fails with a one-line "file:line:col: message"; a parsed program prints to text that
// parses back to an equal program and prints again to the same text (the printer's fixpoint).
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "depgraph_passes/depir_parser.h"
#include "depgraph_passes/depir_printer.h"
#include "depgraph_passes/ir.h"
#include "fuzz_check.h"

/// libFuzzer entry point: parse, print, reparse, compare, print again; abort() on any mismatch.
/// Inputs above kMaxInputBytes are skipped. Cost: O(bytes + vars) per parse, three in all.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace depgraph::passes;
  using depgraph::fuzz::Require;
  if (size > depgraph::fuzz::kMaxInputBytes) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Program program;
  std::string err;
  if (!ParseDepir(text, "fuzz.depir", &program, &err)) {
    depgraph::fuzz::RequireOneLineMessage(err);
    Require(err.rfind("fuzz.depir:", 0) == 0, "the message starts with the file name");
    return 0;
  }
  const std::string printed = PrintDepir(program);
  Program reparsed;
  if (!ParseDepir(printed, "printed.depir", &reparsed, &err)) {
    std::fprintf(stderr, "printed program does not parse: %s\n--- printed ---\n%s\n", err.c_str(),
                 printed.c_str());
    Require(false, "PrintDepir output does not parse");
  }
  if (!(reparsed == program)) {
    std::fprintf(stderr, "--- printed ---\n%s\n", printed.c_str());
    Require(false, "ParseDepir(PrintDepir(p)) != p");
  }
  const std::string again = PrintDepir(reparsed);
  if (again != printed) {
    std::fprintf(stderr, "--- first print ---\n%s\n--- second print ---\n%s\n", printed.c_str(),
                 again.c_str());
    Require(false, "PrintDepir is not a fixpoint");
  }
  return 0;
}
