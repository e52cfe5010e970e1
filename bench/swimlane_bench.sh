#!/usr/bin/env bash
# swimlane_bench.sh: times `depgraph swimlane` on a generated run with timing records
# (gen_graph --shape decode --tasks N --timing-records) and prints wall seconds and peak
# resident memory, plain and with --overhead; optionally the reference converter too.
#
# Builds nothing: build first (ninja -C build gen_graph depgraph_cli).
#
#   bench/swimlane_bench.sh [--tasks N] [--seed S] [--repeat R] [--build DIR]
#                           [--python-cmd "CMD"] [--workdir DIR]
#
#   --tasks N           decode tasks (default 65536: 750,386 timing rows, 111.6 MB deps.json)
#   --seed S            generator seed (default 1)
#   --repeat R          runs per measurement; every run is printed, then the fastest (default 3)
#   --build DIR         build directory (default build)
#   --python-cmd "CMD"  also time the reference, e.g. "python3 -m simpler_setup.tools.swimlane_converter"
#                       (with PYTHONPATH set to its package), and compare the two traces byte for byte
#   --workdir DIR       where the run goes (default: a fresh mktemp -d, removed on exit; the
#                       65,536-task trace alone is ~470 MB)
#
# Timing uses GNU time (/usr/bin/time -f '%e %M'; apt-get install -y time).
set -euo pipefail

tasks=65536
seed=1
repeat=3
build=build
python_cmd=""
workdir=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --tasks) tasks=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --python-cmd) python_cmd=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done

if [[ -z $workdir ]]; then
  workdir=$(mktemp -d)
  trap 'rm -rf "$workdir"' EXIT INT TERM
fi
mkdir -p "$workdir"
cli=$build/apps/depgraph/depgraph
"$build/apps/gen_graph" --shape decode --tasks "$tasks" --seed "$seed" --timing-records \
  -o "$workdir/deps.json"
echo "records: $(stat -c %s "$workdir/chip_swimlane_records.json") bytes, deps.json: $(stat -c %s "$workdir/deps.json") bytes"
# The inputs on disk before timing, as a capture's are: otherwise their writeback competes with
# the runs' own output.
sync

# measure LABEL CMD...: runs CMD $repeat times, prints each "<s> s <KB> KB" and the fastest.
measure() {
  local label=$1
  shift
  local best=""
  for ((i = 0; i < repeat; i++)); do
    local line
    /usr/bin/time -o "$workdir/time.txt" -f '%e %M' "$@" >/dev/null 2>&1
    line=$(tail -1 "$workdir/time.txt")
    echo "  $label run $((i + 1)): ${line% *} s, ${line#* } KB"
    if [[ -z $best ]] || awk -v a="${line% *}" -v b="${best% *}" 'BEGIN { exit !(a < b) }'; then
      best=$line
    fi
  done
  echo "$label: best ${best% *} s, peak ${best#* } KB"
}

measure "depgraph swimlane" "$cli" swimlane "$workdir/chip_swimlane_records.json" -o "$workdir/trace.json"
echo "trace: $(stat -c %s "$workdir/trace.json") bytes"
measure "depgraph swimlane --overhead" "$cli" swimlane "$workdir/chip_swimlane_records.json" \
  -o "$workdir/trace_overhead.json" --overhead
if [[ -n $python_cmd ]]; then
  # shellcheck disable=SC2086
  measure "reference" $python_cmd "$workdir/chip_swimlane_records.json" -o "$workdir/reference.json"
  if cmp -s "$workdir/trace.json" "$workdir/reference.json"; then
    echo "traces: byte-identical"
  else
    echo "traces: DIFFER"
  fi
fi
