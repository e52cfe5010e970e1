#!/usr/bin/env bash
# The CI recipe of docs/ci.md as a user runs it: examples/ci/test_depgraph_gate.py with this
# build's module, once on artifacts that pass every gate and once on a racy capture, where it
# must fail naming the race (a gate that cannot fail proves nothing).
#
#   ci_recipe_test.sh SOURCE_DIR BUILD_DIR PYTHON
set -euo pipefail
src=$1 build=$2 python=$3
export PYTHONPATH=$build/python PYTHONDONTWRITEBYTECODE=1
real=$src/data/real
pytest_run() { "$python" -m pytest -q -p no:cacheprovider "$src/examples/ci/test_depgraph_gate.py" "$@"; }

# Passing artifacts: a race-free capture, a compiled graph that keeps every ordering of the
# runtime's, and a program the sound pass compiles correctly.
out=$(DEPGRAPH_CAPTURE=$real/paged_attention/CaseSmall1/deps.json \
      DEPGRAPH_RUNTIME_GRAPH=$real/paged_attention_manual_scope/CaseSmall1/deps.json \
      DEPGRAPH_COMPILED_GRAPH=$real/paged_attention/CaseSmall1/deps.json \
      DEPGRAPH_PROGRAM=$src/data/passes/t02_auto_scope_raw_hazard_adds_compiler_edge_when_enabled.depir \
      pytest_run 2>&1) || { echo "$out"; echo "FAIL: the recipe fails on passing artifacts"; exit 1; }
echo "$out" | tail -n 1
case $out in *"3 passed"*) ;; *) echo "$out"; echo "FAIL: expected 3 passed"; exit 1 ;; esac

# A racy capture: the audit gate must fail and say why; the others are skipped.
status=0
out=$(DEPGRAPH_CAPTURE=$real/dep_probe/default/deps.json pytest_run 2>&1) || status=$?
echo "$out" | tail -n 1
[ "$status" -eq 1 ] || { echo "$out"; echo "FAIL: pytest exit $status on a racy capture, expected 1"; exit 1; }
case $out in *"1 failed, 2 skipped"*) ;; *) echo "$out"; echo "FAIL: expected 1 failed, 2 skipped"; exit 1 ;; esac
case $out in *"race"*) ;; *) echo "$out"; echo "FAIL: the failure does not name the races"; exit 1 ;; esac

# --strict on the clean capture: its unplaced output slots are a coverage gap, which fails.
status=0
out=$(DEPGRAPH_STRICT=1 DEPGRAPH_CAPTURE=$real/paged_attention/CaseSmall1/deps.json pytest_run 2>&1) || status=$?
[ "$status" -eq 1 ] || { echo "$out"; echo "FAIL: DEPGRAPH_STRICT=1 passed a capture with a coverage gap"; exit 1; }
case $out in *"coverage gap"*) ;; *) echo "$out"; echo "FAIL: the strict failure does not name the gap"; exit 1 ;; esac

# The workflow file parses as YAML and runs only flags depgraph has.
if "$python" -c "import yaml" 2>/dev/null; then
  "$python" -c "import sys, yaml; yaml.safe_load(open(sys.argv[1]))" "$src/examples/ci/depgraph-gate.yml"
fi
grep -o 'depgraph \(audit\|diff\|check\) [^|]*' "$src/examples/ci/depgraph-gate.yml" |
  sed 's/ *||.*//' | while read -r line; do
    # Every flag of the line must be one the command knows: ask its --help.
    cmd=$(echo "$line" | cut -d' ' -f2)
    help=$("$DEPGRAPH_CLI" "$cmd" --help)
    for flag in $(echo "$line" | grep -o -- '--[a-z-]*'); do
      case $help in *"$flag"*) ;; *) echo "FAIL: the workflow's '$line' uses $flag, unknown to depgraph $cmd"; exit 1 ;; esac
    done
  done
echo "ci recipe: ok"
