#!/usr/bin/env bash
# Runs node's test runner over TypeScript test files (through tsx, on package sources).
# usage: run-node-tests.sh unit|int|all <dir>...
#   TEST_CONCURRENCY   files run at once (default 2)
#   TEST_TIMES_TOP     how many of the slowest files to list at the end (default 15; 0: none)
# Besides the usual output (TAP, or spec on a terminal), it lists the slowest files at the end
# (scripts/test-file-times.mjs: summed duration of each file's top-level tests), so a CI log says where the time went.
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
reporter=tap
[ -t 1 ] && reporter=spec
top=${TEST_TIMES_TOP:-15}
times_file=$(mktemp)
trap 'rm -f "$times_file"' EXIT
status=0
# --test-force-exit: a file whose tests have all ended exits even if something it started (a timer, a socket,
# a load loop) would keep it alive; without it one leaked handle makes the runner, and CI, wait forever.
# shellcheck disable=SC2086
node --conditions=source --import tsx --test --test-force-exit --test-concurrency="${TEST_CONCURRENCY:-2}" \
  --test-reporter="$reporter" --test-reporter-destination=stdout \
  --test-reporter="$(cd "$(dirname "$0")" && pwd)/test-file-times.mjs" --test-reporter-destination="$times_file" \
  $files || status=$?
if [ "$top" != "0" ] && [ -s "$times_file" ]; then
  echo "run-node-tests: slowest files, of $(wc -l <"$times_file") (seconds of top-level tests, tests, failed, file):"
  head -n "$top" "$times_file" | sed 's/^/run-node-tests:   /'
fi
exit "$status"
