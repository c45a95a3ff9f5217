#!/usr/bin/env bash
# The project's test command (`npm test`): type-checks and builds every package, then runs every
# unit and embedded black-box suite, plus the real-server suites (*.int.test.ts) when the servers'
# URLs are in the environment (deploy/local/up.sh writes them to deploy/local/.env), and then the black-box
# API suite once more against the distributed runtime (scripts/test-distributed.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

# Real servers: the environment's, else deploy/local/.env's when they answer, else (on a fresh machine)
# deploy/local/up.sh is started here and stopped again on exit (SWITCHYARD_NO_LOCAL_SERVERS=1: never).
port_open() { (exec 3<>"/dev/tcp/${1%:*}/${1##*:}") 2>/dev/null; }
env_servers_up() { # the Kafka, Mongo and Redis addresses of deploy/local/.env accept connections
  local k m r
  k=$(sed -n 's/^KAFKA_BROKERS=\([^,]*\).*/\1/p' deploy/local/.env)
  m=$(sed -n 's|^MONGO_URL=mongodb://\([^/]*\).*|\1|p' deploy/local/.env)
  r=$(sed -n 's|^REDIS_URL=redis://\([^/]*\).*|\1|p' deploy/local/.env)
  [ -n "$k" ] && [ -n "$m" ] && [ -n "$r" ] && port_open "$k" && port_open "$m" && port_open "$r"
}
if [ -z "${KAFKA_BROKERS:-}${MONGO_URL:-}${REDIS_URL:-}" ] && [ "${SWITCHYARD_SKIP_LOCAL_ENV:-}" != "1" ]; then
  if [ -f deploy/local/.env ] && env_servers_up; then
    echo "test: using real servers from deploy/local/.env"
  elif [ "${SWITCHYARD_NO_LOCAL_SERVERS:-}" != "1" ] && command -v java >/dev/null && command -v mvn >/dev/null; then
    echo "test: no real servers running: starting them (deploy/local/up.sh; stopped again when the tests end)"
    trap 'bash deploy/local/down.sh >/dev/null 2>&1 || true' EXIT
    bash deploy/local/up.sh || echo "test: deploy/local/up.sh failed: the real-server suites are skipped"
  fi
  if [ -f deploy/local/.env ] && env_servers_up; then set -a; . deploy/local/.env; set +a; fi
fi

echo "test: type-check and build (tsc -b)"
npx tsc -b

echo "test: type-check tests and scripts too (tsc --noEmit -p tsconfig.eslint.json; tsx runs them without checking)"
npx tsc --noEmit -p tsconfig.eslint.json

echo "test: lint (eslint)"
npx eslint --max-warnings=0 .

dirs="shared services apps tests"
if [ -n "${KAFKA_BROKERS:-}" ] && [ -n "${MONGO_URL:-}" ] && [ -n "${REDIS_URL:-}" ]; then
  echo "test: unit, embedded and real-server suites (Kafka ${KAFKA_BROKERS}, MongoDB ${MONGO_URL}, Redis ${REDIS_URL})"
  status=0
  bash scripts/run-node-tests.sh all $dirs || status=$?
  echo "test: black-box API suite against the distributed runtime (one process per service; scripts/test-distributed.sh)"
  SKIP_BUILD=1 bash scripts/test-distributed.sh || status=$?
else
  echo "test: SKIPPING real-server suites (*.int.test.ts) and the distributed-runtime API suite: KAFKA_BROKERS, MONGO_URL and REDIS_URL are not all set."
  echo "test:   start them with 'bash deploy/local/up.sh' (writes deploy/local/.env, read automatically), stop with 'bash deploy/local/down.sh'."
  status=0
  bash scripts/run-node-tests.sh unit $dirs || status=$?
fi
echo "test: web console (unit tests, then browser tests in headless Chromium; scripts/test-console.sh)"
bash scripts/test-console.sh || status=$?
exit "$status"
