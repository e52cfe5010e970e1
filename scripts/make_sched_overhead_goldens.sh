#!/usr/bin/env bash
# Regenerates the reference outputs of tests/data/sched_overhead/ by running the reference
# sched_overhead_analysis.py (hw-native-sys/simpler) on every case. Not run by CI: the goldens
# are committed, and tests/timing/sched_overhead_golden_test.cc compares
# `depgraph sched-overhead` with them.
#
#   scripts/make_sched_overhead_goldens.sh REFERENCE
#
# REFERENCE: a checkout of hw-native-sys/simpler (a work tree, or a bare/mirror git directory,
# whose HEAD is used). PYTHON (default /usr/bin/python3) runs it; it needs only the standard
# library. A case's input is its own input/ directory, else tests/data/swimlane/<case>/input;
# it is copied to a scratch directory and the reference runs there with
#   --chip-swimlane-records-json chip_swimlane_records.json --deps-json deps.json
# writing expected_stdout, expected_exit_code and expected_stderr_last_line. Our own outputs
# for the cases where the reference crashes (expected_*_depgraph) are left alone.
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 REFERENCE" >&2
  exit 2
fi
REF=$1
REPO=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-/usr/bin/python3}
CASES=$REPO/tests/data/sched_overhead

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

mkdir -p "$WORK/ref/simpler_setup/tools"
: >"$WORK/ref/simpler_setup/__init__.py"
for tool in __init__ clock_correlation swimlane_converter sched_overhead_analysis; do
  path=simpler_setup/tools/$tool.py
  if [[ -f $REF/$path ]]; then
    cp "$REF/$path" "$WORK/ref/$path"
    commit=$(git -C "$REF" rev-parse HEAD 2>/dev/null || echo unknown)
  else
    git --git-dir="$REF" show "HEAD:$path" >"$WORK/ref/$path"
    commit=$(git --git-dir="$REF" rev-parse HEAD)
  fi
done

count=0
for case_dir in "$CASES"/*/; do
  case_dir=${case_dir%/}
  name=$(basename "$case_dir")
  input=$case_dir/input
  [[ -d $input ]] || input=$REPO/tests/data/swimlane/$name/input
  root=$WORK/scratch/$name
  rm -rf "$WORK/scratch"
  mkdir -p "$root"
  cp -r "$input/." "$root/"
  rc=0
  (cd "$root" && PYTHONPATH="$WORK/ref" "$PYTHON" -m simpler_setup.tools.sched_overhead_analysis \
    --chip-swimlane-records-json chip_swimlane_records.json --deps-json deps.json \
    >"$case_dir/expected_stdout" 2>"$WORK/stderr") || rc=$?
  echo "$rc" >"$case_dir/expected_exit_code"
  tail -n 1 "$WORK/stderr" >"$case_dir/expected_stderr_last_line"
  count=$((count + 1))
done
echo "$commit" >"$CASES/REFERENCE"
echo "wrote $count golden case(s) under $CASES (reference $commit)"
