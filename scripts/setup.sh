#!/usr/bin/env bash
# Installs the Debian 12 packages depgraph needs (only those missing), the browser tests' npm
# packages (tests/browser, from its lockfile), then configures and builds everything into
# build/ (not with --no-build). Safe to run again: it only does what is left to do.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake ninja-build pkg-config libboost-graph-dev nlohmann-json3-dev libcli11-dev
          libgraphviz-dev libgtest-dev libbenchmark-dev chromium
          # the Python module and its tests (docs/python.md), pip's offline wheel build
          python3-dev pybind11-dev python3-pytest python3-pip python3-setuptools python3-wheel
          # the Debian package (docs/packaging.md): dpkg-shlibdeps, and `file` for CPack
          dpkg-dev file)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Node and npm run the browser tests; any install on the PATH will do (Node >= 18 for
# `node --test`), else Debian's.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
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
if [ ! -d "$browser/node_modules" ] || [ "$browser/package-lock.json" -nt "$browser/node_modules" ]; then
  echo "setup: npm ci in $browser"
  (cd "$browser" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  touch "$browser/node_modules"
fi

[ "${1:-}" = "--no-build" ] && exit 0
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build -j"$(nproc)" | tail -n 1
