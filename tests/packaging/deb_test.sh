#!/usr/bin/env bash
# The Debian package: builds it with CPack from this build (all targets built), checks its name
# and dependencies, unpacks it into a scratch root with dpkg -x and runs the tools and the
# Python module from there.
#   deb_test.sh BUILD_DIR VERSION PYTHON   (PYTHON "none": the module is not checked)
set -euo pipefail
build=$1 version=$2 python=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if ! (cd "$build" && cpack -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1); then
  cat "$tmp/cpack.log"
  exit 1
fi
deb=$tmp/pkg/depgraph_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || { ls "$tmp/pkg"; fail "no $deb"; }

# Dependencies on Debian's runtime libraries (dpkg-shlibdeps) and the module's python3.
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
needs=(libc6 libstdc++6 libgcc-s1 libgvc6 libcgraph6)
[ "$python" = none ] || needs+=(python3)
names=$(sed -E 's/ *\([^)]*\)//g; s/, */\n/g' <<<"$depends")  # one package name a line
for lib in "${needs[@]}"; do
  grep -Fxq "$lib" <<<"$names" || fail "Depends lacks $lib: $depends"
done

root=$tmp/root
dpkg -x "$deb" "$root"
for path in usr/bin/deps_viewer usr/bin/depgraph usr/bin/orch_runner usr/bin/gen_graph \
            usr/include/depgraph/graph/load_deps.h usr/include/depgraph/audit/audit.h \
            usr/include/depgraph/timing/critical_path.h usr/include/depgraph_passes/ir.h \
            usr/include/depgraph_runtime_shim/pto_orchestration_api.h \
            usr/lib/cmake/depgraph/depgraphConfig.cmake \
            usr/lib/cmake/depgraph/DepgraphOrchestration.cmake \
            usr/share/doc/depgraph/copyright; do
  [ -e "$root/$path" ] || fail "the package has no /$path"
done
# Only public headers: the internals shared by depgraph's own libraries stay out.
for path in usr/include/depgraph/internal usr/include/depgraph/support/py_int.h \
            usr/include/depgraph/graph/deps_loader.h \
            usr/include/depgraph/support/background_file_buf.h \
            usr/include/depgraph/timing/first_error.h; do
  [ ! -e "$root/$path" ] || fail "the package installs the private /$path"
done

# Debian's machine-readable copyright format.
head -n 1 "$root/usr/share/doc/depgraph/copyright" |
  grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
  fail "/usr/share/doc/depgraph/copyright is not in the machine-readable format"

help=$("$root/usr/bin/deps_viewer" --help)
grep -q -- "--edge-mode" <<<"$help" || fail "deps_viewer --help: $help"
"$root/usr/bin/depgraph" --version | grep -qx "depgraph $version" || fail "depgraph --version"
if [ "$python" = none ]; then
  echo "package test passed: $(basename "$deb") (Python module not checked)"
  exit 0
fi
# The module from the unpacked tree: libpto_shim.so found through its RPATH ($ORIGIN/../../..).
data=$(cd "$(dirname "$0")/../../data" && pwd)
cd "$tmp"  # not a directory holding another depgraph package
PYTHONPATH=$root/usr/lib/python3/dist-packages "$python" -c '
import depgraph, sys
assert depgraph.__file__.startswith(sys.argv[1]), depgraph.__file__
print(depgraph.load(sys.argv[2]).stats())' "$root" \
  "$data/real/dep_gen_chain/n_64_no_chain/deps.json"
echo "package test passed: $(basename "$deb")"
