// Tests for comparing two graphs (graph_diff.h) and the diff report (diff_report.h).
#include "depgraph/audit/graph_diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "audit/audit_graph_builder.h"
#include "depgraph/audit/diff_report.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::EdgesJson;
using testing::Flat;
using testing::GraphBuilder;
using testing::LoadText;
using IdPairs = std::vector<std::pair<TaskId, TaskId>>;

GraphDiff Diff(const DepGraph& a, const DepGraph& b, DiffOptions options = {}) {
  GraphDiff diff;
  std::string err;
  EXPECT_TRUE(DiffGraphs(a, b, options, "a.json", "b.json", &diff, &err)) << err;
  return diff;
}

IdPairs AIds(const std::vector<DiffPair>& pairs) {
  IdPairs out;
  for (const DiffPair& p : pairs) out.emplace_back(p.a_pred, p.a_succ);
  return out;
}

TEST(GraphDiff, IdenticalGraphsLoseNothing) {
  DepGraph g = LoadText(testing::ReadFile(testing::SourceDir() +
                                          "/data/real/dep_probe/default/deps.json"));
  const GraphDiff d = Diff(g, g, {.by_order = false, .closure = true});
  EXPECT_FALSE(d.task_sets_differ);
  EXPECT_EQ(d.matched, 30u);  // 29 tasks and the alloc node
  EXPECT_TRUE(d.edges_only_in_a.empty() && d.edges_only_in_b.empty());
  EXPECT_TRUE(d.orderings_lost.empty() && d.orderings_added.empty());
  EXPECT_EQ(d.closure_a, d.closure_b);
  EXPECT_EQ(d.closure_lost_count, 0u);
  EXPECT_EQ(DiffExitCode(d), 0);
}

TEST(GraphDiff, AnEdgeImpliedByAPathIsNotAnOrderingLost) {
  DepGraph a = LoadText(EdgesJson({{1, 2, "tensormap"}, {2, 3, "tensormap"}, {1, 3, "creator"}}));
  DepGraph b = LoadText(EdgesJson({{1, 2, "tensormap"}, {2, 3, "tensormap"}}));
  const GraphDiff d = Diff(a, b);
  EXPECT_EQ(AIds(d.edges_only_in_a), (IdPairs{{1, 3}}));
  EXPECT_TRUE(d.orderings_lost.empty());
  EXPECT_EQ(DiffExitCode(d), 0);
  // The other way round B adds an edge A already implies: nothing is added either.
  const GraphDiff r = Diff(b, a);
  EXPECT_EQ(AIds(r.edges_only_in_b), (IdPairs{{1, 3}}));
  EXPECT_TRUE(r.orderings_added.empty());
}

// An edges-only document plus kernel tasks 1..n (without tasks[], every node is an alloc).
std::string WithTasks(const std::string& edges_json, int n) {
  std::string tasks = "{\"tasks\":[";
  for (int i = 1; i <= n; ++i) {
    tasks += std::string(i > 1 ? "," : "") + "{\"task_id\":\"" + std::to_string(i) +
             "\",\"kernel_ids\":[0,-1,-1]}";
  }
  return tasks + "]," + edges_json.substr(1);
}

