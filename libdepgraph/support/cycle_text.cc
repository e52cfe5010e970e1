#include "depgraph/support/cycle_text.h"

namespace depgraph {

std::string CycleMessage(std::string_view prefix, size_t count,
                         const std::function<std::string(size_t)>& id) {
  std::string text(prefix);
  if (count <= kMaxFullCycleIds) {
    text += ":";
    for (size_t i = 0; i < count; ++i) text += (i ? " -> " : " ") + id(i);
    return text;
  }
  text += " of " + std::to_string(count - 1) + " tasks:";
  for (size_t i = 0; i < kCycleEndIds; ++i) text += (i ? " -> " : " ") + id(i);
  text += " -> ...";
  for (size_t i = count - kCycleEndIds; i < count; ++i) text += " -> " + id(i);
  return text;
}

}  // namespace depgraph
