#!/usr/bin/env bash
# Stops exactly the servers deploy/local/up.sh started (PIDs from .run/pids: TERM, up to 15 s, then
# KILL) and removes .run/ (their data and logs). Leaves .cache/ (installs) alone. Safe to run twice.
#   --keep-data   stop the servers but keep .run/ (up.sh uses this after a failure, to keep the logs)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUN="${DEPLOY_LOCAL_RUN:-$HERE/.run}"
KEEP_DATA=0
for arg in "$@"; do
  case "$arg" in
    --keep-data) KEEP_DATA=1 ;;
    -h | --help) sed -n '2,4p' "$0"; exit 0 ;;
    *) echo "down.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

# Only signal a PID if it is still the process up.sh recorded (PIDs get reused).
matches() { # matches NAME PID
  local cmdline
  cmdline="$({ tr '\0' ' ' <"/proc/$2/cmdline"; } 2>/dev/null)" || return 1
  case "$1" in
    kafka) [[ "$cmdline" == *kafka.Kafka* ]] ;;
    mongo) [[ "$cmdline" == *ferretdb* || "$cmdline" == *MongoLauncher* ]] ;;
    redis) [[ "$cmdline" == *redis-server* ]] ;;
    s3) [[ "$cmdline" == *org.gaul.s3proxy.Main* ]] ;;
    *) return 1 ;;
  esac
}

stopped=0
if [ -f "$RUN/pids" ]; then
  declare -a names=() pids=()
  while read -r name pid _; do
    [ -n "${name:-}" ] && [ -n "${pid:-}" ] || continue
    if matches "$name" "$pid"; then
      kill -TERM "$pid" 2>/dev/null || true
      names+=("$name")
      pids+=("$pid")
      echo "down.sh: TERM $name (pid $pid)"
    else
      echo "down.sh: $name (pid $pid) is not running"
    fi
  done <"$RUN/pids"

  deadline=$((SECONDS + 15))
  for i in "${!pids[@]}"; do
    while kill -0 "${pids[$i]}" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
      sleep 0.2
    done
    if kill -0 "${pids[$i]}" 2>/dev/null && matches "${names[$i]}" "${pids[$i]}"; then
      echo "down.sh: ${names[$i]} (pid ${pids[$i]}) still running after 15s: KILL"
      kill -KILL "${pids[$i]}" 2>/dev/null || true
    fi
    stopped=$((stopped + 1))
  done
  # a KILLed process may need a moment to go
  for i in "${!pids[@]}"; do
    for _ in $(seq 1 25); do kill -0 "${pids[$i]}" 2>/dev/null || break; sleep 0.2; done
  done
  if [ "$KEEP_DATA" -eq 1 ]; then
    : >"$RUN/pids" # the servers are gone; a later down.sh has nothing to stop
  fi
fi

if [ "$KEEP_DATA" -eq 0 ]; then
  rm -rf "$RUN"
  echo "down.sh: stopped $stopped server(s), removed $RUN"
else
  echo "down.sh: stopped $stopped server(s), kept $RUN"
fi
