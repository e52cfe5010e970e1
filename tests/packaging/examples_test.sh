#!/usr/bin/env bash
# The examples (examples/) as a user runs them, each on a real capture, their race counts
# against `depgraph audit --json`:
#   examples_test.sh cpp SOURCE_DIR BUILD_DIR [CXX_FLAGS]
#       installs this build into a temporary prefix, configures and builds examples/ against
#       it (find_package(depgraph)) and runs audit_capture
#   examples_test.sh python SOURCE_DIR BUILD_DIR PYTHON
#       runs examples/audit_capture.py with this build's module (PYTHONPATH=BUILD_DIR/python)
set -euo pipefail
kind=$1 src=$2 build=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

capture=$src/data/real/dep_probe/default/deps.json
# The expected line, from the JSON report of this build's depgraph (exit 3: races found).
code=0
"$build/apps/depgraph/depgraph" audit "$capture" --json >"$tmp/audit.json" || code=$?
[ "$code" = 0 ] || [ "$code" = 3 ] || fail "depgraph audit exited with $code"
want=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["races"]
print("%s: %d race(s) (RAW %d, WAW %d, WAR %d)" % (sys.argv[2], r["total"], r["RAW"], r["WAW"], r["WAR"]))
' "$tmp/audit.json" "$capture")

case $kind in
  cpp)
    flags=${4:-}
    prefix=$tmp/prefix
    cmake --install "$build" --prefix "$prefix" >/dev/null
    cmake -S "$src/examples" -B "$tmp/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_FLAGS="$flags" >"$tmp/configure.log" \
      || { cat "$tmp/configure.log"; exit 1; }
    cmake --build "$tmp/build" -j 2 >"$tmp/build.log" || { cat "$tmp/build.log"; exit 1; }
    got=$("$tmp/build/audit_capture" "$capture")
    ;;
  python)
    python=$4
    got=$(cd "$tmp" && PYTHONPATH=$build/python "$python" "$src/examples/audit_capture.py" \
          "$capture")
    ;;
  *) fail "unknown example kind '$kind' (cpp, python)" ;;
esac
[ "$got" = "$want" ] || fail "the $kind example printed '$got', expected '$want'"
echo "example test passed ($kind): $got"
