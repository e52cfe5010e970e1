#!/usr/bin/env bash
# How much of the compiler's work the sound pass keeps: for each depir program (default: every
# program of data/passes/, data/passes/unsound/ and its shapes/), the kernel submits that run in MANUAL
# scopes after the reference pass and after the sound pass (`depgraph check --manual-stats`),
# and whether the reference is already sound there (`depgraph check` exits 0 with `cond`
# true and with `cond` false). Prints one line per program, then the totals over all programs and over those where the reference is sound,
# with the sound/reference ratio (issue 10's target there: at least 90%).
#
#   scripts/sound_effectiveness.sh [--depgraph build/apps/depgraph/depgraph] [program.depir ...]
set -euo pipefail
cd "$(dirname "$0")/.."
depgraph=build/apps/depgraph/depgraph
if [ "${1:-}" = "--depgraph" ]; then depgraph=$2; shift 2; fi
programs=("$@")
[ ${#programs[@]} -gt 0 ] || programs=(data/passes/*.depir data/passes/unsound/*.depir data/passes/unsound/shapes/*.depir)
# The small bindings the test suite uses for data/passes (docs/depir.md).
sets=(--set n=4 --set c=2 --set m=4 --set k=2 --set n_steps=3 --set offset=8 --set go=2 --set skip=0
      --set qoff=128)
for i in 0 1 2 3 4 5 6 7 8; do sets+=(--set "c$i=true"); done

all_ref=0 all_sound=0 sound_ref=0 sound_sound=0 count=0 ref_sound_count=0
for p in "${programs[@]}"; do
  line=$("$depgraph" check "$p" --manual-stats "${sets[@]}" --set cond=true)
  ref=$(sed -E 's/.*reference ([0-9a-z]+),.*/\1/' <<<"$line")
  snd=$(sed -E 's/.*sound ([0-9a-z]+) of.*/\1/' <<<"$line")
  # The reference is sound on a program when check passes with either branch choice.
  code=0
  for cond in true false; do
    set +e
    "$depgraph" check "$p" "${sets[@]}" --set "cond=$cond" --allow-empty >/dev/null 2>&1
    c=$?
    set -e
    [ $code -ne 0 ] || code=$c
  done
  verdict=$([ $code -eq 0 ] && echo "reference sound" || echo "reference unsound (exit $code)")
  printf '%-90s reference %-6s sound %-6s %s\n' "$p" "$ref" "$snd" "$verdict"
  count=$((count + 1))
  [[ $ref =~ ^[0-9]+$ && $snd =~ ^[0-9]+$ ]] || continue
  all_ref=$((all_ref + ref)); all_sound=$((all_sound + snd))
  if [ $code -eq 0 ]; then
    ref_sound_count=$((ref_sound_count + 1))
    sound_ref=$((sound_ref + ref)); sound_sound=$((sound_sound + snd))
  fi
done
ratio() { if [ "$1" -gt 0 ]; then echo "$(( (100 * $2) / $1 ))%"; else echo "n/a"; fi; }
echo "all $count programs: MANUAL kernel submits reference $all_ref, sound $all_sound ($(ratio $all_ref $all_sound))"
echo "the $ref_sound_count where the reference is sound: reference $sound_ref, sound $sound_sound ($(ratio $sound_ref $sound_sound))"
