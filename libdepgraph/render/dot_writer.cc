#include "depgraph/render/dot_writer.h"

#include <algorithm>
#include <cstdio>
#include <string_view>
#include <unordered_map>

#include "depgraph/internal/html_escape.h"

namespace depgraph {

namespace {

// A kernel name cut to kMaxDotLabelBytes (at a UTF-8 character boundary) with "..." appended:
// Graphviz lays out a multi-megabyte label for minutes. Ordinary names are unchanged.
std::string_view ShortLabelCut(std::string_view name) {
  if (name.size() <= kMaxDotLabelBytes) return name;
  size_t cut = kMaxDotLabelBytes;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xc0) == 0x80) --cut;
  return name.substr(0, cut);
}
std::string ShortLabel(std::string_view name) {
  std::string text(ShortLabelCut(name));
  if (text.size() < name.size()) text += "...";
  return text;
}

// UTF-8 spellings of the symbols the labels use.
constexpr std::string_view kFire = "\xF0\x9F\x94\xA5";  // U+1F525
constexpr std::string_view kStar = "\xE2\xAD\x90";      // U+2B50
constexpr std::string_view kDot = "\xC2\xB7";           // U+00B7 middle dot
constexpr std::string_view kDown = "\xE2\x86\x93";      // U+2193
constexpr std::string_view kUp = "\xE2\x86\x91";        // U+2191

constexpr std::string_view kSpmdColor = "#C62828";
constexpr std::string_view kHiddenAttrs =
    "class=\"hidden-edge\", color=\"#eef2f7\", fontcolor=\"#eef2f7\"";

// Shape, style and fill of a plain node.
struct NodeStyle {
  std::string_view shape;
  std::string_view style;
  std::string_view fill;
};
constexpr NodeStyle kAicStyle{"box", "rounded,filled", "#66A3FF"};
constexpr NodeStyle kAivStyle{"ellipse", "filled", "#FFB366"};
constexpr NodeStyle kMixStyle{"diamond", "filled", "#66CC99"};
constexpr NodeStyle kAllocStyle{"note", "filled,dashed", "#EAEAEA"};
constexpr NodeStyle kDefaultStyle{"box", "rounded,filled", "#E0E0E0"};

NodeStyle PlainStyle(const TaskLabel& label) {
  if (label.kind == TaskKind::kAlloc) return kAllocStyle;
  if (label.kind != TaskKind::kSubmit) return kDefaultStyle;
  switch (label.core) {
    case CoreType::kAic: return kAicStyle;
    case CoreType::kAiv: return kAivStyle;
    case CoreType::kMix: return kMixStyle;
    case CoreType::kNone: break;
  }
  return kDefaultStyle;
}

std::string_view HeaderColor(const TaskLabel& label) {
  switch (label.core) {
    case CoreType::kAic: return "#66A3FF";
    case CoreType::kAiv: return "#FFB366";
    case CoreType::kMix: return "#66CC99";
    case CoreType::kNone: break;
  }
  return label.kind == TaskKind::kAlloc ? "#EAEAEA" : "#D8D8D8";
}

// Appends `text` escaped for a double-quoted DOT string. A NUL byte (of a kernel name or an
// overlap string) becomes `\\0`, drawn as `\0`: Graphviz reads DOT as a C string, so a raw
// NUL would end the text mid-label and make the rest a syntax error.
void AppendDotEscaped(std::string* out, std::string_view text) {
  for (char c : text) {
    if (c == '\0') {
      *out += "\\\\0";
    } else if (c == '\\') {
      *out += "\\\\";
    } else if (c == '"') {
      *out += "\\\"";
    } else if (c == '\n') {
      *out += "\\n";
    } else {
      *out += c;
    }
  }
}

// Appends `text` escaped for a Graphviz HTML-like label (a NUL as `\0`).
void AppendLabelHtml(std::string* out, std::string_view text) {
  for (size_t nul = text.find('\0'); nul != std::string_view::npos; nul = text.find('\0')) {
    AppendHtmlEscaped(out, text.substr(0, nul));
    *out += "\\0";
    text.remove_prefix(nul + 1);
  }
  AppendHtmlEscaped(out, text);
}

