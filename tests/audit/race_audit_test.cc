// Tests for the audit: races (race_audit.h), false serialization (false_serialization.h),
// the summary (audit_summary.h) and the report writers (audit_report.h), on hand-built graphs
// for every finding kind and on every real capture in data/real.
#include "depgraph/audit/race_audit.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <tuple>

#include "audit/audit_graph_builder.h"
#include "depgraph/audit/audit.h"
#include "depgraph/audit/audit_report.h"
#include "depgraph/graph/graph_metrics.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/graph/task_label.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::ArgSpec;
using testing::Flat;
using testing::GraphBuilder;
using testing::Output;
using testing::Rows;
using testing::Strided;

struct Audited {
  DepGraph graph;
  AuditResult result;
};

std::unique_ptr<Audited> Audit(const std::string& json, const AuditOptions& options = {}) {
  auto a = std::make_unique<Audited>();
  a->graph = testing::LoadText(json);
  std::string err;
  EXPECT_TRUE(RunAudit(a->graph, options, &a->result, &err)) << err;
  return a;
}

std::unique_ptr<Audited> AuditFile(const std::string& relative) {
  return Audit(testing::ReadFile(testing::SourceDir() + "/" + relative));
}

using RaceKey = std::tuple<std::string, TaskId, TaskId>;  // kind, first id, second id

std::vector<RaceKey> Keys(const Audited& a) {
  std::vector<RaceKey> out;
  for (const Race& r : a.result.races.races) {
    out.emplace_back(RaceKindName(r.kind), a.graph.tasks[r.first.task].id,
                     a.graph.tasks[r.second.task].id);
  }
  return out;
}

// One 64-float tensor (id 7) at address 0, plus tensor 9 (owned by alloc node 99) that tasks
// may read to get an inferred edge of their own.
GraphBuilder Base() {
  GraphBuilder b;
  b.Tensor(7, 0, 64).Tensor(9, 4096, 64);
  return b;
}

// ---------------------------------------------------------------------------------- races

TEST(RaceAudit, ManualScopeWithoutDepsIsARace) {
  GraphBuilder b = Base();
  b.Task(1, {Flat("INOUT", 7, 64)}).Task(2, {Flat("INPUT", 7, 64)}, "manual");
  auto racy = Audit(b.Json());
  ASSERT_EQ(Keys(*racy), (std::vector<RaceKey>{{"RAW", 1, 2}}));
  const Race& race = racy->result.races.races[0];
  EXPECT_EQ(race.cause, RaceCause::kNoInferredEdges);
  EXPECT_EQ(race.bytes, 256);
  EXPECT_FALSE(race.approximate);
  const std::string advice = RaceAdvice(racy->graph, race);
  EXPECT_NE(advice.find("deps=[1] on 2"), std::string::npos) << advice;
  EXPECT_NE(advice.find("manual_scope"), std::string::npos) << advice;
  EXPECT_EQ(AuditExitCode(racy->result), 3);

  b.Edge(1, 2, "explicit");  // the missing deps=
  auto fixed = Audit(b.Json());
  EXPECT_TRUE(Keys(*fixed).empty());
  EXPECT_EQ(AuditExitCode(fixed->result), 0);
}

TEST(RaceAudit, WarGapIsARaceFixedByDepsOnTheWriter) {
  // Writer 1, reader 2 (tracked RAW), then writer 3 overwrites: the WAW on 1 is tracked,
  // the WAR on reader 2 is not.
  GraphBuilder b = Base();
  b.Task(1, {Flat("INOUT", 7, 64)})
      .Task(2, {Flat("INPUT", 7, 64)})
      .Task(3, {Flat("INOUT", 7, 64)})
      .Edge(1, 2, "tensormap", 0, 7, "covered")
      .Edge(1, 3, "tensormap", 0, 7, "covered");
  auto racy = Audit(b.Json());
  ASSERT_EQ(Keys(*racy), (std::vector<RaceKey>{{"WAR", 2, 3}}));
  const Race& race = racy->result.races.races[0];
  EXPECT_EQ(race.cause, RaceCause::kWarUntracked);
  const std::string advice = RaceAdvice(racy->graph, race);
  EXPECT_NE(advice.find("deps=[2] on the writer 3"), std::string::npos) << advice;
  EXPECT_NE(advice.find("INOUT"), std::string::npos) << advice;

  b.Edge(2, 3, "explicit");
  EXPECT_TRUE(Keys(*Audit(b.Json())).empty());
}

TEST(RaceAudit, OutputExistingDoesNotWaitForEarlierWriters) {
  GraphBuilder b = Base();
  b.Task(1, {Flat("INOUT", 7, 32)}).Task(2, {Flat("OUTPUT_EXISTING", 7, 64)});
  auto racy = Audit(b.Json());
  ASSERT_EQ(Keys(*racy), (std::vector<RaceKey>{{"WAW", 1, 2}}));
  EXPECT_EQ(racy->result.races.races[0].cause, RaceCause::kNoLookupWrite);
  EXPECT_EQ(racy->result.races.races[0].bytes, 128);
}

TEST(RaceAudit, NoDepReadIsUntracked) {
  GraphBuilder b = Base();
  b.Task(1, {Flat("INOUT", 7, 64)}).Task(2, {Flat("UNKNOWN", 7, 16, 8)});
  auto racy = Audit(b.Json());
  ASSERT_EQ(Keys(*racy), (std::vector<RaceKey>{{"RAW", 1, 2}}));
  EXPECT_EQ(racy->result.races.races[0].cause, RaceCause::kNoDepRead);
  EXPECT_NE(RaceAdvice(racy->graph, racy->result.races.races[0]).find("no_dep_args"),
            std::string::npos);
}

