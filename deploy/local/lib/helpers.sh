# shellcheck shell=bash
# Sourced by deploy/local/up.sh (its variables and helpers in scope): logging, timing, ports, PIDs, background starts, cleanup after a failure.
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
T0="$(now)"
log() { printf '[up %6ss] %s\n' "$(since "$T0")" "$*"; }
tail_log() {
  local f
  for f in "$@"; do
    [ -f "$f" ] || continue
    printf -- '---- last 40 lines of %s ----\n' "$f" >&2
    tail -n 40 "$f" >&2 || true
  done
}
die() {
  printf 'up.sh: ERROR: %s\n' "$1" >&2
  shift
  tail_log "$@"
  exit 1
}
port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }
pid_alive() { kill -0 "$1" 2>/dev/null; }
pid_of() { awk -v n="$1" '$1 == n { print $2 }' "$RUN/pids" 2>/dev/null | tail -n 1; }

# start_bg NAME LOGFILE CMD...: runs CMD detached (own session, stdin from /dev/null, output to
# LOGFILE) and appends "NAME PID" to .run/pids. The PID is the server's own (bash execs CMD).
start_bg() {
  local name="$1" logf="$2"
  shift 2
  local pidf="$RUN/.$name.pid"
  rm -f "$pidf"
  setsid bash -c 'echo $$ > "$0.tmp" && mv "$0.tmp" "$0" && exec "$@"' "$pidf" "$@" </dev/null >>"$logf" 2>&1 &
  local i
  for i in $(seq 1 100); do
    [ -s "$pidf" ] && break
    sleep 0.05
  done
  [ -s "$pidf" ] || die "$name did not start" "$logf"
  echo "$name $(cat "$pidf")" >>"$RUN/pids"
  rm -f "$pidf"
}

# wait_port NAME PORT TIMEOUT_S LOG...: waits for PORT to accept connections while NAME's process lives.
wait_port() {
  local name="$1" port="$2" timeout="$3"
  shift 3
  local pid start
  pid="$(pid_of "$name")"
  start="$(date +%s)"
  until port_open "$port"; do
    pid_alive "$pid" || die "$name (pid $pid) exited before port $port accepted connections" "$@"
    [ $(($(date +%s) - start)) -lt "$timeout" ] || die "$name: port $port not accepting connections after ${timeout}s" "$@"
    sleep 0.2
  done
}

FERRET_BUILD_PID=""
cleanup_on_failure() {
  local rc=$?
  if [ "$rc" -ne 0 ] && [ -n "$FERRET_BUILD_PID" ] && kill -0 "$FERRET_BUILD_PID" 2>/dev/null; then
    echo "up.sh: failed (exit $rc); letting the background FerretDB build finish first (its binary is cached)" >&2
    wait "$FERRET_BUILD_PID" || true
  fi
  if [ "$rc" -ne 0 ] && [ -s "$RUN/pids" ]; then
    echo "up.sh: failed (exit $rc); stopping the servers it started (logs kept in $RUN)" >&2
    DEPLOY_LOCAL_RUN="$RUN" "$HERE/down.sh" --keep-data >&2 || true
  fi
  exit "$rc"
}
