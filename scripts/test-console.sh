#!/usr/bin/env bash
# The web console's tests (apps/console): unit tests of its components (src/**/*.test.ts[x], JSX compiled with
# the console's tsconfig), then the browser tests (e2e/*.e2e.ts): Debian's Chromium, driven by playwright-core,
# against the embedded runtime serving the freshly built console. Screenshots go to test-results/console/.
# Needs `tsc -b` done (the embedded runtime runs from dist). SKIP_CONSOLE_BROWSER=1 runs the unit tests only.
set -euo pipefail
cd "$(dirname "$0")/.."
export TSX_TSCONFIG_PATH=apps/console/tsconfig.test.json

units=$(find apps/console/src \( -name '*.test.ts' -o -name '*.test.tsx' \) | sort)
if [ -n "$units" ]; then
  echo "test-console: unit tests"
  # shellcheck disable=SC2086
  node --conditions=source --import tsx --test --test-force-exit $units
fi

if [ "${SKIP_CONSOLE_BROWSER:-}" = "1" ]; then
  echo "test-console: SKIPPING browser tests (SKIP_CONSOLE_BROWSER=1)"
  exit 0
fi
bash scripts/install-chromium.sh
echo "test-console: vite build"
npm run --silent build:bundle -w @switchyard/console
echo "test-console: browser tests (headless Chromium, playwright-core)"
rm -rf test-results/console
# One file at a time: each starts its own server and browser, and the machine is small.
node --conditions=source --import tsx --test --test-force-exit --test-concurrency=1 apps/console/e2e/*.e2e.ts