TEST(RaceAudit, ElementUnitsAndUnpublishedWrites) {
  // Task 2 reads bytes 32..48 of X as INT8 (the runtime's raw element offsets miss the
  // overlap); task 4 reads what manual-scope task 3 wrote. Both have inferred edges of their
  // own (creator rows from alloc node 99 on tensor 9).
  GraphBuilder b = Base();
  b.Task(1, {Flat("INOUT", 7, 16)})
      .Task(2, {Flat("INPUT", 9, 4), Flat("INPUT", 7, 16, 32, "INT8")})
      .Task(3, {Flat("INOUT", 7, 8, 32)}, "manual")
      .Task(4, {Flat("INPUT", 9, 4), Flat("INPUT", 7, 8, 32)})
      .Edge(99, 2, "creator", 0, 9)
      .Edge(99, 4, "creator", 0, 9);
  auto a = Audit(b.Json());
  ASSERT_EQ(Keys(*a), (std::vector<RaceKey>{{"RAW", 1, 2}, {"RAW", 3, 4}}));
  EXPECT_EQ(a->result.races.races[0].cause, RaceCause::kElementUnits);
  EXPECT_EQ(a->result.races.races[0].bytes, 16);
  EXPECT_EQ(a->result.races.races[1].cause, RaceCause::kUnpublished);
}

TEST(RaceAudit, PathsOrderTransitively) {
  GraphBuilder b = Base();
  b.Task(1, {Flat("INOUT", 7, 64)})
      .Task(2, {Flat("INPUT", 9, 64)})
      .Task(3, {Flat("INPUT", 7, 64)})
      .Task(4, {Flat("INOUT", 7, 64)})
      .Edge(1, 2, "explicit")
      .Edge(2, 3, "explicit")
      .Edge(3, 4, "explicit");
  EXPECT_TRUE(Keys(*Audit(b.Json())).empty());
}

TEST(RaceAudit, DisjointStridedViewsDoNotRace) {
  GraphBuilder b = Base();
  b.Task(1, {Strided("INOUT", 7, 32, 2, 0)}).Task(2, {Strided("INOUT", 7, 32, 2, 1)});
  EXPECT_TRUE(Keys(*Audit(b.Json())).empty());
  // Every third element meets the even ones (0, 6, 12, ...).
  GraphBuilder c = Base();
  c.Task(1, {Strided("INOUT", 7, 32, 2, 0)}).Task(2, {Strided("INOUT", 7, 21, 3, 0)});
  auto racy = Audit(c.Json());
  ASSERT_EQ(Keys(*racy), (std::vector<RaceKey>{{"RAW", 1, 2}}));
  EXPECT_EQ(racy->result.races.races[0].bytes, 11 * 4);  // elements 0, 6, ..., 60
}

TEST(RaceAudit, ReadersSupersededByLaterReadersStillCount) {
  // Reader 1 -> reader 2 -> writer 3: reader 1 is ordered through reader 2.
  GraphBuilder b = Base();
  b.Task(1, {Flat("INPUT", 7, 64)})
      .Task(2, {Flat("INPUT", 7, 64)})
      .Task(3, {Flat("INOUT", 7, 64)})
      .Task(4, {Flat("INOUT", 7, 64)})
      .Edge(1, 2, "explicit")
      .Edge(2, 3, "explicit")
      .Edge(3, 4, "explicit");
  EXPECT_TRUE(Keys(*Audit(b.Json())).empty());
  // Two unordered readers; the writer waits for the second only.
  GraphBuilder c = Base();
  c.Task(1, {Flat("INPUT", 7, 64)})
      .Task(2, {Flat("INPUT", 7, 32)})
      .Task(3, {Flat("OUTPUT_EXISTING", 7, 64)})
      .Edge(2, 3, "explicit");
  auto racy = Audit(c.Json());
  EXPECT_EQ(Keys(*racy), (std::vector<RaceKey>{{"WAR", 1, 3}}));
}

TEST(RaceAudit, FreshOutputAllocationResetsItsBytes) {
  // Task 1 reads a buffer at address 4096 (tensor 9); the runtime later hands the same
  // memory to task 2's OUTPUT (tensor 11, read by task 3): task 1 has retired by then.
  GraphBuilder b = Base();
  b.Tensor(11, 4096, 64)
      .Task(1, {Flat("INPUT", 9, 64)})
      .Task(2, {Output()})
      .Task(3, {Flat("INPUT", 11, 64)})
      .Edge(2, 3, "creator", 0, 11);
  auto a = Audit(b.Json());
  EXPECT_TRUE(Keys(*a).empty());
  EXPECT_EQ(a->result.races.fresh_outputs, 1u);
  // Without the creator edge task 3 races with the output's writer.
  GraphBuilder c = Base();
  c.Tensor(11, 4096, 64)
      .Task(2, {Output()})
      .Task(3, {Flat("INPUT", 11, 64)})
      .Task(4, {Flat("INPUT", 11, 64)})
      .Edge(2, 3, "creator", 0, 11);
  EXPECT_EQ(Keys(*Audit(c.Json())), (std::vector<RaceKey>{{"RAW", 2, 4}}));
}

TEST(RaceAudit, AllocationNodeResetsReusedMemory) {
  // Alloc (1,0) owns tensor 11 at address 0, task (1,1) updates it; alloc (1,2) is handed the
  // same memory as tensor 12 and task (1,3) updates that. The allocator only reuses memory
  // whose users retired, so (1,1) and (1,3) do not race although no edge orders them.
  const TaskId r1 = TaskId{1} << 32;
  GraphBuilder b;
  b.Tensor(11, 0, 64)
      .Tensor(12, 0, 64)
      .Task(r1 + 1, {Flat("INOUT", 11, 64)})
      .Task(r1 + 3, {Flat("INOUT", 12, 64)})
      .Edge(r1 + 0, r1 + 1, "creator", 0, 11)
      .Edge(r1 + 2, r1 + 3, "creator", 0, 12);
  auto a = Audit(b.Json());
  EXPECT_TRUE(Keys(*a).empty());
  EXPECT_EQ(a->result.races.allocation_resets, 2u);
  // Task (1,1) reading after (1,3)'s write is still a race: the reset comes before (1,3).
  GraphBuilder c;
  c.Tensor(11, 0, 64)
      .Tensor(12, 0, 64)
      .Task(r1 + 1, {Flat("INOUT", 11, 64)})
      .Task(r1 + 3, {Flat("INOUT", 12, 64)})
      .Task(r1 + 4, {Flat("INPUT", 12, 64)})
      .Edge(r1 + 0, r1 + 1, "creator", 0, 11)
      .Edge(r1 + 2, r1 + 3, "creator", 0, 12)
      .Edge(r1 + 2, r1 + 4, "creator", 0, 12);
  EXPECT_EQ(Keys(*Audit(c.Json())), (std::vector<RaceKey>{{"RAW", r1 + 3, r1 + 4}}));
}

