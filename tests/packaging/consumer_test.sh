#!/usr/bin/env bash
# find_package(depgraph) from outside the tree: installs this build into a temporary prefix,
# configures and builds tests/packaging/consumer against it (the three exported libraries and
# depgraph_add_orchestration), and runs what it built with the installed tools.
#   consumer_test.sh SOURCE_DIR BUILD_DIR [CXX_FLAGS]
set -euo pipefail
src=$1 build=$2 flags=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

cmake --install "$build" --prefix "$prefix" >/dev/null

fail() { echo "FAIL: $*"; exit 1; }
# Only public headers are installed: every quoted #include of an installed header names a
# header installed beside it or under include/ (a private one would be missing), and the
# private headers of the libraries are absent.
inc=$prefix/include
while IFS= read -r header; do
  dir=$(dirname "$header")
  while IFS= read -r name; do
    [ -e "$dir/$name" ] || [ -e "$inc/$name" ] || [ -e "$inc/depgraph_runtime_shim/$name" ] ||
      fail "installed ${header#"$prefix"/} includes \"$name\", which is not installed"
  done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]+)".*/\1/p' "$header")
done < <(find "$inc" -type f -name '*.h')
for private in background_file_buf.h first_error.h py_int.h deps_loader.h; do
  found=$(find "$inc" -name "$private")
  [ -z "$found" ] || fail "a private header is installed: $found"
done
[ ! -e "$inc/depgraph/internal" ] || fail "include/depgraph/internal is installed"
cmake -S "$src/tests/packaging/consumer" -B "$tmp/build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_FLAGS="$flags" \
  -DORCH_SOURCE="$src/tests/orchestrations/dep_gen_chain.cpp" >"$tmp/configure.log" \
  || { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/build" -j 2 >"$tmp/build.log" || { cat "$tmp/build.log"; exit 1; }

# The consumer on a real capture: the reference tool's counts (expected/full.stdout).
capture=$src/data/real/dep_gen_chain/n_64_no_chain
got=$("$tmp/build/count_tasks" "$capture/deps.json" \
      "$src/data/passes/t34_fixed_trip_loop_fan_in_producer_exports_task_id_collection.depir")
counts='s/.*\(([0-9]+) tasks, ([0-9]+) unique edges, ([0-9]+) annotated.*/\1 \2 \3/'
read -r tasks edges rows < <(sed -E "$counts" "$capture/expected/full.stdout")
want="tasks=$tasks edges=$edges rows=$rows
functions=1"
[ "$got" = "$want" ] || fail "count_tasks printed '$got', expected '$want'"

# The orchestration built with the installed helper, run by the installed orch_runner: the
# same graph as the real capture.
"$prefix/bin/orch_runner" "$tmp/build/libconsumer_orch.so" \
  -a "$src/tests/orchestrations/cases/dep_gen_chain_n64.json" -o "$tmp/run/deps.json" >/dev/null
got=$("$tmp/build/count_tasks" "$tmp/run/deps.json")
[ "$got" = "tasks=$tasks edges=$edges rows=$rows" ] || fail "orch_runner's capture: '$got'"
# The installed tools start from anywhere (libpto_shim.so through their RPATH).
"$prefix/bin/depgraph" audit "$tmp/run/deps.json" >/dev/null
"$prefix/bin/deps_viewer" --version >/dev/null
echo "consumer test passed: $got"
