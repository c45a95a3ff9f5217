#!/usr/bin/env bash
# The Kafka topic set has one source: TOPIC_PARTITIONS in shared/contracts/src/topics.ts. This checks
# every deployment's copy against it and fails on any drift:
#   - docker-compose.yml: kafka-init's TOPICS, and what kafka-init's script actually creates when run
#     against a stub kafka-topics.sh (each topic with its partitions, and its one-partition .dlq);
#   - deploy/local/topics.txt (the local servers, the drills and the launcher);
#   - every rendered kustomize set: the kafka-topics Job's TOPICS.
# Usage: topics-check.sh COMPOSE_CHECK_BIN RENDERED.yaml...   (run from the repository root)
set -euo pipefail
compose_check=$1; shift
work=$(mktemp -d "${TMPDIR:-/tmp}/topics-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
problems=0
problem() { echo "topics-check: $*" >&2; problems=$((problems + 1)); }

contracts=shared/contracts/src/topics.ts
# "name:partitions" per line, in the contract's order.
sed -n '/^export const TOPIC_PARTITIONS/,/^};/p' "$contracts" | sed -nE "s/^ *'([a-z0-9._-]+)': *([0-9]+),.*/\1:\2/p" > "$work/want"
sed -n '/^export const Topics = {/,/^}/p' "$contracts" | sed -nE "s/^ *[A-Za-z]+: '([^']+)',.*/\1/p" | sort > "$work/names"
[ -s "$work/want" ] || { echo "topics-check: no TOPIC_PARTITIONS lines in $contracts" >&2; exit 1; }
if ! diff <(cut -d: -f1 "$work/want" | sort) "$work/names" > /dev/null; then
  problem "$contracts: TOPIC_PARTITIONS and Topics name different topics"
fi
want_line=$(paste -sd' ' "$work/want")
# With dead-letter topics, sorted: what a deployment must create.
{ cat "$work/want"; sed -E 's/:[0-9]+$/.dlq:1/' "$work/want"; } | sort > "$work/want-all"
echo "contract: $want_line (+ a .dlq of 1 partition each)"

# compare LABEL FILE: FILE holds "name:partitions" lines (any order) that must equal the contract's.
compare() {
  local label=$1 got=$2
  if ! diff <(sort "$got") "$3" > "$work/diff"; then
    problem "$label differs from $contracts (< $label, > contract):"
    sed 's/^/    /' "$work/diff" | grep -E '^    [<>]' >&2 || true
  else
    echo "ok: $label"
  fi
}

# docker-compose.yml: the declared list, then the script run against a stub recording each --create.
secret=validate-deploy-not-a-real-secret-0123456789
INTERNAL_SECRET=$secret "$compose_check" -env kafka-init docker-compose.yml | sed -n 's/^TOPICS=//p' | tr ' ' '\n' | sed '/^$/d' > "$work/compose"
compare "docker-compose.yml kafka-init TOPICS" "$work/compose" <(sort "$work/want")
mkdir -p "$work/bin"
cat > "$work/bin/kafka-topics.sh" <<'STUB'
#!/usr/bin/env bash
# Records "topic:partitions" of each --create; --describe prints nothing.
topic="" partitions=""
while [ $# -gt 0 ]; do
  case "$1" in --topic) topic=$2; shift ;; --partitions) partitions=$2; shift ;; esac
  shift
done
[ -n "$topic" ] && echo "$topic:$partitions" >> "$STUB_LOG"
exit 0
STUB
chmod +x "$work/bin/kafka-topics.sh"
INTERNAL_SECRET=$secret "$compose_check" -script kafka-init docker-compose.yml | sed "s#/opt/kafka/bin/#$work/bin/#g" > "$work/kafka-init.sh"
: > "$work/created"
if ! (export STUB_LOG="$work/created"; TOPICS=$(tr '\n' ' ' < "$work/compose"); export TOPICS; bash -e "$work/kafka-init.sh") > "$work/kafka-init.log" 2>&1; then
  problem "docker-compose.yml: kafka-init's script failed against a stub kafka-topics.sh:"
  sed 's/^/    /' "$work/kafka-init.log" >&2
fi
compare "docker-compose.yml kafka-init creates" "$work/created" "$work/want-all"

# deploy/local/topics.txt: "<name> <partitions>" lines, dead-letter topics listed too.
grep -vE '^[[:space:]]*(#|$)' deploy/local/topics.txt | awk '{ print $1 ":" $2 }' > "$work/local"
compare "deploy/local/topics.txt" "$work/local" "$work/want-all"

# Rendered kustomize sets: the kafka-topics Job's TOPICS (a ConfigMap key, or an env value).
for rendered in "$@"; do
  # kustomize folds long plain scalars: a ConfigMap value goes on over the more indented lines after it.
  awk 'v != "" && /^    [^ ]/ { sub(/^ +/, ""); v = v " " $0; next }
       v != "" { print v; v = "" }
       /^ *- name: TOPICS$/ { getline; sub(/^ *value: /, ""); print; next }
       /^  TOPICS: / { sub(/^  TOPICS: /, ""); v = $0 }
       END { if (v != "") print v }' "$rendered" > "$work/k8s-line"
  if [ "$(wc -l < "$work/k8s-line")" != 1 ]; then
    problem "$rendered: expected exactly one TOPICS (the kafka-topics Job's), found $(wc -l < "$work/k8s-line")"
    continue
  fi
  tr ' ' '\n' < "$work/k8s-line" | sed '/^$/d' | cut -d: -f1,2 > "$work/k8s"
  compare "$(basename "$rendered") kafka-topics TOPICS" "$work/k8s" <(sort "$work/want")
done

if [ "$problems" -gt 0 ]; then
  echo "topics-check: $problems problem(s); the contract is TOPIC_PARTITIONS in $contracts" >&2
  exit 1
fi
