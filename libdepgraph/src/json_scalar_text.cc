#include "json_scalar_text.h"

#include <cstdlib>
#include <string_view>

#include "depgraph/json_writer.h"

namespace depgraph {

bool ReadScalarText(JsonReader* reader, std::string* text, PyInt* value) {
  text->clear();
  *value = PyInt{};
  switch (reader->Peek()) {
    case JsonKind::kNumber: {
      std::string_view token;
      if (!reader->ReadNumber(&token)) return false;
      *value = PyIntFromNumber(token);
      if (token.find_first_of(".eE") != std::string_view::npos) {
        *text = PythonFloatRepr(std::strtod(std::string(token).c_str(), nullptr));
      } else if (token.size() > 1 && token[0] == '-' &&
                 token.find_first_not_of('0', 1) == std::string_view::npos) {
        *text = "0";
      } else {
        *text = std::string(token);
      }
      return true;
    }
    case JsonKind::kString: {
      std::string_view s;
      if (!reader->ReadString(&s)) return false;
      *value = PyIntFromString(s);
      *text = std::string(s);
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

}  // namespace depgraph
