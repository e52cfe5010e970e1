#include "entry_args.h"

#include <cctype>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "depgraph/internal/message_quote.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/json_dom.h"
#include "depgraph/support/utf8.h"

namespace depgraph::orch_runner {

namespace {

// Ordered: a description's objects keep their key order (kernel_names as the runtime wrote it).
using json = nlohmann::ordered_json;

/// Largest run description read, in bytes (inline values of big tensors belong in data files).
constexpr uint64_t kMaxDescriptionBytes = uint64_t{1} << 30;

constexpr const char* kDtypeNames[kDtypeCount] = {
    "FLOAT32", "FLOAT16", "INT32",  "INT16", "INT8",      "UINT8",   "BFLOAT16", "INT64",
    "UINT64",  "UINT16",  "UINT32", "BOOL",  "FP8E4M3FN", "FP8E8M0", "FP4E2M1"};
constexpr uint64_t kDtypeSizes[kDtypeCount] = {4, 2, 4, 2, 1, 1, 2, 8, 8, 2, 4, 1, 1, 1, 1};
/// DataType values used by name below.
enum Dtype { kF32, kF16, kI32, kI16, kI8, kU8, kBF16, kI64, kU64, kU16, kU32, kBool };

/// ASCII lower-case copy of `s`.
std::string Lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

/// Round-to-nearest-even float -> IEEE half bits.
uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t raw_exp = (x >> 23) & 0xffu;
  uint32_t mant = x & 0x7fffffu;
  if (raw_exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0u));
  int32_t exp = static_cast<int32_t>(raw_exp) - 127 + 15;
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t h = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // a carry may round up to inf
  return static_cast<uint16_t>(sign | h);
}

/// Round-to-nearest-even float -> bfloat16 bits.
uint16_t FloatToBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

/// `d` as a float, rounded to nearest; false when it lies beyond the float range (the
/// conversion would be undefined) unless it is an infinity.
bool ToFloat(double d, float* f) {
  if (std::isfinite(d) && std::fabs(d) > static_cast<double>(FLT_MAX)) {
    // Values that round to FLT_MAX (within half an ulp above it) still fit.
    const double limit = static_cast<double>(FLT_MAX) + std::ldexp(1.0, 103);
    if (std::fabs(d) >= limit) return false;
    *f = d > 0 ? FLT_MAX : -FLT_MAX;
    return true;
  }
  *f = static_cast<float>(d);
  return true;
}

/// Appends the low `bytes` bytes of `v`, little-endian.
void PutLe(std::vector<unsigned char>* out, uint64_t v, uint64_t bytes) {
  for (uint64_t i = 0; i < bytes; ++i) out->push_back(static_cast<unsigned char>(v >> (8 * i)));
}

/// Appends one value of `dtype` converted from the text/number `v`. False with a reason.
bool EncodeValue(const json& v, int dtype, std::vector<unsigned char>* out, std::string* why) {
  const uint64_t size = DtypeSize(dtype);
  if (dtype == kF32 || dtype == kF16 || dtype == kBF16) {
    if (!v.is_number()) {
      *why = "expected a number";
      return false;
    }
    float f = 0;
    if (!ToFloat(v.get<double>(), &f)) {
      *why = v.dump() + " does not fit " + DtypeName(dtype) + " (beyond the float range)";
      return false;
    }
    if (dtype == kF32) {
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      PutLe(out, bits, 4);
    } else {
      PutLe(out, dtype == kF16 ? FloatToHalf(f) : FloatToBf16(f), 2);
    }
    return true;
  }
  if (dtype >= 12) {
    *why = std::string("inline values are not supported for ") + DtypeName(dtype) +
           " (use data_file)";
    return false;
  }
  if (dtype == kBool && v.is_boolean()) {
    PutLe(out, v.get<bool>() ? 1 : 0, 1);
    return true;
  }
  if (!v.is_number_integer()) {
    *why = std::string("expected an integer for ") + DtypeName(dtype);
    return false;
  }
  const bool is_signed = dtype == kI8 || dtype == kI16 || dtype == kI32 || dtype == kI64;
  if (v.is_number_unsigned()) {
    uint64_t u = v.get<uint64_t>();
    uint64_t max = dtype == kBool ? 1
                   : size == 8    ? (is_signed ? uint64_t(INT64_MAX) : UINT64_MAX)
                                  : (is_signed ? (uint64_t(1) << (8 * size - 1)) - 1
                                               : (uint64_t(1) << (8 * size)) - 1);
    if (u > max) {
      *why = std::to_string(u) + " does not fit " + DtypeName(dtype);
      return false;
    }
    PutLe(out, u, size);
    return true;
  }
  int64_t s = v.get<int64_t>();
  int64_t min = !is_signed ? 0 : size == 8 ? INT64_MIN : -(int64_t(1) << (8 * size - 1));
  int64_t max = dtype == kBool ? 1
                : size == 8    ? INT64_MAX
                               : (is_signed ? (int64_t(1) << (8 * size - 1)) - 1
                                            : (int64_t(1) << (8 * size)) - 1);
  if (s < min || s > max) {
    *why = std::to_string(s) + " does not fit " + DtypeName(dtype);
    return false;
  }
  PutLe(out, static_cast<uint64_t>(s), size);
  return true;
}

