// Token stream with the depir parser's error convention (first error wins, `file:line:col: msg`).
#pragma once

#include <string>
#include <vector>

#include "depgraph_passes/depir_lexer.h"

namespace depgraph::passes {

/// A cursor over LexDepir output plus the first recorded error. The parsing layers
/// (TypeReader, DirectiveReader, the statement parser) derive from it. All helpers are O(1).
class TokenCursor {
 public:
  TokenCursor(std::vector<Token> toks, const std::string& filename)
      : toks_(std::move(toks)), filename_(filename) {
    if (toks_.empty()) toks_.push_back(Token{});
  }

  /// The first error, "" when none.
  const std::string& error() const { return err_; }

 protected:
  /// The token `ahead` positions on (the final Eof/Error token past the end).
  const Token& Peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < toks_.size() ? toks_[i] : toks_.back();
  }
  /// True at the end of input or at a lexical error.
  bool AtEof() const { return Peek().kind == TokKind::kEof || Peek().kind == TokKind::kError; }
  /// Returns the current token and advances (never past the last token).
  const Token& Take() {
    const Token& t = Peek();
    if (pos_ + 1 < toks_.size()) ++pos_;
    return t;
  }
  /// True when the token `ahead` on is the identifier `word`.
  bool IsId(const char* word, size_t ahead = 0) const {
    const Token& t = Peek(ahead);
    return t.kind == TokKind::kId && t.text == word;
  }
  /// True when the token `ahead` on is the punctuation `p`.
  bool IsPunct(const char* p, size_t ahead = 0) const {
    const Token& t = Peek(ahead);
    return t.kind == TokKind::kPunct && t.text == p;
  }
  /// Fails with the lexer's message when `t` is a kError token.
  bool CheckLex(const Token& t) {
    if (t.kind == TokKind::kError) return Fail(t, t.text);
    return true;
  }
  /// Records `msg` at `t` unless an error is already recorded; always returns false.
  bool Fail(const Token& t, const std::string& msg) {
    if (err_.empty()) {
      // A lexical error at this point wins: it is the first problem in the text.
      const std::string& m = t.kind == TokKind::kError ? t.text : msg;
      err_ = filename_ + ":" + std::to_string(t.line) + ":" + std::to_string(t.col) + ": " + m;
    }
    return false;
  }
  /// Consumes punctuation `p` or fails with "expected 'p'".
  bool Expect(const char* p) {
    if (IsPunct(p)) {
      Take();
      return true;
    }
    return Fail(Peek(), std::string("expected '") + p + "'");
  }
  /// Consumes identifier `w` or fails with "expected 'w'".
  bool ExpectWord(const char* w) {
    if (IsId(w)) {
      Take();
      return true;
    }
    return Fail(Peek(), std::string("expected '") + w + "'");
  }
  /// Consumes an identifier into *out or fails with "expected <what>".
  bool TakeId(std::string* out, const char* what = "identifier") {
    if (Peek().kind != TokKind::kId) return Fail(Peek(), std::string("expected ") + what);
    *out = Take().text;
    return true;
  }
  /// Consumes an integer into *out or fails with "expected integer".
  bool TakeInt(int64_t* out) {
    if (Peek().kind != TokKind::kInt) return Fail(Peek(), "expected integer");
    *out = Take().value;
    return true;
  }

  /// True when `t` starts a top-level item (kernel, orch, run, expect).
  static bool IsTopKeyword(const Token& t) {
    return t.kind == TokKind::kId &&
           (t.text == "kernel" || t.text == "orch" || t.text == "run" || t.text == "expect");
  }

  std::vector<Token> toks_;
  size_t pos_ = 0;
  std::string filename_;
  std::string err_;
};

}  // namespace depgraph::passes
