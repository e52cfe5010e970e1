// Helpers for the runtime-shim tests: a bound runtime with the executor's outer scope open,
// deps.json capture, and compact edge summaries in the spec's (ring,local) notation.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "depgraph_shim/shim_runtime.h"
#include "pto_orchestration_api.h"

namespace shim_test {

using depgraph::shim::RuntimeFlavor;
using depgraph::shim::ShimConfig;
using depgraph::shim::ShimRuntime;

/// A runtime bound for the duration of a test, with the executor's outer AUTO scope open.
class ShimFixture : public ::testing::Test {
 protected:
  void SetUp() override { Start(DefaultConfig()); }
  void TearDown() override { ShimRuntime::Unbind(); }

  /// The config of SetUp (this binary's flavour, default addresses).
  static ShimConfig DefaultConfig();
  /// Replaces the runtime with a fresh one for `config` (outer scope open).
  void Start(const ShimConfig& config);
  /// Closes the outer scope (unless already closed) and returns deps.json.
  std::string Finish();
  /// Finish() parsed.
  nlohmann::json FinishJson();
  ShimRuntime& runtime() { return *runtime_; }

 private:
  std::unique_ptr<ShimRuntime> runtime_;
  bool finished_ = false;
};

/// "(r,l)" of a raw task id.
std::string Id(uint64_t raw);
/// Edge rows as "(0,1)->(0,2) a0 tm/cov" (cre, exp, tm with cov/oth), in file order.
std::vector<std::string> EdgeList(const nlohmann::json& deps);
/// Task ids of tasks[] as "(r,l)", in file order.
std::vector<std::string> TaskList(const nlohmann::json& deps);

/// A contiguous external tensor at device address `addr`.
ChipTensor External(uint64_t addr, std::initializer_list<uint32_t> shapes,
                    DataType dtype = DataType::FLOAT32, int32_t version = 0,
                    bool manual_dep = false);
/// A create-info (shapes copied).
TensorCreateInfo CreateInfo(std::initializer_list<uint32_t> shapes,
                            DataType dtype = DataType::FLOAT32, bool manual_dep = false);
/// t.view(shapes, offsets, manual_dep).
ChipTensor View(const ChipTensor& t, std::initializer_list<uint32_t> shapes,
                std::initializer_list<uint32_t> offsets, bool manual_dep = false);

/// Submits the vector_example orchestration of runtime.md §8 through the API: entry tensors
/// a, b, f (FLOAT32[16384]) at the given addresses; T0 outside, T1..T4 inside one scope.
void SubmitVectorExample(uint64_t a_addr, uint64_t b_addr, uint64_t f_addr);

/// Content of a file under the source tree ("" if unreadable).
std::string ReadSourceFile(const std::string& relative_path);

}  // namespace shim_test