// The reset of every allocation goes right after the last task (in submit order, among
// tasks of that id) with the largest smaller id in the allocation's ring, or before the first
// task. Checked against that rule on random graphs: three rings, task ids submitted out of
// order and repeated, allocation rows in any order (the search for each starts where the
// previous one ended only when ids ascend).
TEST(RaceGraphFacts, AllocationResetsFollowTheLastTaskBeforeThemInTheirRing) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    GraphBuilder b;
    std::vector<TaskId> task_ids;  // in submit order
    const int tasks = 1 + static_cast<int>(rng() % 40);
    for (int t = 0; t < tasks; ++t) {
      const TaskId id = (TaskId{rng() % 3} << 32) | (2 * (rng() % 30) + 1);  // odd local ids
      task_ids.push_back(id);
      b.Task(id, {Flat("INPUT", 7, 1)});
    }
    b.Tensor(7, 0, 1);
    struct Alloc {
      TaskId id;
      uint64_t tensor;
      int64_t addr, numel;
    };
    std::vector<Alloc> allocs;
    const int count = 1 + static_cast<int>(rng() % 30);
    for (int k = 0; k < count; ++k) {
      const TaskId id = (TaskId{rng() % 3} << 32) | (2 * (rng() % 32));  // even: not a task
      const uint64_t tensor = 100 + rng() % 20;  // tensors named by several rows
      allocs.push_back({id, tensor, 64 * static_cast<int64_t>(tensor), 4});
    }
    std::shuffle(allocs.begin(), allocs.end(), rng);
    std::set<uint64_t> tensors;
    for (const Alloc& alloc : allocs) {
      if (tensors.insert(alloc.tensor).second) b.Tensor(alloc.tensor, alloc.addr, alloc.numel);
      b.Edge(alloc.id, task_ids[rng() % task_ids.size()], "creator", 0, alloc.tensor);
    }
    const DepGraph graph = testing::LoadText(b.Json());
    std::vector<AllocationReset> expected;
    for (const Alloc& alloc : allocs) {
      const TaskId ring_start = alloc.id & ~TaskId{0xFFFFFFFFu};
      int best = -1;  // the submit index of the task the reset follows
      for (int t = 0; t < tasks; ++t) {
        if (task_ids[t] < ring_start || task_ids[t] >= alloc.id) continue;
        if (best < 0 || task_ids[t] >= task_ids[best]) best = t;
      }
      expected.push_back({static_cast<uint32_t>(best + 1),
                          {alloc.addr, alloc.addr + alloc.numel * 4}});
    }
    auto key = [](const AllocationReset& r) {
      return std::make_tuple(r.at, r.bytes.begin, r.bytes.end);
    };
    std::sort(expected.begin(), expected.end(),
              [&](const auto& x, const auto& y) { return key(x) < key(y); });
    expected.erase(std::unique(expected.begin(), expected.end(),
                               [&](const auto& x, const auto& y) { return key(x) == key(y); }),
                   expected.end());
    const RaceGraphFacts facts = PrepareRaceGraphFacts(graph);
    ASSERT_EQ(facts.resets.size(), expected.size()) << "trial " << trial;
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(key(facts.resets[i]), key(expected[i])) << "trial " << trial << " reset " << i;
    }
  }
}

TEST(RaceAudit, RowWritersChainedBeforeAReader) {
  // Eight writers of rows 0..7 of a [8, 8] tensor, chained; one reader of all rows after the
  // last. The coarse writer map answers with one query; unchaining writer 15 exposes it.
  auto build = [](bool break_chain) {
    GraphBuilder b = Base();
    for (int i = 0; i < 8; ++i) b.Task(10 + i, {Rows("INOUT", 7, i, 1, 8)});
    b.Task(30, {Flat("INPUT", 7, 64)});
    for (int i = 0; i + 1 < 8; ++i) {
      if (break_chain && (i == 4 || i == 5)) continue;
      b.Edge(10 + i, 11 + i, "explicit");
    }
    if (break_chain) b.Edge(14, 16, "explicit");
    b.Edge(17, 30, "explicit");
    return b.Json();
  };
  EXPECT_TRUE(Keys(*Audit(build(false))).empty());
  auto racy = Audit(build(true));
  EXPECT_EQ(Keys(*racy), (std::vector<RaceKey>{{"RAW", 15, 30}}));
  EXPECT_EQ(racy->result.races.races[0].bytes, 32);
}

TEST(RaceAudit, ApproximateOverlapIsSaidSo) {
  GraphBuilder b = Base();
  b.Task(1, {Strided("INOUT", 7, 8, 2, 0)}).Task(2, {Strided("INOUT", 7, 8, 2, 1)});
  AuditOptions tight;
  tight.access.max_pieces = 4;  // both views fall back to their bounding ranges
  auto approximate = Audit(b.Json(), tight);
  ASSERT_EQ(Keys(*approximate), (std::vector<RaceKey>{{"RAW", 1, 2}}));
  EXPECT_TRUE(approximate->result.races.races[0].approximate);
  EXPECT_EQ(approximate->result.races.approximate, 1u);
  EXPECT_NE(RaceAdvice(approximate->graph, approximate->result.races.races[0])
                .find("Approximate"),
            std::string::npos);
  EXPECT_TRUE(Keys(*Audit(b.Json())).empty());  // exact: interleaved, disjoint
}

TEST(RaceAudit, CountsEdgesAgainstSubmitOrder) {
  GraphBuilder b = Base();
  b.Task(1, {Flat("INOUT", 7, 64)}).Task(2, {Flat("INOUT", 7, 64)}).Edge(2, 1, "explicit");
  auto a = Audit(b.Json());
  EXPECT_EQ(a->result.races.edges_against_submit_order, 1u);
  EXPECT_TRUE(Keys(*a).empty());  // ordered, if backwards
}

