// depgraph: audits captured task dependency graphs, compares two of them and runs depir
// programs on the runtime shim.
#include <iostream>
#include <string>
#include <vector>

#include "depgraph_cli.h"
#include "process_memory.h"

int main(int argc, char** argv) {
  depgraph::cli::UseHugePagesForTheHeap(argv);
  depgraph::cli::KeepFreedMemoryForReuse();
  return depgraph::cli::RunReportingOutOfMemory("depgraph", [&] {
    const std::vector<std::string> args(argv + 1, argv + argc);
    return depgraph::DepgraphMain(args, std::cout, std::cerr);
  });
}