/// Reads the data file of `t`: a regular file of exactly t.nbytes() bytes, of which no more
/// than that (plus one) is ever read; a directory, FIFO or device is refused unopened. False
/// with a reason naming the file.
bool ReadDataFile(const std::string& path, EntryTensor* t, std::string* why) {
  std::string content;
  InputFileError error;
  uint64_t size = 0;
  if (!ReadInputFile(path, t->nbytes(), &content, &error)) {
    if (error.status != InputFileStatus::kTooLarge || !CheckRegularInput(path, &size, &error)) {
      *why = "data file " + EscapeForMessage(error.message);
      return false;
    }
  } else {
    size = content.size();
  }
  if (size != t->nbytes()) {
    *why = "data file " + EscapeForMessage(path) + " has " + std::to_string(size) +
           " bytes, the tensor needs " + std::to_string(t->nbytes());
    return false;
  }
  t->data.assign(content.begin(), content.end());
  t->data_file = path;
  return true;
}

/// 1..5 dims, each > 0.
bool CheckShape(const std::vector<uint32_t>& shape, std::string* why) {
  if (shape.empty() || shape.size() > 5) {
    *why = "shape must have 1 to 5 dims";
    return false;
  }
  for (uint32_t d : shape) {
    if (d == 0) {
      *why = "shape dims must be > 0";
      return false;
    }
  }
  return true;
}

/// Parses a scalar given in the description (number, string or {"f32"|"f64": x}).
bool JsonScalar(const json& v, uint64_t* out, std::string* why) {
  if (v.is_number_unsigned()) {
    *out = v.get<uint64_t>();
  } else if (v.is_number_integer()) {
    *out = static_cast<uint64_t>(v.get<int64_t>());
  } else if (v.is_number_float()) {
    float f = 0;
    if (!ToFloat(v.get<double>(), &f)) {
      *why = v.dump() + " is beyond the f32 range";
      return false;
    }
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    *out = bits;
  } else if (v.is_string()) {
    return ParseScalarSpec(v.get<std::string>(), out, why);
  } else if (v.is_object() && v.size() == 1 && (v.contains("f32") || v.contains("f64")) &&
             v.begin()->is_number()) {
    if (v.contains("f32")) {
      float f = 0;
      if (!ToFloat(v["f32"].get<double>(), &f)) {
        *why = v["f32"].dump() + " is beyond the f32 range";
        return false;
      }
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      *out = bits;
    } else {
      double d = v["f64"].get<double>();
      std::memcpy(out, &d, 8);
    }
  } else {
    *why = "expected an integer, a string or {\"f32\": x} / {\"f64\": x}";
    return false;
  }
  return true;
}

