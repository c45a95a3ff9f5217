#!/usr/bin/env bash
# Starts the real servers the Switchyard tests need, on 127.0.0.1, without Docker:
#   Kafka 3.9.1 (KRaft, broker+controller in one JVM)   Maven Central
#   FerretDB v1.24.2 on SQLite (MongoDB wire protocol)  Go module proxy, built here
#     (fallback: mongo-java-server 1.47.0, in memory)   Maven Central
#   Redis (Debian redis-server)                         apt, only if not on PATH
#   S3Proxy 2.6.0 on its filesystem backend (S3 API)    Maven Central (files' S3 adapter tests)
# Installs are cached in deploy/local/.cache/ (reused while the version matches); every run
# starts from FRESH data dirs in deploy/local/.run/ (wiped here). Stop with down.sh.
# See README.md beside this file. Env: KAFKA_PORT KAFKA_CONTROLLER_PORT KAFKA_SASL_SSL_PORT KAFKA_MTLS_PORT
# MONGO_PORT REDIS_PORT MONGO_HEAP (mongo-java-server -Xmx, default 2g) MONGO_SERVER (auto|ferretdb|mongo-java-server), DEPLOY_LOCAL_CACHE (default: .cache
# beside this file), DEPLOY_LOCAL_RUN / DEPLOY_LOCAL_ENV_FILE (a second, private set of servers: drills).
# --install-only: fill the install cache (MONGO_SERVER=ferretdb: build FerretDB) and start nothing
# (CI builds FerretDB for the MongoDB outage drill this way, beside npm ci).
set -euo pipefail

INSTALL_ONLY=0
case "${1:-}" in
  --install-only) INSTALL_ONLY=1 ;;
  "") ;;
  *) echo "usage: up.sh [--install-only]" >&2; exit 2 ;;
esac

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${DEPLOY_LOCAL_CACHE:-$HERE/.cache}" # installs; point elsewhere to share them across clones
RUN="${DEPLOY_LOCAL_RUN:-$HERE/.run}"
# --install-only never touches a run directory (servers may be running from it): its logs go to a temporary one.
if [ "$INSTALL_ONLY" = 1 ]; then RUN="$(mktemp -d "${TMPDIR:-/tmp}/deploy-local-install.XXXXXX")"; fi
ENV_FILE="${DEPLOY_LOCAL_ENV_FILE:-$HERE/.env}"
HOST=127.0.0.1

KAFKA_VERSION=3.9.1
SLF4J_RELOAD4J_VERSION=1.7.36
RELOAD4J_VERSION=1.2.25
FERRETDB_VERSION=v1.24.2
MONGO_JAVA_SERVER_VERSION=1.47.0
MAVEN_DEPENDENCY_PLUGIN_VERSION=3.8.1
# files: the S3-compatible server the S3 file store's contract suite runs against.
S3PROXY_VERSION=2.6.0
S3_PORT="${S3_PORT:-9311}"

KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
# Secured listeners of the same broker, for the adapter's TLS/SASL test: SASL_SSL (PLAIN, SCRAM-SHA-256,
# SCRAM-SHA-512) and SSL with a required client certificate. 0 turns them off (also when openssl is missing).
KAFKA_SASL_SSL_PORT="${KAFKA_SASL_SSL_PORT:-9094}"
KAFKA_MTLS_PORT="${KAFKA_MTLS_PORT:-9095}"
MONGO_PORT="${MONGO_PORT:-27017}"
REDIS_PORT="${REDIS_PORT:-6380}"
# Default: mongo-java-server. FerretDB v1 loses concurrent single-document updates (read-modify-write,
# FerretDB issue 2168), and the services rely on single-document atomicity (claims, outbox, counters).
# MONGO_SERVER=ferretdb (or auto: FerretDB, falling back) still runs the suites on FerretDB.
MONGO_SERVER="${MONGO_SERVER:-mongo-java-server}"
KAFKA_READY_TIMEOUT="${KAFKA_READY_TIMEOUT:-90}"

KAFKA_HOME="$CACHE/kafka-$KAFKA_VERSION"
KAFKA_STAMP="kafka_2.13=$KAFKA_VERSION kafka-tools=$KAFKA_VERSION slf4j-reload4j=$SLF4J_RELOAD4J_VERSION reload4j=$RELOAD4J_VERSION"
FERRETDB_HOME="$CACHE/ferretdb-$FERRETDB_VERSION"
FERRETDB_BIN="$FERRETDB_HOME/bin/ferretdb"
MJS_HOME="$CACHE/mongo-java-server-$MONGO_JAVA_SERVER_VERSION"
S3PROXY_HOME="$CACHE/s3proxy-$S3PROXY_VERSION"
M2_REPO="$CACHE/m2"