// Random graphs: every reported race is real, and the first racing task is always found.
TEST(RaceAudit, AgreesWithBruteForceOnRandomGraphs) {
  std::mt19937_64 rng(11);
  const char* types[] = {"INPUT", "INOUT", "OUTPUT_EXISTING", "UNKNOWN"};
  int racy_graphs = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 12);
    GraphBuilder b;
    b.Tensor(7, 0, 64).Tensor(8, 128, 64);  // tensors 7 and 8 overlap in bytes 128..256
    struct Acc {
      int64_t begin, end;
      bool reads, writes;
    };
    std::vector<std::vector<Acc>> acc(n);
    for (int t = 0; t < n; ++t) {
      std::vector<ArgSpec> args;
      const int nargs = 1 + static_cast<int>(rng() % 2);
      for (int k = 0; k < nargs; ++k) {
        const std::string type = types[rng() % 4];
        const uint64_t tensor = rng() % 2 ? 7 : 8;
        const int64_t off = static_cast<int64_t>(rng() % 48), count = 1 + rng() % 16;
        args.push_back(Flat(type, tensor, count, off));
        const int64_t base = tensor == 7 ? 0 : 128;
        acc[t].push_back({base + off * 4, base + (off + count) * 4, type != "OUTPUT_EXISTING",
                          type == "INOUT" || type == "OUTPUT_EXISTING"});
      }
      b.Task(100 + t, args);
    }
    std::vector<std::vector<uint8_t>> reach(n, std::vector<uint8_t>(n, 0));
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        if (rng() % 4 == 0) {
          b.Edge(100 + i, 100 + j, "explicit");
          reach[i][j] = 1;
        }
      }
    }
    for (int k = 0; k < n; ++k) {  // closure (edges go forward in submit order)
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) reach[i][j] |= reach[i][k] & reach[k][j];
      }
    }
    std::set<std::pair<int, int>> truth;
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < j; ++i) {
        if (reach[i][j]) continue;
        for (const Acc& x : acc[i]) {
          for (const Acc& y : acc[j]) {
            const bool overlap = std::max(x.begin, y.begin) < std::min(x.end, y.end);
            if (overlap && (x.writes || y.writes) && (x.writes || x.reads) &&
                (y.writes || y.reads)) {
              truth.insert({i, j});
            }
          }
        }
      }
    }
    auto a = Audit(b.Json());
    std::set<std::pair<int, int>> found;
    for (const Race& r : a->result.races.races) found.insert({r.first.task, r.second.task});
    for (const auto& pair : found) {
      EXPECT_TRUE(truth.count(pair)) << "trial " << trial << ": not a race " << pair.first
                                     << " " << pair.second;
    }
    EXPECT_EQ(found.empty(), truth.empty()) << "trial " << trial;
    if (!truth.empty()) {
      ++racy_graphs;
      int first_truth = n, first_found = n;
      for (const auto& p : truth) first_truth = std::min(first_truth, p.second);
      for (const auto& p : found) first_found = std::min(first_found, p.second);
      EXPECT_EQ(first_found, first_truth) << "trial " << trial;
    }
  }
  EXPECT_GT(racy_graphs, 500);
}

// The races of one sweep and of the sweep in two address parts (side by side) on one graph;
// false when the graph has a cycle.
bool SweepOnceAndInParts(const DepGraph& graph, RaceReport* one, RaceReport* parts) {
  ReachabilityIndex reach;
  std::vector<uint32_t> cycle;
  if (!reach.Build(graph, &cycle)) return false;
  const AccessModel model = BuildAccessModel(graph, {});
  RaceOptions single, split;
  single.split = false;
  split.threads = 2;
  *one = FindRaces(graph, model, &reach, single);
  *parts = FindRaces(graph, model, &reach, split);
  return true;
}

// The sweep in two address parts finds what one sweep finds: every race with its kind, sides,
// bytes and cause, and every counter (the reachability queries asked may differ). Random
// graphs over four adjacent tensors, which form one written interval, so the parts are cut
// inside it; with edges against submit order (one graph in four) the parts follow written
// intervals instead.
TEST(RaceAudit, TwoAddressPartsFindWhatOneSweepFinds) {
  std::mt19937_64 rng(17);
  const char* types[] = {"INPUT", "INOUT", "OUTPUT_EXISTING", "NO_DEP"};
  int racy_graphs = 0;
  for (int trial = 0; trial < 600; ++trial) {
    GraphBuilder b;
    for (uint64_t k = 0; k < 4; ++k) b.Tensor(20 + k, static_cast<int64_t>(k) * 64, 16);
    const int n = 4 + static_cast<int>(rng() % 24);
    for (int t = 0; t < n; ++t) {
      std::vector<ArgSpec> args;
      const int nargs = 1 + static_cast<int>(rng() % 3);
      for (int k = 0; k < nargs; ++k) {
        const int64_t off = static_cast<int64_t>(rng() % 12);
        args.push_back(Flat(types[rng() % 4], 20 + rng() % 4, 1 + rng() % (16 - off), off));
      }
      b.Task(100 + t, args);
    }
    const bool backward = trial % 4 == 3;
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        if (rng() % 5 == 0) b.Edge(100 + i, 100 + j, "explicit");
      }
    }
    if (backward) b.Edge(100 + n - 1, 100 + static_cast<int>(rng() % (n - 1)), "explicit");
    RaceReport x, y;
    if (!SweepOnceAndInParts(testing::LoadText(b.Json()), &x, &y)) continue;  // a cycle
    auto fields = [](const Race& r) {
      return std::make_tuple(r.kind, r.cause, r.first.task, r.first.arg_idx, r.second.task,
                             r.second.arg_idx, r.begin, r.end, r.bytes, r.approximate);
    };
    ASSERT_EQ(x.races.size(), y.races.size()) << "trial " << trial;
    for (size_t i = 0; i < x.races.size(); ++i) {
      EXPECT_EQ(fields(x.races[i]), fields(y.races[i])) << "trial " << trial << " race " << i;
    }
    EXPECT_EQ(std::make_tuple(x.total, x.reads_checked, x.reads_skipped, x.writes_checked,
                              x.fresh_outputs, x.allocation_resets),
              std::make_tuple(y.total, y.reads_checked, y.reads_skipped, y.writes_checked,
                              y.fresh_outputs, y.allocation_resets))
        << "trial " << trial;
    racy_graphs += !x.races.empty();
  }
  EXPECT_GT(racy_graphs, 300);
}