/// Parses the description's `platform` (JSON path `where`): a preset name, or an object
/// {"name", "clusters", "aiv_per_cluster"} whose counts override the named preset's (a2a3 when
/// unnamed). False with "<path>: <reason>" in *err.
bool ParsePlatform(const json& v, const std::string& where, Platform* out, std::string* err) {
  const std::string expected = std::string("expected a platform name (") + PlatformNames() +
                               ") or an object {\"name\", \"clusters\", \"aiv_per_cluster\"}";
  if (v.is_string()) {
    if (!FindPlatform(v.get<std::string>(), out)) {
      *err = where + ": " + QuoteForMessage(v.get<std::string>()) + ": " + expected;
      return false;
    }
    return true;
  }
  if (!v.is_object()) {
    *err = where + ": " + expected;
    return false;
  }
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it.key() != "name" && it.key() != "clusters" && it.key() != "aiv_per_cluster") {
      *err = JsonPathMember(where, it.key()) + ": unknown key (name, clusters, aiv_per_cluster)";
      return false;
    }
  }
  FindPlatform("a2a3", out);
  if (v.contains("name")) {
    const json& name = v["name"];
    if (!name.is_string() || !FindPlatform(name.get<std::string>(), out)) {
      *err = where + ".name: expected one of " + PlatformNames();
      return false;
    }
  } else {
    out->name.clear();
  }
  const std::pair<const char*, int32_t> kCounts[] = {{"clusters", kMaxPlatformClusters},
                                                     {"aiv_per_cluster", kMaxAivPerCluster}};
  for (const auto& [key, max] : kCounts) {
    if (!v.contains(key)) continue;
    const json& n = v[key];
    if (!n.is_number_integer() || n.get<int64_t>() < 1 || n.get<int64_t>() > max) {
      *err = where + "." + key + ": expected an integer in 1.." + std::to_string(max);
      return false;
    }
    (std::string(key) == "clusters" ? out->clusters : out->aiv_per_cluster) =
        static_cast<int32_t>(n.get<int64_t>());
  }
  return true;
}

/// Parses tensors[i] of a description; `where` is its JSON path for messages.
bool ParseTensorObject(const json& t, const std::string& base_dir, const std::string& where,
                       EntryTensor* out, std::string* err) {
  if (!t.is_object()) {
    *err = where + ": expected an object";
    return false;
  }
  static const std::set<std::string> kKeys = {"name", "shape", "dtype", "values", "data_file"};
  for (auto it = t.begin(); it != t.end(); ++it) {
    if (!kKeys.count(it.key())) {
      *err = JsonPathMember(where, it.key()) + ": unknown key";
      return false;
    }
  }
  if (t.contains("name")) {
    if (!t["name"].is_string()) {
      *err = where + ".name: expected a string";
      return false;
    }
    out->name = t["name"].get<std::string>();
  } else {
    out->name = where;
  }
  if (!t.contains("shape") || !t["shape"].is_array()) {
    *err = where + ".shape: expected an array of dims";
    return false;
  }
  for (size_t i = 0; i < t["shape"].size(); ++i) {
    const json& d = t["shape"][i];
    if (!d.is_number_unsigned() || d.get<uint64_t>() > UINT32_MAX) {
      *err = where + ".shape[" + std::to_string(i) + "]: expected an integer in 1..4294967295";
      return false;
    }
    out->shape.push_back(d.get<uint32_t>());
  }
  std::string why;
  if (!CheckShape(out->shape, &why)) {
    *err = where + ".shape: " + why;
    return false;
  }
  if (!t.contains("dtype") || !t["dtype"].is_string() ||
      (out->dtype = DtypeFromName(t["dtype"].get<std::string>())) < 0) {
    *err = where + ".dtype: expected a dtype name (FLOAT32, BFLOAT16, INT32, ...)";
    return false;
  }
  if (t.contains("values") && t.contains("data_file")) {
    *err = where + ": give either values or data_file, not both";
    return false;
  }
  if (t.contains("values")) {
    const json& vals = t["values"];
    if (!vals.is_array() || vals.size() != out->numel()) {
      *err = where + ".values: expected an array of " + std::to_string(out->numel()) +
             " values (one per element)";
      return false;
    }
    out->data.reserve(out->nbytes());
    for (size_t i = 0; i < vals.size(); ++i) {
      if (!EncodeValue(vals[i], out->dtype, &out->data, &why)) {
        *err = where + ".values[" + std::to_string(i) + "]: " + why;
        return false;
      }
    }
    out->has_data = true;
  } else if (t.contains("data_file")) {
    if (!t["data_file"].is_string()) {
      *err = where + ".data_file: expected a path";
      return false;
    }
    std::string file = t["data_file"].get<std::string>();
    if (!file.empty() && file[0] != '/' && !base_dir.empty()) file = base_dir + "/" + file;
    if (!ReadDataFile(file, out, &why)) {
      *err = where + ".data_file: " + why;
      return false;
    }
    out->has_data = true;
  }
  return true;
}

}  // namespace