TEST(GraphDiff, AMissingOrderingIsLost) {
  DepGraph a = LoadText(WithTasks(EdgesJson({{1, 2, "explicit"}, {2, 3, "tensormap"}}), 3));
  DepGraph b = LoadText(WithTasks(EdgesJson({{1, 2, "explicit"}, {1, 3, "tensormap"}}), 3));
  const GraphDiff d = Diff(a, b, {.by_order = false, .closure = true});
  EXPECT_EQ(AIds(d.orderings_lost), (IdPairs{{2, 3}}));
  EXPECT_TRUE(d.orderings_added.empty());  // 1 -> 3 holds in A through 2
  EXPECT_EQ(d.closure_a, 3u);
  EXPECT_EQ(d.closure_b, 2u);
  EXPECT_EQ(d.closure_lost_count, 1u);
  EXPECT_EQ(DiffExitCode(d), 3);

  std::ostringstream text;
  const DiffOptions options{.by_order = false, .closure = true};
  WriteDiffText({a, b, d, options, "a.json", "b.json"}, text);
  EXPECT_NE(text.str().find("orderings lost (an A edge whose order B does not imply): 1\n"
                            "  - 2 -> 3\n"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("result: B loses 1 ordering(s) of A: exit 3"), std::string::npos);
  std::ostringstream json;
  WriteDiffJson({a, b, d, options, "a.json", "b.json"}, json);
  const nlohmann::json doc = nlohmann::json::parse(json.str());
  EXPECT_EQ(doc["schema"], "depgraph-diff/1");
  EXPECT_EQ(doc["exit_code"], 3);
  EXPECT_EQ(doc["orderings_lost"][0]["a"], nlohmann::json({"2", "3"}));
  EXPECT_EQ(doc["orderings_lost"][0]["pred_is_alloc"], false);
  EXPECT_EQ(doc["closure"]["lost"], 1);
}

TEST(GraphDiff, DifferentIdsNeedMatchingBySubmitOrder) {
  // The same three-task chain submitted on ring 0 in A and on ring 1 in B.
  auto chain = [](uint64_t base) {
    GraphBuilder g;
    g.Tensor(7, 0, 16)
        .Task(base, {Flat("INOUT", 7, 16)})
        .Task(base + 1, {Flat("INOUT", 7, 16)})
        .Task(base + 2, {Flat("INPUT", 7, 16)})
        .Edge(base, base + 1, "tensormap", 0, 7, "covered")
        .Edge(base + 1, base + 2, "tensormap", 0, 7, "covered");
    return LoadText(g.Json());
  };
  DepGraph a = chain(0), b = chain(TaskId{1} << 32);
  const GraphDiff by_id = Diff(a, b);
  EXPECT_TRUE(by_id.task_sets_differ);
  EXPECT_EQ(by_id.only_in_a.size(), 3u);
  EXPECT_EQ(by_id.edges_unmatched_a, 2u);
  EXPECT_TRUE(by_id.orderings_lost.empty());  // nothing comparable
  std::ostringstream text;
  WriteDiffText({a, b, by_id, DiffOptions{}, "a.json", "b.json"}, text);
  EXPECT_NE(text.str().find("WARNING: the task sets differ"), std::string::npos);
  EXPECT_NE(text.str().find("--by-order"), std::string::npos);

  const GraphDiff by_order = Diff(a, b, {.by_order = true});
  EXPECT_FALSE(by_order.task_sets_differ);
  EXPECT_EQ(by_order.matched, 3u);
  EXPECT_TRUE(by_order.edges_only_in_a.empty() && by_order.edges_only_in_b.empty());

  // Dropping B's first edge loses an ordering, reported with both graphs' ids.
  GraphBuilder g;
  const TaskId r1 = TaskId{1} << 32;
  g.Tensor(7, 0, 16)
      .Task(r1, {Flat("INOUT", 7, 16)})
      .Task(r1 + 1, {Flat("INOUT", 7, 16)})
      .Task(r1 + 2, {Flat("INPUT", 7, 16)})
      .Edge(r1 + 1, r1 + 2, "tensormap", 0, 7, "covered");
  DepGraph c = LoadText(g.Json());
  const GraphDiff lost = Diff(a, c, {.by_order = true});
  ASSERT_EQ(lost.orderings_lost.size(), 1u);
  EXPECT_EQ(lost.orderings_lost[0].a_pred, 0u);
  EXPECT_EQ(lost.orderings_lost[0].b_pred, r1);
  std::ostringstream lost_text;
  WriteDiffText({a, c, lost, DiffOptions{.by_order = true}, "a.json", "c.json"}, lost_text);
  EXPECT_NE(lost_text.str().find("  - 0 -> 1 (B: (1, 0) -> (1, 1))"), std::string::npos)
      << lost_text.str();
}

TEST(GraphDiff, TmrbAndHbgCapturesOfOneOrchestration) {
  // dep_gen_vector_example on the device runtime (rings) and on the host runtime (ring 0).
  const std::string root = testing::SourceDir() + "/data/real/";
  DepGraph tmrb = LoadText(testing::ReadFile(root + "dep_gen_vector_example/default/deps.json"));
  DepGraph hbg =
      LoadText(testing::ReadFile(root + "hbg_dep_gen_vector_example/default/deps.json"));
  const GraphDiff by_order = Diff(tmrb, hbg, {.by_order = true, .closure = true});
  EXPECT_FALSE(by_order.task_sets_differ);
  EXPECT_EQ(by_order.matched, 5u);
  EXPECT_TRUE(by_order.orderings_lost.empty());
  EXPECT_TRUE(by_order.orderings_added.empty());
  EXPECT_EQ(by_order.closure_a, by_order.closure_b);
  EXPECT_TRUE(Diff(tmrb, hbg).task_sets_differ);
}

TEST(GraphDiff, ManualScopeVariantLosesOnlyAllocationOrderings) {
  // paged_attention written with pl.manual_scope() and explicit deps against the runtime's
  // inferred graph: the hand-written edges imply every ordering between kernels; only the
  // allocation's (lifetime) edges into the first two accumulating tasks are gone.
  const std::string root = testing::SourceDir() + "/data/real/";
  DepGraph inferred = LoadText(testing::ReadFile(root + "paged_attention/CaseSmall1/deps.json"));
  DepGraph manual =
      LoadText(testing::ReadFile(root + "paged_attention_manual_scope/CaseSmall1/deps.json"));
  const GraphDiff d = Diff(inferred, manual, {.by_order = true, .closure = true});
  EXPECT_EQ(d.matched, 13u);
  EXPECT_EQ(d.edges_only_in_a.size(), 5u);
  ASSERT_EQ(d.orderings_lost.size(), 2u);
  for (const DiffPair& p : d.orderings_lost) EXPECT_TRUE(p.pred_is_alloc);
  EXPECT_TRUE(d.orderings_added.empty());
  EXPECT_EQ(d.closure_lost_count, 2u);
  EXPECT_EQ(DiffExitCode(d), 3);
  std::ostringstream text;
  WriteDiffText({inferred, manual, d, DiffOptions{.by_order = true}, "a", "b"}, text);
  EXPECT_NE(text.str().find("  - (1, 0) -> (2, 3) (B: (1, 0) -> (1, 4)) [from an allocation: "
                            "lifetime only]"),
            std::string::npos)
      << text.str();
}

// Brute-force closure of a graph as a set of (pred id, succ id), u != v.
std::set<std::pair<TaskId, TaskId>> Closure(const DepGraph& g) {
  const size_t n = g.nodes.size();
  std::vector<std::vector<uint32_t>> succ(n);
  for (const Pair& p : g.pairs) succ[p.pred].push_back(p.succ);
  std::set<std::pair<TaskId, TaskId>> out;
  for (uint32_t s = 0; s < n; ++s) {
    std::vector<uint8_t> seen(n, 0);
    std::vector<uint32_t> stack = {s};
    while (!stack.empty()) {
      const uint32_t x = stack.back();
      stack.pop_back();
      for (uint32_t y : succ[x]) {
        if (!seen[y]) {
          seen[y] = 1;
          out.insert({g.nodes[s], g.nodes[y]});
          stack.push_back(y);
        }
      }
    }
  }
  return out;
}

TEST(GraphDiff, MatchesBruteForceOnRandomPairsOfGraphs) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 150; ++trial) {
    // Past 64: several closure blocks; past 192, several waves of blocks on 3 threads.
    const int n = 3 + static_cast<int>(rng() % (trial % 5 == 0 ? 400 : 90));
    std::string a_json = "{\"tasks\":[", b_json;
    for (int i = 0; i < n; ++i) {
      a_json += std::string(i ? "," : "") + "{\"task_id\":\"" + std::to_string(i) +
                "\",\"kernel_ids\":[0,-1,-1]}";
    }
    b_json = a_json + "],\"edges\":[";
    a_json += "],\"edges\":[";
    bool first_a = true, first_b = true;
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n && j <= i + 4; ++j) {
        const bool in_a = rng() % 2 == 0;
        const bool in_b = in_a ? rng() % 5 != 0 : rng() % 6 == 0;
        const std::string edge =
            "{\"pred\":" + std::to_string(i) + ",\"succ\":" + std::to_string(j) + "}";
        if (in_a) {
          a_json += (first_a ? "" : ",") + edge;
          first_a = false;
        }
        if (in_b) {
          b_json += (first_b ? "" : ",") + edge;
          first_b = false;
        }
      }
    }
    DepGraph a = LoadText(a_json + "]}"), b = LoadText(b_json + "]}");
    const GraphDiff d = Diff(a, b, {.by_order = trial % 2 == 1, .closure = true,
                                    .max_closure_pairs = 1000000});
    const auto ca = Closure(a), cb = Closure(b);
    EXPECT_EQ(d.closure_a, ca.size()) << trial;
    EXPECT_EQ(d.closure_b, cb.size()) << trial;
    std::set<std::pair<TaskId, TaskId>> lost, added;
    for (const auto& p : ca) {
      if (!cb.count(p)) lost.insert(p);
    }
    for (const auto& p : cb) {
      if (!ca.count(p)) added.insert(p);
    }
    EXPECT_EQ(d.closure_lost_count, lost.size()) << trial;
    EXPECT_EQ(d.closure_added_count, added.size()) << trial;
    std::set<std::pair<TaskId, TaskId>> listed;
    for (const DiffPair& p : d.closure_lost) listed.insert({p.a_pred, p.a_succ});
    EXPECT_EQ(listed, lost) << trial;
    // Threads and caps change only how much is listed: the first pairs in (pred, succ) order.
    for (unsigned threads : {1u, 3u}) {
      for (size_t cap : {size_t{7}, size_t{1000000}}) {
        const GraphDiff t = Diff(a, b, {.by_order = trial % 2 == 1, .closure = true,
                                        .max_closure_pairs = cap, .threads = threads});
        EXPECT_EQ(t.closure_lost_count, lost.size()) << trial;
        EXPECT_EQ(t.closure_a, ca.size()) << trial;
        IdPairs want_lost(lost.begin(), std::next(lost.begin(), std::min(cap, lost.size())));
        IdPairs want_added(added.begin(),
                           std::next(added.begin(), std::min(cap, added.size())));
        EXPECT_EQ(AIds(t.closure_lost), want_lost) << trial << " threads " << threads;
        EXPECT_EQ(AIds(t.closure_added), want_added) << trial << " threads " << threads;
        // The indices and edge comparisons run side by side from 2 threads: same lists.
        EXPECT_EQ(AIds(t.orderings_lost), AIds(d.orderings_lost)) << trial << " " << threads;
        EXPECT_EQ(AIds(t.orderings_added), AIds(d.orderings_added)) << trial << " " << threads;
        EXPECT_EQ(AIds(t.edges_only_in_a), AIds(d.edges_only_in_a)) << trial << " " << threads;
        EXPECT_EQ(AIds(t.edges_only_in_b), AIds(d.edges_only_in_b)) << trial << " " << threads;
        EXPECT_EQ(t.edges_unmatched_a, d.edges_unmatched_a) << trial << " " << threads;
        EXPECT_EQ(t.edges_unmatched_b, d.edges_unmatched_b) << trial << " " << threads;
      }
    }
    // Edge-level orderings: exactly the A edges outside B's closure.
    IdPairs expect_lost;
    for (const Pair& p : a.pairs) {
      const std::pair<TaskId, TaskId> ids{a.nodes[p.pred], a.nodes[p.succ]};
      if (!cb.count(ids)) expect_lost.push_back(ids);
    }
    EXPECT_EQ(AIds(d.orderings_lost), expect_lost) << trial;
    EXPECT_EQ(d.orderings_lost.empty(), lost.empty()) << trial;
    EXPECT_EQ(d.orderings_added.empty(), added.empty()) << trial;
  }
}

