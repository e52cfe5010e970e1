#include "depgraph/render/text_report.h"

#include <algorithm>
#include <charconv>

namespace depgraph {

namespace {

void AppendNumber(std::string* out, uint64_t value) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  out->append(buf, end);
}

void AppendSigned(std::string* out, int64_t value) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  out->append(buf, end);
}

void AppendId(std::string* out, TaskId id, IdDisplay display) {
  if (display == IdDisplay::kHbgSpace) {
    out->append(FormatTaskId(id, display));
    return;
  }
  if (display == IdDisplay::kLocal) {
    AppendNumber(out, LocalOf(id));
    return;
  }
  out->push_back('(');
  AppendNumber(out, RingOf(id));
  out->append(", ");
  AppendNumber(out, LocalOf(id));
  out->push_back(')');
}

// "kind=submit func_id=[a,b,c][ SPMD block num = N]"
void AppendKindAndFunc(std::string* out, const DepGraph& graph, uint32_t node,
                       const TaskLabel& label) {
  out->append("kind=");
  out->append(TaskKindName(label.kind));
  const Task* task = graph.TaskOfNode(node);
  if (label.kind == TaskKind::kSubmit) {
    out->append(" func_id=[");
    for (int i = 0; i < 3; ++i) {
      if (i) out->push_back(',');
      AppendSigned(out, task->kernel_ids[i]);
    }
    out->push_back(']');
  } else {
    out->append(" func_id=none");
  }
  if (task != nullptr && task->block_num > 1) {
    out->append(" SPMD block num = ");
    AppendSigned(out, task->block_num);
  }
}

// Shown neighbours of every node, as CSR adjacency sorted by node index (= id order).
struct ShownAdjacency {
  std::vector<uint32_t> out_offsets, in_offsets, in_nodes;
};

ShownAdjacency BuildShownAdjacency(const DepGraph& graph, const EdgeSelection& selection) {
  ShownAdjacency adj;
  const size_t n = graph.nodes.size();
  adj.out_offsets.assign(n + 1, 0);
  adj.in_offsets.assign(n + 1, 0);
  for (size_t p = 0; p < graph.pairs.size(); ++p) {
    if (!selection.shown[p]) continue;
    ++adj.out_offsets[graph.pairs[p].pred + 1];
    ++adj.in_offsets[graph.pairs[p].succ + 1];
  }
  for (size_t i = 1; i <= n; ++i) {
    adj.out_offsets[i] += adj.out_offsets[i - 1];
    adj.in_offsets[i] += adj.in_offsets[i - 1];
  }
  adj.in_nodes.resize(adj.in_offsets[n]);
  std::vector<uint32_t> cursor(adj.in_offsets.begin(), adj.in_offsets.end() - 1);
  // Pairs are sorted by pred, so each succ's in-list fills in ascending pred order.
  for (size_t p = 0; p < graph.pairs.size(); ++p) {
    if (!selection.shown[p]) continue;
    adj.in_nodes[cursor[graph.pairs[p].succ]++] = graph.pairs[p].pred;
  }
  return adj;
}

}  // namespace

TextReportCounts CountTextReport(const DepGraph& graph, const EdgeSelection& selection) {
  TextReportCounts counts;
  counts.tasks = graph.nodes.size();
  counts.unique_edges = selection.shown_count;
  for (const EdgeRow& row : graph.rows) counts.annotated_edges += selection.shown[row.pair];
  return counts;
}

void WriteTextReport(const DepGraph& graph, const EdgeSelection& selection,
                     const std::vector<TaskLabel>& labels, const std::string& source_path,
                     std::ostream& out) {
  const TextReportCounts counts = CountTextReport(graph, selection);
  const IdDisplay rings = graph.Display();
  bool any_active = false;
  for (const Task& task : graph.tasks) any_active = any_active || task.HasActiveKernel();
  bool any_name = false;
  for (const TaskLabel& label : labels) {
    any_name = any_name || !label.func_name.empty();
    any_active = any_active || label.perf;  // "perf metadata" is the sidecar's or the slots'
  }

  // The buffer grows to at most 1 MiB before each flush; small reports reserve what they need.
  std::string buf;
  buf.reserve(
      std::min<size_t>(size_t{1} << 20, 4096 + graph.nodes.size() * 128 + graph.rows.size() * 96));
  auto flush = [&](bool force) {
    if (force || buf.size() > (1 << 20) - 4096) {
      out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
      buf.clear();
    }
  };
  buf += "SUMMARY\n  source_deps_json: " + source_path + "\n  tasks: ";
  AppendNumber(&buf, counts.tasks);
  buf += "\n  unique_task_edges: ";
  AppendNumber(&buf, counts.unique_edges);
  buf += "\n  annotated_edges: ";
  AppendNumber(&buf, counts.annotated_edges);
  buf += "\n  tensors: ";
  AppendNumber(&buf, graph.tensors.size());
  buf += any_active ? "\n  perf_sidecar: yes" : "\n  perf_sidecar: no";
  buf += any_name ? "\n  func_name_map: yes\n" : "\n  func_name_map: no\n";
  buf += "\nTASK INDEX\n";

  const ShownAdjacency adj = BuildShownAdjacency(graph, selection);
  const uint32_t n = static_cast<uint32_t>(graph.nodes.size());
  // The out-neighbours of u are the shown pairs in [FirstPairOf(u), FirstPairOf(u+1)).
  std::vector<uint32_t> first_pair(n + 1);
  for (uint32_t u = 0, p = 0; u <= n; ++u) {
    while (p < graph.pairs.size() && graph.pairs[p].pred < u) ++p;
    first_pair[u] = p;
  }

  for (uint32_t u = 0; u < n; ++u) {
    buf += "TASK ";
    AppendId(&buf, graph.nodes[u], rings);
    buf.push_back(' ');
    AppendKindAndFunc(&buf, graph, u, labels[u]);
    buf += " fanin=";
    AppendNumber(&buf, adj.in_offsets[u + 1] - adj.in_offsets[u]);
    buf += " fanout=";
    AppendNumber(&buf, adj.out_offsets[u + 1] - adj.out_offsets[u]);
    buf.push_back('\n');
    flush(false);
  }
  for (uint32_t u = 0; u < n; ++u) {
    buf += "\n=== TASK ";
    AppendId(&buf, graph.nodes[u], rings);
    buf.push_back(' ');
    AppendKindAndFunc(&buf, graph, u, labels[u]);
    buf += " ===\nFANIN ";
    AppendNumber(&buf, adj.in_offsets[u + 1] - adj.in_offsets[u]);
    buf.push_back('\n');
    for (uint32_t i = adj.in_offsets[u]; i < adj.in_offsets[u + 1]; ++i) {
      buf += "  <- ";
      AppendId(&buf, graph.nodes[adj.in_nodes[i]], rings);
      buf.push_back('\n');
    }
    buf += "FANOUT ";
    AppendNumber(&buf, adj.out_offsets[u + 1] - adj.out_offsets[u]);
    buf.push_back('\n');
    for (uint32_t p = first_pair[u]; p < first_pair[u + 1]; ++p) {
      if (!selection.shown[p]) continue;
      buf += "  -> ";
      AppendId(&buf, graph.nodes[graph.pairs[p].succ], rings);
      buf.push_back('\n');
    }
    flush(false);
  }
  flush(true);
}

}  // namespace depgraph
