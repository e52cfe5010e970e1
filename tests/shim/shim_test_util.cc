#include "shim_test_util.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace shim_test {

ShimConfig ShimFixture::DefaultConfig() {
  ShimConfig config;
#if defined(PTO_SHIM_HBG)
  config.flavor = RuntimeFlavor::kHostBuildGraph;
#endif
  return config;
}

void ShimFixture::Start(const ShimConfig& config) {
  ShimRuntime::Unbind();
  runtime_ = std::make_unique<ShimRuntime>(config);
  runtime_->Bind();
  runtime_->BeginScope();
  finished_ = false;
}

std::string ShimFixture::Finish() {
  if (!finished_) runtime_->EndScope();
  finished_ = true;
  std::ostringstream out;
  EXPECT_TRUE(runtime_->WriteDepsJson(out));
  return out.str();
}

nlohmann::json ShimFixture::FinishJson() { return nlohmann::json::parse(Finish()); }

std::string Id(uint64_t raw) {
  char text[32];
  std::snprintf(text, sizeof text, "(%llu,%llu)", static_cast<unsigned long long>(raw >> 32),
                static_cast<unsigned long long>(raw & 0xFFFFFFFFu));
  return text;
}

std::vector<std::string> EdgeList(const nlohmann::json& deps) {
  std::vector<std::string> out;
  for (const auto& e : deps.at("edges")) {
    std::string text = Id(std::stoull(e.at("pred").get<std::string>())) + "->" +
                       Id(std::stoull(e.at("succ").get<std::string>())) + " a" +
                       std::to_string(e.at("arg").get<int>()) + " ";
    const std::string source = e.at("source").get<std::string>();
    if (source == "creator") {
      text += "cre";
    } else if (source == "explicit") {
      text += "exp";
    } else {
      text += e.at("overlap").get<std::string>() == "covered" ? "tm/cov" : "tm/oth";
    }
    out.push_back(text);
  }
  return out;
}

std::vector<std::string> TaskList(const nlohmann::json& deps) {
  std::vector<std::string> out;
  for (const auto& t : deps.at("tasks")) {
    out.push_back(Id(std::stoull(t.at("task_id").get<std::string>())));
  }
  return out;
}

ChipTensor External(uint64_t addr, std::initializer_list<uint32_t> shapes, DataType dtype,
                    int32_t version, bool manual_dep) {
  std::vector<uint32_t> dims(shapes);
  return make_tensor_external(reinterpret_cast<void*>(static_cast<uintptr_t>(addr)), dims.data(),
                              static_cast<uint32_t>(dims.size()), dtype, manual_dep, version);
}

TensorCreateInfo CreateInfo(std::initializer_list<uint32_t> shapes, DataType dtype,
                            bool manual_dep) {
  std::vector<uint32_t> dims(shapes);
  return TensorCreateInfo(dims.data(), static_cast<uint32_t>(dims.size()), dtype, manual_dep);
}

ChipTensor View(const ChipTensor& t, std::initializer_list<uint32_t> shapes,
                std::initializer_list<uint32_t> offsets, bool manual_dep) {
  std::vector<uint32_t> s(shapes);
  std::vector<uint32_t> o(offsets);
  return t.view(s.data(), o.data(), manual_dep);
}

std::string ReadSourceFile(const std::string& relative_path) {
  std::ifstream in(std::string(DEPGRAPH_SOURCE_DIR) + "/" + relative_path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace shim_test
