#!/usr/bin/env bash
# Rewrites the goldens of the CI formats (tests/data/gate/: SARIF, JUnit XML, GitHub
# annotations and step summary of data/real/dep_probe/default, and of the lost-ordering diff
# pa_small_vs_manual) from this build's writers, after
# an intended change. Review the diff before committing it.
#   scripts/make_gate_goldens.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
ninja -C "$build" depgraph_tests
DEPGRAPH_UPDATE_GOLDENS=1 "$build/tests/depgraph_tests" --gtest_filter='Gate*Golden*'
git -C "$root" status --short tests/data/gate