# ---------------------------------------------------------------- helpers
. "$HERE/lib/helpers.sh"


# ---------------------------------------------------------------- preflight
for cmd in java mvn node setsid awk; do
  command -v "$cmd" >/dev/null || die "'$cmd' is required but not on PATH"
done
case "$MONGO_SERVER" in auto | ferretdb | mongo-java-server) ;; *) die "MONGO_SERVER must be auto, ferretdb or mongo-java-server (got '$MONGO_SERVER')" ;; esac

if [ -f "$RUN/pids" ]; then
  log "a previous up.sh run is recorded in $RUN/pids: running down.sh first"
  DEPLOY_LOCAL_RUN="$RUN" "$HERE/down.sh"
fi
rm -rf "$RUN"
mkdir -p "$RUN" "$CACHE"
: >"$RUN/pids"
trap cleanup_on_failure EXIT

SECURE_KAFKA=1
if [ "$KAFKA_SASL_SSL_PORT" = 0 ] || [ "$KAFKA_MTLS_PORT" = 0 ]; then
  SECURE_KAFKA=0
elif ! command -v openssl >/dev/null; then
  SECURE_KAFKA=0
  log "openssl not on PATH: Kafka's SASL_SSL and mTLS listeners are OFF (their test will skip)"
fi
ports=("$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" "$MONGO_PORT" "$REDIS_PORT" "$S3_PORT")
if [ "$SECURE_KAFKA" = 1 ]; then ports+=("$KAFKA_SASL_SSL_PORT" "$KAFKA_MTLS_PORT"); fi
for p in "${ports[@]}"; do
  if [ "$INSTALL_ONLY" = 0 ] && port_open "$p"; then
    die "port $HOST:$p is already in use by a process up.sh did not start (set KAFKA_PORT/KAFKA_CONTROLLER_PORT/KAFKA_SASL_SSL_PORT/KAFKA_MTLS_PORT/MONGO_PORT/REDIS_PORT/S3_PORT to move)"
  fi
done

# ---------------------------------------------------------------- installs
. "$HERE/lib/installers.sh"


declare -A T_INSTALL T_START T_READY INSTALL_STATE
MONGO_IMPL=""

# FerretDB build first, in the background: it is the longest step on a cold cache.
if [ "$MONGO_SERVER" != mongo-java-server ]; then
  if ferretdb_cached; then
    INSTALL_STATE[mongo]=cached
  elif command -v go >/dev/null; then
    log "building FerretDB $FERRETDB_VERSION from the Go module proxy (background; log: .run/install-ferretdb.log)"
    (
      tb="$(now)"
      if build_ferretdb; then
        echo "$FERRETDB_VERSION" >"$FERRETDB_HOME/.installed"
        echo "ok $(since "$tb")"
      else
        echo "failed $(since "$tb")"
      fi >"$RUN/ferretdb-build.status"
    ) &
    FERRET_BUILD_PID=$!
  else
    echo "failed 0.0" >"$RUN/ferretdb-build.status"
    echo "go is not on PATH" >"$RUN/install-ferretdb.log"
  fi
fi

t="$(now)"
INSTALL_STATE[kafka]="$(install_kafka)"
T_INSTALL[kafka]="$(since "$t")"
log "kafka $KAFKA_VERSION: ${INSTALL_STATE[kafka]} in ${T_INSTALL[kafka]}s ($KAFKA_HOME)"

t="$(now)"
if command -v redis-server >/dev/null && command -v redis-cli >/dev/null; then
  INSTALL_STATE[redis]="on PATH"
else
  log "redis-server not on PATH: apt-get install -y redis-server"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi
  { $SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y redis-server; } >"$RUN/install-redis.log" 2>&1 ||
    die "apt-get install redis-server failed" "$RUN/install-redis.log"
  INSTALL_STATE[redis]="installed (apt)"
fi
T_INSTALL[redis]="$(since "$t")"
log "redis: ${INSTALL_STATE[redis]} in ${T_INSTALL[redis]}s ($(redis-server --version | sed 's/ sha=.*//'))"

