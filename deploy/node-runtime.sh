#!/bin/sh
# node with the settings of node-runtime.env (next to this file) under the caller's environment:
#   sh deploy/node-runtime.sh [node arguments...]
# NODE_OPTIONS from the file goes first, so the caller's own NODE_OPTIONS comes after it and wins; any other
# key is taken from the file only where the environment does not set it. NODE_FLAGS (flags Node refuses in
# NODE_OPTIONS) go on the command line before the arguments.
# NODE: the node binary (default: node on PATH).
set -eu
env_file="$(dirname "$0")/node-runtime.env"
flags=${NODE_FLAGS-}
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in '' | '#'*) continue ;; esac
  key=${line%%=*}
  value=${line#*=}
  case "$key" in '' | *[!A-Za-z0-9_]*) echo "node-runtime.sh: bad line in $env_file: $line" >&2; exit 1 ;; esac
  case "$key" in
    NODE_OPTIONS) NODE_OPTIONS="$value${NODE_OPTIONS:+ $NODE_OPTIONS}"; export NODE_OPTIONS ;;
    NODE_FLAGS) if [ -z "${NODE_FLAGS+set}" ]; then flags="$value"; fi ;;
    *) if eval "[ -z \"\${$key+set}\" ]"; then export "$key=$value"; fi ;;
  esac
done <"$env_file"
# shellcheck disable=SC2086 # NODE_FLAGS is a list of flags without spaces inside
exec "${NODE:-node}" $flags "$@"
