#include "depgraph_passes/ir_directive.h"

namespace depgraph::passes {

bool RunDirective::Has(const std::string& flag) const {
  for (const std::string& f : flags) {
    if (f == flag) return true;
  }
  return false;
}

std::string TargetText(const ExpectTarget& target) {
  switch (target.kind) {
    case TargetKind::kCall: return target.name + "#" + std::to_string(target.index);
    case TargetKind::kScope: return "scope#" + std::to_string(target.index);
    case TargetKind::kFunc: return "func " + target.name;
    case TargetKind::kStderr: return "stderr";
    case TargetKind::kMat: return "mat " + target.name;
  }
  return "";
}

/// Quotes `s` with backslash escapes for '"' and '\\' and "\n". O(size).
static std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string FactText(const Fact& fact) {
  switch (fact.form) {
    case FactForm::kFlag: return fact.key;
    case FactForm::kValue: return fact.key + "=" + (fact.items.empty() ? "" : fact.items[0]);
    case FactForm::kString: return fact.key.empty() ? Quote(fact.text) : fact.key + "=" + Quote(fact.text);
    case FactForm::kList: {
      std::string out = fact.key + "=[";
      for (size_t i = 0; i < fact.items.size(); ++i) {
        if (i) out += ", ";
        out += fact.items[i];
      }
      return out + "]";
    }
  }
  return "";
}

}  // namespace depgraph::passes