# ---------------------------------------------------------------- Mongo: wait for the FerretDB build
# (Kafka starts only after it: on 2 cores a booting broker and the Go compiler compete for CPU;
# starting Kafka first gained nothing measurable cold, and made the start->ready times meaningless)
if [ "$MONGO_SERVER" != mongo-java-server ]; then
  if [ -n "$FERRET_BUILD_PID" ]; then
    log "waiting for the FerretDB build"
    wait "$FERRET_BUILD_PID" || true
    read -r status secs <"$RUN/ferretdb-build.status" || status=failed
    T_INSTALL[mongo]="${secs:-?}"
    if [ "$status" = ok ]; then
      INSTALL_STATE[mongo]="built"
    else
      INSTALL_STATE[mongo]="build failed"
    fi
  fi
  if ferretdb_cached; then
    MONGO_IMPL=ferretdb
  elif [ "$MONGO_SERVER" = ferretdb ]; then
    die "FerretDB build failed (MONGO_SERVER=ferretdb, no fallback)" "$RUN/install-ferretdb.log"
  else
    log "FerretDB build FAILED, falling back to mongo-java-server (see .run/install-ferretdb.log)"
    tail_log "$RUN/install-ferretdb.log"
  fi
fi
if [ -z "$MONGO_IMPL" ]; then
  MONGO_IMPL=mongo-java-server
  t="$(now)"
  INSTALL_STATE[mongo]="$(install_mongo_java_server)"
  T_INSTALL[mongo]="$(since "$t")"
fi
T_INSTALL[mongo]="${T_INSTALL[mongo]:-0.0}"
if [ "$MONGO_IMPL" = ferretdb ]; then
  log "mongo: FerretDB $FERRETDB_VERSION ${INSTALL_STATE[mongo]} in ${T_INSTALL[mongo]}s ($FERRETDB_BIN)"
else
  log "mongo: mongo-java-server $MONGO_JAVA_SERVER_VERSION ${INSTALL_STATE[mongo]} in ${T_INSTALL[mongo]}s ($MJS_HOME)"
fi
# ---- files: S3Proxy install
t="$(now)"
INSTALL_STATE[s3]="$(install_s3proxy)"
T_INSTALL[s3]="$(since "$t")"
log "s3: S3Proxy $S3PROXY_VERSION ${INSTALL_STATE[s3]} in ${T_INSTALL[s3]}s ($S3PROXY_HOME)"
# ---- end files
if [ "$INSTALL_ONLY" = 1 ]; then
  log "--install-only: installs are in $CACHE; nothing started (total $(since "$T0")s)"
  rm -rf "$RUN"
  trap - EXIT
  exit 0
fi

# ---------------------------------------------------------------- start: Kafka
. "$HERE/lib/start-kafka.sh"

# ---------------------------------------------------------------- start: Redis
RDIR="$RUN/redis"
mkdir -p "$RDIR"
T_START[redis]="$(now)"
redis-server --daemonize yes --bind "$HOST" --port "$REDIS_PORT" --save '' --appendonly no \
  --pidfile "$RDIR/redis.pid" --dir "$RDIR" --logfile "$RDIR/redis.log" >"$RDIR/stdout.log" 2>&1 ||
  die "redis-server failed to start" "$RDIR/stdout.log" "$RDIR/redis.log"
for i in $(seq 1 100); do
  [ -s "$RDIR/redis.pid" ] && break
  sleep 0.05
done
[ -s "$RDIR/redis.pid" ] || die "redis-server wrote no pidfile" "$RDIR/redis.log"
echo "redis $(cat "$RDIR/redis.pid")" >>"$RUN/pids"
log "redis: started (pid $(pid_of redis))"

# ---------------------------------------------------------------- start: Mongo wire server
MDIR="$RUN/mongo"
mkdir -p "$MDIR"
T_START[mongo]="$(now)"
if [ "$MONGO_IMPL" = ferretdb ]; then
  mkdir -p "$MDIR/sqlite" "$MDIR/state"
  MONGO_LOG="$MDIR/ferretdb.log"
  start_bg mongo "$MONGO_LOG" "$FERRETDB_BIN" \
    --listen-addr="$HOST:$MONGO_PORT" \
    --handler=sqlite --sqlite-url="file:$MDIR/sqlite/" \
    --state-dir="$MDIR/state" \
    --telemetry=disable \
    --debug-addr=- \
    --log-level=info
