#!/usr/bin/env bash
# Hostile-flags pass over every command (docs/fuzzing.md, "Hostile flags pass (round 3)").
#
#   BUILD=build bash scripts/hostile_flags.sh [--fast] [--jobs N] [--only CMD] [--all]
#
# Every value-taking flag and positional of depgraph's subcommands, deps_viewer, orch_runner and
# gen_graph is given an empty, huge, negative, non-numeric and special-file value (FIFO,
# /dev/null and /dev/zero devices, a directory, a missing path, an unwritable output), each run
# under a 20 s timeout and a 4 GB address-space limit in a fresh scratch directory. Prints the
# findings and a summary; exit 1 when a finding is not in the script's allow-list.
# BUILD (default build) is the build directory; TIMEOUT and JOBS (default 2) tune the runs.
# Needs python3 and the built tools: depgraph, deps_viewer, orch_runner, gen_graph and
# tests/orchestrations/modules/liborch_hbg_vector_example.so.
set -euo pipefail
exec python3 "$(dirname "$0")/hostile_flags.py" "$@"
