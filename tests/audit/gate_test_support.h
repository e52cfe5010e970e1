// Shared by the gate tests (tests/audit/gate_*_test.cc, audit_gate_test.cc): the audit of a
// capture as a gate report, the racy real capture the goldens are made of, a generated graph
// with many races over a few kernels, and the golden comparison.
//
// Goldens live in tests/data/gate/. Regenerate them after an intended change of a writer with
//   DEPGRAPH_UPDATE_GOLDENS=1 build/tests/depgraph_tests --gtest_filter='Gate*Golden*'
// (or scripts/make_gate_goldens.sh), then review the diff.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "audit/audit_graph_builder.h"
#include "depgraph/audit/audit.h"
#include "depgraph/audit/audit_gate.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/graph/task_label.h"
#include "test_util.h"

namespace depgraph::testing {

/// A graph, its audit and its labels (the graph must outlive the result's access model).
struct GateCapture {
  DepGraph graph;
  AuditResult result;
  std::vector<TaskLabel> labels;
};

/// Audits a deps.json document; `names_path` ("" = none) names its kernels.
inline std::unique_ptr<GateCapture> AuditForGate(const std::string& text,
                                                 const std::string& names_path = "") {
  auto c = std::make_unique<GateCapture>();
  c->graph = LoadText(text);
  std::string err;
  EXPECT_TRUE(RunAudit(c->graph, AuditOptions{}, &c->result, &err)) << err;
  NameMap names;
  if (!names_path.empty()) {
    EXPECT_EQ(LoadNameMap(names_path, &names, &err), NameMapStatus::kOk) << err;
  }
  c->labels = ResolveTaskLabels(c->graph, names);
  return c;
}

/// The racy real capture of the goldens, as the tests name it in reports.
inline constexpr const char* kProbeName = "data/real/dep_probe/default/deps.json";

/// dep_probe (15 races, 2 false serialization findings; docs/audit.md) with its name map.
inline std::unique_ptr<GateCapture> AuditProbe() {
  return AuditForGate(ReadFile(SourceDir() + "/" + kProbeName),
                      SourceDir() + "/data/real/dep_probe/default/name_map_TestDepProbe_default.json");
}

/// dep_probe's gate report.
inline GateReport ProbeGateReport(const GateOptions& options = {}) {
  auto c = AuditProbe();
  return AuditGateReport(c->graph, c->result, c->labels, kProbeName, options);
}

/// `tasks` tasks on one 64-float tensor and no edge at all, cycling through `kernels` kernels:
/// even tasks overwrite the tensor (OUTPUT_EXISTING), odd ones read it, so nearly every task
/// races with its predecessor.
inline std::string ManyRacesJson(int tasks, int kernels) {
  GraphBuilder b;
  b.Tensor(7, 0, 64);
  for (int i = 0; i < tasks; ++i) {
    b.Task(static_cast<uint64_t>(i), {Flat(i % 2 == 0 ? "OUTPUT_EXISTING" : "INPUT", 7, 64)},
           "auto", i % kernels);
  }
  return b.Json();
}

/// Compares `actual` with tests/data/gate/<name> byte for byte; with DEPGRAPH_UPDATE_GOLDENS=1
/// in the environment, rewrites the golden instead (and the test still passes).
inline void ExpectGolden(const std::string& name, const std::string& actual) {
  const std::string path = SourceDir() + "/tests/data/gate/" + name;
  const char* update = std::getenv("DEPGRAPH_UPDATE_GOLDENS");
  if (update != nullptr && std::string(update) == "1") {
    WriteFile(path, actual);
    return;
  }
  ASSERT_TRUE(Exists(path)) << path << " missing: run with DEPGRAPH_UPDATE_GOLDENS=1";
  EXPECT_EQ(ReadFile(path), actual) << "golden " << path
                                    << " differs (DEPGRAPH_UPDATE_GOLDENS=1 rewrites it)";
}

}  // namespace depgraph::testing
