#include "html_page.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numeric>
#include <utility>

#include "depgraph/internal/html_escape.h"
#include "depgraph/render/dot_writer.h"
#include "graphviz_page_assets.h"
#include "graphviz_render.h"
#include "svg_layers.h"

namespace depgraph {

namespace {

void AppendUnicodeEscape(std::string* out, uint32_t unit) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "\\u%04x", unit);
  *out += buffer;
}

// Decodes one UTF-8 sequence at text[*i]; malformed input yields U+FFFD and one byte.
uint32_t NextCodePoint(std::string_view text, size_t* i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(*i);
  int length = lead >= 0xF0 && lead < 0xF5 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
  if (lead >= 0xF5) length = 0;
  if (length == 0 || *i + length > text.size()) {
    ++*i;
    return 0xFFFD;
  }
  uint32_t cp = lead & (0x7F >> length);
  for (int k = 1; k < length; ++k) {
    unsigned char c = byte(*i + k);
    if ((c & 0xC0) != 0x80) {
      ++*i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (c & 0x3F);
  }
  static constexpr uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMinimum[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++*i;
    return 0xFFFD;
  }
  *i += length;
  return cp;
}

// Appends a JSON string literal: ASCII only, like Python's json.dumps, plus < > & escaped; a
// NUL becomes the two characters `\0`, as in the drawing's labels (dot_writer.h).
void AppendJsonString(std::string* out, std::string_view text) {
  *out += '"';
  size_t i = 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++i;
      switch (c) {
        case '"': *out += "\\\""; break;
        case '\\': *out += "\\\\"; break;
        case '\n': *out += "\\n"; break;
        case '\r': *out += "\\r"; break;
        case '\t': *out += "\\t"; break;
        case '\b': *out += "\\b"; break;
        case '\f': *out += "\\f"; break;
        case '<':
        case '>':
        case '&': AppendUnicodeEscape(out, c); break;
        case '\0': *out += "\\\\0"; break;
        default:
          if (c < 0x20) {
            AppendUnicodeEscape(out, c);
          } else {
            *out += static_cast<char>(c);
          }
      }
      continue;
    }
    uint32_t cp = NextCodePoint(text, &i);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      AppendUnicodeEscape(out, 0xD800 + (cp >> 10));
      AppendUnicodeEscape(out, 0xDC00 + (cp & 0x3FF));
    } else {
      AppendUnicodeEscape(out, cp);
    }
  }
  *out += '"';
}

// The detail panel's bucket of a node.
std::string NameHint(const DepGraph& graph, const TaskLabel& label, uint32_t node) {
  if (label.kind == TaskKind::kAlloc) return "alloc";
  if (label.kind == TaskKind::kDummy) return "dummy";
  if (!label.func_name.empty()) return label.func_name;
  if (label.perf) return "f-1";  // the sidecar's kernel id is always -1 (reference quirk)
  if (const Task* task = graph.TaskOfNode(node)) {
    for (int64_t id : task->kernel_ids) {
      if (id < 0) continue;
      std::string hint = "f";
      hint += std::to_string(id);
      return hint;
    }
  }
  return "unknown";
}

// Node indices ordered by their DOT id as a string (the order of sort_keys=True).
std::vector<std::pair<std::string, uint32_t>> NodesByDotId(const DepGraph& graph) {
  std::vector<std::pair<std::string, uint32_t>> order;
  order.reserve(graph.nodes.size());
  for (uint32_t n = 0; n < graph.nodes.size(); ++n) order.emplace_back(DotNodeId(graph.nodes[n]), n);
  std::sort(order.begin(), order.end());
  return order;
}

// Appends [[hint, count], ...] for the peers, by count descending, then hint.
void AppendHintCounts(std::string* out, const std::vector<std::string>& hints,
                      const uint32_t* peers, size_t count) {
  std::map<std::string_view, uint32_t> counts;
  for (size_t i = 0; i < count; ++i) ++counts[hints[peers[i]]];
  std::vector<std::pair<std::string_view, uint32_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  *out += '[';
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (i) *out += ',';
    *out += '[';
    AppendJsonString(out, sorted[i].first);
    *out += ',';
    *out += std::to_string(sorted[i].second);
    *out += ']';
  }
  *out += ']';
}

size_t ShownCount(const DepGraph& graph, const std::vector<uint8_t>& shown) {
  if (shown.empty()) return graph.pairs.size();
  return static_cast<size_t>(std::count_if(shown.begin(), shown.end(),
                                           [](uint8_t s) { return s != 0; }));
}

}  // namespace

std::string SpmdBlocksJson(const DepGraph& graph) {
  std::string out = "{";
  bool first = true;
  for (const auto& [id, node] : NodesByDotId(graph)) {
    const Task* task = graph.TaskOfNode(node);
    if (task == nullptr || task->block_num <= 1) continue;
    if (!first) out += ',';
    first = false;
    AppendJsonString(&out, id);
    out += ':';
    out += std::to_string(task->block_num);
  }
  out += '}';
  return out;
}

