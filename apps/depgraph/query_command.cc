#include "query_command.h"
#include "depgraph/support/printable_text.h"

#include <cstdio>

#include "cli_inputs.h"
#include "depgraph/graph/graph_query.h"
#include "depgraph/graph/task_groups.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/internal/message_quote.h"
#include "depgraph/support/json_writer.h"

namespace depgraph {

namespace {

// What the answers need to name tasks: the graph, its labels and the display
// convention.
struct QueryContext {
  const DepGraph& graph;
  const std::vector<TaskLabel>& labels;
  IdDisplay rings = IdDisplay::kLocal;

  std::string Display(uint32_t node) const { return FormatTaskId(graph.nodes[node], rings); }
  // "QK" for a submit ("f3" without a name map), else its kind ("alloc", "dummy").
  std::string Name(uint32_t node) const {
    const TaskLabel& label = labels[node];
    if (!label.func_name.empty()) return PrintableText(label.func_name);
    return TaskKindName(label.kind);
  }
};

void AppendIdList(std::string* out, const DepGraph& graph, const std::vector<uint32_t>& nodes) {
  *out += '[';
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (i) *out += ", ";
    *out += JsonId(graph.nodes[nodes[i]]);
  }
  *out += ']';
}

void AppendReachList(std::string* out, const DepGraph& graph,
                     const std::vector<ReachedNode>& reached) {
  *out += '[';
  for (size_t i = 0; i < reached.size(); ++i) {
    if (i) *out += ", ";
    *out += "{\"id\": " + JsonId(graph.nodes[reached[i].node]) +
            ", \"depth\": " + std::to_string(reached[i].depth) + "}";
  }
  *out += ']';
}

void PrintNodeList(std::ostream& out, const QueryContext& ctx, const char* title,
                   const std::vector<uint32_t>& nodes) {
  out << title << " (" << nodes.size() << ")" << (nodes.empty() ? ": none\n" : ":\n");
  for (uint32_t node : nodes) out << "  " << ctx.Display(node) << "  " << ctx.Name(node) << "\n";
}

void PrintReachList(std::ostream& out, const QueryContext& ctx, const char* title,
                    const std::vector<ReachedNode>& reached, uint32_t depth) {
  out << title << " to depth " << depth << " (" << reached.size() << ")"
      << (reached.empty() ? ": none\n" : ":\n");
  for (const ReachedNode& r : reached) {
    out << "  " << r.depth << "  " << ctx.Display(r.node) << "  " << ctx.Name(r.node) << "\n";
  }
}

// Resolves a task reference to a query task; prints the one-line error
// otherwise.
bool Resolve(const QueryArgs& args, const DepGraph& graph, const std::string& text, QueryTask* task,
             std::ostream& err, int* code) {
  TaskId id = 0;
  std::string error;
  if (!ParseTaskRef(text, &id, &error)) {
    err << "error: " << error << "\n";
    *code = 2;
    return false;
  }
  if (!FindQueryTask(graph, id, task)) {
    err << "error: " << args.input << ": no task " << text << " (id " << id << ")\n";
    *code = 1;
    return false;
  }
  return true;
}

int AnswerTask(const QueryArgs& args, const QueryContext& ctx, std::ostream& out,
               std::ostream& err) {
  QueryTask task;
  int code = 0;
  if (!Resolve(args, ctx.graph, args.task, &task, err, &code)) return code;
  std::vector<uint32_t> preds, succs;
  std::vector<ReachedNode> ancestors, descendants;
  if (task.node >= 0) {
    const uint32_t node = static_cast<uint32_t>(task.node);
    preds = Predecessors(ctx.graph, node);
    succs = Successors(ctx.graph, node);
    if (args.depth > 0) {
      ancestors = Reach(ctx.graph, node, Direction::kAncestors, args.depth);
      descendants = Reach(ctx.graph, node, Direction::kDescendants, args.depth);
    }
  }
  if (args.json) {
    std::string text = "{\"task\": " + JsonId(task.id) + ", \"preds\": ";
    AppendIdList(&text, ctx.graph, preds);
    text += ", \"succs\": ";
    AppendIdList(&text, ctx.graph, succs);
    if (args.depth > 0) {
      text += ", \"depth\": " + std::to_string(args.depth) + ", \"ancestors\": ";
      AppendReachList(&text, ctx.graph, ancestors);
      text += ", \"descendants\": ";
      AppendReachList(&text, ctx.graph, descendants);
    }
    out << text << "}\n";
    return 0;
  }
  if (task.node < 0) {
    out << "task " << FormatTaskId(task.id, ctx.rings)
        << "  dummy (no kernel, no edges: not drawn by deps_viewer)\n";
  } else {
    out << "task " << ctx.Display(static_cast<uint32_t>(task.node)) << "  "
        << ctx.Name(static_cast<uint32_t>(task.node)) << "\n";
  }
  PrintNodeList(out, ctx, "predecessors", preds);
  PrintNodeList(out, ctx, "successors", succs);
  if (args.depth > 0) {
    PrintReachList(out, ctx, "ancestors", ancestors, args.depth);
    PrintReachList(out, ctx, "descendants", descendants, args.depth);
  }
  return 0;
}

int AnswerPath(const QueryArgs& args, const QueryContext& ctx, std::ostream& out,
               std::ostream& err) {
  QueryTask from, to;
  int code = 0;
  if (!Resolve(args, ctx.graph, args.path[0], &from, err, &code) ||
      !Resolve(args, ctx.graph, args.path[1], &to, err, &code)) {
    return code;
  }
  std::vector<uint32_t> path;
  bool found = false;
  if (from.node >= 0 && to.node >= 0) {
    found = ShortestPath(ctx.graph, static_cast<uint32_t>(from.node),
                         static_cast<uint32_t>(to.node), &path);
  }
  const bool same = from.id == to.id;  // an isolated dummy reaches itself too
  if (args.json) {
    std::string text =
        "{\"from\": " + JsonId(from.id) + ", \"to\": " + JsonId(to.id) + ", \"path\": ";
    if (found) {
      AppendIdList(&text, ctx.graph, path);
    } else if (same) {
      text += "[" + JsonId(from.id) + "]";
    } else {
      text += "null";
    }
    out << text << "}\n";
    return 0;
  }
  const std::string a = FormatTaskId(from.id, ctx.rings), b = FormatTaskId(to.id, ctx.rings);
  if (!found && !same) {
    out << "no path from " << a << " to " << b << "\n";
    return 0;
  }
  const size_t steps = found ? path.size() : 1;
  out << "path from " << a << " to " << b << " (" << steps - 1 << " edge(s)):\n";
  if (!found) {
    out << "  " << a << "\n";
    return 0;
  }
  for (uint32_t node : path) out << "  " << ctx.Display(node) << "  " << ctx.Name(node) << "\n";
  return 0;
}

int AnswerGrep(const QueryArgs& args, const QueryContext& ctx, std::ostream& out) {
  const std::vector<uint32_t> found = GrepTasks(ctx.labels, args.grep);
  if (args.json) {
    std::string text = "{\"grep\": " + JsonString(args.grep) + ", \"tasks\": [";
    for (size_t i = 0; i < found.size(); ++i) {
      if (i) text += ", ";
      text += "{\"id\": " + JsonId(ctx.graph.nodes[found[i]]) +
              ", \"name\": " + JsonString(ctx.labels[found[i]].func_name) + "}";
    }
    out << text << "]}\n";
    return 0;
  }
  out << "tasks whose kernel name contains \"" << PrintableText(args.grep) << "\" (" << found.size() << ")"
      << (found.empty() ? ": none\n" : ":\n");
  for (uint32_t node : found) out << "  " << ctx.Display(node) << "  " << ctx.Name(node) << "\n";
  return 0;
}

// --groups: one line per series, children indented under the first series of their kind
// printed; at most kGroupLines series per list, then a line counting the rest.
constexpr size_t kGroupLines = 20;

std::string GroupLine(const QueryContext& ctx, const TaskGrouping& g, const GroupSeries& s,
                      uint32_t begin) {
  const GroupKind& kind = g.kinds[s.kind];
  const uint32_t end = begin + s.count * kind.size - 1;
  std::string line = "G" + std::to_string(s.kind) + " x" + std::to_string(s.count) + " (" +
                     std::to_string(kind.size) + (kind.size == 1 ? " node" : " nodes") + " each";
  if (kind.tasks != kind.size) {
    const uint32_t allocs = kind.size - kind.tasks;
    line += ", " + std::to_string(allocs) + (allocs == 1 ? " alloc" : " allocs");
  }
  // Names come from the name map: escaped, so no control character reaches the terminal.
  line += ": " + EscapeForMessage(kind.label) + ")  " + ctx.Display(g.order[begin]) + ".." +
          ctx.Display(g.order[end]);
  return line;
}

void PrintGroupList(std::ostream& out, const QueryContext& ctx, const TaskGrouping& g,
                    const std::vector<GroupSeries>& list, uint32_t base, int indent,
                    std::vector<bool>* shown) {
  const std::string pad(static_cast<size_t>(indent) * 2, ' ');
  for (size_t i = 0; i < list.size(); ++i) {
    if (i == kGroupLines) {
      uint64_t rest = 0;
      for (size_t k = i; k < list.size(); ++k) {
        rest += uint64_t{list[k].count} * g.kinds[list[k].kind].size;
      }
      out << pad << "... " << list.size() - i << " more series (" << rest << " nodes)\n";
      return;
    }
    const GroupSeries& s = list[i];
    out << pad << GroupLine(ctx, g, s, base + s.begin) << "\n";
    if (!(*shown)[s.kind]) {  // a kind's inside once, for its first instance printed
      (*shown)[s.kind] = true;
      PrintGroupList(out, ctx, g, g.kinds[s.kind].children, base + s.begin, indent + 1, shown);
    }
  }
}

// The series of `list` as JSON, children for the first instance of each.
void AppendGroupSeries(std::string* out, const QueryContext& ctx, const TaskGrouping& g,
                       const std::vector<GroupSeries>& list, uint32_t base) {
  *out += '[';
  for (size_t i = 0; i < list.size(); ++i) {
    const GroupSeries& s = list[i];
    const GroupKind& kind = g.kinds[s.kind];
    const uint32_t begin = base + s.begin;
    if (i) *out += ", ";
    *out += "{\"kind\": " + std::to_string(s.kind) + ", \"count\": " + std::to_string(s.count) +
            ", \"size\": " + std::to_string(kind.size) +
            ", \"first\": " + JsonId(ctx.graph.nodes[g.order[begin]]) +
            ", \"last\": " + JsonId(ctx.graph.nodes[g.order[begin + s.count * kind.size - 1]]) +
            ", \"children\": ";
    AppendGroupSeries(out, ctx, g, kind.children, begin);
    *out += '}';
  }
  *out += ']';
}

int AnswerGroups(const QueryArgs& args, const QueryContext& ctx, std::ostream& out) {
  const TaskGrouping g = ComputeTaskGroups(ctx.graph, ctx.labels);
  const size_t nodes = ctx.graph.nodes.size();
  if (args.json) {
    std::string text = "{\"groups\": {\"nodes\": " + std::to_string(nodes) +
                       ", \"covered\": " + std::to_string(g.covered) + ", \"kinds\": [";
    for (size_t k = 0; k < g.kinds.size(); ++k) {
      const GroupKind& kind = g.kinds[k];
      if (k) text += ", ";
      text += "{\"id\": " + std::to_string(k) + ", \"label\": " + JsonString(kind.label) +
              ", \"size\": " + std::to_string(kind.size) +
              ", \"tasks\": " + std::to_string(kind.tasks) +
              ", \"kernels\": " + std::to_string(kind.kernels) +
              ", \"depth\": " + std::to_string(kind.depth) +
              ", \"instances\": " + std::to_string(kind.instances) + ", \"children\": [";
      for (size_t c = 0; c < kind.children.size(); ++c) {
        const GroupSeries& child = kind.children[c];
        if (c) text += ", ";
        text += "{\"kind\": " + std::to_string(child.kind) +
                ", \"count\": " + std::to_string(child.count) +
                ", \"offset\": " + std::to_string(child.begin) + "}";
      }
      text += "]}";
    }
    text += "], \"series\": ";
    AppendGroupSeries(&text, ctx, g, g.series, 0);
    out << text << "}}\n";
    return 0;
  }
  std::vector<bool> shown(g.kinds.size(), false);
  PrintGroupList(out, ctx, g, g.series, 0, 0, &shown);
  char percent[16];
  std::snprintf(percent, sizeof percent, "%.1f",
                nodes ? 100.0 * static_cast<double>(g.covered) / static_cast<double>(nodes) : 0.0);
  out << "in groups: " << g.covered << " of " << nodes << " nodes (" << percent << "%), "
      << g.kinds.size() << (g.kinds.size() == 1 ? " kind, " : " kinds, ") << g.series.size()
      << " top-level series\n";
  return 0;
}

}  // namespace

