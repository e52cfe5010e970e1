#!/usr/bin/env bash
# Long libFuzzer runs of the harnesses in tests/fuzz/ (docs/fuzzing.md).
#
#   scripts/fuzz.sh [HARNESS|all] [SECONDS] [-- LIBFUZZER_FLAGS...]
#
# HARNESS: deps_json, name_map, perf_sidecar, depir, run_description, timing_inputs, or all
# (default; one after another, never in parallel). SECONDS per harness (default 600). Builds
# with clang into build-fuzz/ (-fsanitize=fuzzer,address,undefined; UB aborts), fuzzes one
# process on one core, starting from the committed seeds (tests/fuzz/corpus/HARNESS/, read
# only) plus the corpus grown by earlier runs (build-fuzz/corpus/HARNESS/). A crash, leak or
# timeout (25 s) stops the run and leaves the input in build-fuzz/artifacts/HARNESS/: minimise
# it (-minimize_crash=1) and add it to tests/fuzz/corpus/HARNESS/ together with its fix.
# The last line of each run's log (build-fuzz/logs/HARNESS.log) has executions, coverage and
# features. Environment: FUZZ_BUILD (default build-fuzz), FUZZ_JOBS (ninja -j, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."

all=(deps_json name_map perf_sidecar depir run_description timing_inputs)
harness=${1:-all}
seconds=${2:-600}
shift $(( $# > 2 ? 2 : $# ))
[ "${1:-}" = "--" ] && shift
extra=("$@")
if [ "$harness" = all ]; then
  harnesses=("${all[@]}")
elif [[ " ${all[*]} " == *" $harness "* ]]; then
  harnesses=("$harness")
else
  echo "fuzz.sh: unknown harness '$harness' (one of: ${all[*]}, all)" >&2
  exit 2
fi
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (apt-get install clang)" >&2; exit 1; }

build=${FUZZ_BUILD:-build-fuzz}
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
flags+=" -fno-omit-frame-pointer -g"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS="$flags" -DDEPGRAPH_LIBFUZZER=ON >/dev/null
targets=()
for h in "${harnesses[@]}"; do targets+=("fuzz_$h"); done
ninja -C "$build" -j"${FUZZ_JOBS:-2}" "${targets[@]}" | tail -n 1

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for h in "${harnesses[@]}"; do
  work="$build/corpus/$h"
  artifacts="$build/artifacts/$h"
  mkdir -p "$work" "$artifacts" "$build/logs"
  echo "fuzz.sh: $h for ${seconds}s (log: $build/logs/$h.log)"
  status=0
  "$build/tests/fuzz/fuzz_$h" "$work" "tests/fuzz/corpus/$h" -dict="tests/fuzz/$h.dict" \
    -max_total_time="$seconds" -max_len=4096 -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "${extra[@]}" >"$build/logs/$h.log" 2>&1 || status=$?
  grep -E '^#[0-9]+[[:space:]]+(DONE|INITED)' "$build/logs/$h.log" | tail -n 1 || true
  grep -E '^stat::number_of_executed_units' "$build/logs/$h.log" || true
  if [ "$status" -ne 0 ]; then
    echo "fuzz.sh: $h found a problem (exit $status); see $build/logs/$h.log and $artifacts/" >&2
    tail -n 30 "$build/logs/$h.log" >&2
    exit "$status"
  fi
done
