#!/usr/bin/env bash
# What the deployment docs say must match the deployment files (run from the repository root):
#   - docker-compose.yml requires INTERNAL_SECRET (`${INTERNAL_SECRET:?...}`): docs/deploy.md's variable
#     table must say it is required, not describe a default placeholder;
#   - no paragraph of docs/*.md offers k8s/overlays/local (NODE_ENV=development, secret guard off,
#     replication 1) as the starting point of a real environment: that is k8s/overlays/production;
#   - README.md's oldest Node.js is engines.node's lower bound, and .ci/run installs with --engine-strict.
set -euo pipefail
problems=0
problem() { echo "docs-check: $*" >&2; problems=$((problems + 1)); }

if grep -q 'INTERNAL_SECRET:?' docker-compose.yml; then
  row=$(grep -E '^\| `INTERNAL_SECRET` \|' docs/deploy.md || true)
  if [ -z "$row" ]; then
    problem "docs/deploy.md: no INTERNAL_SECRET row in the compose variables table"
  else
    default=$(printf '%s' "$row" | awk -F'|' '{ print $3 }')
    case "$default" in
      *[Rr]equired*) ;;
      *) problem "docs/deploy.md: INTERNAL_SECRET's default is described as '$(echo "$default" | xargs)', but docker-compose.yml requires it (no default)" ;;
    esac
  fi
fi

# Paragraphs (blank-line separated) naming the local overlay and inviting a copy for real use.
while IFS= read -r hit; do
  problem "$hit"
done < <(awk 'BEGIN { RS = "" } /overlays\/local|local overlay/ && /[Cc]opy it|real environment|production use/ && !/never|not the starting point/ {
  gsub(/\n/, " "); print FILENAME ": a paragraph points real environments at the local overlay: " substr($0, 1, 160) "..." }' docs/*.md)

# The README's oldest Node.js ("Node.js 20.19+") must be the lower bound of package.json's engines.node.
readme_node=$(grep -oE 'Node\.js [0-9]+(\.[0-9]+)?\+' README.md | head -1 | grep -oE '[0-9]+(\.[0-9]+)?' || true)
engines_node=$(sed -n '/"engines"/,/}/p' package.json | sed -nE 's/.*"node": *"\^?([0-9]+\.[0-9]+)\.[0-9]+.*/\1/p' | head -1)
if [ -z "$readme_node" ] || [ "$readme_node" != "$engines_node" ] && [ "$readme_node.0" != "$engines_node" ]; then
  problem "README.md names Node.js ${readme_node:-?}+ but package.json engines.node starts at ${engines_node:-?}"
fi
grep -q -- '--engine-strict' .ci/run || problem ".ci/run installs without --engine-strict: a dependency dropping the README's oldest Node would only warn (EBADENGINE)"

# The production overlay pins every service's image (a service left out runs the base's tag).
for svc in $(ls services); do
  grep -q "name: switchyard/$svc\$" k8s/overlays/production/kustomization.yaml || problem "k8s/overlays/production sets no image tag for switchyard/$svc"
  [ -f .github/workflows/images.yml ] && ! grep -q "\b$svc\b" .github/workflows/images.yml && problem ".github/workflows/images.yml does not build $svc"
done

if [ "$problems" -gt 0 ]; then exit 1; fi
echo "docs-check: deploy docs agree with docker-compose.yml and the overlays"