std::string LowerCase(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string FormatDims(const int64_t* data, size_t size) {
  std::string out = "[";
  for (size_t i = 0; i < size; ++i) {
    if (i) out += ',';
    out += std::to_string(data[i]);
  }
  out += ']';
  return out;
}

bool IsOutputSide(ArgType type) {
  return type == ArgType::kOutput || type == ArgType::kOutputExisting || type == ArgType::kInOut;
}

// Per-argument tensor ids after the OUTPUT back-fill.
class ArgTensorIds {
 public:
  ArgTensorIds(const DepGraph& graph, std::vector<std::pair<uint32_t, TaskId>> inferred)
      : graph_(graph), inferred_(std::move(inferred)) {}

  // The tensor id of graph.args[index], if any; *inferred tells whether it was back-filled.
  bool Get(uint32_t index, TaskId* id, bool* inferred) const {
    const TaskArg& arg = graph_.args[index];
    *inferred = false;
    if (arg.tensor_id_state == FieldState::kValid) {
      *id = arg.tensor_id;
      return true;
    }
    auto it = std::lower_bound(inferred_.begin(), inferred_.end(), index,
                               [](const auto& entry, uint32_t value) { return entry.first < value; });
    if (it == inferred_.end() || it->first != index) return false;
    *id = it->second;
    *inferred = true;
    return true;
  }

 private:
  const DepGraph& graph_;
  std::vector<std::pair<uint32_t, TaskId>> inferred_;
};

// Writes DOT for one graph; holds the per-node facts every line needs.
class DotWriter {
 public:
  DotWriter(const DepGraph& graph, const std::vector<TaskLabel>& labels,
            const std::vector<uint8_t>& shown, const DotOptions& options)
      : graph_(graph),
        labels_(labels),
        shown_(shown),
        options_(options),
        rich_(options.rich && !graph.tasks.empty()),
        rings_(graph.Display()),
        arg_ids_(graph, rich_ ? InferOutputTensorIds(graph)
                              : std::vector<std::pair<uint32_t, TaskId>>{}) {}

  std::string Write() {
    size_t n = graph_.nodes.size();
    fanin_.assign(n, 0);
    fanout_.assign(n, 0);
    for (const Pair& pair : graph_.pairs) {
      ++fanout_[pair.pred];
      ++fanin_[pair.succ];
    }
    markers_ = ComputeNodeMarkers(graph_, labels_);
    node_ids_.reserve(n);
    for (TaskId id : graph_.nodes) node_ids_.push_back(DotNodeId(id));

    out_.reserve(n * 96 + graph_.pairs.size() * 32 + (rich_ ? graph_.rows.size() * 48 : 0));
    out_ += "digraph deps {\n  rankdir=";
    out_ += options_.rankdir;
    out_ += ";\n  concentrate=false;\n";
    out_ += "  node [fontname=\"Helvetica\", fontsize=10];\n";
    out_ += "  edge [color=\"#888888\"];\n";
    for (uint32_t node = 0; node < n; ++node) {
      const Task* task = graph_.TaskOfNode(node);
      if (rich_ && task != nullptr) {
        WriteRichNode(node, *task);
      } else {
        WritePlainNode(node, task);
      }
    }
    if (rich_) graph_.RowsByPair(&row_offsets_, &row_ids_);
    for (uint32_t p = 0; p < graph_.pairs.size(); ++p) WriteEdges(p);
    out_ += "}\n";
    return std::move(out_);
  }

 private:
  // "[marker ]{id}[ · suffix] ↓a ↑b"
  std::string Headline(uint32_t node, std::string_view suffix) const {
    std::string text;
    if (!markers_[node].empty()) {
      text += markers_[node];
      text += ' ';
    }
    text += FormatTaskId(graph_.nodes[node], rings_);
    if (!suffix.empty()) {
      text += ' ';
      text += kDot;
      text += ' ';
      text += ShortLabel(suffix);
    }
    text += ' ';
    text += kDown;
    text += std::to_string(fanin_[node]);
    text += ' ';
    text += kUp;
    text += std::to_string(fanout_[node]);
    return text;
  }

  void WritePlainNode(uint32_t node, const Task* task) {
    const TaskLabel& label = labels_[node];
    std::string_view suffix = label.func_name;
    if (label.kind == TaskKind::kAlloc) suffix = "alloc";
    if (label.kind == TaskKind::kDummy) suffix = "dummy";
    NodeStyle style = PlainStyle(label);
    out_ += "  ";
    out_ += node_ids_[node];
    out_ += " [label=\"";
    AppendDotEscaped(&out_, Headline(node, suffix));
    out_ += "\", shape=";
    out_ += style.shape;
    out_ += ", style=\"";
    out_ += style.style;
    out_ += "\", fillcolor=\"";
    out_ += style.fill;
    out_ += '"';
    if (task != nullptr && task->block_num > 1) {
      out_ += ", color=\"";
      out_ += kSpmdColor;
      out_ += "\", penwidth=1.5";
    }
    AppendSpmdBadge(task);
    out_ += "];\n";
  }

  // The export form's `xN` badge of an SPMD task, as an external label: ", xlabel=<...>".
  void AppendSpmdBadge(const Task* task) {
    if (options_.form != DotForm::kExport || task == nullptr || task->block_num <= 1) return;
    out_ += ", xlabel=<<FONT COLOR=\"";
    out_ += kSpmdColor;
    out_ += "\" POINT-SIZE=\"8\"><B>x";
    out_ += std::to_string(task->block_num);
    out_ += "</B></FONT>>";
  }

  void WriteRichNode(uint32_t node, const Task& task) {
    const TaskLabel& label = labels_[node];
    out_ += "  ";
    out_ += node_ids_[node];
    out_ += " [shape=none, margin=0, label=<<TABLE ";
    if (task.block_num > 1) {
      out_ += "BORDER=\"1\" COLOR=\"";
      out_ += kSpmdColor;
      out_ += '"';
    } else {
      out_ += "BORDER=\"0\"";
    }
    out_ += " CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"3\">";
    for (uint32_t i = 0; i < task.num_args; ++i) {
      ArgType type = graph_.args[task.first_arg + i].type;
      if (type == ArgType::kInput || type == ArgType::kInOut) {
        WriteArgRow(task.first_arg + i, "in", "#EAF2FF");
      }
    }
    out_ += "<TR><TD ALIGN=\"CENTER\" BGCOLOR=\"";
    out_ += HeaderColor(label);
    out_ += "\"><B>";
    AppendLabelHtml(&out_, Headline(node, label.func_name));
    out_ += "</B></TD></TR>";
    for (uint32_t i = 0; i < task.num_args; ++i) {
      if (IsOutputSide(graph_.args[task.first_arg + i].type)) {
        WriteArgRow(task.first_arg + i, "out", "#FFF2E5");
      }
    }
    out_ += "</TABLE>>";
    AppendSpmdBadge(&task);
    out_ += "];\n";
  }

  // One table row for an argument: identity line plus storage/shape/strides/offset.
  void WriteArgRow(uint32_t index, std::string_view side, std::string_view color) {
    const TaskArg& arg = graph_.args[index];
    std::string idx = std::to_string(arg.idx);
    out_ += "<TR><TD ALIGN=\"LEFT\" PORT=\"";
    out_ += side;
    out_ += '_';
    out_ += idx;
    out_ += "\" BGCOLOR=\"";
    out_ += color;
    out_ += "\">";
    TaskId tensor_id = 0;
    bool inferred = false;
    std::string head = "arg" + idx + " " + ArgTypeName(arg.type);
    if (!arg_ids_.Get(index, &tensor_id, &inferred)) {
      AppendHtmlEscaped(&out_, head + " (alloc)");
      out_ += "</TD></TR>";
      return;
    }
    const Tensor* tensor = graph_.FindTensor(tensor_id);
    if (inferred) head += " ?";
    head += ' ';
    if (tensor != nullptr) {
      head += 'T' + std::to_string(tensor->index);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "%04x", static_cast<unsigned>(tensor_id & 0xFFFF));
      head += "T?";
      head += hex;
    }
    const View& view = graph_.ViewOf(arg);
    if (view.dtype_state == FieldState::kValid && view.dtype != DType::kOther) {
      head += ':' + LowerCase(DTypeName(view.dtype));
    } else if (tensor != nullptr && tensor->dtype_state == FieldState::kValid &&
               tensor->dtype != DType::kOther) {
      head += ':' + LowerCase(DTypeName(tensor->dtype));
    }
    bool has_numel = tensor != nullptr && tensor->numel_state == FieldState::kValid;

    std::string shape = "[]";
    size_t rank = 0;
    if (view.shape.state == FieldState::kValid) {
      shape = FormatDims(graph_.DimData(view.shape), view.shape.size);
      rank = view.shape.size;
    } else if (view.shape.state == FieldState::kInvalid) {
      shape = "[?]";
    } else if (inferred && has_numel) {
      shape = "[" + std::to_string(tensor->buffer_numel) + "]";
      rank = 1;
    }
    std::string strides = "[]";
    if (view.strides.state == FieldState::kValid) {
      strides = FormatDims(graph_.DimData(view.strides), view.strides.size);
    } else if (view.strides.state == FieldState::kInvalid) {
      strides = "[?]";
    } else if (inferred && rank > 0) {
      strides = "[";
      for (size_t i = 0; i < rank; ++i) strides += i ? ",1" : "1";
      strides += ']';
    }
    std::string offset = "?";
    if (view.start_offset_state == FieldState::kValid) {
      offset = std::to_string(view.start_offset);
    } else if (inferred && view.start_offset_state == FieldState::kAbsent) {
      offset = "0";
    }

    constexpr std::string_view kBreak = "<BR ALIGN=\"LEFT\"/>";
    AppendHtmlEscaped(&out_, head);
    out_ += kBreak;
    out_ += "<FONT POINT-SIZE=\"9\">";
    AppendHtmlEscaped(&out_, has_numel
                                 ? "storage: " + std::to_string(tensor->buffer_numel) + " elems"
                                 : std::string("storage: ?"));
    out_ += kBreak;
    AppendHtmlEscaped(&out_, "shape: " + shape);
    out_ += kBreak;
    AppendHtmlEscaped(&out_, "strides: " + strides);
    out_ += kBreak;
    AppendHtmlEscaped(&out_, "start_offset: " + offset + " (elem)");
    out_ += kBreak;
    out_ += "</FONT></TD></TR>";
  }

  // The `out_{idx}` port of `pred` that carries `tensor_id`, or "".
  std::string TailPort(uint32_t pred, TaskId tensor_id) const {
    const Task* task = graph_.TaskOfNode(pred);
    if (task == nullptr) return {};
    for (uint32_t i = 0; i < task->num_args; ++i) {
      uint32_t index = task->first_arg + i;
      if (!IsOutputSide(graph_.args[index].type)) continue;
      TaskId id = 0;
      bool inferred = false;
      if (arg_ids_.Get(index, &id, &inferred) && id == tensor_id) {
        return "out_" + std::to_string(graph_.args[index].idx);
      }
    }
    return {};
  }

  void WriteEdges(uint32_t p) {
    const Pair& pair = graph_.pairs[p];
    bool hidden = !shown_.empty() && shown_[p] == 0;
    if (hidden && options_.form == DotForm::kExport) return;
    if (!rich_ || row_offsets_[p] == row_offsets_[p + 1]) {
      out_ += "  ";
      out_ += node_ids_[pair.pred];
      out_ += " -> ";
      out_ += node_ids_[pair.succ];
      if (hidden) {
        out_ += " [";
        out_ += kHiddenAttrs;
        out_ += ']';
      }
      out_ += ";\n";
      return;
    }
    for (uint32_t k = row_offsets_[p]; k < row_offsets_[p + 1]; ++k) {
      const EdgeRow& row = graph_.rows[row_ids_[k]];
      out_ += "  ";
      out_ += node_ids_[pair.pred];
      if (row.tensor_id_state == FieldState::kValid) {
        std::string port = TailPort(pair.pred, row.tensor_id);
        if (!port.empty()) {
          out_ += ':';
          out_ += port;
          out_ += ":e";
        }
      }
      out_ += " -> ";
      out_ += node_ids_[pair.succ];
      if (row.arg_state == FieldState::kValid && row.arg >= 0) {
        out_ += ":in_";
        out_ += std::to_string(row.arg);
        out_ += ":w";
      }
      std::string attrs;
      if (hidden) {
        attrs = kHiddenAttrs;
      } else {
        if (row.source == EdgeSource::kExplicit) attrs = "style=\"dashed\", color=\"#B0B0B0\"";
        const std::string& overlap = graph_.overlap_names[row.overlap];
        if (row.overlap != 0 && !overlap.empty() && overlap != "covered") {
          if (!attrs.empty()) attrs += ", ";
          attrs += "label=\"";
          std::string escaped;
          AppendHtmlEscaped(&escaped, overlap);
          AppendDotEscaped(&attrs, escaped);
          attrs += "\", fontsize=8, fontcolor=\"#C04040\"";
        }
      }
      if (!attrs.empty()) {
        out_ += " [";
        out_ += attrs;
        out_ += ']';
      }
      out_ += ";\n";
    }
  }

  const DepGraph& graph_;
  const std::vector<TaskLabel>& labels_;
  const std::vector<uint8_t>& shown_;
  const DotOptions& options_;
  const bool rich_;
  const IdDisplay rings_;
  const ArgTensorIds arg_ids_;
  std::vector<uint32_t> fanin_, fanout_;
  std::vector<std::string> markers_;
  std::vector<std::string> node_ids_;
  std::vector<uint32_t> row_offsets_, row_ids_;
  std::string out_;
};

}  // namespace

