#include "depgraph_passes/depir_lexer.h"

#include <charconv>
#include <cstdio>

namespace depgraph::passes {
namespace {

bool IsIdStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdChar(char c) { return IsIdStart(c) || IsDigit(c); }

}  // namespace

std::vector<Token> LexDepir(std::string_view text) {
  std::vector<Token> out;
  size_t i = 0;
  int line = 1;
  size_t line_start = 0;
  auto make = [&](TokKind kind, size_t at) {
    Token t;
    t.kind = kind;
    t.line = line;
    t.col = static_cast<int>(at - line_start) + 1;
    return t;
  };
  while (true) {
    // Skip blanks and comments.
    while (i < text.size()) {
      char c = text[i];
      if (c == '\n') {
        ++line;
        line_start = ++i;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++i;
      } else if ((c == '/' && i + 1 < text.size() && text[i + 1] == '/') ||
                 (c == '#' && !(i > 0 && IsIdChar(text[i - 1]) && i + 1 < text.size() &&
                                IsDigit(text[i + 1])))) {
        while (i < text.size() && text[i] != '\n') ++i;
      } else {
        break;
      }
    }
    if (i >= text.size()) {
      out.push_back(make(TokKind::kEof, i));
      return out;
    }
    char c = text[i];
    size_t start = i;
    if (IsIdStart(c)) {
      while (i < text.size() && IsIdChar(text[i])) ++i;
      Token t = make(TokKind::kId, start);
      t.text = std::string(text.substr(start, i - start));
      out.push_back(std::move(t));
    } else if (IsDigit(c) || (c == '-' && i + 1 < text.size() && IsDigit(text[i + 1]))) {
      ++i;
      while (i < text.size() && IsDigit(text[i])) ++i;
      Token t = make(TokKind::kInt, start);
      t.text = std::string(text.substr(start, i - start));
      auto [p, ec] = std::from_chars(text.data() + start, text.data() + i, t.value);
      if (ec != std::errc() || p != text.data() + i) {
        Token e = make(TokKind::kError, start);
        e.text = "integer out of range";
        out.push_back(std::move(e));
        return out;
      }
      if (i < text.size() && IsIdStart(text[i])) {
        Token e = make(TokKind::kError, i);
        e.text = "unexpected character '" + std::string(1, text[i]) + "'";
        out.push_back(std::move(e));
        return out;
      }
      out.push_back(std::move(t));
    } else if (c == '"') {
      Token t = make(TokKind::kString, start);
      ++i;
      bool closed = false;
      while (i < text.size() && text[i] != '\n') {
        char d = text[i++];
        if (d == '"') {
          closed = true;
          break;
        }
        if (d == '\\' && i < text.size()) {
          char e = text[i++];
          t.text += e == 'n' ? '\n' : e;
        } else {
          t.text += d;
        }
      }
      if (!closed) {
        Token e = make(TokKind::kError, start);
        e.text = "unterminated string";
        out.push_back(std::move(e));
        return out;
      }
      out.push_back(std::move(t));
    } else if (c == '-' && i + 1 < text.size() && text[i + 1] == '>') {
      Token t = make(TokKind::kPunct, start);
      t.text = "->";
      i += 2;
      out.push_back(std::move(t));
    } else if (std::string_view("()[]{},=:#@").find(c) != std::string_view::npos) {
      Token t = make(TokKind::kPunct, start);
      t.text = std::string(1, c);
      ++i;
      out.push_back(std::move(t));
    } else {
      Token e = make(TokKind::kError, start);
      unsigned char u = static_cast<unsigned char>(c);
      if (u >= 0x20 && u < 0x7f) {
        e.text = "unexpected character '" + std::string(1, c) + "'";
      } else {
        char buf[8];
        snprintf(buf, sizeof buf, "0x%02x", u);
        e.text = std::string("unexpected byte ") + buf;
      }
      out.push_back(std::move(e));
      return out;
    }
  }
}

}  // namespace depgraph::passes
