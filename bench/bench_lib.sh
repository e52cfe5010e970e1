# Helpers shared by bench/bench.sh and bench/shapes.sh (sourced, not run): the scratch
# directory and the timed runs.

# use_workdir NAME: $workdir as given (created if missing) or a fresh mktemp -d; generated
# graphs and outputs in it are deleted on exit (also on Ctrl-C), a fresh directory too.
use_workdir() {
  own_workdir=0
  if [[ -z "$workdir" ]]; then
    workdir="$(mktemp -d "${TMPDIR:-/tmp}/depgraph_$1.XXXXXX")"
    own_workdir=1
  else
    mkdir -p "$workdir"
  fi
  bench_name="$1"
  trap bench_cleanup EXIT
  trap 'echo "$bench_name.sh: interrupted" >&2; exit 130' INT TERM
}
bench_cleanup() {
  rm -f "$workdir"/graph_*.json "$workdir"/out_* "$workdir"/time_* "$workdir"/log_*
  if [[ $own_workdir == 1 ]]; then rmdir "$workdir" 2>/dev/null || true; fi
}

# run_timed LIMIT_SECONDS MEM_KB(0 = none) CMD... -> sets run_s, run_mb, run_rc
run_timed() {
  local limit="$1" mem_kb="$2"
  shift 2
  local tfile="$workdir/time_last"
  rm -f "$tfile"
  set +e
  if [[ "$mem_kb" != 0 ]]; then
    # shellcheck disable=SC2016  # $0/$@ expand in the inner shell, on purpose
    /usr/bin/time -f '%e %M' -o "$tfile" \
      timeout --kill-after=10 "$limit" bash -c 'ulimit -v "$0"; exec "$@"' "$mem_kb" "$@" \
      >"$workdir/log_stdout" 2>"$workdir/log_stderr"
  else
    /usr/bin/time -f '%e %M' -o "$tfile" timeout --kill-after=10 "$limit" "$@" \
      >"$workdir/log_stdout" 2>"$workdir/log_stderr"
  fi
  run_rc=$?
  set -e
  local last
  last="$(tail -n 1 "$tfile" 2>/dev/null || echo "0 0")"
  run_s="${last%% *}"
  run_mb=$(( ${last##* } / 1024 ))
}

# best_of N LIMIT MEM_KB CMD... -> fastest successful run (or the failing status)
best_of() {
  local n="$1"
  shift
  local best_s="" best_mb=0 rc=0 i
  for ((i = 0; i < n; ++i)); do
    run_timed "$@"
    if [[ $run_rc != 0 ]]; then rc=$run_rc; break; fi
    if [[ -z "$best_s" ]] || awk -v a="$run_s" -v b="$best_s" 'BEGIN{exit !(a<b)}'; then
      best_s="$run_s"
    fi
    (( run_mb > best_mb )) && best_mb=$run_mb
  done
  run_rc=$rc
  if [[ $rc == 0 ]]; then run_s="$best_s"; run_mb=$best_mb; fi
}

status_text() {  # rc -> short text for the table
  case "$1" in
    0) echo "ok" ;;
    124|137) echo "timeout" ;;
    *) if grep -qi "MemoryError\|Cannot allocate\|bad_alloc" "$workdir/log_stderr" 2>/dev/null; then
         echo "oom"
       else
         echo "rc=$1"
       fi ;;
  esac
}
