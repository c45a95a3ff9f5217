#!/usr/bin/env bash
# Runs node's test runner over TypeScript test files (through tsx, on package sources).
# usage: run-node-tests.sh unit|int|all <dir>...
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
# shellcheck disable=SC2086
exec node --conditions=source --import tsx --test --test-concurrency="${TEST_CONCURRENCY:-2}" $files
