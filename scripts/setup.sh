#!/usr/bin/env bash
# Installs the Debian 12 packages depgraph needs (only those missing), the browser tests' npm
# packages (tests/browser, from its lockfile), then configures and builds into build/. Safe to
# run again: it only does what is left to do.
#
#   scripts/setup.sh                      every package, npm ci, every target (scripts/test.sh)
#   scripts/setup.sh --no-build           every package and npm ci, no build
#   scripts/setup.sh --targets "T1 T2"    only the packages the C++ build needs (no browser,
#                                         Python or packaging tools), then only targets T1 T2
#                                         and what they need (scripts/demo.sh)
#   DEPGRAPH_TARGETS="T1 T2" scripts/setup.sh   the same as --targets "T1 T2"
set -euo pipefail
cd "$(dirname "$0")/.."

no_build=0
targets=${DEPGRAPH_TARGETS:-}
while [ $# -gt 0 ]; do
  case $1 in
    --no-build) no_build=1 ;;
    --targets) [ $# -ge 2 ] || { echo "setup: --targets needs a list of targets" >&2; exit 2; }
               targets=$2; shift ;;
    --targets=*) targets=${1#--targets=} ;;
    *) echo "setup: unknown argument '$1' (--no-build, --targets \"T1 T2\")" >&2; exit 2 ;;
  esac
  shift
done

# What configuring and building the C++ tools needs (GoogleTest: the test suite is configured
# by default, -DDEPGRAPH_BUILD_TESTS=OFF drops it).
packages=(g++ cmake ninja-build pkg-config libboost-graph-dev nlohmann-json3-dev libcli11-dev
          libgraphviz-dev libgtest-dev)
if [ -z "$targets" ]; then
  packages+=(libbenchmark-dev chromium
             # the Python module and its tests (docs/python.md), pip's offline wheel build, the
             # type check of the module's stubs; jsonschema checks the SARIF reports
             python3-dev pybind11-dev python3-pytest python3-jsonschema python3-pip
             python3-setuptools python3-wheel python3-mypy
             # the Debian package (docs/packaging.md): dpkg-shlibdeps, and `file` for CPack
             dpkg-dev file)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Node and npm run the browser tests; any install on the PATH will do (Node >= 18 for
# `node --test`), else Debian's.
if [ -z "$targets" ]; then
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# The browser tests' driver (playwright-core; it uses /usr/bin/chromium, downloads no browser).
browser=tests/browser
if [ -z "$targets" ] &&
   { [ ! -d "$browser/node_modules" ] || [ "$browser/package-lock.json" -nt "$browser/node_modules" ]; }; then
  echo "setup: npm ci in $browser"
  (cd "$browser" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  touch "$browser/node_modules"
fi

[ "$no_build" = 1 ] && exit 0
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
# shellcheck disable=SC2086  # the target list splits on spaces
ninja -C build -j"$(nproc)" $targets | tail -n 1