int DtypeFromName(std::string_view name) {
  std::string n = Lower(name);
  for (int i = 0; i < kDtypeCount; ++i) {
    if (n == Lower(kDtypeNames[i])) return i;
  }
  static const std::pair<const char*, int> kAliases[] = {
      {"f32", kF32}, {"f16", kF16}, {"bf16", kBF16}, {"i8", kI8},   {"i16", kI16},
      {"i32", kI32}, {"i64", kI64}, {"u8", kU8},     {"u16", kU16}, {"u32", kU32},
      {"u64", kU64}, {"float", kF32}, {"half", kF16}};
  for (const auto& [alias, value] : kAliases) {
    if (n == alias) return value;
  }
  return -1;
}

const char* DtypeName(int dtype) {
  return dtype >= 0 && dtype < kDtypeCount ? kDtypeNames[dtype] : "UNKNOWN";
}

uint64_t DtypeSize(int dtype) {
  return dtype >= 0 && dtype < kDtypeCount ? kDtypeSizes[dtype] : 0;
}

uint64_t EntryTensor::numel() const {
  uint64_t n = 1;
  for (uint32_t d : shape) n *= d;
  return n;
}

uint64_t EntryTensor::nbytes() const { return numel() * DtypeSize(dtype); }

bool LoadRunDescription(const std::string& path, RunDescription* out, std::string* err) {
  const std::string p = EscapeForMessage(path) + ": ";
  std::string text;
  InputFileError error;
  if (!ReadInputFile(path, kMaxDescriptionBytes, &text, &error)) {
    *err = EscapeForMessage(error.message);
    if (error.status == InputFileStatus::kCannotOpen ||
        error.status == InputFileStatus::kReadError) {
      *err = p + "cannot read: " + std::strerror(error.sys_errno);
    }
    if (error.status == InputFileStatus::kTooLarge) {
      *err += " (give large tensor contents as data_file)";
    }
    return false;
  }
  std::string base_dir;
  if (size_t slash = path.rfind('/'); slash != std::string::npos) base_dir = path.substr(0, slash);
  return LoadRunDescriptionText(text, path, base_dir, out, err);
}

