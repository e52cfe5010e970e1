// Tokenizer for depir text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace depgraph::passes {

/// Token kinds. kError carries a lexical error message in `text` and ends the stream.
enum class TokKind { kId, kInt, kString, kPunct, kEof, kError };

/// One token with its 1-based source position.
struct Token {
  TokKind kind = TokKind::kEof;
  std::string text;   ///< identifier, punctuation, string contents (unescaped) or error message
  int64_t value = 0;  ///< kInt
  int line = 1;
  int col = 1;
};

/// Splits `text` into tokens ending in kEof, or in kError at the first lexical error.
/// Identifiers: [A-Za-z_][A-Za-z0-9_]*. Integers: optional '-' then digits (int64).
/// Strings: "..." with \" \\ \n escapes. Punctuation: ( ) [ ] { } , = : -> # @.
/// Comments: `//` to end of line; `#` to end of line unless it directly follows an identifier
/// character and precedes a digit (the `kernel#N` target form). O(text).
std::vector<Token> LexDepir(std::string_view text);

}  // namespace depgraph::passes
