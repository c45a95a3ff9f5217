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
ports=("$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" "$MONGO_PORT" "$REDIS_PORT")
if [ "$SECURE_KAFKA" = 1 ]; then ports+=("$KAFKA_SASL_SSL_PORT" "$KAFKA_MTLS_PORT"); fi
for p in "${ports[@]}"; do
  if [ "$INSTALL_ONLY" = 0 ] && port_open "$p"; then
    die "port $HOST:$p is already in use by a process up.sh did not start (set KAFKA_PORT/KAFKA_CONTROLLER_PORT/KAFKA_SASL_SSL_PORT/KAFKA_MTLS_PORT/MONGO_PORT/REDIS_PORT to move)"
  fi
done

# ---------------------------------------------------------------- installs
mvn_copy_deps() { # mvn_copy_deps HOME LOG: resolves HOME/pom.xml into HOME/libs
  mvn -B -q -f "$1/pom.xml" -Dmaven.repo.local="$M2_REPO" \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$1/libs" >"$2" 2>&1
}

pom_header() { # pom_header ARTIFACT_ID
  cat <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!-- generated by deploy/local/up.sh -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.switchyard</groupId>
  <artifactId>$1</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <build>
    <pluginManagement>
      <plugins>
        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>maven-dependency-plugin</artifactId>
          <version>$MAVEN_DEPENDENCY_PLUGIN_VERSION</version>
        </plugin>
      </plugins>
    </pluginManagement>
  </build>
EOF
}

install_kafka() {
  if [ -f "$KAFKA_HOME/.installed" ] && [ "$(cat "$KAFKA_HOME/.installed")" = "$KAFKA_STAMP" ]; then
    echo cached
    return
  fi
  rm -rf "$KAFKA_HOME"
  mkdir -p "$KAFKA_HOME"
  {
    pom_header kafka-local
    cat <<EOF
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$KAFKA_VERSION</version></dependency>
    <!-- TopicCommand lives in kafka-tools; Kafka Connect is not needed for it -->
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-tools</artifactId><version>$KAFKA_VERSION</version>
      <exclusions>
        <exclusion><groupId>org.apache.kafka</groupId><artifactId>connect-runtime</artifactId></exclusion>
        <exclusion><groupId>com.fasterxml.jackson.jaxrs</groupId><artifactId>jackson-jaxrs-json-provider</artifactId></exclusion>
      </exclusions>
    </dependency>
    <!-- the broker needs log4j at run time, but its published pom leaves it out -->
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>$SLF4J_RELOAD4J_VERSION</version></dependency>
    <dependency><groupId>ch.qos.reload4j</groupId><artifactId>reload4j</artifactId><version>$RELOAD4J_VERSION</version></dependency>
  </dependencies>
</project>
EOF
  } >"$KAFKA_HOME/pom.xml"
  mvn_copy_deps "$KAFKA_HOME" "$RUN/install-kafka.log" || die "Kafka install (mvn dependency:copy-dependencies) failed" "$RUN/install-kafka.log"
  ls "$KAFKA_HOME"/libs/kafka_2.13-"$KAFKA_VERSION".jar >/dev/null || die "Kafka install: kafka_2.13 jar missing" "$RUN/install-kafka.log"
  echo "$KAFKA_STAMP" >"$KAFKA_HOME/.installed"
  echo installed
}

install_mongo_java_server() {
  if [ -f "$MJS_HOME/.installed" ]; then
    echo cached
    return
  fi
  rm -rf "$MJS_HOME"
  mkdir -p "$MJS_HOME"
  {
    pom_header mongo-java-server-local
    cat <<EOF
  <dependencies>
    <dependency><groupId>de.bwaldvogel</groupId><artifactId>mongo-java-server</artifactId><version>$MONGO_JAVA_SERVER_VERSION</version></dependency>
  </dependencies>
</project>
EOF
  } >"$MJS_HOME/pom.xml"
  mvn_copy_deps "$MJS_HOME" "$RUN/install-mongo-java-server.log" || die "mongo-java-server install failed" "$RUN/install-mongo-java-server.log"
  echo "$MONGO_JAVA_SERVER_VERSION" >"$MJS_HOME/.installed"
  echo installed
}