std::string DepStatsJson(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                         const std::vector<uint8_t>& shown) {
  size_t n = graph.nodes.size();
  const IdDisplay rings = graph.Display();
  std::vector<std::string> hints(n);
  std::vector<std::string> dot_ids(n);
  for (uint32_t node = 0; node < n; ++node) {
    hints[node] = NameHint(graph, labels[node], node);
    dot_ids[node] = DotNodeId(graph.nodes[node]);
  }
  auto drawn = [&](uint32_t p) -> uint8_t { return shown.empty() || shown[p] != 0 ? 1 : 0; };
  // Predecessor lists as a CSR by successor (pairs come sorted by (pred, succ), so each list
  // is ascending); successors are the pairs' contiguous runs. Each entry is a pair index.
  std::vector<uint32_t> pred_offsets(n + 1, 0), pred_pairs(graph.pairs.size());
  std::vector<uint32_t> succ_offsets(n + 1, 0);
  for (const Pair& pair : graph.pairs) {
    ++pred_offsets[pair.succ + 1];
    ++succ_offsets[pair.pred + 1];
  }
  for (size_t i = 1; i <= n; ++i) {
    pred_offsets[i] += pred_offsets[i - 1];
    succ_offsets[i] += succ_offsets[i - 1];
  }
  std::vector<uint32_t> cursor(pred_offsets.begin(), pred_offsets.end() - 1);
  for (uint32_t p = 0; p < graph.pairs.size(); ++p) pred_pairs[cursor[graph.pairs[p].succ]++] = p;

  std::vector<uint32_t> peers;
  auto append_peers = [&](std::string* out, const uint32_t* pairs, size_t count, bool pred_side) {
    *out += '[';
    for (size_t i = 0; i < count; ++i) {
      const Pair& pair = graph.pairs[pairs[i]];
      if (i) *out += ',';
      *out += '[';
      AppendJsonString(out, dot_ids[pred_side ? pair.pred : pair.succ]);
      *out += drawn(pairs[i]) ? ",1]" : ",0]";
    }
    *out += ']';
  };
  auto append_hints = [&](std::string* out, const uint32_t* pairs, size_t count, bool pred_side) {
    peers.clear();
    for (size_t i = 0; i < count; ++i) {
      const Pair& pair = graph.pairs[pairs[i]];
      peers.push_back(pred_side ? pair.pred : pair.succ);
    }
    AppendHintCounts(out, hints, peers.data(), peers.size());
  };

  // The pair indices in order: a node's successor pairs are the run from succ_offsets[node].
  std::vector<uint32_t> succ_pairs(graph.pairs.size());
  std::iota(succ_pairs.begin(), succ_pairs.end(), 0u);
  std::string out = "{";
  bool first = true;
  for (const auto& [id, node] : NodesByDotId(graph)) {
    if (!first) out += ',';
    first = false;
    const uint32_t* in = pred_pairs.data() + pred_offsets[node];
    const uint32_t* outs = succ_pairs.data() + succ_offsets[node];
    uint32_t fanin = pred_offsets[node + 1] - pred_offsets[node];
    uint32_t fanout = succ_offsets[node + 1] - succ_offsets[node];
    uint32_t drawn_in = 0, drawn_out = 0;
    for (uint32_t i = 0; i < fanin; ++i) drawn_in += drawn(in[i]);
    for (uint32_t i = 0; i < fanout; ++i) drawn_out += drawn(outs[i]);
    AppendJsonString(&out, id);
    out += ":{\"id\":\"" + std::to_string(graph.nodes[node]) + '"';
    out += ",\"fanin\":" + std::to_string(fanin) + ",\"fanout\":" + std::to_string(fanout);
    out += ",\"drawn_in\":" + std::to_string(drawn_in);
    out += ",\"drawn_out\":" + std::to_string(drawn_out);
    out += ",\"label\":";
    AppendJsonString(&out, FormatTaskId(graph.nodes[node], rings));
    out += ",\"name_hint\":";
    AppendJsonString(&out, hints[node]);
    out += ",\"preds\":";
    append_peers(&out, in, fanin, true);
    out += ",\"succs\":";
    append_peers(&out, outs, fanout, false);
    out += ",\"pred_by_hint\":";
    append_hints(&out, in, fanin, true);
    out += ",\"succ_by_hint\":";
    append_hints(&out, outs, fanout, false);
    out += '}';
  }
  out += '}';
  return out;
}