else
  MONGO_LOG="$MDIR/mongo-java-server.log"
  # In memory: everything every test and bench run stored stays on the heap until its database is
  # dropped. At 512 MB a day of bench runs filled it (back-to-back full GCs, clients timing out).
  start_bg mongo "$MONGO_LOG" java -Xms64m -Xmx${MONGO_HEAP:-2g} -cp "$MJS_HOME/libs/*" "$HERE/MongoLauncher.java" "$MONGO_PORT" "$HOST"
fi
log "mongo: $MONGO_IMPL started (pid $(pid_of mongo))"

# ---- files: S3Proxy start (filesystem backend in .run/s3/data; fresh keys each run)
SDIR="$RUN/s3"
mkdir -p "$SDIR/data"
S3_ACCESS_KEY=switchyard
S3_SECRET_KEY="$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')"
cat >"$SDIR/s3proxy.conf" <<EOF
# generated by deploy/local/up.sh
s3proxy.endpoint=http://$HOST:$S3_PORT
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$S3_ACCESS_KEY
s3proxy.credential=$S3_SECRET_KEY
jclouds.provider=filesystem
jclouds.filesystem.basedir=$SDIR/data
EOF
cat >"$SDIR/logback.xml" <<EOF
<configuration>
  <appender name="out" class="ch.qos.logback.core.ConsoleAppender"><encoder><pattern>%d %level %logger{20} %msg%n</pattern></encoder></appender>
  <root level="WARN"><appender-ref ref="out"/></root>
</configuration>
EOF
T_START[s3]="$(now)"
start_bg s3 "$SDIR/s3proxy.log" java -Xms32m -Xmx256m -Dlogback.configurationFile="$SDIR/logback.xml" -cp "$S3PROXY_HOME/libs/*" org.gaul.s3proxy.Main --properties "$SDIR/s3proxy.conf"
log "s3: S3Proxy started (pid $(pid_of s3))"
# ---- end files

# ---------------------------------------------------------------- readiness
start="$(date +%s)"
until [ "$(redis-cli -h "$HOST" -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; do
  pid_alive "$(pid_of redis)" || die "redis-server exited" "$RDIR/redis.log"
  [ $(($(date +%s) - start)) -lt 20 ] || die "redis: no PONG on port $REDIS_PORT after 20s" "$RDIR/redis.log"
  sleep 0.1
done
T_READY[redis]="$(since "${T_START[redis]}")"
log "redis: ready (PONG) ${T_READY[redis]}s after start"

wait_port mongo "$MONGO_PORT" 60 "$MONGO_LOG"
node "$HERE/mongo-ping.mjs" "$HOST" "$MONGO_PORT" 30 >"$MDIR/ping.log" 2>&1 || die "mongo: no ping answer on port $MONGO_PORT" "$MDIR/ping.log" "$MONGO_LOG"
T_READY[mongo]="$(since "${T_START[mongo]}")"
log "mongo: ready (ping ok) ${T_READY[mongo]}s after start"

wait_port kafka "$KAFKA_PORT" "$KAFKA_READY_TIMEOUT" "$KDIR/server.log" "$KDIR/stdout.log"
log "kafka: port $KAFKA_PORT accepts connections $(since "${T_START[kafka]}")s after start; metadata call + topics from topics.txt"
java -Dlog4j.configuration="file:$KDIR/tools-log4j.properties" -cp "$KAFKA_HOME/libs/*" \
  "$HERE/KafkaInit.java" "$HOST:$KAFKA_PORT" "$HERE/topics.txt" "$KAFKA_READY_TIMEOUT" >"$KDIR/init.log" 2>&1 ||
  die "kafka: metadata call / topic creation failed" "$KDIR/init.log" "$KDIR/server.log"
T_READY[kafka]="$(since "${T_START[kafka]}")"
log "kafka: ready, $(grep -c '^Created topic' "$KDIR/init.log" || true) topics created: $(tail -n 1 "$KDIR/init.log" | sed 's/^KafkaInit: //') (${T_READY[kafka]}s after start)"

# ---- files: S3Proxy readiness
wait_port s3 "$S3_PORT" 120 "$SDIR/s3proxy.log"
T_READY[s3]="$(since "${T_START[s3]}")"
log "s3: ready ${T_READY[s3]}s after start"
# ---- end files

# ---------------------------------------------------------------- .env
. "$HERE/lib/write-env.sh"
echo "$MONGO_IMPL" >"$RUN/mongo-impl"
trap - EXIT
. "$HERE/lib/summary.sh"
