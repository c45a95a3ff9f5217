#!/usr/bin/env bash
# Lists (and with --delete removes) the consumer groups left behind by Switchyard pods that are gone.
# Per-pod groups (each replica reads the whole stream for its own caches or sockets) are named
# <service>-<purpose>-<instance>: realtime-<instance>, <service>-config-<instance>, incoming-hooks-cache-<instance>,
# posts-channel-cache-<uuid>, users-bots-config-<uuid>, users-bots-user-cache-<uuid>. When the pod goes, its
# group becomes Empty and the broker deletes it only after offsets.retention.minutes (7 days by default):
# until then it shows in every lag listing. Durable groups (outgoing-dispatch, posts.commands-consumer, ...)
# are never touched, and a group is deleted only while Empty (no member: its pod is really gone).
#   kafka-stale-groups.sh [--delete] [--bootstrap-server HOST:PORT] [--command-config FILE]
# KAFKA_BIN (default /opt/kafka/bin), KAFKA_BROKERS; docs/operations.md, "Kafka ACLs and consumer groups".
set -euo pipefail
bootstrap=${KAFKA_BROKERS:-} config="" delete=0
while [ $# -gt 0 ]; do
  case "$1" in
    --delete) delete=1 ;;
    --bootstrap-server) bootstrap=$2; shift ;;
    --command-config) config=$2; shift ;;
    *) echo "kafka-stale-groups: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$bootstrap" ] || { echo "kafka-stale-groups: --bootstrap-server (or KAFKA_BROKERS) is required" >&2; exit 2; }
bin=${KAFKA_BIN:-/opt/kafka/bin}
client=(--bootstrap-server "$bootstrap")
[ -n "$config" ] && client+=(--command-config "$config")
# The per-pod patterns (a KAFKA_NAMESPACE prefix allowed in front).
per_pod='^([a-z0-9._-]*)(realtime-[0-9a-z-]+|[a-z-]+-config-[0-9a-z-]+|incoming-hooks-cache-[0-9a-z-]+|posts-channel-cache-[0-9a-f-]+|users-bots-user-cache-[0-9a-f-]+)$'
# `--describe --all-groups --state`: GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE #MEMBERS
stale=$("$bin/kafka-consumer-groups.sh" "${client[@]}" --describe --all-groups --state 2>/dev/null |
  awk -v re="$per_pod" 'NF >= 2 && $1 != "GROUP" && $1 ~ re { state = $(NF - 1); if (state == "Empty" || state == "Dead") print $1 }' | sort -u)
count=$(printf '%s' "$stale" | grep -c . || true)
if [ "$count" -eq 0 ]; then echo "kafka-stale-groups: no empty per-pod groups"; exit 0; fi
printf '%s\n' "$stale"
if [ "$delete" = 0 ]; then echo "kafka-stale-groups: $count empty per-pod groups (run with --delete to remove them)"; exit 0; fi
args=()
for g in $stale; do args+=(--group "$g"); done
"$bin/kafka-consumer-groups.sh" "${client[@]}" --delete "${args[@]}"
echo "kafka-stale-groups: deleted $count groups"
