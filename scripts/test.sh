#!/usr/bin/env bash
# The project's test command (`npm test`): type-checks and builds every package, then runs every
# unit and embedded black-box suite, plus the real-server suites (*.int.test.ts) when the servers'
# URLs are in the environment (deploy/local/up.sh writes them to deploy/local/.env), and then the black-box
# API suite once more against the distributed runtime (scripts/test-distributed.sh), and the web console's tests.
#
# Stages (each timed by scripts/test-stage.sh: wall seconds, CPU seconds, cores used; a summary at the end):
#   build (tsc -b), then three lanes at once, since the box has cores to spare while some stages wait:
#   - this shell: the node suites (unit, embedded black-box, real-server and drill files; scripts/run-node-tests.sh);
#   - lane "checks": type-check of tests and scripts, lint, the console's tests, and the shared unit tests
#     under the other Node majors when TEST_NODE_VERSIONS is set (.ci/run sets "22 24");
#   - lane "distributed": the black-box API suite against the distributed runtime, whose files take turns
#     on one shared server and mostly wait on its pipeline.
#   A lane's output is printed whole when it ends. TEST_SERIAL=1 runs every stage one after the other.
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

# The drills that start their own servers (dependency and MongoDB outages) take them from deploy/local's install
# cache; .ci/run keeps it under ~/.cache/switchyard. Without this a clone's npm test skips those drills
# ("no cached Kafka install") where CI runs them.
if [ -z "${DEPLOY_LOCAL_CACHE:-}" ] && [ ! -d deploy/local/.cache ] && [ -d "$HOME/.cache/switchyard/deploy-local" ]; then
  export DEPLOY_LOCAL_CACHE="$HOME/.cache/switchyard/deploy-local"
  echo "test: install cache for the drills' own servers: ${DEPLOY_LOCAL_CACHE}"
fi

stage() { bash scripts/test-stage.sh "$@"; }
TEST_STAGE_SUMMARY="$(mktemp)"
lanes="$(mktemp -d)"
export TEST_STAGE_SUMMARY
started=$(date +%s)

echo "test: type-check and build (tsc -b)"
stage build npx tsc -b

servers=0
if [ -n "${KAFKA_BROKERS:-}" ] && [ -n "${MONGO_URL:-}" ] && [ -n "${REDIS_URL:-}" ]; then servers=1; fi

checks_lane() {
  local s=0
  echo "test: type-check tests and scripts too (tsc --noEmit -p tsconfig.eslint.json; tsx runs them without checking)"
  stage typecheck-tests npx tsc --noEmit -p tsconfig.eslint.json || s=1
  echo "test: lint (eslint)"
  stage lint npx eslint --max-warnings=0 . || s=1
  echo "test: web console (unit tests, then browser tests in headless Chromium; scripts/test-console.sh)"
  stage console bash scripts/test-console.sh || s=1
  if [ -n "${TEST_NODE_VERSIONS:-}" ]; then
    echo "test: shared/* unit tests under Node ${TEST_NODE_VERSIONS} (scripts/test-node-versions.sh)"
    # shellcheck disable=SC2086
    stage "node-versions" bash scripts/test-node-versions.sh ${TEST_NODE_VERSIONS} || s=1
  fi
  return "$s"
}
distributed_lane() {
  echo "test: black-box API suite against the distributed runtime (one process per service; scripts/test-distributed.sh)"
  SKIP_BUILD=1 bash scripts/test-stage.sh distributed bash scripts/test-distributed.sh
}
declare -A lane_pid=()
lane() { # NAME FUNCTION: runs FUNCTION beside this shell, its output into a file
  if [ "${TEST_SERIAL:-0}" = "1" ]; then
    if "$2" >"$lanes/$1.log" 2>&1; then echo 0; else echo "$?"; fi >"$lanes/$1.status"
    lane_pid[$1]=""
  else
    "$2" >"$lanes/$1.log" 2>&1 &
    lane_pid[$1]=$!
    echo "test: lane $1 started beside the node suites (its output follows when it ends)"
  fi
}
join_lane() { # NAME: waits for the lane, prints its output, returns its status
  local s=0
  if [ -n "${lane_pid[$1]}" ]; then wait "${lane_pid[$1]}" || s=$?; else s=$(cat "$lanes/$1.status"); fi
  echo "test: ======== lane $1 ========"
  cat "$lanes/$1.log"
  echo "test: ======== end of lane $1 (status $s) ========"
  return "$s"
}

status=0
lane checks checks_lane
if [ "$servers" = "1" ]; then lane distributed distributed_lane; fi

dirs="shared services apps tests scripts"
# The build above is fresh: the node suites load the packages' compiled dist/ instead of their sources through tsx
# (scripts/run-node-tests.sh), the same code at about half the CPU per import.
export TEST_FROM_DIST=1
if [ "$servers" = "1" ]; then
  echo "test: unit, embedded and real-server suites (Kafka ${KAFKA_BROKERS}, MongoDB ${MONGO_URL}, Redis ${REDIS_URL})"
  stage node-suites bash scripts/run-node-tests.sh all $dirs || status=$?
else
  echo "test: SKIPPING real-server suites (*.int.test.ts) and the distributed-runtime API suite: KAFKA_BROKERS, MONGO_URL and REDIS_URL are not all set."
  echo "test:   start them with 'bash deploy/local/up.sh' (writes deploy/local/.env, read automatically), stop with 'bash deploy/local/down.sh'."
  stage node-suites bash scripts/run-node-tests.sh unit $dirs || status=$?
fi
join_lane checks || status=$?
if [ "$servers" = "1" ]; then join_lane distributed || status=$?; fi

echo "test: stages (wall and CPU seconds; lanes overlap, so the walls add up to more than the total):"
sed 's/^test: stage /test:   /' "$TEST_STAGE_SUMMARY"
echo "test: total $(( $(date +%s) - started )) s, status ${status}"
rm -rf "$TEST_STAGE_SUMMARY" "$lanes"
exit "$status"