std::string DotNodeId(TaskId id) {
  std::string out = "T";
  out += std::to_string(id >> 32);
  out += '_';
  out += std::to_string(LocalOf(id));
  return out;
}

std::vector<std::string> ComputeNodeMarkers(const DepGraph& graph,
                                            const std::vector<TaskLabel>& labels) {
  size_t n = graph.nodes.size();
  std::vector<uint8_t> fire(n, 0);
  for (uint32_t node = 0; node < n; ++node) {
    const Task* task = graph.TaskOfNode(node);
    fire[node] = labels[node].kind == TaskKind::kAlloc || (task != nullptr && task->early_dispatch);
  }
  // Per node: has a predecessor / every predecessor fires / some predecessor is no alloc.
  std::vector<uint8_t> has_pred(n, 0), all_fire(n, 1), any_real(n, 0);
  for (const Pair& pair : graph.pairs) {
    has_pred[pair.succ] = 1;
    if (!fire[pair.pred]) all_fire[pair.succ] = 0;
    if (labels[pair.pred].kind != TaskKind::kAlloc) any_real[pair.succ] = 1;
  }
  std::vector<std::string> markers(n);
  for (uint32_t node = 0; node < n; ++node) {
    if (fire[node]) markers[node] += kFire;
    if (has_pred[node] && all_fire[node] && any_real[node]) markers[node] += kStar;
  }
  return markers;
}

