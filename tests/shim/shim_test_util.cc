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

void SubmitVectorExample(uint64_t a_addr, uint64_t b_addr, uint64_t f_addr) {
  ChipTensor a = External(a_addr, {16384});
  ChipTensor b = External(b_addr, {16384});
  ChipTensor f = External(f_addr, {16384});
  TensorCreateInfo ci = CreateInfo({16384});
  CoreTaskArgs args0;
  args0.add_input(a, b);
  args0.add_output(ci);
  TaskOutputTensors t0 = rt_submit_aiv_task(0, args0);
  const ChipTensor& c = t0.get_ref(0);
  PTO2_SCOPE() {
    CoreTaskArgs args1;
    args1.add_input(c);
    args1.add_output(ci);
    args1.add_scalar(1.0f, 3);
    TaskOutputTensors t1 = rt_submit_aiv_task(1, args1);
    CoreTaskArgs args2;
    args2.add_input(c);
    args2.add_output(ci);
    args2.add_scalar(2.0f, 3);
    TaskOutputTensors t2 = rt_submit_aiv_task(1, args2);
    CoreTaskArgs args3;
    args3.add_input(t1.get_ref(0), t2.get_ref(0));
    args3.add_output(ci);
    args3.add_scalar(3);
    TaskOutputTensors t3 = rt_submit_aiv_task(2, args3);
    CoreTaskArgs args4;
    args4.add_input(t3.get_ref(0), c);
    args4.add_output(f);
    rt_submit_aiv_task(0, args4);
  }
}

}  // namespace shim_test
