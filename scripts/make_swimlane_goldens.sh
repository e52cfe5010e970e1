#!/usr/bin/env bash
# Regenerates the expected outputs of tests/data/swimlane/ by running the reference
# swimlane_converter.py (hw-native-sys/simpler) on every case. Not run by CI: the goldens are
# committed, and tests/timing/swimlane_golden_test.cc compares `depgraph swimlane` with them.
#
#   scripts/make_swimlane_goldens.sh REFERENCE [BUILD_DIR]
#
# REFERENCE: a checkout of hw-native-sys/simpler (a work tree, or a bare/mirror git directory,
# whose HEAD is used). BUILD_DIR (default build) holds apps/gen_graph for the generated cases.
# PYTHON (default /usr/bin/python3) runs the reference; it needs only the standard library.
#
# Each case directory holds case.json: "inputs" (repository paths whose contents are copied
# into a fresh scratch directory) or "generate" (gen_graph arguments, run there with
# --timing-records), and "runs": name -> {"args": [...], "trace": path}. Every run gets its
# own fresh copy, runs in it, and leaves expected/<run>/{stdout,stderr,rc} and, when it
# succeeds, expected/<run>/trace.json.
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 REFERENCE [BUILD_DIR]" >&2
  exit 2
fi
REF=$1
REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${2:-$REPO/build}" && pwd)
PYTHON=${PYTHON:-/usr/bin/python3}
CASES=$REPO/tests/data/swimlane
GEN_GRAPH=$BUILD/apps/gen_graph

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The reference as a package of its own: simpler_setup/tools/{swimlane_converter,clock_correlation}.py.
mkdir -p "$WORK/ref/simpler_setup/tools"
: >"$WORK/ref/simpler_setup/__init__.py"
: >"$WORK/ref/simpler_setup/tools/__init__.py"
for tool in swimlane_converter clock_correlation; do
  path=simpler_setup/tools/$tool.py
  if [[ -f $REF/$path ]]; then
    cp "$REF/$path" "$WORK/ref/$path"
    commit=$(git -C "$REF" rev-parse HEAD 2>/dev/null || echo unknown)
  else
    git --git-dir="$REF" show "HEAD:$path" >"$WORK/ref/$path"
    commit=$(git --git-dir="$REF" rev-parse HEAD)
  fi
done

# case.json -> one line per run: name <TAB> trace <TAB> JSON list of args; plus the inputs.
describe() {
  "$PYTHON" - "$1" <<'EOF'
import json, sys
case = json.load(open(sys.argv[1]))
print("inputs\t" + "\t".join(case.get("inputs", [])))
print("generate\t" + "\t".join(case.get("generate", [])))
for name, run in case["runs"].items():
    print("run\t" + name + "\t" + run["trace"] + "\t" + json.dumps(run["args"]))
EOF
}

count=0
for case_dir in "$CASES"/*/; do
  case_dir=${case_dir%/}
  [[ -f $case_dir/case.json ]] || continue
  name=$(basename "$case_dir")
  inputs=()
  generate=()
  runs=()
  while IFS= read -r line; do
    IFS=$'\t' read -r -a fields <<<"$line"
    case ${fields[0]} in
      inputs) inputs=("${fields[@]:1}") ;;
      generate) generate=("${fields[@]:1}") ;;
      run) runs+=("$line") ;;
    esac
  done < <(describe "$case_dir/case.json")
  rm -rf "$case_dir/expected"
  for run_line in "${runs[@]}"; do
    IFS=$'\t' read -r _ run trace args_json <<<"$run_line"
    root=$WORK/scratch/$name
    rm -rf "$WORK/scratch"
    mkdir -p "$root"
    for input in "${inputs[@]}"; do
      [[ -n $input ]] && cp -r "$REPO/$input/." "$root/"
    done
    if [[ ${#generate[@]} -gt 0 && -n ${generate[0]} ]]; then
      "$GEN_GRAPH" "${generate[@]}" --timing-records -q -o "$root/deps.json"
    fi
    chmod -R u+w "$root"
    find "$root" -name .keep -delete
    mapfile -t args < <("$PYTHON" -c 'import json,sys; print("\n".join(json.loads(sys.argv[1])))' "$args_json")
    out=$case_dir/expected/$run
    mkdir -p "$out"
    rc=0
    (cd "$root" && PYTHONPATH="$WORK/ref" "$PYTHON" -m simpler_setup.tools.swimlane_converter \
      "${args[@]}" >"$out/stdout" 2>"$out/stderr") || rc=$?
    echo "$rc" >"$out/rc"
    sed -i "s#$root#{ROOT}#g" "$out/stdout" "$out/stderr"
    if [[ $rc -eq 0 ]]; then
      cp "$root/$trace" "$out/trace.json"
    fi
    count=$((count + 1))
  done
done
echo "$commit" >"$CASES/REFERENCE"
echo "wrote $count golden run(s) under $CASES (reference $commit)"
