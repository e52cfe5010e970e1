#include "depgraph/graph/deps_writer.h"

#include <charconv>
#include <cstring>

namespace depgraph {

namespace {
constexpr size_t kFlushAt = 1 << 20;

const char* const kDTypeNames[] = {
    "FLOAT32", "FLOAT16", "INT32",  "INT16", "INT8",      "UINT8",   "BFLOAT16", "INT64",
    "UINT64",  "UINT16",  "UINT32", "BOOL",  "FP8E4M3FN", "FP8E8M0", "FP4E2M1",
};
}  // namespace

const char* DepsDTypeName(DType dtype) {
  const auto index = static_cast<size_t>(dtype);
  return index < sizeof kDTypeNames / sizeof kDTypeNames[0] ? kDTypeNames[index] : "UNKNOWN";
}

const char* DepsArgTypeName(ArgType type) {
  switch (type) {
    case ArgType::kInput: return "INPUT";
    case ArgType::kOutput: return "OUTPUT";
    case ArgType::kInOut: return "INOUT";
    case ArgType::kOutputExisting: return "OUTPUT_EXISTING";
    default: return "UNKNOWN";  // the runtime's writer has no case for NO_DEP
  }
}

DepsWriter::DepsWriter(std::ostream* out, Options options) : out_(out), options_(options) {
  buffer_.reserve(kFlushAt + (64 << 10));
}

bool DepsWriter::Enter(Section section) {
  if (section_ == section) return true;
  if (section_ > section) {
    Fail("deps.json records out of order: a record was added after a later section began");
    return false;
  }
  // Open every section up to `section`, closing the previous one; empty ones become [].
  while (section_ < section) {
    switch (section_) {
      case Section::kNone: Lit("{\"tasks\":["); break;
      case Section::kTasks: Lit("],\"tensors\":["); break;
      case Section::kTensors: Lit("],\"edges\":["); break;
      case Section::kEdges: Lit("]}\n"); break;
      case Section::kDone: break;
    }
    section_ = static_cast<Section>(static_cast<uint8_t>(section_) + 1);
    in_section_ = 0;
  }
  return true;
}

void DepsWriter::StartElement() {
  if (in_section_++ > 0) buffer_.push_back(',');
  if (buffer_.size() >= kFlushAt) Flush();
}

void DepsWriter::Flush() {
  if (buffer_.empty()) return;
  out_->write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  written_ += buffer_.size();
  buffer_.clear();
}

void DepsWriter::Str(const char* text) { buffer_.append(text, std::strlen(text)); }

void DepsWriter::Int(int64_t value) {
  char digits[24];
  auto result = std::to_chars(digits, digits + sizeof digits, value);
  buffer_.append(digits, static_cast<size_t>(result.ptr - digits));
}

void DepsWriter::QuotedUInt(uint64_t value) {
  char digits[24];
  digits[0] = '"';
  auto result = std::to_chars(digits + 1, digits + sizeof digits - 1, value);
  *result.ptr = '"';
  buffer_.append(digits, static_cast<size_t>(result.ptr + 1 - digits));
}

void DepsWriter::Dims(const uint32_t* values, uint8_t count) {
  buffer_.push_back('[');
  for (uint8_t i = 0; i < count && i < kMaxViewDims; ++i) {
    if (i) buffer_.push_back(',');
    Int(values[i]);
  }
  buffer_.push_back(']');
}

void DepsWriter::ViewFields(const char* prefix, const DepsViewRecord& view, bool with_dtype) {
  auto key = [&](const char* name) {
    buffer_.push_back('"');
    Str(prefix);
    Str(name);
    buffer_.append("\":", 2);
  };
  if (with_dtype) {
    key("dtype");
    buffer_.push_back('"');
    Str(DepsDTypeName(view.dtype));
    buffer_.append("\",", 2);
  }
  key("shape");
  Dims(view.shape, view.ndims);
  buffer_.push_back(',');
  key("start_offset");
  QuotedUInt(view.start_offset);
  buffer_.push_back(',');
  key("strides");
  Dims(view.strides, view.ndims);
}

void DepsWriter::Fail(const std::string& message) {
  if (error_.empty()) error_ = message;
}

void DepsWriter::AddTask(const DepsTaskRecord& task) {
  if (!Enter(Section::kTasks)) return;
  StartElement();
  Lit("{\"task_id\":");
  QuotedUInt(task.task_id);
  if (task.manual_scope) {
    Lit(",\"scope\":\"manual\",\"early_dispatch\":");
  } else {
    Lit(",\"scope\":\"auto\",\"early_dispatch\":");
  }
  if (task.early_dispatch) {
    Lit("true");
  } else {
    Lit("false");
  }
  Lit(",\"kernel_ids\":[");
  Int(task.kernel_ids[0]);
  buffer_.push_back(',');
  Int(task.kernel_ids[1]);
  buffer_.push_back(',');
  Int(task.kernel_ids[2]);
  Lit("],\"block_num\":");
  Int(task.block_num);
  Lit(",\"args\":[");
  for (size_t i = 0; i < task.args.size(); ++i) {
    const DepsArgRecord& arg = task.args[i];
    if (i) buffer_.push_back(',');
    Lit("{\"idx\":");
    Int(static_cast<int64_t>(i));
    Lit(",\"type\":\"");
    Str(DepsArgTypeName(arg.type));
    buffer_.push_back('"');
    if (arg.type != ArgType::kOutput) {
      Lit(",\"tensor_id\":");
      QuotedUInt(arg.tensor_id);
      buffer_.push_back(',');
      ViewFields("", arg.view, true);
    }
    buffer_.push_back('}');
  }
  Lit("]}");
}

void DepsWriter::AddTensor(const DepsTensorRecord& tensor) {
  if (!Enter(Section::kTensors)) return;
  StartElement();
  Lit("{\"tensor_id\":");
  QuotedUInt(tensor.tensor_id);
  Lit(",\"buffer_addr\":");
  QuotedUInt(tensor.buffer_addr);
  Lit(",\"version\":");
  Int(tensor.version);
  Lit(",\"dtype\":\"");
  Str(DepsDTypeName(tensor.dtype));
  Lit("\",\"buffer_numel\":");
  QuotedUInt(tensor.buffer_numel);
  buffer_.push_back('}');
}

void DepsWriter::AddEdge(const DepsEdgeRecord& edge) {
  if (!Enter(Section::kEdges)) return;
  const bool creator = edge.source == EdgeSource::kCreator;
  const bool tensormap = edge.source == EdgeSource::kTensormap;
  if ((creator || tensormap) && edge.consumer == nullptr) {
    Fail("deps.json edge " + std::to_string(edge.pred) + "->" + std::to_string(edge.succ) +
         " has no consumer view");
    return;
  }
  if (tensormap && edge.producer == nullptr) {
    Fail("deps.json tensormap edge " + std::to_string(edge.pred) + "->" +
         std::to_string(edge.succ) + " has no producer view");
    return;
  }
  StartElement();
  Lit("{\"pred\":");
  QuotedUInt(edge.pred);
  Lit(",\"succ\":");
  QuotedUInt(edge.succ);
  Lit(",\"arg\":");
  Int(edge.arg);
  if (creator) {
    Lit(",\"source\":\"creator\"");
  } else if (tensormap) {
    Lit(",\"source\":\"tensormap\"");
  } else {
    Lit(",\"source\":\"explicit\"");
  }
  if (options_.write_flags) {
    Lit(",\"flags\":[");
    if (edge.flags & kDepFlagWait) Lit("\"wait\"");
    if (edge.flags & kDepFlagRetain) {
      if (edge.flags & kDepFlagWait) buffer_.push_back(',');
      Lit("\"retain\"");
    }
    buffer_.push_back(']');
  }
  if (tensormap) {
    if (edge.overlap == DepsOverlap::kCovered) {
      Lit(",\"overlap\":\"covered\"");
    } else {
      Lit(",\"overlap\":\"other\"");
    }
  }
  if (creator || tensormap) {
    Lit(",\"tensor_id\":");
    QuotedUInt(edge.tensor_id);
    buffer_.push_back(',');
    ViewFields("consumer_", *edge.consumer, true);
  }
  if (tensormap) {
    buffer_.push_back(',');
    ViewFields("producer_", *edge.producer, false);
  }
  buffer_.push_back('}');
}

bool DepsWriter::Finish(std::string* err) {
  if (section_ != Section::kDone) Enter(Section::kDone);
  Flush();
  out_->flush();
  if (error_.empty() && !*out_) error_ = "deps.json: write failed";
  if (!error_.empty()) {
    if (err) *err = error_;
    return false;
  }
  return true;
}

}  // namespace depgraph
