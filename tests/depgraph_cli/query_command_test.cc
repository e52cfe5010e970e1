// `depgraph query` (apps/depgraph/query_command.h) against the edge rows of
// real captures.
#include "query_command.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <queue>
#include <set>
#include <sstream>

#include "test_util.h"

namespace depgraph {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::WriteFile;

struct Answer {
  int code = -1;
  std::string out;
  std::string err;
};

Answer Query(QueryArgs args) {
  std::ostringstream out, err;
  Answer answer;
  answer.code = RunQueryCommand(args, out, err);
  answer.out = out.str();
  answer.err = err.str();
  return answer;
}

// The unique (pred, succ) pairs of a deps.json, read independently of
// libdepgraph.
struct Oracle {
  std::map<uint64_t, std::set<uint64_t>> preds, succs;
  std::set<uint64_t> nodes;

  explicit Oracle(const std::string& path) {
    const nlohmann::json doc = nlohmann::json::parse(testing::ReadFile(path));
    auto id = [](const nlohmann::json& v) {
      return v.is_string() ? std::stoull(v.get<std::string>()) : v.get<uint64_t>();
    };
    for (const auto& row : doc["edges"]) {
      const uint64_t p = id(row["pred"]), s = id(row["succ"]);
      succs[p].insert(s);
      preds[s].insert(p);
      nodes.insert(p);
      nodes.insert(s);
    }
  }
  // Breadth-first distance in edges, or -1.
  int Distance(uint64_t from, uint64_t to) const {
    std::map<uint64_t, int> dist = {{from, 0}};
    std::queue<uint64_t> queue;
    queue.push(from);
    while (!queue.empty()) {
      const uint64_t u = queue.front();
      queue.pop();
      if (u == to) return dist[u];
      auto it = succs.find(u);
      if (it == succs.end()) continue;
      for (uint64_t v : it->second) {
        if (dist.emplace(v, dist[u] + 1).second) queue.push(v);
      }
    }
    return -1;
  }
};

std::vector<std::string> Ids(const std::set<uint64_t>& ids) {
  std::vector<std::string> out;
  for (uint64_t id : ids) out.push_back(std::to_string(id));
  return out;
}

std::vector<std::string> RealCaptures() {
  std::vector<std::string> paths;
  for (const auto& entry : fs::recursive_directory_iterator(testing::SourceDir() + "/data/real")) {
    if (entry.path().filename() == "deps.json") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(QueryCommand, TaskNeighboursMatchTheEdgeRowsOfEveryRealCapture) {
  const std::vector<std::string> captures = RealCaptures();
  ASSERT_GE(captures.size(), 17u);
  size_t checked = 0;
  for (const std::string& path : captures) {
    const Oracle oracle(path);
    for (uint64_t id : oracle.nodes) {
      QueryArgs args;
      args.input = path;
      args.task = std::to_string(id);
      args.json = true;
      const Answer answer = Query(args);
      ASSERT_EQ(answer.code, 0) << path << " " << id << ": " << answer.err;
      const nlohmann::json got = nlohmann::json::parse(answer.out);
      EXPECT_EQ(got["task"], std::to_string(id));
      auto p = oracle.preds.find(id);
      auto s = oracle.succs.find(id);
      EXPECT_EQ(got["preds"], Ids(p == oracle.preds.end() ? std::set<uint64_t>() : p->second))
          << path << " " << id;
      EXPECT_EQ(got["succs"], Ids(s == oracle.succs.end() ? std::set<uint64_t>() : s->second))
          << path << " " << id;
      ++checked;
    }
  }
  EXPECT_GT(checked, 500u);
}

TEST(QueryCommand, PathsAreShortestChainsOfEdgesOrNull) {
  int reachable = 0, unreachable = 0;
  for (const char* capture :
       {"paged_attention/CaseVarSeq2", "dep_probe/default", "dep_gen_chain/n_64_no_chain"}) {
    const std::string path = testing::SourceDir() + "/data/real/" + capture + "/deps.json";
    const Oracle oracle(path);
    const std::vector<uint64_t> nodes(oracle.nodes.begin(), oracle.nodes.end());
    const size_t step = nodes.size() > 40 ? 3 : 1;  // every pair of the small ones
    for (size_t i = 0; i < nodes.size(); i += step) {
      for (size_t j = 0; j < nodes.size(); j += step) {
        QueryArgs args;
        args.input = path;
        args.path = {std::to_string(nodes[i]), std::to_string(nodes[j])};
        args.json = true;
        const Answer answer = Query(args);
        ASSERT_EQ(answer.code, 0) << answer.err;
        const nlohmann::json got = nlohmann::json::parse(answer.out);
        const int distance = oracle.Distance(nodes[i], nodes[j]);
        if (distance < 0) {
          EXPECT_TRUE(got["path"].is_null()) << answer.out;
          ++unreachable;
          continue;
        }
        ++reachable;
        ASSERT_TRUE(got["path"].is_array()) << answer.out;
        const auto& steps = got["path"];
        ASSERT_EQ(static_cast<int>(steps.size()), distance + 1) << answer.out;
        EXPECT_EQ(steps.front(), std::to_string(nodes[i]));
        EXPECT_EQ(steps.back(), std::to_string(nodes[j]));
        for (size_t k = 0; k + 1 < steps.size(); ++k) {
          const uint64_t a = std::stoull(steps[k].get<std::string>());
          const uint64_t b = std::stoull(steps[k + 1].get<std::string>());
          EXPECT_TRUE(oracle.succs.at(a).count(b)) << a << " -> " << b;
        }
      }
    }
  }
  EXPECT_GT(reachable, 300);
  EXPECT_GT(unreachable, 300);
}

TEST(QueryCommand, TextFormNamesTasksAndAcceptsRingLocal) {
  QueryArgs args;
  args.input = testing::SourceDir() + "/data/real/paged_attention/CaseSmall1/deps.json";
  args.task = "(2, 4)";
  args.depth = 2;
  const Answer answer = Query(args);
  ASSERT_EQ(answer.code, 0) << answer.err;
  EXPECT_EQ(answer.out,
            "task (2, 4)  QK\n"
            "predecessors (0): none\n"
            "successors (1):\n"
            "  (2, 5)  SF\n"
            "ancestors to depth 2 (0): none\n"
            "descendants to depth 2 (3):\n"
            "  1  (2, 5)  SF\n"
            "  2  (2, 6)  PV\n"
            "  2  (2, 7)  UP\n");
}

TEST(QueryCommand, GrepFindsTasksByKernelName) {
  QueryArgs args;
  args.input = testing::SourceDir() + "/data/real/paged_attention/CaseSmall1/deps.json";
  args.grep = "qk";
  args.json = true;
  const Answer answer = Query(args);
  ASSERT_EQ(answer.code, 0) << answer.err;
  EXPECT_EQ(answer.out,
            "{\"grep\": \"qk\", \"tasks\": [{\"id\": "
            "\"8589934592\", \"name\": \"QK\"}, "
            "{\"id\": \"8589934596\", \"name\": \"QK\"}, {\"id\": "
            "\"8589934600\", \"name\": "
            "\"QK\"}]}\n");
}

TEST(QueryCommand, WithoutANameMapKernelsAreNamedByTheirIds) {
  // paged_attention's kernels are 0 QK, 1 SF, 2 PV, 3 UP; a name map that names none of them
  // (given explicitly, so the sibling one is not used) leaves the f{id} names.
  TempDir dir;
  WriteFile(dir.File("names.json"), "{\"callable_id_to_name\": {\"99\": \"other\"}}");
  QueryArgs args;
  args.input = testing::SourceDir() + "/data/real/paged_attention/CaseSmall1/deps.json";
  args.func_names = dir.File("names.json");
  args.task = "(2, 4)";
  Answer answer = Query(args);
  ASSERT_EQ(answer.code, 0) << answer.err;
  EXPECT_EQ(answer.out,
            "task (2, 4)  f0\n"
            "predecessors (0): none\n"
            "successors (1):\n"
            "  (2, 5)  f1\n");
  args.task.clear();
  args.grep = "F0";
  args.json = true;
  answer = Query(args);
  ASSERT_EQ(answer.code, 0) << answer.err;
  EXPECT_EQ(answer.out,
            "{\"grep\": \"F0\", \"tasks\": [{\"id\": \"8589934592\", \"name\": \"f0\"}, "
            "{\"id\": \"8589934596\", \"name\": \"f0\"}, {\"id\": \"8589934600\", \"name\": "
            "\"f0\"}]}\n");
}

TEST(QueryCommand, UnknownTasksAndBadArgumentsAreOneLineErrors) {
  QueryArgs args;
  args.input = testing::SourceDir() + "/data/real/paged_attention/CaseSmall1/deps.json";
  args.task = "12345";
  Answer answer = Query(args);
  EXPECT_EQ(answer.code, 1);
  EXPECT_EQ(answer.err, "error: " + args.input + ": no task 12345 (id 12345)\n");
  EXPECT_TRUE(answer.out.empty());

  args.task = "(0, x)";
  answer = Query(args);
  EXPECT_EQ(answer.code, 2);
  EXPECT_EQ(std::count(answer.err.begin(), answer.err.end(), '\n'), 1);

  args.task.clear();
  answer = Query(args);  // no question
  EXPECT_EQ(answer.code, 2);

  args.path = {"(2, 4)", "(2, 9)"};
  args.json = true;
  answer = Query(args);
  EXPECT_EQ(answer.code, 0) << answer.err;
  EXPECT_EQ(answer.out, "{\"from\": \"8589934596\", \"to\": \"8589934601\", \"path\": null}\n");

  args.path.clear();
  args.task = "1";
  args.input = "/nonexistent/deps.json";
  answer = Query(args);
  EXPECT_EQ(answer.code, 1);
  EXPECT_NE(answer.err.find("/nonexistent/deps.json"), std::string::npos);
}

TEST(QueryCommand, GroupsShowTheBlocksOfAPagedAttentionRequest) {
  // CaseSmall1: one request (its accumulators' allocation, then 3 blocks of QK, SF, PV, UP).
  QueryArgs args;
  args.input = testing::SourceDir() + "/data/real/paged_attention/CaseSmall1/deps.json";
  args.groups = true;
  Answer answer = Query(args);
  ASSERT_EQ(answer.code, 0) << answer.err;
  EXPECT_EQ(answer.out,
            "G0 x3 (4 nodes each: QK, SF, PV, UP)  (2, 0)..(2, 11)\n"
            "in groups: 12 of 13 nodes (92.3%), 1 kind, 1 top-level series\n");

  args.json = true;
  answer = Query(args);
  ASSERT_EQ(answer.code, 0) << answer.err;
  EXPECT_EQ(answer.out,
            "{\"groups\": {\"nodes\": 13, \"covered\": 12, \"kinds\": [{\"id\": 0, "
            "\"label\": \"QK, SF, PV, UP\", \"size\": 4, \"tasks\": 4, \"kernels\": 4, "
            "\"depth\": 1, \"instances\": 3, \"children\": []}], \"series\": [{\"kind\": 0, "
            "\"count\": 3, \"size\": 4, \"first\": \"8589934592\", \"last\": "
            "\"8589934603\", \"children\": []}]}}\n");
  EXPECT_TRUE(nlohmann::json::accept(answer.out));
}

TEST(QueryCommand, GroupsNestAndNameKernelsWithoutAMap) {
  // Two identical components of 4 chained blocks (f1 -> f2) each.
  testing::TempDir dir;
  std::string tasks, edges;
  for (int i = 1; i <= 16; ++i) {
    tasks += std::string(i > 1 ? "," : "") + "{\"task_id\":" + std::to_string(i) +
             ",\"kernel_ids\":[" + std::to_string(i % 2 ? 1 : 2) + ",-1,-1]}";
    if (i % 8 != 1) {
      edges += std::string(edges.empty() ? "" : ",") + "{\"pred\":" + std::to_string(i - 1) +
               ",\"succ\":" + std::to_string(i) + "}";
    }
  }
  testing::WriteFile(dir.File("deps.json"),
                     "{\"tasks\":[" + tasks + "],\"edges\":[" + edges + "]}");
  QueryArgs args;
  args.input = dir.File("deps.json");
  args.groups = true;
  const Answer answer = Query(args);
  ASSERT_EQ(answer.code, 0) << answer.err;
  EXPECT_EQ(answer.out,
            "G0 x2 (8 nodes each: f1, f2)  1..16\n"
            "  G1 x4 (2 nodes each: f1, f2)  1..8\n"
            "in groups: 16 of 16 nodes (100.0%), 2 kinds, 1 top-level series\n");
}

TEST(QueryCommand, GroupsIsAQuestionOfItsOwn) {
  QueryArgs args;
  args.input = testing::SourceDir() + "/data/real/paged_attention/CaseSmall1/deps.json";
  args.groups = true;
  args.task = "(2, 4)";
  Answer answer = Query(args);
  EXPECT_EQ(answer.code, 2);
  EXPECT_EQ(answer.err,
            "error: give exactly one of --task ID, --path A B, --grep NAME, --groups\n");
  args.task.clear();
  args.grep = "QK";
  EXPECT_EQ(Query(args).code, 2);
  args.grep.clear();
  args.path = {"(2, 4)", "(2, 7)"};
  EXPECT_EQ(Query(args).code, 2);
  args.path.clear();
  args.depth = 2;
  EXPECT_EQ(Query(args).code, 2);  // --depth goes with --task
  const std::string command = "'" + testing::CliBinary() + "' query '" + args.input + "' --groups";
  testing::CommandResult result =
      testing::RunCommand(command + " --grep QK", testing::SourceDir());
  EXPECT_EQ(result.exit_code, 2) << result.err;
  result = testing::RunCommand(command + " --json", testing::SourceDir());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind("{\"groups\": {\"nodes\": 13, ", 0), 0u) << result.out;
}

TEST(QueryCommand, CommandLineTakesTwoPathEndpoints) {
  const std::string deps = testing::SourceDir() + "/data/real/paged_attention/CaseSmall1/deps.json";
  testing::CommandResult result = testing::RunCommand(
      "'" + testing::CliBinary() + "' query '" + deps + "' --path '(2, 4)' '(2, 7)' --json",
      testing::SourceDir());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "{\"from\": \"8589934596\", \"to\": \"8589934599\", \"path\": "
            "[\"8589934596\", "
            "\"8589934597\", \"8589934599\"]}\n");  // (2, 5) -> (2, 7) is an edge
}

}  // namespace
}  // namespace depgraph