TEST(GraphDiff, SubmitOrderMatchAcrossShuffledIdsFindsEveryEdgeEachWay) {
  // B renames A's tasks by a random permutation, so B's pairs come in another order than
  // their partners in A, and both searches (for the task and for the edge) jump about; B keeps
  // some of A's edges and adds its own.
  std::mt19937_64 rng(2612);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 120);
    std::vector<TaskId> rename(n);
    for (int i = 0; i < n; ++i) rename[i] = 1000 + 3 * static_cast<TaskId>(i);
    std::shuffle(rename.begin(), rename.end(), rng);
    auto tasks_json = [&](bool in_b) {
      std::string json = "{\"tasks\":[";
      for (int i = 0; i < n; ++i) {
        const TaskId id = in_b ? rename[i] : static_cast<TaskId>(i);
        json += std::string(i ? "," : "") + "{\"task_id\":\"" + std::to_string(id) +
                "\",\"kernel_ids\":[0,-1,-1]}";
      }
      return json + "],\"edges\":[";
    };
    std::string a_json = tasks_json(false), b_json = tasks_json(true);
    std::set<std::pair<int, int>> in_a, in_b;  // by submit index
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n && j <= i + 6; ++j) {
        if (rng() % 2 == 0) in_a.insert({i, j});
        if (rng() % 3 == 0) in_b.insert({i, j});
      }
    }
    for (const auto& [i, j] : in_a) {
      a_json += "{\"pred\":" + std::to_string(i) + ",\"succ\":" + std::to_string(j) + "},";
    }
    for (const auto& [i, j] : in_b) {
      b_json += "{\"pred\":" + std::to_string(rename[i]) + ",\"succ\":" +
                std::to_string(rename[j]) + "},";
    }
    if (!in_a.empty()) a_json.pop_back();
    if (!in_b.empty()) b_json.pop_back();
    const DepGraph a = LoadText(a_json + "]}"), b = LoadText(b_json + "]}");
    const GraphDiff d = Diff(a, b, {.by_order = true});
    IdPairs only_a, only_b;
    for (const Pair& p : a.pairs) {
      const auto ids = std::make_pair(a.nodes[p.pred], a.nodes[p.succ]);
      if (!in_b.count({static_cast<int>(ids.first), static_cast<int>(ids.second)})) {
        only_a.push_back(ids);
      }
    }
    for (const auto& [i, j] : in_b) {
      if (!in_a.count({i, j})) only_b.push_back({i, j});
    }
    std::sort(only_b.begin(), only_b.end());
    IdPairs got_b = AIds(d.edges_only_in_b);
    std::sort(got_b.begin(), got_b.end());
    EXPECT_EQ(AIds(d.edges_only_in_a), only_a) << trial;
    EXPECT_EQ(got_b, only_b) << trial;
    EXPECT_EQ(d.matched, static_cast<uint64_t>(n)) << trial;
  }
}

