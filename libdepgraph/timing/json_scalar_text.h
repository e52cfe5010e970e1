// Python's str() and int() of a JSON scalar read from a JsonReader: the join keys of the timing
// tools (a task id is the text Python prints for the value, spec/timing.md §1.3). Private.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "depgraph/internal/py_int.h"
#include "depgraph/support/json_reader.h"

namespace depgraph {

/// The next value of `reader` if it is a scalar: *text = Python's str() of it (an integer's
/// decimal digits with "-0" as "0", a float's repr, a string verbatim, "True", "False",
/// "None") and *value = int() of it (kInvalid for null). Returns false and consumes nothing
/// when the next value is an object or an array (*text empty); false on a syntax error too
/// (then reader->failed()). O(token).
bool ReadScalarText(JsonReader* reader, std::string* text, PyInt* value);

/// True iff `text` is the decimal form Python prints for an integer in [0, 2^64) (digits, no
/// leading zero), with that integer in *value: such keys are equal iff their values are, so
/// they can be indexed by number. O(|text|).
bool CanonicalDecimal(std::string_view text, uint64_t* value);

}  // namespace depgraph
