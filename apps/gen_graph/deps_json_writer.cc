#include "deps_json_writer.h"

#include <charconv>
#include <cstring>

namespace gen_graph {

namespace {
constexpr size_t kFlushAt = 1 << 20;
}  // namespace

DepsJsonWriter::DepsJsonWriter(std::ostream* out, Section section)
    : out_(out), section_(section) {
  buffer_.reserve(kFlushAt + (64 << 10));
}

void DepsJsonWriter::Begin() {
  switch (section_) {
    case Section::kTasks: Lit("{\"tasks\":["); break;
    case Section::kTensors: Lit("],\"tensors\":["); break;
    case Section::kEdges: Lit("],\"edges\":["); break;
  }
}

bool DepsJsonWriter::Finish() {
  if (section_ == Section::kEdges) Lit("]}\n");
  Flush();
  out_->flush();
  return static_cast<bool>(*out_);
}

void DepsJsonWriter::Flush() {
  out_->write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  bytes_ += buffer_.size();
  buffer_.clear();
}

void DepsJsonWriter::StartElement() {
  if (count_++ > 0) buffer_.push_back(',');
  if (buffer_.size() >= kFlushAt) Flush();
}

void DepsJsonWriter::Int(int64_t value) {
  char digits[24];
  auto result = std::to_chars(digits, digits + sizeof digits, value);
  buffer_.append(digits, static_cast<size_t>(result.ptr - digits));
}

void DepsJsonWriter::QuotedUInt(uint64_t value) {
  char digits[24];
  digits[0] = '"';
  auto result = std::to_chars(digits + 1, digits + sizeof digits - 1, value);
  *result.ptr = '"';
  buffer_.append(digits, static_cast<size_t>(result.ptr + 1 - digits));
}

void DepsJsonWriter::QuotedInt(int64_t value) {
  char digits[24];
  digits[0] = '"';
  auto result = std::to_chars(digits + 1, digits + sizeof digits - 1, value);
  *result.ptr = '"';
  buffer_.append(digits, static_cast<size_t>(result.ptr + 1 - digits));
}

void DepsJsonWriter::Dims(const int64_t* values, int count) {
  buffer_.push_back('[');
  for (int i = 0; i < count; ++i) {
    if (i) buffer_.push_back(',');
    Int(values[i]);
  }
  buffer_.push_back(']');
}

void DepsJsonWriter::ViewFields(const char* prefix, const GenView& view, bool with_dtype) {
  const size_t prefix_len = std::strlen(prefix);
  auto key = [&](const char* name) {
    buffer_.push_back('"');
    buffer_.append(prefix, prefix_len);
    buffer_.append(name);
    buffer_.append("\":", 2);
  };
  if (with_dtype) {
    key("dtype");
    buffer_.push_back('"');
    buffer_.append(depgraph::DTypeName(view.dtype));
    buffer_.append("\",", 2);
  }
  key("shape");
  Dims(view.shape, view.ndim);
  buffer_.push_back(',');
  key("start_offset");
  QuotedInt(view.start);
  buffer_.push_back(',');
  key("strides");
  Dims(view.strides, view.ndim);
}

void DepsJsonWriter::OnTensor(const GenTensor& tensor) {
  if (section_ != Section::kTensors) return;
  StartElement();
  Lit("{\"tensor_id\":");
  QuotedUInt(tensor.id);
  Lit(",\"buffer_addr\":");
  QuotedInt(tensor.buffer_addr);
  Lit(",\"version\":");
  Int(tensor.version);
  Lit(",\"dtype\":\"");
  buffer_.append(depgraph::DTypeName(tensor.dtype));
  Lit("\",\"buffer_numel\":");
  QuotedInt(tensor.numel);
  buffer_.push_back('}');
}

void DepsJsonWriter::OnTask(const GenTask& task, std::span<const GenArg> args) {
  if (section_ != Section::kTasks) return;
  StartElement();
  Lit("{\"task_id\":");
  QuotedUInt(task.id);
  Lit(",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[");
  Int(task.kernel_ids[0]);
  buffer_.push_back(',');
  Int(task.kernel_ids[1]);
  buffer_.push_back(',');
  Int(task.kernel_ids[2]);
  Lit("],\"block_num\":");
  Int(task.block_num);
  Lit(",\"args\":[");
  for (size_t i = 0; i < args.size(); ++i) {
    const GenArg& arg = args[i];
    if (i) buffer_.push_back(',');
    Lit("{\"idx\":");
    Int(arg.idx);
    Lit(",\"type\":\"");
    buffer_.append(depgraph::ArgTypeName(arg.type));
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

void DepsJsonWriter::OnEdge(const GenEdge& edge) {
  if (section_ != Section::kEdges) return;
  StartElement();
  Lit("{\"pred\":");
  QuotedUInt(edge.pred);
  Lit(",\"succ\":");
  QuotedUInt(edge.succ);
  Lit(",\"arg\":");
  Int(edge.arg);
  switch (edge.source) {
    case EdgeSource::kCreator:
      Lit(",\"source\":\"creator\",\"flags\":[\"wait\",\"retain\"],\"tensor_id\":");
      QuotedUInt(edge.tensor_id);
      buffer_.push_back(',');
      ViewFields("consumer_", edge.consumer, true);
      break;
    case EdgeSource::kTensormap:
      Lit(",\"source\":\"tensormap\",\"flags\":[\"wait\"],\"overlap\":\"");
      buffer_.append(OverlapName(edge.overlap));
      Lit("\",\"tensor_id\":");
      QuotedUInt(edge.tensor_id);
      buffer_.push_back(',');
      ViewFields("consumer_", edge.consumer, true);
      buffer_.push_back(',');
      ViewFields("producer_", edge.producer, false);
      break;
    case EdgeSource::kExplicit:
    case EdgeSource::kOther:
      Lit(",\"source\":\"explicit\",\"flags\":[\"wait\",\"retain\"]");
      break;
  }
  buffer_.push_back('}');
}

}  // namespace gen_graph
