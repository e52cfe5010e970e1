#include "raw_records.h"

#include <cmath>
#include <cstdio>

#include "depgraph/internal/message_quote.h"
#include "depgraph/internal/py_int.h"
#include "depgraph/support/json_dom.h"
#include "depgraph/support/json_reader.h"
#include "depgraph/support/json_writer.h"

namespace depgraph {

// A JSON integer token without fraction or exponent that fits 64 bits, signed or not.
bool PlainInteger(std::string_view token, int64_t* value, bool* is_unsigned) {
  const bool negative = !token.empty() && token[0] == '-';
  const std::string_view digits = negative ? token.substr(1) : token;
  if (digits.empty() || digits.size() > 20) return false;
  unsigned __int128 v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  if (negative) {
    if (v > static_cast<unsigned __int128>(INT64_MAX) + 1) return false;
    *value = static_cast<int64_t>(-static_cast<__int128>(v));
    *is_unsigned = false;
    return true;
  }
  if (v > UINT64_MAX) return false;
  *value = static_cast<int64_t>(static_cast<uint64_t>(v));
  *is_unsigned = v > static_cast<unsigned __int128>(INT64_MAX);
  return true;
}

// The DOM of a compact cell.
ordered_json CellJson(const RawRow& row, size_t k) {
  if (row.unsigned_mask & (1u << k)) return static_cast<uint64_t>(row.cells[k]);
  return row.cells[k];
}

// "key[i]", for messages.
std::string RowPath(std::string_view key, size_t i) {
  return std::string(key) + "[" + std::to_string(i) + "]";
}

// Reads row `i` of `key` at the reader's position into `rows`. Paths for messages are built
// only when a value is read into a DOM (rare): this runs once per record of a capture.
bool ReadRawRow(JsonReader& reader, std::string_view key, size_t i, RawRows* rows,
                std::string* err) {
  RawRow row;
  auto to_odd = [&](ordered_json value) {
    row.odd = static_cast<int32_t>(rows->odd.size());
    rows->odd.push_back(std::move(value));
  };
  if (reader.Peek() != JsonKind::kArray) {
    ordered_json value;
    if (!ReadJsonValue(&reader, RowPath(key, i), &value, err)) return false;
    to_odd(std::move(value));
    rows->rows.push_back(row);
    return true;
  }
  auto cell_path = [&](size_t k) { return RowPath(key, i) + "[" + std::to_string(k) + "]"; };
  if (!reader.BeginArray()) return false;
  ordered_json* odd = nullptr;  // the row as a DOM once a cell is no plain integer
  size_t k = 0;
  for (; reader.NextElement(); ++k) {
    if (odd == nullptr && k >= 6) {  // never read by the reference: checked as JSON only
      if (!reader.SkipValue()) return false;
      continue;
    }
    if (odd == nullptr && reader.Peek() == JsonKind::kNumber) {
      std::string_view token;
      if (!reader.ReadNumber(&token)) return false;
      int64_t value = 0;
      bool is_unsigned = false;
      if (PlainInteger(token, &value, &is_unsigned)) {
        row.cells[k] = value;
        if (is_unsigned) row.unsigned_mask |= static_cast<uint8_t>(1u << k);
        continue;
      }
      ordered_json number;  // a float, an exponent, a big integer: its DOM, with its checks
      if (!ParseJsonDocument(token, &number, err)) {
        *err = cell_path(k) + ": " + *err;
        return false;
      }
      to_odd(ordered_json::array());
      odd = &rows->odd.back();
      for (size_t j = 0; j < k; ++j) odd->push_back(CellJson(row, j));
      odd->push_back(std::move(number));
      continue;
    }
    if (odd == nullptr) {
      to_odd(ordered_json::array());
      odd = &rows->odd.back();
      for (size_t j = 0; j < k; ++j) odd->push_back(CellJson(row, j));
    }
    ordered_json value;
    if (!ReadJsonValue(&reader, cell_path(k), &value, err)) return false;
    odd->push_back(std::move(value));
  }
  if (reader.failed()) return false;
  row.size = static_cast<uint32_t>(k);
  rows->rows.push_back(row);
  return true;
}

// Reads the whole document: syntax errors anywhere come first, as json.load raises them
// before the reader looks at anything. False with the message in *err; *top_level_object
// says whether the top level is an object (else doc->rest holds the value).
bool ReadRawDocument(std::string_view text, RawDocument* doc, bool* top_level_object,
                     std::string* err) {
  JsonReader reader;
  reader.OpenBuffer(text);
  auto fail = [&]() {
    if (err->empty()) *err = reader.error();
    return false;
  };
  err->clear();
  *top_level_object = reader.Peek() == JsonKind::kObject;
  if (!*top_level_object) {
    return (ReadJsonValue(&reader, "", &doc->rest, err) && reader.ExpectEnd()) || fail();
  }
  if (!reader.BeginObject()) return fail();
  std::string_view key_view;
  while (reader.NextKey(&key_view)) {
    const std::string key(key_view);
    RawRows* rows = key == "aicore_tasks" ? &doc->aicore
                    : key == "aicpu_tasks" ? &doc->aicpu
                                           : nullptr;
    if (rows == nullptr) {
      ordered_json value;
      if (!ReadJsonValue(&reader, JsonPathMember("", key), &value, err)) return fail();
      doc->rest[key] = std::move(value);
      continue;
    }
    *rows = RawRows();  // a repeated key: the last one wins
    if (reader.Peek() != JsonKind::kArray) {
      if (!ReadJsonValue(&reader, key, &rows->value, err)) return fail();
      continue;
    }
    rows->is_array = true;
    if (!reader.BeginArray()) return fail();
    for (size_t i = 0; reader.NextElement(); ++i) {
      if (!ReadRawRow(reader, key, i, rows, err)) return fail();
      if ((i & 4095) == 4095) reader.ReleaseConsumed();
    }
    if (reader.failed()) return fail();
  }
  if (reader.failed() || !reader.ExpectEnd()) return fail();
  return true;
}

bool Truthy(const ordered_json& v) {
  switch (v.type()) {
    case ordered_json::value_t::null: return false;
    case ordered_json::value_t::boolean: return v.get<bool>();
    case ordered_json::value_t::number_integer: return v.get<int64_t>() != 0;
    case ordered_json::value_t::number_unsigned: return v.get<uint64_t>() != 0;
    case ordered_json::value_t::number_float: return v.get<double>() != 0;
    default: return !v.empty();  // strings, arrays, objects
  }
}

const ordered_json* Member(const ordered_json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

PyIntOutcome PyIntOfJsonValue(const ordered_json& v, __int128* value) {
  switch (v.type()) {
    case ordered_json::value_t::number_integer:
      *value = v.get<int64_t>();
      return PyIntOutcome::kOk;
    case ordered_json::value_t::number_unsigned:
      *value = v.get<uint64_t>();
      return PyIntOutcome::kOk;
    case ordered_json::value_t::boolean:
      *value = v.get<bool>() ? 1 : 0;
      return PyIntOutcome::kOk;
    case ordered_json::value_t::number_float: {
      const double d = std::trunc(v.get<double>());
      if (!std::isfinite(d) || std::fabs(d) >= 8.5e37) return PyIntOutcome::kOutOfRange;
      *value = static_cast<__int128>(d);
      return PyIntOutcome::kOk;
    }
    case ordered_json::value_t::string: {
      const PyInt result = PyIntFromString(v.get_ref<const std::string&>());
      if (result.status == PyInt::kOk) {
        *value = result.value;
        return PyIntOutcome::kOk;
      }
      return result.status == PyInt::kOverflow ? PyIntOutcome::kOutOfRange
                                               : PyIntOutcome::kBadLiteral;
    }
    default:
      return PyIntOutcome::kWrongType;
  }
}

bool PyIntOfJson(const ordered_json& v, __int128* value, std::string* why) {
  switch (PyIntOfJsonValue(v, value)) {
    case PyIntOutcome::kOk:
      return true;
    case PyIntOutcome::kOutOfRange:
      *why = v.is_string() ? QuoteForMessage(v.get_ref<const std::string&>()) + " is out of range"
                           : "number " + v.dump() + " is out of range";
      return false;
    case PyIntOutcome::kBadLiteral:
      *why = "expected an integer, got " + QuoteForMessage(v.get_ref<const std::string&>());
      return false;
    default:
      *why = std::string("expected an integer, got ") + v.type_name();
      return false;
  }
}

bool RawCellInt(const RawRows& rows, size_t i, size_t k, __int128* value, std::string* why) {
  const RawRow& row = rows.rows[i];
  if (row.odd >= 0) return PyIntOfJson(rows.Odd(i)[k], value, why);
  *value = row.unsigned_mask & (1u << k) ? static_cast<__int128>(static_cast<uint64_t>(row.cells[k]))
                                         : static_cast<__int128>(row.cells[k]);
  return true;
}

namespace {

/// Python's repr() of a str.
void AppendPyRepr(std::string* out, std::string_view s) {
  const bool use_double = s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos;
  const char quote = use_double ? '"' : '\'';
  out->push_back(quote);
  char hex[8];
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\\' || c == static_cast<unsigned char>(quote)) {
      out->push_back('\\');
      out->push_back(static_cast<char>(c));
    } else if (c == '\t') {
      out->append("\\t");
    } else if (c == '\n') {
      out->append("\\n");
    } else if (c == '\r') {
      out->append("\\r");
    } else if (c < 0x20 || c == 0x7F) {
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out->append(hex);
    } else if (c == 0xC2 && i + 1 < s.size() &&
               (static_cast<unsigned char>(s[i + 1]) < 0xA1 || static_cast<unsigned char>(s[i + 1]) == 0xAD)) {
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(s[++i]));  // C1, NBSP, SHY
      out->append(hex);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
  out->push_back(quote);
}

void AppendPyStr(std::string* out, const ordered_json& v, bool nested) {
  switch (v.type()) {
    case ordered_json::value_t::string:
      if (nested) {
        AppendPyRepr(out, v.get_ref<const std::string&>());
      } else {
        out->append(v.get_ref<const std::string&>());
      }
      return;
    case ordered_json::value_t::number_integer:
      out->append(std::to_string(v.get<int64_t>()));
      return;
    case ordered_json::value_t::number_unsigned:
      out->append(std::to_string(v.get<uint64_t>()));
      return;
    case ordered_json::value_t::number_float:
      AppendPythonFloatRepr(out, v.get<double>());
      return;
    case ordered_json::value_t::boolean:
      out->append(v.get<bool>() ? "True" : "False");
      return;
    case ordered_json::value_t::array: {
      out->push_back('[');
      bool first = true;
      for (const ordered_json& e : v) {
        if (!first) out->append(", ");
        first = false;
        AppendPyStr(out, e, true);
      }
      out->push_back(']');
      return;
    }
    case ordered_json::value_t::object: {
      out->push_back('{');
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out->append(", ");
        first = false;
        AppendPyRepr(out, it.key());
        out->append(": ");
        AppendPyStr(out, it.value(), true);
      }
      out->push_back('}');
      return;
    }
    default:
      out->append("None");
      return;
  }
}

}  // namespace

std::string PyStrOfJson(const ordered_json& v) {
  std::string out;
  AppendPyStr(&out, v, false);
  return out;
}

std::string Int128Text(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : v;
  std::string digits;
  for (; u; u /= 10) digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

}  // namespace depgraph