std::string CaptureName(std::string_view source) {
  std::string resolved(source);
  if (!source.empty()) {
    std::error_code ec;
    std::filesystem::path absolute = std::filesystem::absolute(resolved, ec);
    if (!ec) resolved = absolute.lexically_normal().generic_string();
  }
  source = resolved;
  std::vector<std::string_view> parts;
  size_t begin = 0;
  for (size_t i = 0; i <= source.size(); ++i) {
    if (i < source.size() && source[i] != '/' && source[i] != '\\') continue;
    std::string_view part = source.substr(begin, i - begin);
    if (!part.empty() && part != ".") parts.push_back(part);
    begin = i + 1;
  }
  std::string name;
  size_t first = parts.size() > 3 ? parts.size() - 3 : 0;
  for (size_t i = first; i < parts.size(); ++i) {
    if (!name.empty()) name += '/';
    name += parts[i];
  }
  return name;
}

std::string BuildHtmlPage(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                          const std::vector<uint8_t>& shown, const HtmlOptions& options,
                          std::string_view svg) {
  size_t svg_start = svg.find("<svg");
  if (svg_start != std::string_view::npos) svg = svg.substr(svg_start);
  const size_t total = graph.pairs.size(), drawn = ShownCount(graph, shown);
  std::string nodes = std::to_string(graph.nodes.size()) + " nodes";
  std::string edges = std::to_string(drawn);
  if (drawn != total) edges += " of " + std::to_string(total);
  edges += " edges";
  std::string capture = options.source.empty() ? "deps.json" : CaptureName(options.source);
  std::string spmd = SpmdBlocksJson(graph);
  std::string stats = DepStatsJson(graph, labels, shown);
  std::string_view style = assets::kGraphvizPageCss;
  std::string_view chrome = assets::kGraphvizPagePanelHtml;
  std::string_view script = assets::kGraphvizPageJs;

  std::string page;
  page.reserve(svg.size() + stats.size() + spmd.size() + style.size() + chrome.size() +
               script.size() + 4096);
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<title>";
  AppendHtmlEscaped(&page, capture);
  page += " \xE2\x80\x94 ";
  AppendHtmlEscaped(&page, options.edge_mode);
  page += ": " + nodes + ", " + edges + "</title>\n";
  page += "<style>";
  page += style;
  page += "</style>\n</head>\n<body>\n<div id=\"stage\">\n";
  page += svg;
  page += "\n</div>\n<header id=\"hud\" class=\"panel\">\n  <span id=\"capture\">";
  AppendHtmlEscaped(&page, capture);
  page += "</span><span id=\"edge-mode\" class=\"mode\" title=\"edge mode (--edge-mode)\">";
  AppendHtmlEscaped(&page, options.edge_mode);
  page += "</span>\n  <span class=\"count\">" + nodes + "</span><span>\xC2\xB7</span>";
  page += "<span class=\"count\" id=\"edge-counts\">" + edges + "</span>";
  if (drawn != total) {
    page += "<span class=\"ghost-note\">" + std::to_string(total - drawn) +
            " not in this mode, drawn as faint dashed ghosts</span>";
  }
  page += "\n  <span class=\"keys\"><span><kbd>drag</kbd>pan</span><span><kbd>scroll</kbd>pan</span>"
          "<span><kbd>ctrl+scroll</kbd>zoom</span><span><kbd>click</kbd>task</span>"
          "<span><kbd>f</kbd>fit</span><span><kbd>r</kbd>reset</span>"
          "<span><kbd>esc</kbd>close</span></span>\n</header>";
  page += chrome;
  page += "<script>\nconst spmdBlocks = ";
  page += spmd;
  page += ";\nconst depStats = ";
  page += stats;
  page += ";\n";
  page += script;
  page += "</script>\n</body>\n</html>\n";
  return page;
}

bool RenderHtmlPage(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                    const std::vector<uint8_t>& shown, const HtmlOptions& options,
                    std::string* html, std::string* err, std::string* warnings) {
  html->clear();
  if (!IsLayoutEngine(options.engine)) {
    *err = "unknown Graphviz layout engine '" + options.engine +
           "' (expected dot, neato, sfdp, fdp, circo or twopi)";
    return false;
  }
  DotOptions dot_options;
  dot_options.rankdir = options.rankdir;
  dot_options.rich = options.rich;
  std::string dot = WriteDot(graph, labels, shown, dot_options);
  std::string svg;
  if (!RenderSvgWithGraphviz(dot, options.engine, &svg, err, warnings)) return false;
  dot.clear();
  dot.shrink_to_fit();
  size_t svg_start = svg.find("<svg");
  if (svg_start != std::string::npos && svg_start > 0) svg.erase(0, svg_start);
  if (ShownCount(graph, shown) != graph.pairs.size()) svg = LayerSvgEdges(svg);
  *html = BuildHtmlPage(graph, labels, shown, options, svg);
  return true;
}

}  // namespace depgraph