std::vector<std::pair<uint32_t, TaskId>> InferOutputTensorIds(const DepGraph& graph) {
  std::vector<std::pair<uint32_t, TaskId>> result;
  if (graph.tasks.empty()) return result;
  std::vector<uint32_t> offsets, row_ids;
  graph.RowsByPair(&offsets, &row_ids);
  // The reference tool walks pairs in the order their first row appeared.
  std::vector<uint32_t> order;
  for (uint32_t p = 0; p < graph.pairs.size(); ++p) {
    if (offsets[p] != offsets[p + 1]) order.push_back(p);
  }
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return row_ids[offsets[a]] < row_ids[offsets[b]];
  });
  std::unordered_map<uint32_t, TaskId> assigned;  // argument index -> inferred id
  auto find_assigned = [&](uint32_t index) -> const TaskId* {
    auto it = assigned.find(index);
    return it == assigned.end() ? nullptr : &it->second;
  };
  for (uint32_t p : order) {
    const Task* task = graph.TaskOfNode(graph.pairs[p].pred);
    if (task == nullptr) continue;
    for (uint32_t k = offsets[p]; k < offsets[p + 1]; ++k) {
      const EdgeRow& row = graph.rows[row_ids[k]];
      if (row.source != EdgeSource::kCreator || row.tensor_id_state != FieldState::kValid) {
        continue;
      }
      bool known = false;
      int unassigned_count = 0;
      uint32_t unassigned = 0;
      for (uint32_t i = 0; i < task->num_args && !known; ++i) {
        uint32_t index = task->first_arg + i;
        const TaskArg& arg = graph.args[index];
        const TaskId* id = arg.tensor_id_state == FieldState::kValid ? &arg.tensor_id
                                                                     : find_assigned(index);
        if (arg.type == ArgType::kInOut || arg.type == ArgType::kOutputExisting) {
          known = id != nullptr && *id == row.tensor_id;
        } else if (arg.type == ArgType::kOutput) {
          if (id == nullptr) {
            ++unassigned_count;
            unassigned = index;
          } else {
            known = *id == row.tensor_id;
          }
        }
      }
      if (!known && unassigned_count == 1) assigned.emplace(unassigned, row.tensor_id);
    }
  }
  result.assign(assigned.begin(), assigned.end());
  std::sort(result.begin(), result.end());
  return result;
}

std::string WriteDot(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                     const std::vector<uint8_t>& shown, const DotOptions& options) {
  return DotWriter(graph, labels, shown, options).Write();
}

}  // namespace depgraph
