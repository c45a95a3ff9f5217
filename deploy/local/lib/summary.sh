# shellcheck shell=bash
# Sourced by deploy/local/up.sh at the end: what runs where, and how long each install and start took.
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
