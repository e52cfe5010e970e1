#!/usr/bin/env bash
# critical_path_bench.sh: times `depgraph critical-path` on a generated profiled run, without
# and with its merged Perfetto trace (made by `depgraph swimlane`), and `depgraph simulate`
# with and without --trace on the same graph: wall seconds and peak resident memory, the
# fastest of --repeat runs (each run printed). Issue 26's targets: critical-path with the
# trace at 65,536 tasks under 3 s and 1 GB; simulate --trace in bounded memory.
#
# Builds nothing: build first (ninja -C build gen_graph depgraph).
#
#   bench/critical_path_bench.sh [--tasks N] [--seed S] [--repeat R] [--build DIR] [--workdir DIR]
#
#   --tasks N      decode tasks (default 65536: 750,386 timing rows, a 474 MB merged trace)
#   --seed S       generator seed (default 1)
#   --repeat R     runs per measurement (default 3)
#   --build DIR    build directory (default build)
#   --workdir DIR  where the run goes (default: a fresh mktemp -d, removed on exit)
set -euo pipefail

tasks=65536
seed=1
repeat=3
build=build
workdir=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --tasks) tasks=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    *) echo "critical_path_bench.sh: unknown option: $1" >&2; exit 2 ;;
  esac
done
own=0
if [[ -z $workdir ]]; then
  workdir=$(mktemp -d "${TMPDIR:-/tmp}/depgraph_cp.XXXXXX")
  own=1
fi
cleanup() { if [[ $own == 1 ]]; then rm -rf "$workdir"; fi; }
trap cleanup EXIT
trap 'echo "critical_path_bench.sh: interrupted" >&2; exit 130' INT TERM
cli=$build/apps/depgraph/depgraph
run=$workdir/run
bare=$workdir/bare
mkdir -p "$run" "$bare"
"$build/apps/gen_graph" --shape decode --tasks "$tasks" --seed "$seed" --timing-records \
  -o "$run/deps.json" -q
"$cli" swimlane "$run/chip_swimlane_records.json" -o "$run/merged_swimlane_bench.json" >/dev/null
for f in deps.json chip_swimlane_records.json name_map_gen_graph.json; do
  ln -sf "$run/$f" "$bare/$f"
done
echo "decode $tasks tasks, seed $seed: deps.json $(stat -c %s "$run/deps.json") B," \
  "records $(stat -c %s "$run/chip_swimlane_records.json") B," \
  "merged trace $(stat -c %s "$run/merged_swimlane_bench.json") B"
echo '{"default": 100}' >"$workdir/durations.json"
# The inputs on disk before timing, as a capture made by an earlier run is: otherwise the
# kernel's writeback of the 474 MB trace just made competes with the runs' own output.
sync

# measure LABEL CMD...: CMD $repeat times; each run and the fastest as "<s> s, <KB> KB".
measure() {
  local label=$1 best="" line
  shift
  for ((i = 1; i <= repeat; i++)); do
    /usr/bin/time -o "$workdir/time.txt" -f '%e %M' "$@" >/dev/null 2>"$workdir/stderr.txt" ||
      { echo "  $label: failed: $(tail -1 "$workdir/stderr.txt")" >&2; exit 1; }
    line=$(tail -1 "$workdir/time.txt")
    echo "  $label run $i: ${line% *} s, ${line#* } KB"
    if [[ -z $best ]] || awk -v a="${line% *}" -v b="${best% *}" 'BEGIN{exit !(a<b)}'; then
      best=$line
    fi
  done
  echo "$label: best ${best% *} s, ${best#* } KB"
}

measure "critical-path (no merged trace)" "$cli" critical-path "$bare"
measure "critical-path (merged trace)" "$cli" critical-path "$run"
measure "simulate" "$cli" simulate "$run/deps.json" --aic 24 --aiv 48 \
  --durations "$workdir/durations.json" -o "$workdir/sim.txt"
measure "simulate --trace" "$cli" simulate "$run/deps.json" --aic 24 --aiv 48 \
  --durations "$workdir/durations.json" -o "$workdir/sim.txt" --trace "$workdir/sim_trace.json"
echo "simulate trace: $(stat -c %s "$workdir/sim_trace.json") B"
