// Opening a streaming loader's input, and its first error with the input's name in front:
// the message plumbing shared by the loaders of timing records and of critical-path inputs.
// Private to libdepgraph.
#pragma once

#include <string>

#include "depgraph/internal/message_quote.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/json_reader.h"

namespace depgraph {

/// Opens `path` for a streaming loader: refuses what is not a regular file before opening it
/// (a FIFO could block the open), then maps it into *reader. False with a one-line message
/// naming the file in *err. O(1).
inline bool OpenLoaderInput(const std::string& path, JsonReader* reader, std::string* err) {
  InputFileError refused;
  if (!CheckRegularInput(path, nullptr, &refused)) {
    *err = refused.message;
    return false;
  }
  std::string open_error;
  if (!reader->Open(path, &open_error)) {
    *err = EscapeForMessage(path) + ": " + open_error;
    return false;
  }
  return true;
}

/// Keeps the first error a loader meets while it walks one JsonReader, as "<name>: <reader's
/// line:column message>" for a syntax error or "<name>: <where>: <message>" for a semantic
/// one; later errors are dropped, so the message names where reading first went wrong. Every
/// reporting call returns false, for `return errors.At(...)` in a reader step. O(message).
class FirstError {
 public:
  /// `name`: the input as messages name it (escaped for a one-line message here).
  FirstError(const JsonReader& reader, const std::string& name)
      : reader_(reader), name_(EscapeForMessage(name)) {}

  /// The reader's own error. Always false.
  bool Syntax() {
    if (error_.empty()) error_ = name_ + ": " + reader_.error();
    return false;
  }
  /// Syntax() when the reader has failed, else true.
  bool Check() { return reader_.failed() ? Syntax() : true; }
  /// A semantic error at `where` (a JSON path; "" for the document). Always false.
  bool At(const std::string& where, const std::string& message) {
    if (error_.empty()) error_ = name_ + ": " + (where.empty() ? "" : where + ": ") + message;
    return false;
  }
  /// The message of a failed load: the first error, or "<name>: invalid input" if none was
  /// reported.
  std::string Message() const { return error_.empty() ? name_ + ": invalid input" : error_; }
  /// The input's name as messages show it.
  const std::string& name() const { return name_; }

 private:
  const JsonReader& reader_;
  std::string name_;
  std::string error_;
};

}  // namespace depgraph
