#!/usr/bin/env bash
# sched_overhead_bench.sh: times `depgraph sched-overhead` on a generated level-3 run and prints
# wall seconds and peak resident memory (best of --repeat runs); optionally the reference too.
#
# gen_graph --timing-records writes level-1 records (AICore rows only: no AICPU dispatch /
# finish, no scheduler phases), so bench/synth_level3_records.py (python3, standard library)
# adds AICPU rows, core_to_thread and scheduler phase records to them first.
#
# Builds nothing: build first (ninja -C build gen_graph depgraph_cli).
#
#   bench/sched_overhead_bench.sh [--tasks N] [--seed S] [--repeat R] [--build DIR]
#                                 [--python-cmd "CMD"] [--workdir DIR]
#
#   --tasks N           decode tasks (default 65536: 750,386 task rows)
#   --seed S            generator and synthesis seed (default 1)
#   --repeat R          runs per measurement; every run is printed, then the fastest (default 3)
#   --build DIR         build directory (default build)
#   --python-cmd "CMD"  also time the reference, e.g. "python3 -m simpler_setup.tools.sched_overhead_analysis"
#                       (with PYTHONPATH set to its package), once, and compare the two reports
#                       byte for byte (minutes at 65,536 tasks: its switch split is quadratic)
#   --workdir DIR       where the run goes (default: a fresh mktemp -d, removed on exit)
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

here=$(cd "$(dirname "$0")" && pwd)
if [[ -z $workdir ]]; then
  workdir=$(mktemp -d)
  trap 'rm -rf "$workdir"' EXIT INT TERM
fi
mkdir -p "$workdir"
cli=$build/apps/depgraph/depgraph
"$build/apps/gen_graph" --shape decode --tasks "$tasks" --seed "$seed" --timing-records -q \
  -o "$workdir/deps.json"
python3 "$here/synth_level3_records.py" "$workdir/chip_swimlane_records.json" \
  "$workdir/level3_records.json" --seed "$seed"
echo "records: $(stat -c %s "$workdir/level3_records.json") bytes (level 3), deps.json: $(stat -c %s "$workdir/deps.json") bytes"
# The inputs on disk before timing, as a capture's are.
sync

# measure LABEL RUNS CMD...: runs CMD RUNS times (stdout to $workdir/<label>.out), prints each
# "<s> s <KB> KB" and the fastest.
measure() {
  local label=$1 runs=$2
  shift 2
  local best=""
  for ((i = 0; i < runs; i++)); do
    local line
    /usr/bin/time -o "$workdir/time.txt" -f '%e %M' "$@" >"$workdir/$label.out" 2>"$workdir/$label.err"
    line=$(tail -1 "$workdir/time.txt")
    echo "  $label run $((i + 1)): ${line% *} s, ${line#* } KB"
    if [[ -z $best ]] || awk -v a="${line% *}" -v b="${best% *}" 'BEGIN { exit !(a < b) }'; then
      best=$line
    fi
  done
  echo "$label: best ${best% *} s, peak ${best#* } KB"
}

cd "$workdir"
measure depgraph "$repeat" "$OLDPWD/$cli" sched-overhead \
  --chip-swimlane-records-json level3_records.json --deps-json deps.json
if [[ -n $python_cmd ]]; then
  # shellcheck disable=SC2086
  measure reference 1 $python_cmd --chip-swimlane-records-json level3_records.json --deps-json deps.json
  if cmp -s depgraph.out reference.out; then
    echo "reports: byte-identical"
  else
    echo "reports: DIFFER"
  fi
fi
