#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Validates every manifest under deploy/kubernetes/ against the Kubernetes
# OpenAPI schema, strictly (unknown fields are errors), with no cluster:
# tests/kubernetes/check-manifests.mjs and the npm packages pinned beside it,
# which tests/scripts/install-deps.sh installs into $GRAFT_KUBERNETES_CHECKER.
# Checks that the site policy in the ConfigMap loads (with the graft binary
# given as $1) and that the runtime configuration snippets are valid TOML.
# Then checks that the checker still fails: a misspelled field, a value of the
# wrong type, a missing required field and a value outside an enum must each be
# reported. Skips (with the reason) only when node or the packages are absent.
set -euo pipefail

source_dir=$(cd "$(dirname "$0")/../.." && pwd)
graft=${1:?usage: kubernetes-manifests-test.sh GRAFT-BINARY}
checker_dir=${GRAFT_KUBERNETES_CHECKER:-/var/cache/graft/kubernetes-checker}
manifests=("$source_dir"/deploy/kubernetes/*.yaml)

skip() { echo "graft-test skipped: $*"; exit 0; }
command -v node >/dev/null || skip "node is not installed (tests/scripts/install-deps.sh installs it)"
for package in kubernetes-models @kubernetes/client-node yaml; do
  [ -d "$checker_dir/node_modules/$package" ] ||
    skip "the manifest checker's package $package is not in $checker_dir (tests/scripts/install-deps.sh installs it)"
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# node resolves the packages from the script's own directory upwards.
cp "$source_dir/tests/kubernetes/check-manifests.mjs" "$scratch/"
ln -s "$checker_dir/node_modules" "$scratch/node_modules"
check() { node "$scratch/check-manifests.mjs" "$@"; }

echo "== deploy/kubernetes"
check "${manifests[@]}"

echo "== the ConfigMap's site policy"
(cd "$scratch" && node --input-type=module -e '
  import { parse } from "yaml";
  import { readFileSync, writeFileSync } from "node:fs";
  const map = parse(readFileSync(process.argv[1], "utf8"));
  writeFileSync("graft.toml", map.data["graft.toml"]);
' "$source_dir/deploy/kubernetes/configmap.yaml")
"$graft" policy check --offline --policy-dir "$source_dir/policies" --policy "$scratch/graft.toml" | tail -n 1

echo "== runtime configuration snippets"
for toml in "$source_dir"/deploy/kubernetes/*.toml "$source_dir"/deploy/kubernetes/crio.conf; do
  python3 -c 'import sys, tomllib; tomllib.load(open(sys.argv[1], "rb"))' "$toml"
  echo "valid TOML: ${toml#"$source_dir"/}"
done

daemonset=$source_dir/deploy/kubernetes/daemonset.yaml

# Each broken copy must fail, and with a line that names what is wrong.
expect_failure() {  # NAME EXPECTED-TEXT SED-EXPRESSION FILE
  local broken=$scratch/$1.yaml output
  sed "$3" "$4" > "$broken"
  cmp -s "$broken" "$4" && { echo "FAIL: $1: the edit changed nothing"; exit 1; }
  if output=$(check "$broken"); then
    echo "FAIL: $1 was accepted"; exit 1
  fi
  grep -qF -- "$2" <<<"$output" || { echo "FAIL: $1: no line names '$2':"; echo "$output"; exit 1; }
  echo "rejected as expected, $1: $(grep -F -- "$2" <<<"$output" | head -n 1)"
}
sh -n "$source_dir/deploy/kubernetes/node-agent.sh" && echo "node-agent.sh parses"

echo "== broken manifests"
expect_failure misspelled-field "readOnlyRootFilesytem: unknown field" \
  's/readOnlyRootFilesystem:/readOnlyRootFilesytem:/' "$daemonset"
expect_failure wrong-type "automountServiceAccountToken: expected boolean, got string" \
  's/automountServiceAccountToken: false/automountServiceAccountToken: "no"/' \
  "$source_dir/deploy/kubernetes/serviceaccount.yaml"
expect_failure missing-selector "must have required property selector" \
  '/^  selector:/,/^  updateStrategy:/{/^  updateStrategy:/!d}' "$daemonset"
expect_failure bad-enum "operator must be equal to one of the allowed values" \
  's/operator: Exists/operator: Maybe/' "$daemonset"
echo "kubernetes manifests: ${#manifests[@]} files valid, 4 broken copies rejected"
