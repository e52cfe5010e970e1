#!/usr/bin/env bash
# -DDEPGRAPH_BUILD_TESTS=OFF -DDEPGRAPH_BUILD_BENCHMARKS=OFF configures without GoogleTest and
# Google Benchmark (both made unfindable) and generates exactly the install rules of a full
# configure: no test or benchmark target, the same install components.
#   minimal_configure_test.sh SOURCE_DIR
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake -S "$src" -B "$tmp/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DDEPGRAPH_BUILD_TESTS=OFF -DDEPGRAPH_BUILD_BENCHMARKS=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON \
  >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "configure without GTest"; }
targets=$(ninja -C "$tmp/build" -t targets all)
for t in depgraph_tests orchestration_tests depgraph_bench pto_shim_bench; do
  ! grep -q "^$t:" <<<"$targets" || fail "target $t is defined with the tests and benchmarks off"
done
for t in deps_viewer depgraph_cli orch_runner gen_graph pto_shim; do
  grep -q "^$t:" <<<"$targets" || fail "target $t is missing"
done
ctest --test-dir "$tmp/build" -N | grep -qx "Total Tests: 0" || fail "tests are registered"
echo "minimal configure test passed: no GoogleTest, no Google Benchmark"