bool LoadRunDescriptionText(std::string_view text, const std::string& path,
                            const std::string& base_dir, RunDescription* out, std::string* err) {
  const std::string p = EscapeForMessage(path) + ": ";
  json doc;
  std::string why;
  if (!ParseJsonDocument(text, &doc, &why)) {
    *err = p + why;
    return false;
  }
  if (!doc.is_object()) {
    *err = p + "expected a JSON object at the top level, got " + doc.type_name();
    return false;
  }
  static const std::set<std::string> kKeys = {
      "tensors", "scalars", "runtime",      "arch",    "platform",         "ring_heap_size",
      "entry",   "config",  "kernel_names", "comment", "orchestrator_name"};
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (!kKeys.count(it.key())) {
      *err = p + JsonPathMember("", it.key()) + ": unknown key";
      return false;
    }
  }
  if (doc.contains("tensors")) {
    if (!doc["tensors"].is_array()) {
      *err = p + "tensors: expected an array";
      return false;
    }
    for (size_t i = 0; i < doc["tensors"].size(); ++i) {
      EntryTensor t;
      std::string where = "tensors[" + std::to_string(i) + "]";
      if (!ParseTensorObject(doc["tensors"][i], base_dir, where, &t, err)) {
        *err = p + *err;
        return false;
      }
      out->tensors.push_back(std::move(t));
    }
  }
  if (doc.contains("scalars")) {
    if (!doc["scalars"].is_array()) {
      *err = p + "scalars: expected an array";
      return false;
    }
    for (size_t i = 0; i < doc["scalars"].size(); ++i) {
      uint64_t v = 0;
      std::string why;
      if (!JsonScalar(doc["scalars"][i], &v, &why)) {
        *err = p + "scalars[" + std::to_string(i) + "]: " + why;
        return false;
      }
      out->scalars.push_back(v);
    }
  }
  if (doc.contains("arch")) {
    if (!doc["arch"].is_string() || (doc["arch"] != "a2a3" && doc["arch"] != "a5")) {
      *err = p + "arch: expected a2a3 or a5";
      return false;
    }
    out->arch = doc["arch"].get<std::string>();
  }
  if (doc.contains("platform")) {
    Platform platform;
    if (!ParsePlatform(doc["platform"], "platform", &platform, &why)) {
      *err = p + why;
      return false;
    }
    out->platform = platform;
  }
  for (const char* key : {"runtime", "entry", "config"}) {
    if (!doc.contains(key)) continue;
    if (!doc[key].is_string() || doc[key].get<std::string>().empty()) {
      *err = p + key + ": expected a non-empty string";
      return false;
    }
    std::string v = doc[key].get<std::string>();
    if (std::string(key) == "runtime") {
      if (v != "tensormap_and_ringbuffer" && v != "host_build_graph") {
        *err = p + "runtime: expected tensormap_and_ringbuffer or host_build_graph";
        return false;
      }
      out->runtime = v;
    } else if (std::string(key) == "entry") {
      out->entry = v;
    } else {
      out->config = v;
    }
  }
  if (doc.contains("ring_heap_size")) {
    const json& v = doc["ring_heap_size"];
    if (!v.is_number_unsigned() || v.get<uint64_t>() == 0) {
      *err = p + "ring_heap_size: expected a positive integer (bytes)";
      return false;
    }
    out->ring_heap_size = v.get<uint64_t>();
  }
  if (doc.contains("kernel_names")) {
    const json& k = doc["kernel_names"];
    if (k.is_array()) {
      for (size_t i = 0; i < k.size(); ++i) {
        if (!k[i].is_string()) {
          *err = p + "kernel_names[" + std::to_string(i) + "]: expected a string";
          return false;
        }
        out->kernel_names.emplace_back(static_cast<int>(i), k[i].get<std::string>());
      }
    } else if (k.is_object()) {
      // In file order: the name map written lists the ids as the description does.
      for (auto it = k.begin(); it != k.end(); ++it) {
        char* end = nullptr;
        errno = 0;
        long id = std::strtol(it.key().c_str(), &end, 10);
        if (it.key().empty() || *end != '\0' || errno != 0 || id < 0 || id > INT32_MAX ||
            !std::isdigit(static_cast<unsigned char>(it.key()[0])) || !it.value().is_string()) {
          *err = p + JsonPathMember("kernel_names", it.key()) +
                 ": expected \"<id>\": \"<name>\" with an id in 0..2147483647";
          return false;
        }
        out->kernel_names.emplace_back(static_cast<int>(id), it.value().get<std::string>());
      }
    } else {
      *err = p + "kernel_names: expected an array of names or an object {\"id\": name}";
      return false;
    }
  }
  if (doc.contains("orchestrator_name")) {
    const json& v = doc["orchestrator_name"];
    if (!v.is_null() && !v.is_string()) {
      *err = p + "orchestrator_name: expected a string or null";
      return false;
    }
    if (v.is_string()) out->orchestrator_name = v.get<std::string>();
  }
  return true;
}

bool ParseTensorSpec(const std::string& spec, EntryTensor* out, std::string* err) {
  const std::string what = "--tensor " + EscapeForMessage(spec) + ": ";
  size_t colon = spec.find(':');
  if (colon == std::string::npos) {
    *err = what + "expected DTYPE:D0xD1x...[=v0,v1,...|@file]";
    return false;
  }
  out->dtype = DtypeFromName(spec.substr(0, colon));
  if (out->dtype < 0) {
    *err = what + "unknown dtype " + QuoteForMessage(spec.substr(0, colon));
    return false;
  }
  size_t tail = spec.find_first_of("=@", colon + 1);
  std::string dims = spec.substr(colon + 1, tail == std::string::npos ? std::string::npos
                                                                     : tail - colon - 1);
  std::stringstream ds(dims);
  std::string dim;
  while (std::getline(ds, dim, 'x')) {
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(dim.c_str(), &end, 10);
    if (dim.empty() || *end != '\0' || errno != 0 || v > UINT32_MAX || dim[0] == '-') {
      *err = what + "bad dim " + QuoteForMessage(dim);
      return false;
    }
    out->shape.push_back(static_cast<uint32_t>(v));
  }
  std::string why;
  if (!CheckShape(out->shape, &why)) {
    *err = what + why;
    return false;
  }
  out->name = "--tensor " + EscapeForMessage(spec);
  if (tail == std::string::npos) return true;
  std::string rest = spec.substr(tail + 1);
  if (spec[tail] == '@') {
    if (!ReadDataFile(rest, out, &why)) {
      *err = what + why;
      return false;
    }
    out->has_data = true;
    return true;
  }
  std::stringstream vs(rest);
  std::string item;
  json values = json::array();
  while (std::getline(vs, item, ',')) {
    json v;
    if (!ParseJsonDocument(item, &v, &why) || !v.is_number()) {
      *err = what + "bad value " + QuoteForMessage(item) + " (expected a finite JSON number)";
      return false;
    }
    values.push_back(v);
  }
  if (values.size() != out->numel()) {
    *err = what + "expected " + std::to_string(out->numel()) + " values, got " +
           std::to_string(values.size());
    return false;
  }
  for (const json& v : values) {
    if (!EncodeValue(v, out->dtype, &out->data, &why)) {
      *err = what + why;
      return false;
    }
  }
  out->has_data = true;
  return true;
}

