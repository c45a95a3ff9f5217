#!/usr/bin/env bash
# Safe upgrade of existing Kafka topics to replication factor R and min.insync.replicas M (docs/deploy.md,
# "Upgrading the topics"). Raising min.insync.replicas on a topic whose replication factor is below it stops
# every acks=all publish (NOT_ENOUGH_REPLICAS), so the order is: plan, reassign, verify, then min-isr.
#   kafka-topics-upgrade.sh check    --min-isr M                       refuses (exit 1) if any topic has RF < M
#   kafka-topics-upgrade.sh plan     --replication-factor R --brokers 1,2,3   prints a kafka-reassign-partitions JSON
#   kafka-topics-upgrade.sh min-isr  --min-isr M                       `check`, then kafka-configs --alter on each topic
# Common options: --bootstrap-server HOST:PORT (default $KAFKA_BROKERS), --command-config FILE (TLS/SASL),
# --topics "a b c" (default: every topic but Kafka's internal ones), KAFKA_BIN (default /opt/kafka/bin).
# Run it where the Kafka CLI is, e.g. `kubectl run -it --rm kafka-cli --image=apache/kafka:3.9.1 -- bash`.
set -euo pipefail
cmd=${1:-}; shift || true
bootstrap=${KAFKA_BROKERS:-} config="" topics="" min_isr="" rf="" brokers=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bootstrap-server) bootstrap=$2; shift ;;
    --command-config) config=$2; shift ;;
    --topics) topics=$2; shift ;;
    --min-isr) min_isr=$2; shift ;;
    --replication-factor) rf=$2; shift ;;
    --brokers) brokers=$2; shift ;;
    *) echo "kafka-topics-upgrade: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
bin=${KAFKA_BIN:-/opt/kafka/bin}
[ -n "$bootstrap" ] || { echo "kafka-topics-upgrade: --bootstrap-server (or KAFKA_BROKERS) is required" >&2; exit 2; }
client=(--bootstrap-server "$bootstrap")
[ -n "$config" ] && client+=(--command-config "$config")

# "topic rf" per topic, and "topic partition replicas(csv)" per partition, from --describe.
describe() {
  local args=(--describe)
  if [ -n "$topics" ]; then for t in $topics; do args+=(--topic "$t"); done; else args+=(--exclude-internal); fi
  "$bin/kafka-topics.sh" "${client[@]}" "${args[@]}"
}
summary() { describe | awk '/^Topic:/ { for (i = 1; i <= NF; i++) { if ($i == "Topic:") t = $(i + 1); if ($i == "ReplicationFactor:") print t, $(i + 1) } }'; }
partitions() { describe | awk '/Partition:/ { for (i = 1; i <= NF; i++) { if ($i == "Topic:") t = $(i + 1); if ($i == "Partition:") p = $(i + 1); if ($i == "Replicas:") r = $(i + 1) } print t, p, r }'; }

check() {
  [[ "$min_isr" =~ ^[1-9][0-9]*$ ]] || { echo "kafka-topics-upgrade: --min-isr N is required" >&2; exit 2; }
  local bad=0 count=0 topic factor
  while read -r topic factor; do
    count=$((count + 1))
    if [ "$factor" -lt "$min_isr" ]; then
      echo "REFUSED: $topic has replication factor $factor < min.insync.replicas $min_isr: every acks=all publish would fail. Raise its replication first (plan, kafka-reassign-partitions --execute, --verify)." >&2
      bad=$((bad + 1))
    elif [ "$factor" -eq "$min_isr" ] && [ "$min_isr" -gt 1 ]; then
      echo "warning: $topic has replication factor $factor = min.insync.replicas: losing one broker stops its publishes" >&2
    fi
  done < <(summary)
  [ "$count" -gt 0 ] || { echo "kafka-topics-upgrade: no topics found" >&2; exit 1; }
  [ "$bad" -eq 0 ] || { echo "kafka-topics-upgrade: $bad of $count topics below min.insync.replicas $min_isr: refused" >&2; exit 1; }
  echo "ok: $count topics have replication factor >= $min_isr"
}

case "$cmd" in
  check) check ;;
  plan)
    [[ "$rf" =~ ^[1-9][0-9]*$ ]] && [ -n "$brokers" ] || { echo "kafka-topics-upgrade: plan needs --replication-factor R --brokers 1,2,3" >&2; exit 2; }
    # Keeps each partition's current replicas (leader first) and adds brokers from the list, rotating the
    # start by partition so the new replicas spread evenly.
    partitions | awk -v rf="$rf" -v brokers="$brokers" '
      BEGIN { nb = split(brokers, b, ","); printf "{\"version\":1,\"partitions\":[" }
      {
        n = split($3, cur, ","); if (n >= rf) next
        if (nb < rf) { print "not enough brokers for replication factor " rf > "/dev/stderr"; exit 2 }
        delete have; list = $3
        for (i = 1; i <= n; i++) have[cur[i]] = 1
        for (k = 0; k < nb && n < rf; k++) { id = b[(($2 + k) % nb) + 1]; if (!(id in have)) { have[id] = 1; list = list "," id; n++ } }
        printf "%s{\"topic\":\"%s\",\"partition\":%d,\"replicas\":[%s]}", (count++ ? "," : ""), $1, $2, list
      }
      END { print "]}" }' ;;
  min-isr)
    check
    while read -r topic _; do
      "$bin/kafka-configs.sh" "${client[@]}" --alter --entity-type topics --entity-name "$topic" --add-config "min.insync.replicas=$min_isr"
    done < <(summary)
    echo "min.insync.replicas=$min_isr set on every topic" ;;
  *) sed -n '2,11p' "$0"; exit 2 ;;
esac