# ---- files: S3Proxy (S3 API on a local directory), resolved from Maven Central like Kafka.
install_s3proxy() {
  if [ -f "$S3PROXY_HOME/.installed" ] && [ "$(cat "$S3PROXY_HOME/.installed")" = "$S3PROXY_VERSION" ]; then
    echo cached
    return
  fi
  rm -rf "$S3PROXY_HOME"
  mkdir -p "$S3PROXY_HOME"
  {
    pom_header s3proxy-local
    cat <<EOF
  <dependencies>
    <dependency><groupId>org.gaul</groupId><artifactId>s3proxy</artifactId><version>$S3PROXY_VERSION</version></dependency>
  </dependencies>
</project>
EOF
  } >"$S3PROXY_HOME/pom.xml"
  mvn_copy_deps "$S3PROXY_HOME" "$RUN/install-s3proxy.log" || die "S3Proxy install failed" "$RUN/install-s3proxy.log"
  echo "$S3PROXY_VERSION" >"$S3PROXY_HOME/.installed"
  echo installed
}
# ---- end files

# Builds FerretDB's own cmd/ferretdb from a tiny wrapper module. Its build/version package panics at
# start unless build/version/version.txt (generated by FerretDB's release tooling, absent from the
# module zip) holds the version: that is what breaks `go install ...@version` (FerretDB issue 2982),
# and with Go >= 1.24 a plain wrapper-module build too (the binary still records FerretDB as its main
# module). So the wrapper `replace`s the module with a copy (3.4 MB) that has version.txt added, as
# the panic message itself suggests. Go's module/build caches live in $CACHE/go and are removed
# after a successful build (about 1 GB; only the binary is reused).
# Runs in the background on a cold cache; writes "ok|failed SECONDS" to .run/ferretdb-build.status.
build_ferretdb() {
  local log="$RUN/install-ferretdb.log" src="$FERRETDB_HOME/src" mod
  rm -rf "$FERRETDB_HOME"
  mkdir -p "$src" "$FERRETDB_HOME/bin"
  (
    cd "$src" || exit 1
    export GOPATH="$CACHE/go" GOMODCACHE="$CACHE/go/pkg/mod" GOCACHE="$CACHE/go/build" \
      CGO_ENABLED=0 GOFLAGS="-modcacherw -buildvcs=false" GOWORK=off
    go version || exit 1
    go mod init local.switchyard/ferretdb || exit 1
    go get "github.com/FerretDB/FerretDB/cmd/ferretdb@$FERRETDB_VERSION" || exit 1
    mod="$(go list -m -f '{{.Dir}}' github.com/FerretDB/FerretDB)" && [ -d "$mod" ] || exit 1
    cp -R "$mod" ferretdb-module && chmod -R u+w ferretdb-module || exit 1
    echo "$FERRETDB_VERSION" >ferretdb-module/build/version/version.txt
    go mod edit -replace github.com/FerretDB/FerretDB=./ferretdb-module || exit 1
    go build -trimpath -o "$FERRETDB_BIN.tmp" github.com/FerretDB/FerretDB/cmd/ferretdb || exit 1
    "$FERRETDB_BIN.tmp" --version || exit 1
    mv "$FERRETDB_BIN.tmp" "$FERRETDB_BIN" || exit 1
    if [ "${KEEP_GO_CACHE:-0}" != 1 ]; then rm -rf "$CACHE/go" "$src"; fi
  ) >"$log" 2>&1
}

