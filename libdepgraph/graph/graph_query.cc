#include "depgraph/graph/graph_query.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

namespace depgraph {

namespace {

constexpr uint32_t kUnseen = std::numeric_limits<uint32_t>::max();

void SkipSpaces(std::string_view text, size_t* pos) {
  while (*pos < text.size() && (text[*pos] == ' ' || text[*pos] == '\t')) ++*pos;
}

// Reads a decimal unsigned number at *pos (no sign, no spaces). False if none
// or overflow.
bool ReadNumber(std::string_view text, size_t* pos, uint64_t* value) {
  const char* begin = text.data() + *pos;
  const char* end = text.data() + text.size();
  if (begin == end || !std::isdigit(static_cast<unsigned char>(*begin))) return false;
  auto [ptr, ec] = std::from_chars(begin, end, *value);
  if (ec != std::errc()) return false;
  *pos += static_cast<size_t>(ptr - begin);
  return true;
}

bool ParseRingLocal(std::string_view text, TaskId* id) {
  size_t pos = 1;  // after '('
  uint64_t ring = 0, local = 0;
  SkipSpaces(text, &pos);
  if (!ReadNumber(text, &pos, &ring)) return false;
  SkipSpaces(text, &pos);
  if (pos >= text.size() || text[pos] != ',') return false;
  ++pos;
  SkipSpaces(text, &pos);
  if (!ReadNumber(text, &pos, &local)) return false;
  SkipSpaces(text, &pos);
  if (pos + 1 != text.size() || text[pos] != ')') return false;
  if (ring > 0xFF || local > 0xFFFFFFFFull) return false;
  *id = (ring << 32) | local;
  return true;
}

template <typename Visit>
void ForEachNeighbour(const PairGraph& g, uint32_t node, Direction direction, Visit&& visit) {
  if (direction == Direction::kDescendants) {
    for (auto [it, end] = boost::out_edges(node, g); it != end; ++it) {
      visit(static_cast<uint32_t>(boost::target(*it, g)));
    }
  } else {
    for (auto [it, end] = boost::in_edges(node, g); it != end; ++it) {
      visit(static_cast<uint32_t>(boost::source(*it, g)));
    }
  }
}

}  // namespace

bool ParseTaskRef(std::string_view text, TaskId* id, std::string* err) {
  size_t first = text.find_first_not_of(" \t");
  size_t last = text.find_last_not_of(" \t");
  std::string_view trimmed =
      first == std::string_view::npos ? std::string_view() : text.substr(first, last - first + 1);
  bool ok = false;
  if (!trimmed.empty() && trimmed.front() == '(') {
    ok = ParseRingLocal(trimmed, id);
  } else {
    size_t pos = 0;
    uint64_t value = 0;
    ok = ReadNumber(trimmed, &pos, &value) && pos == trimmed.size();
    if (ok) *id = value;
  }
  if (!ok && err) {
    *err = "'" + std::string(text) +
           "' is not a task id (a decimal id such as 4294967298, or (ring, "
           "local) such as "
           "(1, 2))";
  }
  return ok;
}

bool FindQueryTask(const DepGraph& graph, TaskId id, QueryTask* task) {
  task->id = id;
  task->node = graph.FindNode(id);
  return task->node >= 0 || graph.FindTask(id) != nullptr;
}

std::vector<uint32_t> Predecessors(const DepGraph& graph, uint32_t node) {
  std::vector<uint32_t> preds;
  ForEachNeighbour(graph.graph, node, Direction::kAncestors,
                   [&](uint32_t p) { preds.push_back(p); });
  std::sort(preds.begin(), preds.end());
  return preds;
}

std::vector<uint32_t> Successors(const DepGraph& graph, uint32_t node) {
  std::vector<uint32_t> succs;
  ForEachNeighbour(graph.graph, node, Direction::kDescendants,
                   [&](uint32_t s) { succs.push_back(s); });
  std::sort(succs.begin(),
            succs.end());  // already ascending (pairs are sorted); kept cheap
  return succs;
}

std::vector<ReachedNode> Reach(const DepGraph& graph, uint32_t start, Direction direction,
                               uint32_t max_depth) {
  std::vector<ReachedNode> reached;
  // Depth per node: O(V) memory for one query, small next to the graph itself.
  std::vector<uint32_t> depth(graph.nodes.size(), kUnseen);
  depth[start] = 0;
  std::vector<uint32_t> frontier = {start}, next;
  for (uint32_t d = 1; !frontier.empty() && (max_depth == 0 || d <= max_depth); ++d) {
    next.clear();
    for (uint32_t u : frontier) {
      ForEachNeighbour(graph.graph, u, direction, [&](uint32_t v) {
        if (depth[v] != kUnseen) return;
        depth[v] = d;
        next.push_back(v);
      });
    }
    std::sort(next.begin(), next.end());
    for (uint32_t v : next) reached.push_back({v, d});
    frontier.swap(next);
  }
  return reached;
}

bool ShortestPath(const DepGraph& graph, uint32_t from, uint32_t to, std::vector<uint32_t>* path) {
  path->clear();
  std::vector<uint32_t> parent(graph.nodes.size(), kUnseen);
  parent[from] = from;
  std::vector<uint32_t> queue = {from};
  for (size_t head = 0; head < queue.size() && parent[to] == kUnseen; ++head) {
    const uint32_t u = queue[head];
    for (auto [it, end] = boost::out_edges(u, graph.graph); it != end; ++it) {
      const uint32_t v = static_cast<uint32_t>(boost::target(*it, graph.graph));
      if (parent[v] != kUnseen) continue;
      parent[v] = u;
      queue.push_back(v);
    }
  }
  if (parent[to] == kUnseen) return false;
  for (uint32_t v = to; v != from; v = parent[v]) path->push_back(v);
  path->push_back(from);
  std::reverse(path->begin(), path->end());
  return true;
}

std::vector<uint32_t> GrepTasks(const std::vector<TaskLabel>& labels, std::string_view pattern) {
  std::vector<uint32_t> found;
  auto lower = [](unsigned char c) { return static_cast<char>(std::tolower(c)); };
  std::string needle(pattern.size(), '\0');
  std::transform(pattern.begin(), pattern.end(), needle.begin(), lower);
  std::string name;
  for (size_t node = 0; node < labels.size(); ++node) {
    const std::string& func = labels[node].func_name;
    if (func.size() < needle.size()) continue;
    name.resize(func.size());
    std::transform(func.begin(), func.end(), name.begin(), lower);
    if (name.find(needle) != std::string::npos) found.push_back(static_cast<uint32_t>(node));
  }
  return found;
}

}  // namespace depgraph
