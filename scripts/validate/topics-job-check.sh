#!/usr/bin/env bash
# Runs the rendered kafka-topics Job's script (each rendered set's) against a stub kafka-topics.sh, in the
# settings operators use, and checks what it would do:
#   plaintext            creates every topic of shared/contracts (and its .dlq), security.protocol=PLAINTEXT
#   KAFKA_SSL=true       (managed Kafka with public CAs: MSK, Confluent Cloud) security.protocol=SSL
#   + SASL scram-sha-512 security.protocol=SASL_SSL, sasl.mechanism=SCRAM-SHA-512
#   upgraded cluster     an existing topic at replication factor 1 with min.insync.replicas 2 asked: refused
# and scripts/kafka-topics-upgrade.sh (the operators' upgrade tool): `check --min-isr 2` refuses replication
# factor 1, `plan` raises every partition to 3 replicas, `min-isr` alters only after its check passes.
# Usage: topics-job-check.sh K8S_CHECK_BIN RENDERED.yaml...   (run from the repository root)
set -euo pipefail
k8s_check=$1; shift
work=$(mktemp -d "${TMPDIR:-/tmp}/topics-job-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
problems=0
problem() { echo "topics-job-check: $*" >&2; problems=$((problems + 1)); }

contracts=shared/contracts/src/topics.ts
sed -n '/^export const TOPIC_PARTITIONS/,/^};/p' "$contracts" | sed -nE "s/^ *'([a-z0-9._-]+)': *([0-9]+),.*/\1:\2/p" > "$work/want"
{ cat "$work/want"; sed -E 's/:[0-9]+$/.dlq:1/' "$work/want"; } | sort > "$work/want-all"

mkdir -p "$work/bin"
# --create: records "topic:partitions"; --describe: prints $STUB_DESCRIBE (existing topics, as Kafka does).
cat > "$work/bin/kafka-topics.sh" <<'STUB'
#!/usr/bin/env bash
topic="" partitions="" describe=0
while [ $# -gt 0 ]; do
  case "$1" in --topic) topic=$2; shift ;; --partitions) partitions=$2; shift ;; --describe) describe=1 ;; esac
  shift
done
if [ "$describe" = 1 ]; then [ -n "${STUB_DESCRIBE:-}" ] && printf '%b\n' "$STUB_DESCRIBE"; exit 0; fi
[ -n "$topic" ] && echo "$topic:$partitions" >> "$STUB_LOG"
exit 0
STUB
chmod +x "$work/bin/kafka-topics.sh"

# run NAME [VAR=value...]: runs the script with the base settings plus these; output in $work/NAME.*
run() {
  local name=$1; shift
  local dir="$work/$name"
  mkdir -p "$dir/tmp" "$dir/tls"
  sed -e "s#/tmp/#$dir/tmp/#g" -e "s#/opt/kafka/bin/#$work/bin/#g" -e "s#/etc/switchyard/kafka-tls#$dir/tls#g" "$work/script" > "$dir/script.sh"
  : > "$dir/created"
  env -i PATH="$PATH" STUB_LOG="$dir/created" TOPICS="$(paste -sd' ' "$work/want")" KAFKA_BROKERS=broker:9093 \
    KAFKA_REPLICATION_FACTOR=3 KAFKA_MIN_INSYNC_REPLICAS=2 KAFKA_DEFAULT_RETENTION_MS=604800000 \
    KAFKA_DLQ_RETENTION_MS=2592000000 "$@" bash -ec "$(cat "$dir/script.sh")" > "$dir/out" 2>&1
}
props() { cat "$work/$1/tmp/client.properties" 2>/dev/null; }

for rendered in "$@"; do
  label=$(basename "$rendered")
  if ! "$k8s_check" -job-script=kafka-topics "$rendered" > "$work/script"; then
    problem "$label: no kafka-topics Job script"
    continue
  fi
  if run plain; then
    if ! diff <(sort "$work/plain/created") "$work/want-all" > "$work/diff"; then
      problem "$label: the Job creates other topics than shared/contracts (< Job, > contract):"; grep -E '^[<>]' "$work/diff" | sed 's/^/    /' >&2
    fi
    props plain | grep -qx 'security.protocol=PLAINTEXT' || problem "$label: plaintext run: security.protocol is not PLAINTEXT"
  else
    problem "$label: the Job's script failed (plaintext):"; sed 's/^/    /' "$work/plain/out" >&2
  fi
  if run ssl KAFKA_SSL=true; then
    props ssl | grep -qx 'security.protocol=SSL' || problem "$label: KAFKA_SSL=true is ignored (security.protocol=$(props ssl | sed -n 's/^security.protocol=//p')): the managed-Kafka recipe (public CAs) fails"
  else
    problem "$label: the Job's script failed (KAFKA_SSL=true):"; sed 's/^/    /' "$work/ssl/out" >&2
  fi
  if run sasl KAFKA_SSL=true KAFKA_SASL_MECHANISM=scram-sha-512 KAFKA_SASL_USERNAME=u KAFKA_SASL_PASSWORD=p; then
    props sasl | grep -qx 'security.protocol=SASL_SSL' || problem "$label: KAFKA_SSL=true with SASL is not SASL_SSL"
    props sasl | grep -qx 'sasl.mechanism=SCRAM-SHA-512' || problem "$label: SASL mechanism not written"
  else
    problem "$label: the Job's script failed (SASL_SSL):"; sed 's/^/    /' "$work/sasl/out" >&2
  fi
  # An upgraded cluster: the topics exist with replication factor 1, the config asks for min.insync 2.
  if run upgrade STUB_DESCRIBE='Topic: posts.events\tTopicId: x\tPartitionCount: 6\tReplicationFactor: 1\tConfigs: '; then
    problem "$label: the Job accepts topics whose replication factor (1) is below KAFKA_MIN_INSYNC_REPLICAS (2)"
  else
    grep -q 'REFUSED' "$work/upgrade/out" || { problem "$label: the upgrade run failed without saying why:"; sed 's/^/    /' "$work/upgrade/out" >&2; }
  fi
  [ "$problems" -eq 0 ] && echo "ok: $label kafka-topics Job: creates the contract's topics; PLAINTEXT, KAFKA_SSL=true -> SSL, + SASL -> SASL_SSL; refuses RF 1 < min.insync 2"