TEST(GraphDiff, CycleIsAnErrorNamingTheGraph) {
  DepGraph a = LoadText(EdgesJson({{1, 2, "x"}}));
  DepGraph b = LoadText(EdgesJson({{1, 2, "x"}, {2, 1, "x"}}));
  // The two indices are built side by side from 2 threads: A's cycle is named first.
  for (unsigned threads : {1u, 2u}) {
    DiffOptions options;
    options.threads = threads;
    GraphDiff diff;
    std::string err;
    EXPECT_FALSE(DiffGraphs(a, b, options, "a.json", "b.json", &diff, &err));
    EXPECT_EQ(err, "b.json: dependency graph has a cycle: 1 -> 2 -> 1");
    EXPECT_FALSE(DiffGraphs(b, b, options, "a.json", "b.json", &diff, &err));
    EXPECT_EQ(err, "a.json: dependency graph has a cycle: 1 -> 2 -> 1");
    EXPECT_FALSE(DiffGraphs(b, a, options, "a.json", "b.json", &diff, &err));
    EXPECT_EQ(err, "a.json: dependency graph has a cycle: 1 -> 2 -> 1");
  }
}


TEST(DiffCommand, ExitCodesAndMatching) {
  const std::string bin = testing::CliBinary();
  const std::string real = testing::SourceDir() + "/data/real/";
  const std::string inferred = real + "paged_attention/CaseSmall1/deps.json";
  const std::string manual = real + "paged_attention_manual_scope/CaseSmall1/deps.json";
  testing::TempDir dir;
  auto run = [&](const std::string& args) {
    return testing::RunCommand(bin + " diff " + args, dir.path());
  };
  auto same = run(inferred + " " + inferred);
  EXPECT_EQ(same.exit_code, 0);
  EXPECT_NE(same.out.find("result: B keeps every ordering of A: exit 0"), std::string::npos);
  // The manual-scope capture uses other rings: no edge of A compares by id, so diff says so
  // and matches by submit order, where B loses two orderings (never "keeps every ordering").
  auto by_id = run(inferred + " " + manual);
  EXPECT_EQ(by_id.exit_code, 3) << by_id.out << by_id.err;
  EXPECT_NE(by_id.err.find("note: no edge of A has both ends among B's task ids"), std::string::npos)
      << by_id.err;
  EXPECT_NE(by_id.out.find("(tasks matched by submit order)"), std::string::npos);
  EXPECT_NE(by_id.out.find("result: B loses 2 ordering(s) of A: exit 3"), std::string::npos);
  auto lost = run(inferred + " " + manual + " --by-order --closure --json -o d.json");
  EXPECT_EQ(lost.exit_code, 3);
  const nlohmann::json doc = nlohmann::json::parse(testing::ReadFile(dir.File("d.json")));
  EXPECT_EQ(doc["orderings_lost"].size(), 2u);
  EXPECT_EQ(doc["closure"]["lost"], 2);
  EXPECT_EQ(run(manual + " " + inferred + " --by-order").exit_code, 0);
  EXPECT_EQ(run(inferred + " missing.json").exit_code, 1);
  EXPECT_EQ(run(inferred).exit_code, 2);
}

