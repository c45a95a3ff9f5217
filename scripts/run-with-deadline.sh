#!/usr/bin/env bash
# Runs a command with a wall-clock deadline, so nothing that hangs (a test file whose timers or sockets never
# close, a runner waiting on it, servers it started) can keep CI waiting: .ci/run runs `npm test` through it.
# When the deadline passes it
#   1. lists the test files still running: the node test runner's per-file processes, with their run times
#      (the runner's TAP output does not say which files it is waiting for);
#   2. stops every process the command started: its process group and anything that left the group
#      (servers started with setsid, detached children), found by a tag in their environment:
#      SIGTERM, then SIGKILL for what is still there after the grace period;
#   3. exits 124 (as coreutils timeout).
# When the command ends in time, processes it left behind are stopped the same way and listed, so they
# cannot hold the output open; its exit status is kept.
# usage: run-with-deadline.sh NAME SECONDS COMMAND [ARG...]
#   RUN_DEADLINE_GRACE_S   seconds between SIGTERM and SIGKILL (default 15)
set -uo pipefail
name=$1 seconds=$2
shift 2
grace=${RUN_DEADLINE_GRACE_S:-15}
tag="d$$x$(date +%s%N)"
# The command's environment carries the tag (this script's does not); nested deadlines add theirs.
tags="${SWITCHYARD_DEADLINE_TAGS:-} ${tag}"
marker=$(mktemp)
trap 'rm -f "$marker"' EXIT

tagged() { # pids whose environment carries this run's tag (not zombies: they are gone, only unreaped)
  local pid stat
  for pid in $(grep -lsz -- "^SWITCHYARD_DEADLINE_TAGS=.* ${tag}\( \|\$\)" /proc/[0-9]*/environ | sed 's|^/proc/\([0-9]*\)/environ$|\1|'); do
    stat=$(cat "/proc/${pid}/stat" 2>/dev/null) || continue
    stat=${stat##*) }
    [ "${stat%% *}" = Z ] || echo "$pid"
  done
}
running_test_files() { # the node runner's per-file processes among PIDS (not the runner: it has --test)
  local pid
  for pid in "$@"; do
    ps -o etimes=,args= -p "$pid" 2>/dev/null | awk -v cwd="$PWD/" '{
      file = ""
      for (i = 2; i <= NF; i++) { if ($i == "--test") next; if ($i ~ /\.(test|e2e)\.[cm]?[jt]sx?$/) file = $i }
      if (file != "") { if (index(file, cwd) == 1) file = substr(file, length(cwd) + 1); printf "%6d s  %s\n", $1, file }
    }'
  done | sort -rn
}
stop_all() { # SIGNAL: the command's process group and every tagged process
  local pids
  kill "-$1" -- "-$pid" 2>/dev/null
  pids=$(tagged)
  # shellcheck disable=SC2086
  [ -n "$pids" ] && kill "-$1" $pids 2>/dev/null
  return 0
}
stop_and_wait() { # TERM, up to the grace period for everything to end, then KILL
  local waited=0
  stop_all TERM
  while [ "$waited" -lt "$grace" ] && { kill -0 -- "-$pid" 2>/dev/null || [ -n "$(tagged)" ]; }; do
    sleep 1
    waited=$((waited + 1))
  done
  stop_all KILL
}

# Its own process group (setsid), so the whole group can be signalled; Ctrl-C and SIGTERM are passed on.
SWITCHYARD_DEADLINE_TAGS="$tags" setsid "$@" &
pid=$!
trap 'kill -INT -- "-$pid" 2>/dev/null' INT
trap 'kill -TERM -- "-$pid" 2>/dev/null' TERM
(
  trap 'kill "$nap" 2>/dev/null; exit 0' TERM
  sleep "$seconds" </dev/null >/dev/null 2>&1 &
  nap=$!
  wait "$nap"
  echo expired >"$marker"
  echo "deadline: ${name} still running after ${seconds} s: stopping it and every process it started"
  files=$(running_test_files $(tagged))
  if [ -n "$files" ]; then
    echo "deadline: test files still running (seconds since each started, file):"
    echo "$files" | sed 's/^/deadline:   /'
  else
    echo "deadline: no test file processes were running; the process tree:"
    ps -o pid=,etimes=,args= -g "$pid" 2>/dev/null | sed 's/^/deadline:   /'
  fi
  stop_and_wait
) &
watchdog=$!

status=0
while :; do
  wait "$pid"
  status=$?
  # wait returns early when a trapped signal arrives: wait again while the command still runs.
  kill -0 "$pid" 2>/dev/null || break
done
if [ -s "$marker" ]; then
  wait "$watchdog"
  echo "deadline: ${name} stopped after its ${seconds} s deadline (status 124)"
  exit 124
fi
kill "$watchdog" 2>/dev/null
wait "$watchdog" 2>/dev/null
left=$(tagged)
if [ -n "$left" ]; then
  echo "deadline: ${name} ended but left processes running; stopping them:"
  # shellcheck disable=SC2086
  ps -o pid=,etimes=,args= -p "$(echo $left | tr ' ' ',')" 2>/dev/null | cut -c1-200 | sed 's/^/deadline:   /'
  stop_and_wait
fi
exit "$status"