// With an edge against submit order a cut inside a written interval could change the report:
// here one sweep joins w's and w2's coarse segments across byte 64 and, since t reaches w2,
// skips w's bytes that t reads; parts cut at 64 (the median first byte) would check them and
// report RAW(w, t). So such graphs are split by written intervals only: the same report.
TEST(RaceAudit, AgainstSubmitOrderThePartsFollowWrittenIntervals) {
  GraphBuilder b;
  b.Tensor(20, 0, 16).Tensor(21, 64, 16);  // one written interval, [0, 128)
  b.Task(100, {Flat("OUTPUT_EXISTING", 20, 16)})  // L
      .Task(101, {Flat("OUTPUT_EXISTING", 21, 16)})  // w
      .Task(102, {Flat("OUTPUT_EXISTING", 20, 16)})  // w2
      .Task(103, {Flat("INPUT", 21, 16)})            // t
      .Edge(100, 101, "explicit")
      .Edge(101, 102, "explicit")
      .Edge(103, 102, "explicit");  // against submit order
  RaceReport x, y;
  ASSERT_TRUE(SweepOnceAndInParts(testing::LoadText(b.Json()), &x, &y));
  EXPECT_EQ(x.edges_against_submit_order, 1u);
  EXPECT_EQ(x.total, y.total);
  EXPECT_EQ(x.races.size(), y.races.size());
}

// ------------------------------------------------------------------ false serialization

TEST(FalseSerialization, InterleavedViewsOnAnOtherEdge) {
  GraphBuilder b = Base();
  b.Task(1, {Strided("INOUT", 7, 32, 2, 0)})
      .Task(2, {Strided("INPUT", 7, 32, 2, 1)})
      .Edge(1, 2, "tensormap", 0, 7, "other", Strided("", 7, 32, 2, 0));
  auto a = Audit(b.Json());
  const SerializationReport& fs = a->result.serialization;
  ASSERT_EQ(fs.findings.size(), 1u);
  const FalseSerialization& f = fs.findings[0];
  EXPECT_EQ(f.cause, SerializationCause::kStrided);
  EXPECT_EQ(f.depth_gain, 1);
  EXPECT_EQ(fs.depth, 1u);
  EXPECT_EQ(fs.depth_without_false, 0u);
  EXPECT_FALSE(f.accumulator);
  EXPECT_EQ(a->graph.overlap_names[f.overlap], "other");
  const std::string advice = SerializationAdvice(a->graph, f);
  EXPECT_NE(advice.find("no_dep_args=[T0]"), std::string::npos) << advice;
  EXPECT_EQ(advice.find("slice"), std::string::npos) << advice;  // no help for interleaving
  EXPECT_TRUE(Keys(*a).empty());
}

TEST(FalseSerialization, OverlappingOrLifetimeEdgesAreNotReported) {
  GraphBuilder b = Base();
  b.Task(1, {Strided("INOUT", 7, 32, 2, 0)})
      .Task(2, {Flat("INPUT", 7, 64)})  // reads the even elements too: a real RAW
      .Edge(1, 2, "tensormap", 0, 7, "other", Strided("", 7, 32, 2, 0));
  EXPECT_TRUE(Audit(b.Json())->result.serialization.findings.empty());
  GraphBuilder c = Base();
  c.Task(1, {Strided("INOUT", 7, 32, 2, 0)})
      .Task(2, {Strided("INPUT", 7, 32, 2, 1)})
      .Edge(1, 2, "creator", 0, 7)  // a lifetime row keeps the pair anyway
      .Edge(1, 2, "tensormap", 0, 7, "other", Strided("", 7, 32, 2, 0));
  auto a = Audit(c.Json());
  EXPECT_TRUE(a->result.serialization.findings.empty());
  EXPECT_EQ(a->result.serialization.candidates, 0u);
}

TEST(FalseSerialization, AccumulatorChainOnDisjointRows) {
  // The seeds' loop: iteration i writes rows [16 i, 16 i + 16) of `out`, and each write waits
  // for the previous one because the runtime could not prove the rows disjoint.
  GraphBuilder b;
  b.Tensor(7, 0, 64 * 16);
  for (int i = 0; i < 4; ++i) b.Task(1 + i, {Rows("INOUT", 7, 16 * i, 16, 16)});
  for (int i = 0; i + 1 < 4; ++i) {
    b.Edge(1 + i, 2 + i, "tensormap", 0, 7, "other", Rows("", 7, 16 * i, 16, 16));
  }
  auto a = Audit(b.Json());
  const SerializationReport& fs = a->result.serialization;
  ASSERT_EQ(fs.findings.size(), 1u);
  const FalseSerialization& f = fs.findings[0];
  EXPECT_EQ(f.pairs.size(), 3u);
  ASSERT_EQ(f.tasks.size(), 4u);
  EXPECT_EQ(a->graph.nodes[f.tasks.front()], 1u);
  EXPECT_EQ(a->graph.nodes[f.tasks.back()], 4u);
  EXPECT_TRUE(f.accumulator);
  EXPECT_EQ(f.cause, SerializationCause::kUnproven);
  EXPECT_EQ(f.depth_gain, 3);
  const std::string advice = SerializationAdvice(a->graph, f);
  for (const char* fix : {"no_dep_args", "manual_dep=True", "manual_scope", "slice"}) {
    EXPECT_NE(advice.find(fix), std::string::npos) << fix << ": " << advice;
  }
  // Rows that do overlap are a true WAW chain.
  GraphBuilder c;
  c.Tensor(7, 0, 64 * 16);
  for (int i = 0; i < 4; ++i) c.Task(1 + i, {Rows("INOUT", 7, 8 * i, 16, 16)});
  for (int i = 0; i + 1 < 4; ++i) {
    c.Edge(1 + i, 2 + i, "tensormap", 0, 7, "other", Rows("", 7, 8 * i, 16, 16));
  }
  EXPECT_TRUE(Audit(c.Json())->result.serialization.findings.empty());
}

