# shellcheck shell=bash
# Sourced by scripts/validate-deploy.sh (ROOT, BIN, WORK and the tool versions in scope): the tools' cached
# paths and their builds in the background (wait_builds joins them).
# Tool paths: Go module proxy tools cached by version, helpers under scripts/validate/ by source hash.
kustomize="$BIN/kustomize-$KUSTOMIZE_VERSION"
kubeconform="$BIN/kubeconform-$KUBECONFORM_VERSION"
helper_path() {
  local dir="$ROOT/scripts/validate/$1"
  printf '%s/%s-%s' "$BIN" "$1" "$(cat "$dir"/go.mod "$dir"/go.sum "$dir"/*.go | sha256sum | cut -c1-16)"
}
compose_check=$(helper_path compose-check)
k8s_check=$(helper_path k8s-check)
promql_check=$(helper_path promql-check)

# go_install TARGET MODULE_PACKAGE VERSION
go_install() {
  local target=$1 pkg=$2 version=$3 gobin
  gobin=$(mktemp -d "$WORK/gobin.XXXX")
  GOBIN="$gobin" go install "$pkg@$version"
  mv "$gobin"/* "$target" # the one binary (named after the package path, without a /vN suffix)
}
# go_helper TARGET NAME
go_helper() {
  (cd "$ROOT/scripts/validate/$2" && go build -trimpath -o "$1.tmp" . && mv "$1.tmp" "$1")
}

# Build whatever is missing, in parallel (downloads overlap with compiling); logs go to $WORK.
pids=()
names=()
background() { # NAME COMMAND...
  local name=$1; shift
  echo "building $name (log: $WORK/build-$name.log)"
  "$@" > "$WORK/build-$name.log" 2>&1 &
  pids+=($!); names+=("$name")
}
[ -x "$compose_check" ] || background compose-check go_helper "$compose_check" compose-check
[ -x "$k8s_check" ] || background k8s-check go_helper "$k8s_check" k8s-check
[ -x "$promql_check" ] || background promql-check go_helper "$promql_check" promql-check
[ -x "$kustomize" ] || background "kustomize-$KUSTOMIZE_VERSION" go_install "$kustomize" sigs.k8s.io/kustomize/kustomize/v5 "$KUSTOMIZE_VERSION"
[ -x "$kubeconform" ] || background "kubeconform-$KUBECONFORM_VERSION" go_install "$kubeconform" github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION"
wait_builds() {
  local i failed=0
  for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
      echo "validate-deploy: building ${names[$i]} failed:" >&2
      cat "$WORK/build-${names[$i]}.log" >&2
      failed=1
    fi
  done
  pids=(); names=()
  [ "$failed" = 0 ] || die "could not build the validation tools"
}
