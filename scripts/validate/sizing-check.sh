#!/usr/bin/env bash
# Resource requests are sized from measurements, and say so (issue 31, day 30): every service's
# kustomization (k8s/base/services/<name>/kustomization.yaml) replaces the template's resources, and the
# comment just above that patch names what was measured, with a figure and its unit (ms, µs, MB, ...).
# A number changed without its measurement, or a new service left on the template's placeholder sizes, fails.
set -euo pipefail
problems=0
for k in k8s/base/services/*/kustomization.yaml; do
  svc=$(basename "$(dirname "$k")")
  line=$(grep -n 'path: /spec/template/spec/containers/0/resources' "$k" | head -1 | cut -d: -f1 || true)
  if [ -z "$line" ]; then
    echo "sizing-check: $k: $svc keeps the template's placeholder resources: replace them with requests sized from a measurement" >&2
    problems=$((problems + 1))
    continue
  fi
  # The comment block right above the patch line.
  block=$(awk -v end="$line" 'NR < end { if ($0 ~ /^[[:space:]]*#/) { b = b "\n" $0 } else { b = "" } } END { print b }' "$k")
  if ! printf '%s' "$block" | tr -d '#\n' | grep -qiE 'measured.{0,120}[0-9]+([.,][0-9]+)? ?(ms|µs|us|KB|MB|MiB|GB|req/s|/s)'; then
    echo "sizing-check: $k: the resources of $svc have no measurement beside them (a comment above the patch: 'measured <figure> <unit>', and how)" >&2
    problems=$((problems + 1))
  fi
done
[ "$problems" -eq 0 ] || exit 1
echo "sizing-check: every service's resources are sized with their measurement beside them"
