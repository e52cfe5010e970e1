// Hand-built deps.json documents for the audit tests: tasks with views, tensors, edge rows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace depgraph::testing {

/// One task argument as the runtime writes it.
struct ArgSpec {
  std::string type;  ///< INPUT, INOUT, OUTPUT, OUTPUT_EXISTING, UNKNOWN (NO_DEP)
  uint64_t tensor = 0;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  int64_t offset = 0;
  std::string dtype = "FLOAT32";
};

/// A contiguous 1-D view of `count` elements starting at element `offset`.
inline ArgSpec Flat(const std::string& type, uint64_t tensor, int64_t count, int64_t offset = 0,
                    const std::string& dtype = "FLOAT32") {
  return {type, tensor, {count}, {1}, offset, dtype};
}
/// Rows [row, row + rows) of a row-major [*, cols] tensor.
inline ArgSpec Rows(const std::string& type, uint64_t tensor, int64_t row, int64_t rows,
                    int64_t cols) {
  return {type, tensor, {rows, cols}, {cols, 1}, row * cols, "FLOAT32"};
}
/// Every `step`-th element from `offset`, `count` of them (interleaved views).
inline ArgSpec Strided(const std::string& type, uint64_t tensor, int64_t count, int64_t step,
                       int64_t offset) {
  return {type, tensor, {count}, {step}, offset, "FLOAT32"};
}
/// A runtime-allocated OUTPUT slot (no view).
inline ArgSpec Output() { return {"OUTPUT", 0, {}, {}, 0, ""}; }

/// Builds one deps.json document. Ids are written as decimal strings, like the runtime.
class GraphBuilder {
 public:
  GraphBuilder& Tensor(uint64_t id, int64_t addr, int64_t numel,
                       const std::string& dtype = "FLOAT32") {
    tensors_.push_back("{\"tensor_id\":\"" + std::to_string(id) + "\",\"buffer_addr\":\"" +
                       std::to_string(addr) + "\",\"version\":0,\"dtype\":\"" + dtype +
                       "\",\"buffer_numel\":\"" + std::to_string(numel) + "\"}");
    return *this;
  }

  GraphBuilder& Task(uint64_t id, const std::vector<ArgSpec>& args,
                     const std::string& scope = "auto", int kernel = 0) {
    std::string json = "{\"task_id\":\"" + std::to_string(id) + "\",\"scope\":\"" + scope +
                       "\",\"early_dispatch\":false,\"kernel_ids\":[-1," +
                       std::to_string(kernel) + ",-1],\"block_num\":1,\"args\":[";
    for (size_t i = 0; i < args.size(); ++i) {
      const ArgSpec& a = args[i];
      json += (i ? "," : "") + std::string("{\"idx\":") + std::to_string(i) + ",\"type\":\"" +
              a.type + "\"";
      if (a.type != "OUTPUT") {
        json += ",\"tensor_id\":\"" + std::to_string(a.tensor) + "\",\"dtype\":\"" + a.dtype +
                "\",\"shape\":" + Dims(a.shape) + ",\"start_offset\":\"" +
                std::to_string(a.offset) + "\",\"strides\":" + Dims(a.strides);
      }
      json += "}";
    }
    tasks_.push_back(json + "]}");
    return *this;
  }

  /// An edge row; tensormap rows may carry the producer's view (`producer` with empty type
  /// means none) and an overlap value.
  GraphBuilder& Edge(uint64_t pred, uint64_t succ, const std::string& source, int64_t arg = -1,
                     uint64_t tensor = 0, const std::string& overlap = "",
                     const ArgSpec& producer = {}) {
    std::string json = "{\"pred\":\"" + std::to_string(pred) + "\",\"succ\":\"" +
                       std::to_string(succ) + "\",\"arg\":" + std::to_string(arg) +
                       ",\"source\":\"" + source + "\"";
    if (!overlap.empty()) json += ",\"overlap\":\"" + overlap + "\"";
    if (source != "explicit") json += ",\"tensor_id\":\"" + std::to_string(tensor) + "\"";
    if (!producer.shape.empty()) {
      json += ",\"producer_shape\":" + Dims(producer.shape) + ",\"producer_start_offset\":\"" +
              std::to_string(producer.offset) + "\",\"producer_strides\":" +
              Dims(producer.strides);
    }
    edges_.push_back(json + "}");
    return *this;
  }

  std::string Json() const {
    return "{\"tasks\":[" + Join(tasks_) + "],\"tensors\":[" + Join(tensors_) + "],\"edges\":[" +
           Join(edges_) + "]}";
  }

 private:
  static std::string Dims(const std::vector<int64_t>& dims) {
    std::string out = "[";
    for (size_t i = 0; i < dims.size(); ++i) out += (i ? "," : "") + std::to_string(dims[i]);
    return out + "]";
  }
  static std::string Join(const std::vector<std::string>& parts) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? "," : "") + parts[i];
    return out;
  }
  std::vector<std::string> tasks_, tensors_, edges_;
};

}  // namespace depgraph::testing
