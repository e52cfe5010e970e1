#!/usr/bin/env bash
# Set-up (scripts/setup.sh), then the whole test suite through CTest.
#
#   scripts/test.sh                   the normal build (build/)
#   scripts/test.sh --sanitize [ARGS] the same suite built with -fsanitize=address,undefined
#                                     into build-asan/ (docs/fuzzing.md); ARGS go to ctest
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--sanitize" ]; then
  bash scripts/setup.sh
  ctest --test-dir build --output-on-failure -j"$(nproc)"
  exit
fi
shift
bash scripts/setup.sh --no-build
build=${SANITIZE_BUILD:-build-asan}
# UB aborts the test that hits it (-fno-sanitize-recover); frame pointers give whole stacks.
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS="$flags" \
  >/dev/null
ninja -C "$build" -j"${SANITIZE_JOBS:-$(nproc)}" | tail -n 1
# The same settings for every process the tests start (the tools, orch_runner, the browser
# tests' deps_viewer). Leaks inside Graphviz's caches are suppressed (tests/sanitizer/lsan.supp).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_init_order=1:detect_stack_use_after_return=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/sanitizer/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "test.sh: ASAN_OPTIONS=$ASAN_OPTIONS LSAN_OPTIONS=$LSAN_OPTIONS UBSAN_OPTIONS=$UBSAN_OPTIONS"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" --timeout 1500 "$@"
