#!/usr/bin/env bash
# Default ports of the two runtimes must not collide on one host (run from the repository root):
#   distributed: every containerPort of the rendered base (service ports 8065-8070, metrics 9065-9070);
#   embedded:    its API port (apps/embedded/src/main.ts, PORT default: the gateway's, by design: one or
#                the other answers on it) and its metrics listener (MetricsSettings.ListenAddress default,
#                shared/system-config/src/defaults.ts), which must be none of the above.
# Usage: ports-check.sh RENDERED_BASE.yaml
set -euo pipefail
rendered=$1
distributed=$(grep -oE 'containerPort: [0-9]+' "$rendered" | awk '{ print $2 }' | sort -un)
embedded_api=$(grep -oE 'process\.env\.PORT \?\? [0-9]+' apps/embedded/src/main.ts | grep -oE '[0-9]+$' || true)
embedded_metrics=$(grep -oE "ListenAddress: ':[0-9]+'" shared/system-config/src/defaults.ts | grep -oE '[0-9]+' || true)
# The gateway Deployment's first containerPort (documents are separated by "---" lines).
gateway=$(awk 'BEGIN { RS = "\n---\n" } /kind: Deployment/ && /\n  name: gateway\n/ { if (match($0, /containerPort: [0-9]+/)) print substr($0, RSTART + 15, RLENGTH - 15); exit }' "$rendered")
[ -n "$embedded_api" ] && [ -n "$embedded_metrics" ] && [ -n "$distributed" ] || { echo "ports-check: could not read the default ports" >&2; exit 1; }
status=0
if printf '%s\n' "$distributed" "$embedded_api" | grep -qx "$embedded_metrics"; then
  echo "ports-check: the embedded runtime's metrics default :$embedded_metrics is also a distributed port or the embedded API port (distributed: $(echo $distributed))" >&2
  status=1
fi
if [ "$embedded_api" != "$gateway" ] && printf '%s\n' "$distributed" | grep -qx "$embedded_api"; then
  echo "ports-check: the embedded API default $embedded_api is a distributed service's port other than the gateway's ($gateway)" >&2
  status=1
fi
[ "$status" = 0 ] && echo "ports-check: embedded API $embedded_api (= gateway), embedded metrics $embedded_metrics, distributed $(echo $distributed): no collision"
exit "$status"
