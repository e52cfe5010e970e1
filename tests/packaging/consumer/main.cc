// count_tasks DEPS_JSON [PROGRAM.depir]: loads a deps.json with the installed libdepgraph and
// prints its size; with a depir program, also the functions the installed passes parse in it.
#include <iostream>
#include <string>

#include "depgraph/graph/load_deps.h"
#include "depgraph_passes/depir_parser.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: count_tasks DEPS_JSON [PROGRAM.depir]\n";
    return 2;
  }
  depgraph::DepGraph graph;
  std::string error;
  if (!depgraph::LoadDepsJson(argv[1], &graph, &error)) {
    std::cerr << "error: " << error << "\n";
    return 1;
  }
  std::cout << "tasks=" << graph.nodes.size() << " edges=" << graph.pairs.size()
            << " rows=" << graph.rows.size() << "\n";
  if (argc > 2) {
    depgraph::passes::Program program;
    if (!depgraph::passes::ParseDepirFile(argv[2], &program, &error)) {
      std::cerr << "error: " << error << "\n";
      return 1;
    }
    std::cout << "functions=" << program.functions.size() << "\n";
  }
  return 0;
}