TEST(FalseSerialization, VersionAliasAndDepthGainOffTheLongestPath) {
  // Tensor 8 is a version-1 alias of tensor 7's buffer: task 2 reads other columns.
  GraphBuilder b = Base();
  b.Tensor(8, 0, 64)
      .Task(1, {Rows("INOUT", 7, 0, 4, 8)})
      .Task(2, {Rows("INPUT", 8, 4, 4, 8)})
      .Task(3, {Flat("INPUT", 9, 4)})
      .Task(4, {Flat("INPUT", 9, 4)})
      .Edge(1, 2, "tensormap", 0, 7, "other", Rows("", 7, 0, 4, 8))
      .Edge(1, 3, "explicit")
      .Edge(3, 4, "explicit")
      .Edge(4, 2, "explicit");
  auto a = Audit(b.Json());
  ASSERT_EQ(a->result.serialization.findings.size(), 1u);
  EXPECT_EQ(a->result.serialization.findings[0].cause, SerializationCause::kVersion);
  EXPECT_EQ(a->result.serialization.findings[0].depth_gain, 0);  // 1 -> 3 -> 4 -> 2 stays
}

TEST(FalseSerialization, ApproximateBytesLeaveItUndecided) {
  GraphBuilder b = Base();
  b.Task(1, {Strided("INOUT", 7, 8, 2, 0)})
      .Task(2, {Strided("INPUT", 7, 8, 2, 1)})
      .Edge(1, 2, "tensormap", 0, 7, "other", Strided("", 7, 8, 2, 0));
  AuditOptions tight;
  tight.access.max_pieces = 4;
  auto a = Audit(b.Json(), tight);
  EXPECT_TRUE(a->result.serialization.findings.empty());
  EXPECT_EQ(a->result.serialization.undecided, 1u);
}

// ----------------------------------------------------------------------- real captures

struct RealCounts {
  uint64_t races, raw, waw, war, findings, candidates, depth, width, redundant, retained;
};

// What the audit finds on every shipped capture (see docs/audit.md for the reasons).
const std::map<std::string, RealCounts>& Expected() {
  static const std::map<std::string, RealCounts> expected = {
      {"benchmark_bgemm/Bgemm64", {0, 0, 0, 0, 0, 24, 4, 32, 0, 0}},
      {"benchmark_bgemm/Case1", {0, 0, 0, 0, 0, 32, 2, 64, 0, 0}},
      {"benchmark_bgemm/Case2", {0, 0, 0, 0, 0, 128, 2, 256, 0, 0}},
      {"benchmark_bgemm/Case3", {0, 0, 0, 0, 0, 32, 2, 64, 0, 0}},
      {"benchmark_bgemm/Case4", {0, 0, 0, 0, 0, 48, 4, 64, 0, 0}},
      {"dep_gen_chain/n_64_no_chain", {0, 0, 0, 0, 0, 64, 65, 1, 64, 0}},
      {"dep_gen_chain/n_65_single_overflow", {0, 0, 0, 0, 0, 65, 66, 1, 65, 0}},
      {"dep_gen_vector_example/default", {0, 0, 0, 0, 0, 0, 3, 2, 1, 1}},
      {"dep_probe/default", {15, 5, 1, 9, 2, 20, 3, 14, 3, 2}},
      {"hbg_dep_gen_vector_example/default", {0, 0, 0, 0, 0, 0, 3, 2, 1, 1}},
      {"hbg_vector_example/default", {0, 0, 0, 0, 0, 0, 2, 2, 0, 0}},
      {"mixed_example/case2", {0, 0, 0, 0, 0, 0, 0, 5, 0, 0}},
      {"paged_attention/CaseSmall1", {0, 0, 0, 0, 0, 2, 5, 4, 5, 5}},
      {"paged_attention/CaseVarSeq2", {0, 0, 0, 0, 0, 3, 5, 7, 8, 8}},
      {"paged_attention_manual_scope/CaseSmall1", {0, 0, 0, 0, 0, 0, 5, 4, 0, 0}},
      {"spmd_basic/Case1", {0, 0, 0, 0, 0, 0, 0, 1, 0, 0}},
      {"vector_example/default", {0, 0, 0, 0, 0, 0, 3, 2, 1, 1}},
  };
  return expected;
}

TEST(RealCaptures, AuditCountsOnEveryCase) {
  namespace fs = std::filesystem;
  size_t seen = 0;
  for (const auto& example : fs::directory_iterator(testing::SourceDir() + "/data/real")) {
    for (const auto& c : fs::directory_iterator(example.path())) {
      const std::string name =
          example.path().filename().string() + "/" + c.path().filename().string();
      SCOPED_TRACE(name);
      auto it = Expected().find(name);
      ASSERT_NE(it, Expected().end()) << "new capture: add its expected counts";
      ++seen;
      auto a = AuditFile("data/real/" + name + "/deps.json");
      const AuditResult& r = a->result;
      const RealCounts& e = it->second;
      EXPECT_EQ(r.races.total, e.races);
      EXPECT_EQ(r.races.by_kind[static_cast<int>(RaceKind::kRaw)], e.raw);
      EXPECT_EQ(r.races.by_kind[static_cast<int>(RaceKind::kWaw)], e.waw);
      EXPECT_EQ(r.races.by_kind[static_cast<int>(RaceKind::kWar)], e.war);
      EXPECT_EQ(r.serialization.findings.size(), e.findings);
      EXPECT_EQ(r.serialization.candidates, e.candidates);
      EXPECT_EQ(r.serialization.undecided, 0u);
      EXPECT_EQ(r.summary.depth, e.depth);
      EXPECT_EQ(r.summary.width, e.width);
      EXPECT_EQ(r.summary.redundant, e.redundant);
      EXPECT_EQ(r.summary.creator_retained, e.retained);
      EXPECT_TRUE(r.model.unknown.empty());
      EXPECT_EQ(r.races.edges_against_submit_order, 0u);
      // The summary agrees with the viewer's --stats.
      const GraphMetrics metrics = ComputeGraphMetrics(a->graph);
      EXPECT_EQ(r.summary.depth, metrics.depth);
      EXPECT_EQ(r.summary.width, metrics.width);
      uint64_t level_total = 0;
      for (uint64_t count : r.summary.tasks_per_level) level_total += count;
      EXPECT_EQ(level_total, a->graph.nodes.size());
    }
  }
  EXPECT_EQ(seen, Expected().size());
}

