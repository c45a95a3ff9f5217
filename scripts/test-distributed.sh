#!/usr/bin/env bash
# Black-box API suite (tests/api) against the distributed runtime: one process per service on the real
# Kafka, MongoDB-wire and Redis of deploy/local/.env (or the environment).
#   - fresh databases (MONGO_DB_PREFIX) and topics/consumer groups (KAFKA_NAMESPACE) per run, so a run
#     never sees another run's data or messages; services on free ports (SERVICE_PORT_BASE);
#   - waits for GET /api/v4/system/ping = 200, runs the suite with SWITCHYARD_URL, stops the launcher
#     (each service drains and commits), removes the run's databases and topics, exits with the suite's status.
# usage: scripts/test-distributed.sh            (SKIP_BUILD=1 when already built; KEEP_LOGS=1 keeps the log;
#                                               API_TEST_PATHS="tests/api/src/x.test.ts ..." runs only those)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${KAFKA_BROKERS:-}${MONGO_URL:-}${REDIS_URL:-}" ] && [ -f deploy/local/.env ]; then
  set -a; . deploy/local/.env; set +a
fi
if [ -z "${KAFKA_BROKERS:-}" ] || [ -z "${MONGO_URL:-}" ] || [ -z "${REDIS_URL:-}" ]; then
  echo "test-distributed: SKIPPED: KAFKA_BROKERS, MONGO_URL and REDIS_URL are not all set."
  echo "test-distributed:   start the servers with 'bash deploy/local/up.sh' (writes deploy/local/.env), stop them with 'bash deploy/local/down.sh'."
  [ "${REQUIRE_SERVERS:-0}" = "1" ] && exit 1
  exit 0
fi

if [ "${SKIP_BUILD:-0}" != "1" ]; then
  echo "test-distributed: build (tsc -b)"
  npx tsc -b
fi

# A free port for the gateway and five consecutive free ones for the services (loopback only).
read -r GATEWAY_PORT PORT_BASE < <(node -e '
const net = require("node:net");
const free = (port) => new Promise((resolve) => {
  const s = net.createServer().once("error", () => resolve(false));
  s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
});
(async () => {
  const g = await new Promise((r) => { const s = net.createServer(); s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => r(p)); }); });
  for (let i = 0; i < 200; i += 1) {
    const base = 20000 + Math.floor(Math.random() * 30000);
    if (base <= g && g <= base + 4) continue;
    if ((await Promise.all([0, 1, 2, 3, 4].map((d) => free(base + d)))).every(Boolean)) { console.log(g, base); return; }
  }
  process.exit(1);
})();')

elapsed() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }

RUN_ID="dt$(date +%s)$$"
LOG="${TMPDIR:-/tmp}/switchyard-distributed-${RUN_ID}.log"
URL="http://127.0.0.1:${GATEWAY_PORT}"
echo "test-distributed: run ${RUN_ID}: gateway ${URL}, services on ${PORT_BASE}-$((PORT_BASE + 4)), Kafka ${KAFKA_BROKERS}, MongoDB ${MONGO_URL}, Redis ${REDIS_URL}; log ${LOG}"

started=$(date +%s.%N)
PORT="$GATEWAY_PORT" SERVICE_PORT_BASE="$PORT_BASE" MONGO_DB_PREFIX="${RUN_ID}_" KAFKA_NAMESPACE="${RUN_ID}." \
  REDIS_KEY_PREFIX="${RUN_ID}:" LOG_LEVEL="${LOG_LEVEL:-warn}" \
  node apps/launcher/dist/main.js >"$LOG" 2>&1 &
launcher=$!

stop_launcher() {
  if kill -0 "$launcher" 2>/dev/null; then
    kill -TERM "$launcher" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$launcher" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$launcher" 2>/dev/null && kill -KILL "$launcher" 2>/dev/null || true
  fi
  wait "$launcher" 2>/dev/null || true
}
cleanup() {
  stop_launcher
  node apps/launcher/dist/cleanup.js "${RUN_ID}" >>"$LOG" 2>&1 || echo "test-distributed: cleanup of ${RUN_ID} failed (see ${LOG})"
}
trap cleanup EXIT

ready=0
for _ in $(seq 1 180); do
  if ! kill -0 "$launcher" 2>/dev/null; then break; fi
  code=$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v4/system/ping" || true)
  if [ "$code" = "200" ]; then ready=1; break; fi
  sleep 0.5
done
if [ "$ready" != "1" ]; then
  echo "test-distributed: the distributed runtime did not become ready (GET /api/v4/system/ping != 200); last log lines:"
  tail -n 40 "$LOG"
  exit 1
fi
echo "test-distributed: ready after $(elapsed "$started") s; running tests/api"

suite_started=$(date +%s.%N)
status=0
SWITCHYARD_URL="$URL" bash scripts/run-node-tests.sh unit ${API_TEST_PATHS:-tests/api} || status=$?
echo "test-distributed: tests/api against the distributed runtime took $(elapsed "$suite_started") s (status ${status})"
if [ "$status" != "0" ]; then
  echo "test-distributed: last service log lines:"
  tail -n 40 "$LOG"
fi
trap - EXIT
cleanup
if [ "${KEEP_LOGS:-0}" != "1" ] && [ "$status" = "0" ]; then rm -f "$LOG"; fi
exit "$status"