done

# The upgrade tool, against the same stub (+ kafka-configs.sh recording each --alter).
cat > "$work/bin/kafka-configs.sh" <<'STUB'
#!/usr/bin/env bash
echo "$*" >> "$STUB_LOG"
STUB
chmod +x "$work/bin/kafka-configs.sh"
upgrade() { env -i PATH="$PATH" KAFKA_BIN="$work/bin" STUB_LOG="$work/alters" STUB_DESCRIBE="$1" bash scripts/kafka-topics-upgrade.sh "${@:2}" --bootstrap-server b:9092; }
rf1='Topic: posts.events\tPartitionCount: 2\tReplicationFactor: 1\tConfigs: \n\tTopic: posts.events\tPartition: 0\tLeader: 2\tReplicas: 2\tIsr: 2\n\tTopic: posts.events\tPartition: 1\tLeader: 1\tReplicas: 1\tIsr: 1'
rf3='Topic: posts.events\tPartitionCount: 1\tReplicationFactor: 3\tConfigs: \n\tTopic: posts.events\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3'
: > "$work/alters"
if upgrade "$rf1" min-isr --min-isr 2 > "$work/up.out" 2>&1 || [ -s "$work/alters" ]; then
  problem "kafka-topics-upgrade.sh min-isr 2 did not refuse a topic at replication factor 1"
fi
plan=$(upgrade "$rf1" plan --replication-factor 3 --brokers 1,2,3 2>&1 || true)
want_plan='{"version":1,"partitions":[{"topic":"posts.events","partition":0,"replicas":[2,1,3]},{"topic":"posts.events","partition":1,"replicas":[1,2,3]}]}'
[ "$plan" = "$want_plan" ] || problem "kafka-topics-upgrade.sh plan: got $plan, want $want_plan"
if ! upgrade "$rf3" min-isr --min-isr 2 > "$work/up.out" 2>&1 || ! grep -q 'entity-name posts.events --add-config min.insync.replicas=2' "$work/alters"; then
  problem "kafka-topics-upgrade.sh min-isr 2 did not alter a topic at replication factor 3:"; sed 's/^/    /' "$work/up.out" >&2
fi
[ "$problems" -eq 0 ] && echo "ok: kafka-topics-upgrade.sh: refuses min.insync 2 on replication 1, plans 3 replicas, alters after the check"

# The stale-group cleanup: deletes empty per-pod groups only (never a durable group, never a live one).
cat > "$work/bin/kafka-consumer-groups.sh" <<'STUB'
#!/usr/bin/env bash
if [[ " $* " == *" --delete "* ]]; then echo "$*" >> "$STUB_LOG"; exit 0; fi
printf '%s\n' '' 'GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE #MEMBERS' \
  'realtime-7f3a9c kafka-0:9092 (0)  Empty 0' 'realtime-b2 kafka-0:9092 (0) range Stable 1' \
  'outgoing-dispatch kafka-0:9092 (0) range Empty 0' 'users-bots-user-cache-0b6c1f2e kafka-0:9092 (0)  Empty 0' \
  'gateway-config-abc123 kafka-0:9092 (0)  Empty 0' 'posts.commands-consumer kafka-0:9092 (0) range Stable 2'
STUB
chmod +x "$work/bin/kafka-consumer-groups.sh"
: > "$work/deleted"
env -i PATH="$PATH" KAFKA_BIN="$work/bin" STUB_LOG="$work/deleted" bash scripts/kafka-stale-groups.sh --bootstrap-server b:9092 --delete > "$work/groups.out" 2>&1 || true
want_delete='--bootstrap-server b:9092 --delete --group gateway-config-abc123 --group realtime-7f3a9c --group users-bots-user-cache-0b6c1f2e'
if [ "$(cat "$work/deleted")" = "$want_delete" ]; then
  echo "ok: kafka-stale-groups.sh deletes the empty per-pod groups only"
else
  problem "kafka-stale-groups.sh --delete ran '$(cat "$work/deleted")', want '$want_delete'"
fi

if [ "$problems" -gt 0 ]; then
  echo "topics-job-check: $problems problem(s)" >&2
  exit 1
fi