TEST(RealCaptures, DepProbeCornerCases) {
  auto a = AuditFile("data/real/dep_probe/default/deps.json");
  const TaskId r1 = TaskId{1} << 32, r2 = TaskId{2} << 32, r3 = TaskId{3} << 32;
  // Every race the probe was written to provoke (runtime.md §8b), in submit order.
  EXPECT_EQ(Keys(*a), (std::vector<RaceKey>{
                          {"WAR", 2, 3},         // INPUT X then INOUT X: WAR untracked
                          {"RAW", 3, 10},        // NO_DEP read of X
                          {"WAW", 8, 15},        // OUTPUT_EXISTING Z: no lookup
                          {"WAR", 9, 15},
                          {"WAR", 4, r2 + 0},    // readers of X before (2,0) rewrites rows 0..31
                          {"WAR", 10, r2 + 0},
                          {"WAR", 14, r2 + 0},
                          {"WAR", 18, r2 + 0},
                          {"RAW", 3, r3 + 1},    // the manual-scope task: only deps=[(1,0)]
                          {"WAR", 10, r3 + 1},
                          {"WAR", 14, r3 + 1},
                          {"WAR", 18, r3 + 1},
                          {"RAW", r1 + 1, r3 + 1},
                          {"RAW", r2 + 0, r3 + 1},
                          {"RAW", r3 + 1, r1 + 2},  // its write was never published
                      }));
  std::map<RaceCause, int> causes;
  for (const Race& r : a->result.races.races) ++causes[r.cause];
  EXPECT_EQ(causes[RaceCause::kWarUntracked], 9);
  EXPECT_EQ(causes[RaceCause::kNoDepRead], 1);
  EXPECT_EQ(causes[RaceCause::kNoLookupWrite], 1);
  EXPECT_EQ(causes[RaceCause::kNoInferredEdges], 3);
  EXPECT_EQ(causes[RaceCause::kUnpublished], 1);
  // False serialization: Z odd after Z even (interleaved) and Y columns 32..63 through a
  // version-1 alias after a write of columns 0..31.
  const SerializationReport& fs = a->result.serialization;
  ASSERT_EQ(fs.findings.size(), 2u);
  EXPECT_EQ(a->graph.nodes[fs.findings[0].tasks[0]], 5u);
  EXPECT_EQ(fs.findings[0].cause, SerializationCause::kVersion);
  EXPECT_EQ(a->graph.nodes[fs.findings[1].tasks[0]], 8u);
  EXPECT_EQ(fs.findings[1].cause, SerializationCause::kStrided);
  EXPECT_EQ(fs.findings[0].depth_gain, 0);
  EXPECT_EQ(fs.findings[1].depth_gain, 0);
  const AuditSummary& s = a->result.summary;
  EXPECT_EQ(s.tasks, 29u);
  EXPECT_EQ(s.submit, 28u);
  EXPECT_EQ(s.dummy, 1u);
  EXPECT_EQ(s.alloc, 1u);
  EXPECT_EQ(s.rows_by_source[static_cast<int>(EdgeSource::kCreator)], 5u);
  EXPECT_EQ(s.rows_by_source[static_cast<int>(EdgeSource::kTensormap)], 21u);
  EXPECT_EQ(s.rows_by_source[static_cast<int>(EdgeSource::kExplicit)], 6u);
  EXPECT_EQ(s.pairs_by_source[static_cast<int>(EdgeSource::kTensormap)], 21u);
  EXPECT_EQ(s.critical_path.size(), 4u);
  EXPECT_EQ(s.tasks_per_level, (std::vector<uint64_t>{9, 14, 6, 1}));
  EXPECT_EQ(s.reduced_removes, 1u);
  EXPECT_EQ(s.dataflow_removes, 1u);
}

// ----------------------------------------------------------------------------- reports

