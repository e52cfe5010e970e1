#!/usr/bin/env bash
# Set-up (scripts/setup.sh) of only what the demo runs, then deps_viewer on a bundled real
# capture in every edge mode, and orch_runner on an orchestration of tests/orchestrations.
# scripts/test.sh builds everything.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --targets "deps_viewer orch_runner orch_paged_attention"

sample=data/real/paged_attention/CaseSmall1
out=out/demo
rm -rf "$out" && mkdir -p "$out"
cp "$sample"/deps.json "$sample"/name_map*.json "$out"/
for mode in full reduced omitted reduced_dataflow omitted_dataflow; do
  echo "== --edge-mode $mode"
  build/apps/deps_viewer "$out/deps.json" --edge-mode "$mode"
done
echo "== --format html --edge-mode reduced_dataflow (Graphviz layout in process)"
build/apps/deps_viewer "$out/deps.json" --format html --edge-mode reduced_dataflow
echo "== the explorer page on a model-sized graph: paged attention at Case1 shape through the runtime shim"
build/apps/orch_runner/orch_runner build/tests/orchestrations/modules/liborch_paged_attention.so \
  -a bench/inputs/paged_attention_Case1.json -o "$out/paged_attention_case1/deps.json"
build/apps/deps_viewer "$out/paged_attention_case1/deps.json" --format html
echo "== --stats --explain --edge-mode reduced"
build/apps/deps_viewer "$out/deps.json" --edge-mode reduced --explain --stats -o "$out/reduced_explained.txt"
echo
echo "Outputs are in $out/:"
ls -1 "$out" "$out/paged_attention_case1"
