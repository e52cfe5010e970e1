// Text from captures (kernel names) made safe for a terminal.
#pragma once

#include <string>
#include <string_view>

namespace depgraph {

/// `text` with every control character written as a visible escape `\xNN` (one per byte): the
/// C0 controls 0x00-0x1f (ESC, newline and tab included), DEL 0x7f, the C1 controls U+0080-U+009F
/// in UTF-8 (both bytes) and the raw bytes 0x80-0x9f that are not part of valid UTF-8 (an 8-bit
/// terminal reads 0x9b as CSI). Everything else, printable ASCII and valid UTF-8 included, is
/// unchanged, so ordinary names print byte for byte as before. For human-readable output only:
/// JSON writers escape on their own. O(|text|).
std::string PrintableText(std::string_view text);

}  // namespace depgraph
