#include "json_scalar_text.h"

#include <cstdlib>
#include <string_view>

#include "depgraph/support/json_writer.h"

namespace depgraph {

bool ReadScalarText(JsonReader* reader, std::string* text, PyInt* value) {
  text->clear();
  *value = PyInt{};
  switch (reader->Peek()) {
    case JsonKind::kNumber: {
      std::string_view token;
      if (!reader->ReadNumber(&token)) return false;
      *value = PyIntFromNumber(token);
      bool integer = true;
      for (char c : token) integer = integer && c != '.' && c != 'e' && c != 'E';
      if (!integer) {
        *text = PythonFloatRepr(std::strtod(std::string(token).c_str(), nullptr));
      } else if (token.size() > 1 && token[0] == '-' &&
                 token.find_first_not_of('0', 1) == std::string_view::npos) {
        *text = "0";
      } else {
        text->assign(token.data(), token.size());
      }
      return true;
    }
    case JsonKind::kString: {
      std::string_view s;
      if (!reader->ReadString(&s)) return false;
      *value = PyIntFromString(s);
      text->assign(s.data(), s.size());
      return true;
    }
    case JsonKind::kTrue:
    case JsonKind::kFalse: {
      bool b = false;
      if (!reader->ReadBool(&b)) return false;
      *value = PyIntFromBool(b);
      *text = b ? "True" : "False";
      return true;
    }
    case JsonKind::kNull:
      if (!reader->ReadNull()) return false;
      *text = "None";
      return true;
    case JsonKind::kInvalid:
      reader->SkipValue();  // sets the reader's syntax error
      return false;
    default:
      return false;
  }
}

bool CanonicalDecimal(std::string_view text, uint64_t* value) {
  if (text.empty() || text.size() > 20 || (text[0] == '0' && text.size() > 1)) return false;
  uint64_t v = 0;
  for (char c : text) {
    const unsigned digit = static_cast<unsigned char>(c) - '0';
    if (digit > 9) return false;
    if (v > (UINT64_MAX - digit) / 10) return false;
    v = v * 10 + digit;
  }
  *value = v;
  return true;
}

}  // namespace depgraph
