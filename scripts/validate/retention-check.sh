#!/usr/bin/env bash
# The WebSocket event stream's topics (EVENT_STREAM_TOPICS in shared/contracts/src/topics.ts) keep at least
# EVENT_STREAM_MIN_RETENTION_MS: event cursors resume from their retained log for EventSettings.RetentionHours
# (up to 168 h in the deployments); a shorter retention.ms answers older cursors "expired". Checked in
# every rendered kafka-topics ConfigMap (the Job creates the topics with TOPICS' third field, else
# KAFKA_DEFAULT_RETENTION_MS; -1 = kept forever). Compose and deploy/local use the broker's default, 168 h.
# Usage: retention-check.sh RENDERED.yaml...
set -euo pipefail
contracts=shared/contracts/src/topics.ts
problems=0
# Topics.postsEvents -> posts.events, from the Topics object.
declare -A name
while read -r key value; do name[$key]=$value; done < <(sed -n '/^export const Topics = {/,/^}/p' "$contracts" | sed -nE "s/^ *([A-Za-z]+): '([^']+)',.*/\1 \2/p")
stream=$(sed -nE 's/^export const EVENT_STREAM_TOPICS = \[(.*)\] as const;/\1/p' "$contracts" | tr -d ' ' | tr ',' '\n' | sed 's/^Topics\.//')
min_expr=$(sed -nE 's/^export const EVENT_STREAM_MIN_RETENTION_MS = ([0-9_ *]+);/\1/p' "$contracts" | tr -d '_ ')
[ -n "$stream" ] && [ -n "$min_expr" ] || { echo "retention-check: EVENT_STREAM_TOPICS / EVENT_STREAM_MIN_RETENTION_MS not found in $contracts" >&2; exit 1; }
min=$((min_expr))
for rendered in "$@"; do
  # The kafka-topics ConfigMap's data (no hash suffix): TOPICS and KAFKA_DEFAULT_RETENTION_MS.
  data=$(awk 'BEGIN { RS = "---\n" } /\nkind: ConfigMap\n/ && /\n  name: kafka-topics\n/ { print }' "$rendered")
  [ -n "$data" ] || continue
  default=$(printf '%s\n' "$data" | sed -nE 's/^  KAFKA_DEFAULT_RETENTION_MS: "?(-?[0-9]+)"?$/\1/p')
  topics=$(printf '%s\n' "$data" | sed -nE 's/^  TOPICS: "?([^"]*)"?$/\1/p')
  for key in $stream; do
    topic=${name[$key]:-}
    spec=$(printf '%s\n' $topics | grep -E "^${topic//./\\.}:" | head -1 || true)
    keep=$(printf '%s' "$spec" | cut -s -d: -f3)
    keep=${keep:-$default}
    if [ -z "$keep" ]; then
      echo "retention-check: $rendered: no retention for $topic (no KAFKA_DEFAULT_RETENTION_MS)" >&2; problems=$((problems + 1))
    elif [ "$keep" != -1 ] && [ "$keep" -lt "$min" ]; then
      echo "retention-check: $rendered: $topic keeps $keep ms, less than EVENT_STREAM_MIN_RETENTION_MS $min: event cursors older than that would be answered expired" >&2
      problems=$((problems + 1))
    fi
  done
done
[ "$problems" -eq 0 ] || exit 1
echo "retention-check: the event stream topics keep at least $min ms in every rendered kafka-topics Job"