// A verdict never speaks for edges it could not compare: partial coverage is stated in the
// result line, ids that match nothing switch to submit order (said in one line), and a
// comparison that still compares nothing is an error.
TEST(DiffCommand, NeverReportsSuccessOnNothingCompared) {
  const std::string bin = testing::CliBinary();
  testing::TempDir dir;
  auto write = [&](const std::string& name, const std::string& text) {
    testing::WriteFile(dir.File(name), text);
    return dir.File(name);
  };
  const std::string a = write("a.json", testing::CaptureJson({{1, 2, "explicit"}, {2, 3, "explicit"}}));
  const std::string part = write("part.json", testing::CaptureJson({{1, 2, "explicit"}}));
  const std::string shifted = write("shifted.json", testing::CaptureJson({{7, 8, "explicit"}, {8, 9, "explicit"}}));
  const std::string empty = write("empty.json", "{\"tasks\":[],\"edges\":[]}");
  auto run = [&](const std::string& args) { return testing::RunCommand(bin + " diff " + args, dir.path()); };

  auto partial = run(a + " " + part);
  EXPECT_EQ(partial.exit_code, 0) << partial.err;
  EXPECT_NE(partial.out.find("result: B keeps every ordering of A (of the 1 of 2 edges compared; 1 "
                             "touch a task B lacks): exit 0"),
            std::string::npos)
      << partial.out;

  auto by_order = run(a + " " + shifted);
  EXPECT_EQ(by_order.exit_code, 0) << by_order.err;
  EXPECT_NE(by_order.err.find("matching tasks by submit order instead (--by-order)"), std::string::npos);
  EXPECT_NE(by_order.out.find("result: B keeps every ordering of A: exit 0"), std::string::npos);

  auto refused = run(a + " " + empty);  // a gate never passes on a capture of nothing
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("empty.json: the capture has no tasks"), std::string::npos)
      << refused.err;
  auto nothing = run(a + " " + empty + " --allow-empty");
  EXPECT_EQ(nothing.exit_code, 1);
  EXPECT_NE(nothing.err.find("share no comparable edge: all 2 edges of A touch a task B lacks"),
            std::string::npos)
      << nothing.err;
  EXPECT_EQ(nothing.out, "");
}

}  // namespace
}  // namespace depgraph
