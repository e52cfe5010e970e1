// Escaping text for HTML (page text, attribute values, Graphviz HTML-like labels).
#pragma once

#include <string>
#include <string_view>

namespace depgraph {

/// Appends `text` with & < > " replaced by their HTML entities; other bytes (UTF-8 included)
/// pass through. O(|text|).
void AppendHtmlEscaped(std::string* out, std::string_view text);

}  // namespace depgraph
