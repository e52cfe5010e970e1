#!/usr/bin/env bash
# python_load_bench.sh: the Python module's load against the CLI's, on one generated graph
# (gen_graph --shape decode). Runs are interleaved (CLI, then Python, R times) so a busy
# period slows both. Prints every run's wall seconds, CPU (user + sys) and minor page faults,
# then the best of each and their ratio.
#
# The CLI is timed as a whole process (`depgraph query FILE --task 0`: load, labels, one
# answer; its start costs ~10 ms). The module is timed inside the interpreter, around
# `depgraph.load(FILE)` and `g.query(0)`, because the interpreter's own start (site imports:
# ~0.3 s on the development machine) is not the module's to save.
#
# Builds nothing: build first (ninja -C build gen_graph depgraph_cli, and the module in
# build/python).
#
#   bench/python_load_bench.sh [--tasks N] [--seed S] [--repeat R] [--build DIR] [--input FILE]
#                              [--views]
#
#   --tasks N      decode tasks (default 1000000: 1.70 GB, 3.6 M edge rows)
#   --seed S       generator seed (default 1)
#   --repeat R     interleaved pairs of runs (default 3)
#   --build DIR    build directory (default build); the module is DIR/python
#   --input FILE   time this deps.json instead of generating one
#   --views        the module keeps the tensor views (depgraph.load's default, what audit and
#                  the dataflow modes need); without it, views=False, the load `depgraph query`
#                  does (LoadOptions::views), so both sides do the same work
#
# Timing uses GNU time for the CLI (apt-get install -y time).
set -euo pipefail

tasks=1000000
seed=1
repeat=3
build=build
input=""
views=False
while [[ $# -gt 0 ]]; do
  case $1 in
    --tasks) tasks=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --input) input=$2; shift 2 ;;
    --views) views=True; shift ;;
    *) echo "python_load_bench.sh: unknown option: $1" >&2; exit 2 ;;
  esac
done
if ! [[ $repeat =~ ^[1-9][0-9]{0,5}$ ]]; then
  echo "python_load_bench.sh: --repeat: expected a whole number from 1 to 999999, got '$(printf '%q' "$repeat")'" >&2
  exit 2
fi
for tool in "$build/apps/depgraph/depgraph" "$build/python/depgraph/__init__.py"; do
  if [[ ! -f $tool ]]; then
    echo "python_load_bench.sh: $(printf '%q' "$tool") not found: build first (--build DIR)" >&2
    exit 2
  fi
done

workdir=$(mktemp -d "${TMPDIR:-/tmp}/depgraph_python_load.XXXXXX")
trap 'rm -rf "$workdir"' EXIT
trap 'echo "python_load_bench.sh: interrupted" >&2; exit 130' INT TERM
if [[ -z $input ]]; then
  input=$workdir/deps.json
  "$build/apps/gen_graph" --shape decode --tasks "$tasks" --seed "$seed" -o "$input"
  sync  # the generated file's writeback would otherwise compete with the first runs
fi

cat >"$workdir/load.py" <<'PY'
import resource, sys, time
import depgraph
before = resource.getrusage(resource.RUSAGE_SELF)
start = time.perf_counter()
g = depgraph.load(sys.argv[1], views=sys.argv[2] == "True")
g.query(0)
wall = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_SELF)
cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
print(f"{wall:.2f} {cpu:.2f} {after.ru_minflt - before.ru_minflt}")
PY

best_cli="" best_py=""
# smaller A B: whether A < B (either may be empty = infinity)
smaller() { [[ -z $2 ]] || awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
for ((i = 1; i <= repeat; i++)); do
  /usr/bin/time -o "$workdir/time.txt" -f '%e %U %S %R' \
    "$build/apps/depgraph/depgraph" query "$input" --task 0 >/dev/null
  read -r wall user sys faults <"$workdir/time.txt"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  echo "  cli    run $i: $wall s wall, $cpu s CPU, $faults minor faults"
  if smaller "$wall" "$best_cli"; then best_cli=$wall; fi
  read -r wall cpu faults < <(PYTHONPATH="$build/python" python3 "$workdir/load.py" "$input" "$views")
  echo "  python run $i: $wall s wall, $cpu s CPU, $faults minor faults"
  if smaller "$wall" "$best_py"; then best_py=$wall; fi
done
echo "best: cli $best_cli s, python $best_py s, python/cli $(awk -v p="$best_py" -v c="$best_cli" 'BEGIN { printf "%.3f", p / c }')"
