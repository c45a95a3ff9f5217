#!/usr/bin/env bash
# Runs node's test runner over TypeScript test files (through tsx, on package sources).
# usage: run-node-tests.sh unit|int|all <dir>...
#   TEST_CONCURRENCY         files run at once in the main pool (default 2)
#   TEST_DRILL_CONCURRENCY   drill files (tests/drills) run at once in their own pool, beside the main one (default 2;
#                            0: no pool of their own, the drills run in the main pool)
#   TEST_TIMES_TOP           how many of the slowest files to list at the end (default 15; 0: none)
#   TEST_FROM_DIST=1         the packages' builds are fresh (scripts/test.sh sets it right after tsc -b): their imports
#                            (@switchyard/...) load the compiled dist/, not the sources through tsx, and the tests that
#                            start an entry point as a process start its dist/main.js. Only the test files and what they
#                            import by relative path go through tsx. tsx costs about as much CPU as the compiled code
#                            it stands for: importing @switchyard/embedded takes ~2.6 s from source, ~1.3 s from dist.
# Two pools, each a node --test run: the drills mostly wait (services starting, a server stopped for 20 s, a
# recovery) while their own processes use little CPU, and each takes one to four minutes; in the main pool
# they held two slots at the end of the run with the cores mostly idle. Beside the main pool they overlap
# the CPU-bound files instead. The main pool's output streams; the drill pool's is printed when it ends.
# Within a pool the files that take longest start first (real-server and end-to-end files, then the black-box
# API suite, then the rest), so no long file starts last and runs alone.
# Besides the usual output (TAP, or spec on a terminal), it lists the slowest files at the end, with their CPU
# seconds and those of the processes they started (scripts/test-file-usage.mjs), so a CI log says where the
# time went, and the CPU seconds of all the files.
# apps/console has its own runner (scripts/test-console.sh: JSX through its tsconfig, browser tests).
set -euo pipefail
kind=$1; shift
case "$kind" in
  unit) files=$(find "$@" -name '*.test.ts' ! -name '*.int.test.ts' -not -path '*/node_modules/*' -not -path 'apps/console/*' -not -path '*/apps/console/*' | sort) ;;
  int) files=$(find "$@" -name '*.int.test.ts' -not -path '*/node_modules/*' -not -path 'apps/console/*' -not -path '*/apps/console/*' | sort) ;;
  all) files=$(find "$@" -name '*.test.ts' -not -path '*/node_modules/*' -not -path 'apps/console/*' -not -path '*/apps/console/*' | sort) ;;
  *) echo "unknown kind $kind" >&2; exit 2 ;;
esac
if [ -z "$files" ]; then echo "no $kind tests in $*"; exit 0; fi
here="$(cd "$(dirname "$0")" && pwd)"
reporter=tap
[ -t 1 ] && reporter=spec
top=${TEST_TIMES_TOP:-15}
drill_concurrency=${TEST_DRILL_CONCURRENCY:-2}
work=$(mktemp -d)
trap '[ -n "${TEST_KEEP_WORK:-}" ] || rm -rf "$work"' EXIT

# Longest first: 0 real-server and end-to-end files, 1 the black-box API suite (each file starts a runtime), 2 the rest.
rank() {
  local f abs
  for f in "$@"; do
    abs=$(realpath "$f")
    case "$abs" in
      *.int.test.ts | *.e2e.test.ts) echo "0 $f" ;;
      */tests/api/*) echo "1 $f" ;;
      *) echo "2 $f" ;;
    esac
  done | sort -k1,1n -k2,2 | cut -d' ' -f2-
}
main_files=()
drill_files=()
# shellcheck disable=SC2086
for f in $(rank $files); do
  if [ "$drill_concurrency" != "0" ] && [[ "$(realpath "$f")" == */tests/drills/* ]]; then drill_files+=("$f"); else main_files+=("$f"); fi
done

# --test-force-exit: a file whose tests have all ended exits even if something it started (a timer, a socket,
# a load loop) would keep it alive; without it one leaked handle makes the runner, and CI, wait forever.
# --import test-file-usage.mjs: each file's process writes its wall and CPU seconds when it exits.
sources=(--conditions=source)
[ "${TEST_FROM_DIST:-}" = "1" ] && sources=()
pool() { # CONCURRENCY FILE...: one node --test run
  local concurrency=$1
  shift
  TEST_FILE_USAGE_OUT="$work/usage.tsv" node "${sources[@]}" --import tsx --import "$here/test-file-usage.mjs" \
    --test --test-force-exit --test-concurrency="$concurrency" --test-reporter="$reporter" "$@"
}
status=0
drill_pid=""
if [ "${#main_files[@]}" -eq 0 ]; then # only drills asked for: one pool
  main_files=("${drill_files[@]}")
  drill_files=()
  main_concurrency=$drill_concurrency
fi
if [ "${#drill_files[@]}" -gt 0 ]; then
  echo "run-node-tests: ${#drill_files[@]} drill files in their own pool (${drill_concurrency} at once) beside ${#main_files[@]} files (${main_concurrency:-${TEST_CONCURRENCY:-2}} at once); the drills' output follows when they end"
  pool "$drill_concurrency" "${drill_files[@]}" >"$work/drills.out" 2>&1 &
  drill_pid=$!
fi
pool "${main_concurrency:-${TEST_CONCURRENCY:-2}}" "${main_files[@]}" || status=$?
if [ -n "$drill_pid" ]; then
  drill_status=0
  wait "$drill_pid" || drill_status=$?
  echo "run-node-tests: ======== drill pool (status ${drill_status}) ========"
  cat "$work/drills.out"
  echo "run-node-tests: ======== end of drill pool ========"
  [ "$drill_status" = 0 ] || status=$drill_status
fi

if [ "$top" != "0" ] && [ -s "$work/usage.tsv" ]; then
  echo "run-node-tests: slowest files, of $(wc -l <"$work/usage.tsv") (wall seconds of the file's process, its CPU seconds, CPU seconds of the processes it started, file):"
  # sed reads sort's whole output (head would close the pipe early: SIGPIPE, status 141 under pipefail, which
  # failed a CI run whose tests had all passed).
  sort -t$'\t' -k1,1gr "$work/usage.tsv" | sed -n "1,${top}s/^/run-node-tests:   /p"
  awk -F'\t' '{ w += $1; s += $2; c += $3 } END { printf "run-node-tests: the %d files: %.0f s wall summed, %.0f s CPU in their processes, %.0f s in processes they started\n", NR, w, s, c }' "$work/usage.tsv"
fi
exit "$status"
