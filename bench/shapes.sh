#!/usr/bin/env bash
# shapes.sh: the benchmark that does not depend on one graph. For every gen_graph shape and
# seed it generates one graph, then times each command on it and prints a table of wall
# seconds and peak resident memory (GNU time), one row per (shape, seed, command):
#
#   viewer:full, viewer:reduced, viewer:reduced_dataflow   deps_viewer --edge-mode MODE
#   audit                                                  depgraph audit
#   diff                                                   depgraph diff G G
#   diff:closure                                           depgraph diff G G --closure
#
# Builds nothing: build first (docs/performance.md), e.g.
#   cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && ninja -C build
#
# Usage: bench/shapes.sh [options]
#   --build DIR          where the tools are (default build)
#   --tasks N            tasks per graph (default 1000000)
#   --shapes "S.."       default "decode chain wide random chain_to_last hub dense"
#   --seeds "S.."        default "1 2"
#   --commands "C.."     default: all of the above
#   --closure-max-tasks N  skip diff:closure above N tasks (default 200000: it is
#                        O(tasks / 64 * (V + E)) and a dense closure is quadratic)
#   --threads N          passed to the tools as --threads N when given
#   --repeat N           runs per measurement; the table shows the fastest (default 1)
#   --timeout SEC        per-run wall limit (default 300)
#   --workdir DIR        where graphs go (default: a fresh mktemp -d, removed on exit; a
#                        1,000,000-task graph is 0.7-1.7 GB)
set -euo pipefail

build="build"
tasks=1000000
shapes="decode chain wide random chain_to_last hub dense"
seeds="1 2"
commands="viewer:full viewer:reduced viewer:reduced_dataflow audit diff diff:closure"
closure_max=200000
threads=""
repeat=1
timeout_s=300
workdir=""

usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --tasks) tasks="$2"; shift 2 ;;
    --shapes) shapes="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --commands) commands="$2"; shift 2 ;;
    --closure-max-tasks) closure_max="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    --workdir) workdir="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "shapes.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

viewer="$build/apps/deps_viewer"
cli="$build/apps/depgraph/depgraph"
gen_graph="$build/apps/gen_graph"
for tool in "$viewer" "$cli" "$gen_graph"; do
  [[ -x "$tool" ]] || { echo "shapes.sh: $tool not found (build first; see --help)" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "shapes.sh: GNU time missing: apt-get install -y time" >&2; exit 2; }

# shellcheck source=bench/bench_lib.sh
source "$(dirname "$0")/bench_lib.sh"
use_workdir shapes

thread_args=()
[[ -n "$threads" ]] && thread_args=(--threads "$threads")

echo "# shapes benchmark: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GB", $2/1048576}' /proc/meminfo) RAM, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# tasks: $tasks   seeds: $seeds   threads: ${threads:-default}   repeat: $repeat   build: $build"
printf '%-14s %4s %9s %10s %-26s %8s %8s %s\n' shape seed tasks MB command seconds peak_MB status
for shape in $shapes; do
  for seed in $seeds; do
    file="$workdir/graph_${shape}_${seed}.json"
    if ! "$gen_graph" --shape "$shape" --tasks "$tasks" --seed "$seed" -o "$file" -q; then
      echo "shapes.sh: gen_graph failed for $shape seed $seed" >&2
      exit 1
    fi
    size_mb=$(( $(stat -c %s "$file") / 1048576 ))
    for command in $commands; do
      out="$workdir/out_$$"
      case "$command" in
        viewer:*) cmd=("$viewer" "$file" --edge-mode "${command#viewer:}" -o "$out") ;;
        # Exit 3 means races were found: a result, not a failure.
        # shellcheck disable=SC2016
        audit) cmd=(bash -c '"$@"; rc=$?; [[ $rc == 3 ]] && exit 0; exit $rc' _ "$cli" audit "$file" -o "$out") ;;
        diff) cmd=("$cli" diff "$file" "$file" -o "$out") ;;
        diff:closure)
          if (( tasks > closure_max )); then
            printf '%-14s %4s %9s %10s %-26s %8s %8s %s\n' "$shape" "$seed" "$tasks" \
              "$size_mb" "$command" - - "skipped (> --closure-max-tasks)"
            continue
          fi
          cmd=("$cli" diff "$file" "$file" --closure -o "$out") ;;
        *) echo "shapes.sh: unknown command $command" >&2; exit 2 ;;
      esac
      best_of "$repeat" "$timeout_s" 0 "${cmd[@]}" "${thread_args[@]}"
      printf '%-14s %4s %9s %10s %-26s %8s %8s %s\n' "$shape" "$seed" "$tasks" "$size_mb" \
        "$command" "$run_s" "$run_mb" "$(status_text "$run_rc")"
      rm -f "$out"
    done
    rm -f "$file"
  done
done
