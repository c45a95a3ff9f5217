#!/usr/bin/env bash
# Builds (and optionally pushes) one image per service from the one Dockerfile at the repository root.
#   bash scripts/build-images.sh [--push] [--tag TAG] [--registry REGISTRY] [SERVICE...]
#   bash scripts/build-images.sh --print     the docker commands, without running them
#   bash scripts/build-images.sh --check     offline consistency check (CI, scripts/validate-deploy.sh)
# Convention: <registry>/<service>:<tag>, registry default `switchyard` (Docker Hub namespace; e.g.
# ghcr.io/<org>/switchyard), tag default: the version in package.json plus the short commit
# (0.1.0-1a2b3c4), `-dirty` when the tree has uncommitted changes. Release tags are immutable; the
# manifests name images by tag (kustomize `images:`), and a release pins them by digest in its overlay.
# Needs a Docker engine with BuildKit (docker buildx); multi-arch with PLATFORMS=linux/amd64,linux/arm64.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=build push=0 tag="" registry="${REGISTRY:-switchyard}"
services=()
while [ $# -gt 0 ]; do
  case "$1" in
    --push) push=1 ;;
    --print) mode=print ;;
    --check) mode=check ;;
    --tag) tag=$2; shift ;;
    --registry) registry=$2; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    -*) echo "build-images: unknown option $1" >&2; exit 2 ;;
    *) services+=("$1") ;;
  esac
  shift
done

# The service table: every services/<name> with a main.ts, and its port (the default in its main.ts).
port_of() { sed -n 's/.*defaultPort: *\([0-9][0-9]*\).*/\1/p' "services/$1/src/main.ts" | head -n 1; }
all=()
for dir in services/*/; do
  name=$(basename "$dir")
  [ -f "services/$name/src/main.ts" ] && all+=("$name")
done
[ ${#services[@]} -gt 0 ] || services=("${all[@]}")

if [ "$mode" = check ]; then
  problems=0
  for s in "${services[@]}"; do
    port=$(port_of "$s")
    if [ -z "$port" ]; then echo "build-images: services/$s/src/main.ts names no defaultPort" >&2; problems=1; fi
    if ! grep -q "SERVICE: $s\$" docker-compose.yml; then echo "build-images: docker-compose.yml builds no image for $s (build.args.SERVICE)" >&2; problems=1; fi
    if ! grep -q "name: switchyard/$s\$" k8s/base/kustomization.yaml; then echo "build-images: k8s/base/kustomization.yaml has no images: entry for switchyard/$s" >&2; problems=1; fi
  done
  ls services/*/Dockerfile >/dev/null 2>&1 && { echo "build-images: per-service Dockerfiles found; the root Dockerfile builds every service" >&2; problems=1; }
  [ "$problems" = 0 ] && echo "build-images: ${#services[@]} services consistent: ${services[*]}"
  exit "$problems"
fi

if [ -z "$tag" ]; then
  version=$(node -p 'require("./package.json").version')
  commit=$(git rev-parse --short=7 HEAD 2>/dev/null || echo nogit)
  dirty=$(git status --porcelain 2>/dev/null | grep -q . && echo -dirty || true)
  tag="$version-$commit$dirty"
fi
for s in "${services[@]}"; do
  port=$(port_of "$s")
  image="$registry/$s:$tag"
  cmd=(docker buildx build --build-arg "SERVICE=$s" --build-arg "PORT=$port" -t "$image")
  [ -n "${PLATFORMS:-}" ] && cmd+=(--platform "$PLATFORMS")
  if [ "$push" = 1 ]; then cmd+=(--push); else cmd+=(--load); fi
  cmd+=(.)
  if [ "$mode" = print ]; then printf '%q ' "${cmd[@]}"; echo; continue; fi
  command -v docker >/dev/null || { echo "build-images: docker is not installed (use --print for the commands)" >&2; exit 1; }
  echo "== $image"
  "${cmd[@]}"
done