TEST(AuditReport, TextAndJsonOfTheProbe) {
  auto a = AuditFile("data/real/dep_probe/default/deps.json");
  NameMap names;
  std::string err;
  ASSERT_EQ(LoadNameMap(testing::SourceDir() +
                            "/data/real/dep_probe/default/name_map_TestDepProbe_default.json",
                        &names, &err),
            NameMapStatus::kOk);
  const std::vector<TaskLabel> labels = ResolveTaskLabels(a->graph, names);
  const AuditReportInput input{a->graph, a->result, labels, "probe/deps.json"};
  std::ostringstream text;
  WriteAuditText(input, text);
  const std::string t = text.str();
  EXPECT_NE(t.find("== races: 15 (RAW 5, WAW 1, WAR 9; 0 approximate)"), std::string::npos);
  // Grouped by tensor, kind and cause, largest group first, three examples each.
  EXPECT_NE(t.find("7 group(s) by tensor, kind and cause, largest first\n"
                   "[1] 8 WAR race(s) on T0, cause war_untracked\n"
                   "    (0, 2) NOOP reads, (0, 3) NOOP reads and writes; bytes [0, 16384) (16384 "
                   "shared)\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("    ... 5 more in this group (the JSON report lists every race)\n[2] 2 RAW"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("more group(s) not listed"), std::string::npos);  // 7 groups, limit 20
  EXPECT_NE(t.find("== false serialization: 2 finding(s)"), std::string::npos);
  EXPECT_NE(t.find("== result: 15 race(s), 2 false serialization finding(s): exit 3"),
            std::string::npos);

  std::ostringstream json;
  WriteAuditJson(input, json);
  const nlohmann::json doc = nlohmann::json::parse(json.str());
  EXPECT_EQ(doc["schema"], "depgraph-audit/1");
  EXPECT_EQ(doc["exit_code"], 3);
  EXPECT_EQ(doc["races"]["total"], 15);
  ASSERT_EQ(doc["races"]["list"].size(), 15u);
  const auto& first = doc["races"]["list"][0];
  EXPECT_EQ(first["kind"], "WAR");
  EXPECT_EQ(first["cause"], "war_untracked");
  EXPECT_EQ(first["first"]["task"], "2");
  EXPECT_EQ(first["first"]["kernel"], "NOOP");
  EXPECT_EQ(first["second"]["type"], "INOUT");
  EXPECT_EQ(first["bytes"]["count"], 16384);
  EXPECT_EQ(doc["false_serialization"]["findings"].size(), 2u);
  EXPECT_EQ(doc["false_serialization"]["findings"][1]["cause"], "strided");
  EXPECT_EQ(doc["summary"]["tasks_per_level"], nlohmann::json({9, 14, 6, 1}));
  EXPECT_EQ(doc["summary"]["redundancy"]["creator_retained"], 2);
}

// --max-findings caps the groups and the false serialization findings of the text report.
TEST(AuditReport, MaxFindingsCapsTheTextReport) {
  auto a = AuditFile("data/real/dep_probe/default/deps.json");
  const std::vector<TaskLabel> labels = ResolveTaskLabels(a->graph, NameMap{});
  std::ostringstream text;
  WriteAuditText({a->graph, a->result, labels, "probe", 1}, text);
  const std::string t = text.str();
  EXPECT_NE(t.find("[1] 8 WAR race(s)"), std::string::npos) << t;
  EXPECT_EQ(t.find("[2] "), t.find("[2] ", t.find("== false serialization")));  // no group 2
  EXPECT_NE(t.find("... 6 more group(s) not listed (--max-findings 0 lists all; --json has every "
                   "race)"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("... 1 more finding(s) not listed"), std::string::npos) << t;
  std::ostringstream all;
  WriteAuditText({a->graph, a->result, labels, "probe", 0}, all);
  EXPECT_NE(all.str().find("[7] "), std::string::npos);
  EXPECT_EQ(all.str().find("not listed"), std::string::npos);
}

TEST(AuditReport, CleanGraphExitsZero) {
  auto a = AuditFile("data/real/vector_example/default/deps.json");
  const std::vector<TaskLabel> labels = ResolveTaskLabels(a->graph, NameMap{});
  std::ostringstream json;
  WriteAuditJson({a->graph, a->result, labels, "x"}, json);
  const nlohmann::json doc = nlohmann::json::parse(json.str());
  EXPECT_EQ(doc["exit_code"], 0);
  EXPECT_EQ(doc["races"]["list"].size(), 0u);
  EXPECT_EQ(AuditExitCode(a->result), 0);
}

TEST(AuditReport, CycleIsAnError) {
  DepGraph g = testing::LoadText(testing::CaptureJson({{1, 2, "x"}, {2, 1, "x"}}));
  // From 2 threads the access model is built beside the index that finds the cycle.
  for (unsigned threads : {1u, 2u}) {
    AuditOptions options;
    options.threads = threads;
    AuditResult result;
    std::string err;
    EXPECT_FALSE(RunAudit(g, options, &result, &err));
    EXPECT_EQ(err, "dependency graph has a cycle: 1 -> 2 -> 1");
  }
}

// From 2 threads the stages run two at a time (RunAudit): the report never depends on it.
TEST(AuditReport, SameReportForAnyThreadCount) {
  for (const char* capture : {"data/real/dep_probe/default/deps.json",
                              "data/real/paged_attention/CaseSmall1/deps.json",
                              "data/real/mixed_example/case2/deps.json"}) {
    std::string reports[3];
    for (unsigned threads : {1u, 2u, 3u}) {
      AuditOptions options;
      options.threads = threads;
      auto a = Audit(testing::ReadFile(testing::SourceDir() + "/" + capture), options);
      const std::vector<TaskLabel> labels = ResolveTaskLabels(a->graph, NameMap{});
      std::ostringstream json;
      WriteAuditJson({a->graph, a->result, labels, "x"}, json);
      reports[threads - 1] = json.str();
    }
    EXPECT_NE(reports[0].find("\"races\""), std::string::npos) << capture;
    EXPECT_EQ(reports[1], reports[0]) << capture;
    EXPECT_EQ(reports[2], reports[0]) << capture;
  }
}

// ------------------------------------------------------------------------- command line


TEST(AuditCommand, ExitCodesOutputsAndErrors) {
  const std::string bin = testing::CliBinary();
  const std::string real = testing::SourceDir() + "/data/real/";
  testing::TempDir dir;
  auto run = [&](const std::string& args) {
    return testing::RunCommand(bin + " " + args, dir.path());
  };

  auto probe = run("audit " + real + "dep_probe/default/deps.json");
  EXPECT_EQ(probe.exit_code, 3);
  EXPECT_NE(probe.out.find("== races: 15"), std::string::npos);
  EXPECT_NE(probe.out.find("(0, 2) NOOP"), std::string::npos);  // sibling name map found
  EXPECT_EQ(run("audit " + real + "vector_example/default/deps.json").exit_code, 0);

  auto json = run("audit --json -o out.json " + real + "dep_probe/default/deps.json");
  EXPECT_EQ(json.exit_code, 3);
  EXPECT_NE(
      json.out.find("Wrote out.json (15 race(s), 2 false serialization finding(s), exit 3)"),
      std::string::npos)
      << json.out;
  const nlohmann::json doc = nlohmann::json::parse(testing::ReadFile(dir.File("out.json")));
  EXPECT_EQ(doc["races"]["total"], 15);

  testing::WriteFile(dir.File("bad.json"), R"({"edges":[{"pred":"0x10","succ":"1"}]})");
  auto bad = run("audit bad.json");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err,
            "error: bad.json: edges[0].pred: expected an unsigned 64-bit id, got \"0x10\"\n");
  testing::WriteFile(dir.File("cycle.json"), testing::CaptureJson({{1, 2, "x"}, {2, 1, "x"}}));
  auto cycle = run("audit cycle.json -o never.txt");
  EXPECT_EQ(cycle.exit_code, 1);
  EXPECT_EQ(cycle.err, "error: cycle.json: dependency graph has a cycle: 1 -> 2 -> 1\n");
  EXPECT_FALSE(testing::Exists(dir.File("never.txt")));
  EXPECT_EQ(run("audit missing.json").exit_code, 1);
  EXPECT_EQ(run("audit").exit_code, 2);
  EXPECT_EQ(run("").exit_code, 2);
  EXPECT_EQ(run("audit --help").exit_code, 0);
}

}  // namespace
}  // namespace depgraph