int RunQueryCommand(const QueryArgs& args, std::ostream& out, std::ostream& err) {
  const int questions =
      !args.task.empty() + !args.path.empty() + !args.grep.empty() + args.groups;
  if (questions != 1) {
    err << "error: give exactly one of --task ID, --path A B, --grep NAME, --groups\n";
    return 2;
  }
  if (args.depth > 0 && args.task.empty()) {
    err << "error: --depth goes with --task\n";
    return 2;
  }
  DepGraph graph;
  if (!LoadGraphOrReport(args.input, &graph, err, args.threads, ViewUse::kSkip)) return 1;
  NameMap names;
  if (!LoadNamesOrReport(args.input, args.func_names, &names, err)) return 1;
  std::vector<TaskLabel> labels = ResolveTaskLabels(graph, names);
  NameKernelsById(graph, &labels);  // no name map: kernels are f{id}
  const QueryContext ctx{graph, labels, graph.Display()};
  int code = 0;
  if (!args.task.empty()) {
    code = AnswerTask(args, ctx, out, err);
  } else if (!args.path.empty()) {
    code = AnswerPath(args, ctx, out, err);
  } else if (!args.grep.empty()) {
    code = AnswerGrep(args, ctx, out);
  } else {
    code = AnswerGroups(args, ctx, out);
  }
  out.flush();
  return code;
}

}  // namespace depgraph
