#include "svg_layers.h"

#include <cstdlib>
#include <vector>

namespace depgraph {

namespace {

enum class MarkupKind { kOpen, kClose, kEmpty, kOther };

// One piece of markup: a start, end or empty-element tag, or a comment/PI/declaration.
struct Markup {
  MarkupKind kind = MarkupKind::kOther;
  size_t begin = 0;
  size_t end = 0;  // one past the closing '>'
  std::string_view name;
  std::string_view tag;  // the whole tag text
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Reads the markup starting at s[pos] == '<'. False if it never ends or has no name.
bool ReadMarkup(std::string_view s, size_t pos, Markup* m) {
  m->begin = pos;
  auto skip_past = [&](std::string_view terminator) {
    size_t at = s.find(terminator, pos + 2);
    if (at == std::string_view::npos) return false;
    m->kind = MarkupKind::kOther;
    m->end = at + terminator.size();
    return true;
  };
  std::string_view rest = s.substr(pos);
  if (rest.starts_with("<!--")) return skip_past("-->");
  if (rest.starts_with("<![CDATA[")) return skip_past("]]>");
  if (rest.starts_with("<?")) return skip_past("?>");
  if (rest.starts_with("<!")) return skip_past(">");
  bool closing = rest.starts_with("</");
  size_t i = pos + (closing ? 2 : 1);
  size_t name_begin = i;
  while (i < s.size() && !IsSpace(s[i]) && s[i] != '>' && s[i] != '/') ++i;
  if (i == name_begin) return false;
  m->name = s.substr(name_begin, i - name_begin);
  char quote = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      break;
    }
  }
  if (i >= s.size()) return false;
  m->end = i + 1;
  m->tag = s.substr(pos, m->end - pos);
  if (closing) {
    m->kind = MarkupKind::kClose;
  } else {
    m->kind = s[i - 1] == '/' ? MarkupKind::kEmpty : MarkupKind::kOpen;
  }
  return true;
}

// The element name without a namespace prefix.
std::string_view LocalName(std::string_view name) {
  size_t colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

// Decodes character references (&#45; &#x2d; &amp; ...) of an attribute value. References
// outside ASCII are kept verbatim: class names of interest are ASCII.
std::string DecodeReferences(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (size_t i = 0; i < value.size(); ++i) {
    if (value[i] != '&') {
      out += value[i];
      continue;
    }
    size_t semi = value.find(';', i);
    if (semi == std::string_view::npos) {
      out += value[i];
      continue;
    }
    std::string_view ref = value.substr(i + 1, semi - i - 1);
    long code = -1;
    if (ref == "amp") code = '&';
    else if (ref == "lt") code = '<';
    else if (ref == "gt") code = '>';
    else if (ref == "quot") code = '"';
    else if (ref == "apos") code = '\'';
    else if (ref.size() > 1 && ref[0] == '#') {
      bool hex = ref[1] == 'x' || ref[1] == 'X';
      std::string digits(ref.substr(hex ? 2 : 1));
      if (!digits.empty() && digits.size() < 8) {
        char* stop = nullptr;
        long value_code = std::strtol(digits.c_str(), &stop, hex ? 16 : 10);
        if (stop != nullptr && *stop == '\0') code = value_code;
      }
    }
    if (code > 0 && code < 128) {
      out += static_cast<char>(code);
      i = semi;
    } else {
      out += value[i];
    }
  }
  return out;
}

// The decoded `class` attribute of a start tag, or "".
std::string ClassOf(std::string_view tag) {
  size_t i = 1;
  while (i < tag.size() && !IsSpace(tag[i]) && tag[i] != '>' && tag[i] != '/') ++i;
  while (i < tag.size()) {
    while (i < tag.size() && IsSpace(tag[i])) ++i;
    size_t name_begin = i;
    while (i < tag.size() && !IsSpace(tag[i]) && tag[i] != '=' && tag[i] != '>' && tag[i] != '/') {
      ++i;
    }
    std::string_view name = tag.substr(name_begin, i - name_begin);
    while (i < tag.size() && IsSpace(tag[i])) ++i;
    if (i >= tag.size() || tag[i] != '=') {
      if (name.empty()) ++i;  // '/' or '>'
      continue;
    }
    ++i;
    while (i < tag.size() && IsSpace(tag[i])) ++i;
    if (i >= tag.size() || (tag[i] != '"' && tag[i] != '\'')) return {};
    char quote = tag[i++];
    size_t close = tag.find(quote, i);
    if (close == std::string_view::npos) return {};
    if (name == "class") return DecodeReferences(tag.substr(i, close - i));
    i = close + 1;
  }
  return {};
}

// Whether a whitespace-separated class list contains `wanted`.
bool HasClass(std::string_view classes, std::string_view wanted) {
  size_t i = 0;
  while (i < classes.size()) {
    while (i < classes.size() && IsSpace(classes[i])) ++i;
    size_t begin = i;
    while (i < classes.size() && !IsSpace(classes[i])) ++i;
    if (i > begin && classes.substr(begin, i - begin) == wanted) return true;
  }
  return false;
}

enum class Role { kOther, kNode, kVisibleEdge, kHiddenEdge };

Role RoleOf(const Markup& m) {
  if (LocalName(m.name) != "g") return Role::kOther;
  std::string classes = ClassOf(m.tag);
  if (HasClass(classes, "edge")) {
    return HasClass(classes, "hidden-edge") ? Role::kHiddenEdge : Role::kVisibleEdge;
  }
  return HasClass(classes, "node") ? Role::kNode : Role::kOther;
}

// A direct child of the graph group together with the text and comments before it.
struct Unit {
  size_t begin = 0;
  size_t end = 0;
  Role role = Role::kOther;
};

}  // namespace

std::string LayerSvgEdges(std::string_view svg) {
  const std::string unchanged(svg);
  // The top graph group: the first <g> in document order whose class list has "graph".
  size_t pos = 0;
  size_t content_begin = std::string_view::npos;
  Markup m;
  while ((pos = svg.find('<', pos)) != std::string_view::npos) {
    if (!ReadMarkup(svg, pos, &m)) return unchanged;
    if (m.kind == MarkupKind::kOpen && LocalName(m.name) == "g" &&
        HasClass(ClassOf(m.tag), "graph")) {
      content_begin = m.end;
      break;
    }
    pos = m.end;
  }
  if (content_begin == std::string_view::npos) return unchanged;

  // Split the group's content into units, one per direct child element.
  std::vector<Unit> units;
  size_t unit_begin = content_begin;
  size_t content_end = std::string_view::npos;
  int depth = 0;
  Role role = Role::kOther;
  bool any_hidden = false;
  pos = content_begin;
  while (content_end == std::string_view::npos) {
    pos = svg.find('<', pos);
    if (pos == std::string_view::npos || !ReadMarkup(svg, pos, &m)) return unchanged;
    pos = m.end;
    if (depth == 0) {
      switch (m.kind) {
        case MarkupKind::kClose:
          content_end = m.begin;
          break;
        case MarkupKind::kOther:
          break;  // a comment stays with the element that follows it
        case MarkupKind::kEmpty:
          units.push_back({unit_begin, m.end, Role::kOther});
          unit_begin = m.end;
          break;
        case MarkupKind::kOpen:
          role = RoleOf(m);
          any_hidden = any_hidden || role == Role::kHiddenEdge;
          depth = 1;
          break;
      }
      continue;
    }
    if (m.kind == MarkupKind::kOpen) {
      ++depth;
    } else if (m.kind == MarkupKind::kClose && --depth == 0) {
      units.push_back({unit_begin, m.end, role});
      unit_begin = m.end;
    }
  }
  if (!any_hidden) return unchanged;

  std::string hidden, visible;
  for (const Unit& unit : units) {
    if (unit.role == Role::kHiddenEdge) hidden.append(svg.substr(unit.begin, unit.end - unit.begin));
    if (unit.role == Role::kVisibleEdge) {
      visible.append(svg.substr(unit.begin, unit.end - unit.begin));
    }
  }
  std::string layers;
  layers.reserve(hidden.size() + visible.size() + 128);
  layers += "\n<g class=\"edge-layer hidden-edge-layer\">";
  layers += hidden;
  layers += "\n</g>\n<g class=\"edge-layer visible-edge-layer\">";
  layers += visible;
  layers += "\n</g>";

  std::string out;
  out.reserve(svg.size() + 128);
  out.append(svg.substr(0, content_begin));
  bool placed = false;
  for (const Unit& unit : units) {
    if (unit.role == Role::kHiddenEdge || unit.role == Role::kVisibleEdge) continue;
    if (!placed && unit.role == Role::kNode) {
      out += layers;
      placed = true;
    }
    out.append(svg.substr(unit.begin, unit.end - unit.begin));
  }
  if (!placed) out += layers;
  out.append(svg.substr(unit_begin));  // trailing text, </g> and the rest of the document
  return out;
}

}  // namespace depgraph
