#!/usr/bin/env bash
# Creates the package.json and tsconfig.json of a workspace package with the scripts every package shares.
# usage: scripts/new-package.sh <dir> <name> [ref-dir ...]
set -euo pipefail
dir=$1; name=$2; shift 2
mkdir -p "$dir/src"
refs=""
for r in "$@"; do refs="$refs{\"path\": \"$(realpath --relative-to="$dir" "$r")\"},"; done
refs="[${refs%,}]"
rel=$(realpath --relative-to="$dir" .)
[ -f "$dir/package.json" ] || cat > "$dir/package.json" <<JSON
{
  "name": "$name",
  "version": "0.1.0",
  "private": true,
  "main": "dist/index.js",
  "types": "dist/index.d.ts",
  "exports": {
    ".": { "source": "./src/index.ts", "types": "./dist/index.d.ts", "default": "./dist/index.js" }
  },
  "scripts": {
    "build": "tsc -b",
    "typecheck": "tsc -b",
    "lint": "eslint src",
    "test": "bash $rel/scripts/run-node-tests.sh unit src",
    "test:int": "bash $rel/scripts/run-node-tests.sh int src"
  },
  "dependencies": {}
}
JSON
cat > "$dir/tsconfig.json" <<JSON
{
  "extends": "$rel/tsconfig.base.json",
  "compilerOptions": { "rootDir": "src", "outDir": "dist" },
  "include": ["src"],
  "exclude": ["src/**/*.test.ts", "src/**/test-support/**"],
  "references": $refs
}
JSON
