// Parsing of the depir `run` and `expect` directives into data.
#pragma once

#include <string>

#include "depgraph_passes/ir.h"
#include "type_reader.h"

namespace depgraph::passes {

/// Adds directive parsing (`run`, `expect`) to TypeReader; results are appended to *prog_.
/// Each Parse* returns false after recording the first error; cost O(tokens read).
class DirectiveReader : public TypeReader {
 public:
  using TypeReader::TypeReader;

 protected:
  /// run flag {flag} (one line), at the `run` keyword.
  bool ParseRun() {
    int line = Take().line;
    RunDirective r;
    while (Peek().kind == TokKind::kId && !IsTopKeyword(Peek()) && Peek().line == line) {
      std::string flag = Take().text;
      if (IsPunct("=")) {
        Take();
        const Token& v = Peek();
        if (v.kind != TokKind::kId && v.kind != TokKind::kInt) {
          return Fail(v, "expected integer or identifier");
        }
        flag += "=" + Take().text;
      }
      r.flags.push_back(std::move(flag));
    }
    if (r.flags.empty()) return Fail(Peek(), "expected run flag");
    prog_->runs.push_back(std::move(r));
    return true;
  }

  /// item := ID ['@' INT] | INT
  bool ParseFactItem(std::string* out) {
    const Token& t = Peek();
    if (t.kind == TokKind::kInt) {
      *out = Take().text;
      return true;
    }
    if (!TakeId(out, "identifier or integer")) return false;
    if (IsPunct("@")) {
      Take();
      int64_t k;
      if (!TakeInt(&k)) return false;
      *out += "@" + std::to_string(k);
    }
    return true;
  }

  /// expect target {fact}, at the `expect` keyword.
  bool ParseExpect() {
    ExpectDirective e;
    e.line = Take().line;
    const Token& t = Peek();
    std::string word;
    if (!TakeId(&word, "expect target")) return false;
    if (IsPunct("#")) {
      Take();
      e.target.kind = word == "scope" ? TargetKind::kScope : TargetKind::kCall;
      if (e.target.kind == TargetKind::kCall) e.target.name = word;
      if (!TakeInt(&e.target.index)) return false;
    } else if (word == "func" || word == "mat") {
      e.target.kind = word == "func" ? TargetKind::kFunc : TargetKind::kMat;
      if (!TakeId(&e.target.name, "function name")) return false;
    } else if (word == "stderr") {
      e.target.kind = TargetKind::kStderr;
    } else {
      return Fail(t, "expected expect target");
    }
    while (!AtEof() && !IsTopKeyword(Peek())) {
      Fact f;
      if (Peek().kind == TokKind::kString) {
        f.form = FactForm::kString;
        f.text = Take().text;
      } else {
        if (!TakeId(&f.key, "fact")) return false;
        if (IsPunct("=")) {
          Take();
          if (IsPunct("[")) {
            Take();
            f.form = FactForm::kList;
            if (!IsPunct("]")) {
              while (true) {
                std::string item;
                if (!ParseFactItem(&item)) return false;
                f.items.push_back(std::move(item));
                if (!IsPunct(",")) break;
                Take();
              }
            }
            if (!Expect("]")) return false;
          } else if (Peek().kind == TokKind::kString) {
            f.form = FactForm::kString;
            f.text = Take().text;
          } else {
            f.form = FactForm::kValue;
            std::string item;
            if (!ParseFactItem(&item)) return false;
            f.items.push_back(std::move(item));
          }
        }
      }
      e.facts.push_back(std::move(f));
    }
    if (!CheckLex(Peek())) return false;
    prog_->expects.push_back(std::move(e));
    return true;
  }

  Program* prog_ = nullptr;
};

}  // namespace depgraph::passes