ferretdb_cached() { [ -x "$FERRETDB_BIN" ] && [ "$(cat "$FERRETDB_HOME/.installed" 2>/dev/null)" = "$FERRETDB_VERSION" ]; }

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
KDIR="$RUN/kafka"
mkdir -p "$KDIR/data"
LISTENERS="PLAINTEXT://$HOST:$KAFKA_PORT"
PROTOCOLS="CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT"
SCRAM_ARGS=()
if [ "$SECURE_KAFKA" = 1 ]; then
  # A throwaway CA, a broker certificate for 127.0.0.1 and a client certificate, all PEM (the broker
  # reads PEM key/trust stores since Kafka 2.7: no keytool, no JKS). RSA keys, unencrypted PKCS#8.
  TLS="$KDIR/tls"
  mkdir -p "$TLS"
  (
    cd "$TLS"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj "/CN=switchyard-local-ca" -sha256
    for who in broker client; do
      openssl req -newkey rsa:2048 -nodes -keyout "$who.key" -out "$who.csr" -subj "/CN=switchyard-local-$who" -sha256
      printf 'subjectAltName=IP:%s,DNS:localhost\n' "$HOST" >"$who.ext"
      openssl x509 -req -in "$who.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -out "$who.pem" -days 2 -sha256 -extfile "$who.ext"
    done
    cat broker.key broker.pem >broker-keystore.pem
    chmod 600 ./*.key broker-keystore.pem
  ) >"$KDIR/tls.log" 2>&1 || die "openssl: generating the local Kafka certificates failed" "$KDIR/tls.log"
  SASL_USER=switchyard
  SASL_PASSWORD="$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')"
  LISTENERS="$LISTENERS,SASL_SSL://$HOST:$KAFKA_SASL_SSL_PORT,SSL://$HOST:$KAFKA_MTLS_PORT"
  PROTOCOLS="$PROTOCOLS,SASL_SSL:SASL_SSL,SSL:SSL"
  # SCRAM credentials live in the cluster metadata: written at format time (KIP-900), no extra JVM.
  SCRAM_ARGS=(--add-scram "SCRAM-SHA-256=[name=$SASL_USER,password=$SASL_PASSWORD]" --add-scram "SCRAM-SHA-512=[name=$SASL_USER,password=$SASL_PASSWORD]")
fi
cat >"$KDIR/server.properties" <<EOF
# generated by deploy/local/up.sh (Kafka does not expand env vars)
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$HOST:$KAFKA_CONTROLLER_PORT
listeners=$LISTENERS,CONTROLLER://$HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=$LISTENERS
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=$PROTOCOLS
log.dirs=$KDIR/data
auto.create.topics.enable=false
num.partitions=3
default.replication.factor=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
EOF
if [ "$SECURE_KAFKA" = 1 ]; then
  cat >>"$KDIR/server.properties" <<EOF
# SASL_SSL ($KAFKA_SASL_SSL_PORT): PLAIN and SCRAM over TLS; SSL ($KAFKA_MTLS_PORT): client certificate required.
ssl.keystore.type=PEM
ssl.keystore.location=$TLS/broker-keystore.pem
ssl.truststore.type=PEM
ssl.truststore.location=$TLS/ca.pem
listener.name.ssl.ssl.client.auth=required
sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$SASL_USER="$SASL_PASSWORD";
listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
EOF
fi
cat >"$KDIR/log4j.properties" <<EOF
# generated by deploy/local/up.sh: broker log goes to .run/kafka/server.log
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=$KDIR/server.log
log4j.appender.file.Append=true
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.org.apache.kafka.clients=WARN
EOF
cat >"$KDIR/tools-log4j.properties" <<EOF
# generated by deploy/local/up.sh: for the storage/topic tools
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
# Cluster id: what `StorageTool random-uuid` prints (16 random bytes, URL-safe base64 without
# padding, not starting with '-'), made here to save a JVM start.
while :; do
  CLUSTER_ID="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
  case "$CLUSTER_ID" in -*) ;; *) break ;; esac
done
T_START[kafka]="$(now)"
java -Dlog4j.configuration="file:$KDIR/tools-log4j.properties" -cp "$KAFKA_HOME/libs/*" \
  kafka.tools.StorageTool format -t "$CLUSTER_ID" -c "$KDIR/server.properties" --ignore-formatted "${SCRAM_ARGS[@]}" >"$KDIR/format.log" 2>&1 ||
  die "kafka storage format failed" "$KDIR/format.log"
start_bg kafka "$KDIR/stdout.log" java -Xms256m -Xmx512m -XX:+UseG1GC -Djava.awt.headless=true \
  -Dlog4j.configuration="file:$KDIR/log4j.properties" -cp "$KAFKA_HOME/libs/*" kafka.Kafka "$KDIR/server.properties"
log "kafka: started (pid $(pid_of kafka)), cluster id $CLUSTER_ID"

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
cat >"$ENV_FILE.tmp" <<EOF
# written by deploy/local/up.sh at $(date -u +%Y-%m-%dT%H:%M:%SZ); servers stop with deploy/local/down.sh
KAFKA_BROKERS=$HOST:$KAFKA_PORT
MONGO_URL=mongodb://$HOST:$MONGO_PORT
REDIS_URL=redis://$HOST:$REDIS_PORT
MONGO_IMPL=$MONGO_IMPL
EOF
if [ "$SECURE_KAFKA" = 1 ]; then
  # Not KAFKA_SASL_*/KAFKA_SSL_*: the services read those, and the plaintext listener above is theirs.
  cat >>"$ENV_FILE.tmp" <<EOF
KAFKA_TEST_SASL_SSL_BROKERS=$HOST:$KAFKA_SASL_SSL_PORT
KAFKA_TEST_MTLS_BROKERS=$HOST:$KAFKA_MTLS_PORT
KAFKA_TEST_CA_FILE=$TLS/ca.pem
KAFKA_TEST_CLIENT_CERT_FILE=$TLS/client.pem
KAFKA_TEST_CLIENT_KEY_FILE=$TLS/client.key
KAFKA_TEST_SASL_USERNAME=$SASL_USER
KAFKA_TEST_SASL_PASSWORD=$SASL_PASSWORD
EOF
fi
# ---- files: the S3 server for the S3 file store's tests
cat >>"$ENV_FILE.tmp" <<EOF
S3_TEST_ENDPOINT=$HOST:$S3_PORT
S3_TEST_ACCESS_KEY=$S3_ACCESS_KEY
S3_TEST_SECRET_KEY=$S3_SECRET_KEY
EOF
# ---- end files
mv "$ENV_FILE.tmp" "$ENV_FILE"
echo "$MONGO_IMPL" >"$RUN/mongo-impl"
trap - EXIT

echo
echo "Servers up on $HOST (pids in $RUN/pids, env in $ENV_FILE):"
printf '  %-6s %-34s %-22s install %7ss  start->ready %6ss\n' \
  kafka "Kafka $KAFKA_VERSION (KRaft)" "$HOST:$KAFKA_PORT" "${T_INSTALL[kafka]}" "${T_READY[kafka]}"
if [ "$MONGO_IMPL" = ferretdb ]; then mdesc="FerretDB $FERRETDB_VERSION (SQLite)"; else mdesc="mongo-java-server $MONGO_JAVA_SERVER_VERSION"; fi
printf '  %-6s %-34s %-22s install %7ss  start->ready %6ss\n' \
  mongo "$mdesc" "$HOST:$MONGO_PORT" "${T_INSTALL[mongo]}" "${T_READY[mongo]}"
printf '  %-6s %-34s %-22s install %7ss  start->ready %6ss\n' \
  redis "Redis $(redis-server --version | sed -n 's/.* v=\([^ ]*\).*/\1/p')" "$HOST:$REDIS_PORT" "${T_INSTALL[redis]}" "${T_READY[redis]}"
printf '  %-6s %-34s %-22s install %7ss  start->ready %6ss\n' \
  s3 "S3Proxy $S3PROXY_VERSION (filesystem)" "$HOST:$S3_PORT" "${T_INSTALL[s3]}" "${T_READY[s3]}"
echo "  total $(since "$T0")s (installs partly overlap: the FerretDB build runs in the background)"
