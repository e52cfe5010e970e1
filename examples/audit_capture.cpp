// audit_capture DEPS_JSON: loads a captured deps.json with the installed libdepgraph, audits it
// (what `depgraph audit` does) and prints how many races it found, by kind. Built against an
// installed depgraph by examples/CMakeLists.txt (find_package(depgraph)).
//
//   $ audit_capture data/real/dep_probe/default/deps.json
//   data/real/dep_probe/default/deps.json: 15 race(s) (RAW 5, WAW 1, WAR 9)
#include <iostream>
#include <string>

#include "depgraph/audit/audit.h"
#include "depgraph/graph/load_deps.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: audit_capture DEPS_JSON\n";
    return 2;
  }
  const std::string path = argv[1];
  depgraph::DepGraph graph;
  std::string error;
  if (!depgraph::LoadDepsJson(path, &graph, &error)) {
    std::cerr << "error: " << error << "\n";
    return 1;
  }
  depgraph::AuditResult result;
  if (!depgraph::RunAudit(graph, depgraph::AuditOptions{}, &result, &error)) {
    std::cerr << "error: " << path << ": " << error << "\n";  // a cyclic graph
    return 1;
  }
  const depgraph::RaceReport& races = result.races;
  std::cout << path << ": " << races.total << " race(s) (";
  for (int kind = 0; kind < 3; ++kind) {
    std::cout << (kind ? ", " : "") << depgraph::RaceKindName(static_cast<depgraph::RaceKind>(kind))
              << " " << races.by_kind[kind];
  }
  std::cout << ")\n";
  return 0;
}
