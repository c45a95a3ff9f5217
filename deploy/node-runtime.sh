#!/bin/sh
# node with the settings of node-runtime.env (next to this file) under the caller's environment:
#   sh deploy/node-runtime.sh [--embedded] [node arguments...]
# NODE_OPTIONS from the file goes first (then, with --embedded, EMBEDDED_NODE_OPTIONS: the embedded runtime's
# own), so the caller's own NODE_OPTIONS comes after them and wins; any other key is taken from the file only
# where the environment does not set it. NODE_FLAGS (flags Node refuses in NODE_OPTIONS) go on the command line
# before the arguments.
# NODE: the node binary (default: node on PATH).
set -eu
env_file="$(dirname "$0")/node-runtime.env"
flags=${NODE_FLAGS-}
embedded=
if [ "${1-}" = "--embedded" ]; then
  embedded=1
  shift
fi
caller_options=${NODE_OPTIONS-}
file_options=
embedded_options=
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in '' | '#'*) continue ;; esac
  key=${line%%=*}
  value=${line#*=}
  case "$key" in '' | *[!A-Za-z0-9_]*) echo "node-runtime.sh: bad line in $env_file: $line" >&2; exit 1 ;; esac
  case "$key" in
    NODE_OPTIONS) file_options=$value ;;
    EMBEDDED_NODE_OPTIONS) embedded_options=$value ;;
    NODE_FLAGS) if [ -z "${NODE_FLAGS+set}" ]; then flags="$value"; fi ;;
    *) if eval "[ -z \"\${$key+set}\" ]"; then export "$key=$value"; fi ;;
  esac
done <"$env_file"
if [ -z "$embedded" ]; then embedded_options=; fi
NODE_OPTIONS="$file_options${embedded_options:+ $embedded_options}${caller_options:+ $caller_options}"
NODE_OPTIONS=${NODE_OPTIONS# }
export NODE_OPTIONS
# shellcheck disable=SC2086 # NODE_FLAGS is a list of flags without spaces inside
exec "${NODE:-node}" $flags "$@"
