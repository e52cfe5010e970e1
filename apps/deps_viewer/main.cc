// deps_viewer: a drop-in for the reference Python tool of the same name.
#include "process_memory.h"
#include "viewer.h"

int main(int argc, char** argv) {
  depgraph::cli::UseHugePagesForTheHeap(argv);
  depgraph::cli::KeepFreedMemoryForReuse();
  return depgraph::cli::RunReportingOutOfMemory("deps_viewer",
                                                [&] { return depgraph::ViewerMain(argc, argv); });
}