bool ParseScalarSpec(const std::string& spec, uint64_t* out, std::string* err) {
  const std::string what = "scalar " + QuoteForMessage(spec) + ": ";
  if (spec.rfind("f32:", 0) == 0 || spec.rfind("f64:", 0) == 0) {
    char* end = nullptr;
    errno = 0;
    double d = std::strtod(spec.c_str() + 4, &end);
    if (spec.size() == 4 || *end != '\0' || std::isspace(static_cast<unsigned char>(spec[4]))) {
      *err = what + "bad floating-point value";
      return false;
    }
    float f = 0;
    if (errno == ERANGE && std::isinf(d)) {
      *err = what + "out of range (beyond a double)";
      return false;
    }
    if (spec[1] == '3' && !ToFloat(d, &f)) {
      *err = what + "out of range (beyond a float)";
      return false;
    }
    if (spec[1] == '3') {
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      *out = bits;
    } else {
      std::memcpy(out, &d, 8);
    }
    return true;
  }
  if (spec.empty()) {
    *err = what + "empty";
    return false;
  }
  char* end = nullptr;
  errno = 0;
  if (spec[0] == '-') {
    long long v = std::strtoll(spec.c_str(), &end, 10);
    if (*end != '\0' || errno != 0) {
      *err = what + "not a 64-bit integer";
      return false;
    }
    *out = static_cast<uint64_t>(v);
    return true;
  }
  const bool hex = spec.size() > 2 && spec[0] == '0' && (spec[1] == 'x' || spec[1] == 'X');
  unsigned long long v = std::strtoull(spec.c_str() + (hex ? 2 : 0), &end, hex ? 16 : 10);
  if (*end != '\0' || errno != 0 || !std::isxdigit(static_cast<unsigned char>(spec[hex ? 2 : 0])) ||
      (!hex && !std::isdigit(static_cast<unsigned char>(spec[0])))) {
    *err = what + "expected a u64 (decimal or 0x hex), a negative integer, f32:X or f64:X";
    return false;
  }
  *out = v;
  return true;
}

bool ParseKernelNames(const std::string& spec, std::vector<std::pair<int, std::string>>* out,
                      std::string* err) {
  std::stringstream ss(spec);
  std::string item;
  int next = 0;
  while (std::getline(ss, item, ',')) {
    size_t eq = item.find('=');
    int id = next;
    std::string name = item;
    if (eq != std::string::npos) {
      char* end = nullptr;
      errno = 0;
      long v = std::strtol(item.c_str(), &end, 10);
      if (end != item.c_str() + eq || eq == 0 || v < 0 || v > INT32_MAX || errno != 0 ||
          !std::isdigit(static_cast<unsigned char>(item[0]))) {
        *err = "--kernel-names: bad id in " + QuoteForMessage(item);
        return false;
      }
      id = static_cast<int>(v);
      name = item.substr(eq + 1);
    }
    if (name.empty()) {
      *err = "--kernel-names: empty name in " + QuoteForMessage(spec);
      return false;
    }
    if (FindInvalidUtf8(name) != name.size()) {
      *err = "--kernel-names: " + QuoteForMessage(name) + " is not valid UTF-8";
      return false;
    }
    out->emplace_back(id, name);
    next = id + 1;
  }
  return true;
}

}  // namespace depgraph::orch_runner
