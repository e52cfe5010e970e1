#!/bin/bash
# Times two builds of a command in alternation, the order swapped each round, so that both
# see the same machine (this VM's speed drifts over minutes): wall time, user+sys CPU, peak
# RSS and exit code of every run, one line each.
#
#   bench/ab.sh ROUNDS OLD_BINARY NEW_BINARY ARGS...
#   bench/ab.sh 3 /tmp/depgraph.old build/apps/depgraph/depgraph/depgraph \
#       audit /tmp/d1m.json -o /tmp/audit.txt
#
# Standard output of the command is discarded; its standard error is kept in $TMPDIR/ab.<old|new>.err.
set -euo pipefail
if [[ $# -lt 4 ]]; then
  echo "usage: $0 ROUNDS OLD_BINARY NEW_BINARY ARGS..." >&2
  exit 2
fi
rounds=$1 old=$2 new=$3
shift 3
for binary in "$old" "$new"; do
  [[ -x $binary ]] || { echo "$0: not an executable: $binary" >&2; exit 2; }
done
tmp=${TMPDIR:-/tmp}
for ((round = 0; round < rounds; round++)); do
  if ((round % 2 == 0)); then order="old new"; else order="new old"; fi
  for which in $order; do
    binary=$old
    [[ $which == new ]] && binary=$new
    times=$(mktemp "$tmp/ab.XXXXXX")
    code=0
    /usr/bin/time -o "$times" -f "%e s %U+%S %M KB" "$binary" "$@" >/dev/null \
        2>>"$tmp/ab.$which.err" || code=$?
    echo "$which $(cat "$times") exit $code"
    rm -f "$times"
  done
done
