#!/usr/bin/env bash
# `graft policy diff` over the example cases: the same policy twice changes
# nothing (exit 0 even with --fail-on-change); a lease moved from GPUs 2,3
# to 3,4 shows GPU 4 gained and GPU 2 lost for team-b, in text and JSON, and
# --fail-on-change makes that exit 1.
# Usage: policy-diff-test.sh GRAFT SOURCE_DIR
set -euo pipefail
graft=$1 src=$2
scratch=$(mktemp -d /tmp/graft-policy-diff-XXXXXX)
trap 'rm -rf "$scratch"' EXIT

fail() { echo "policy-diff-test: $*" >&2; exit 1; }

old=$src/policies/examples/example-site.toml
cases=$src/policies/examples/tests
sed -e "s|^rules = \[|rules = [\"$src/policies/examples/tenant-gpu-lease.lua\"]\n#|" \
    -e 's|^team-b = \[2, 3\]|team-b = [3, 4]|' "$old" >"$scratch/new.toml"
run() { "$graft" --policy-dir "$src/policies" policy diff --cases "$cases" "$@"; }

out=$(run --old "$old" --new "$old" --fail-on-change) || fail "an unchanged policy exits $?"
grep -q '^9 cases: 0 changed, 9 unchanged$' <<<"$out" || fail "unchanged: wrong summary: $out"

status=0
out=$(run --old "$old" --new "$scratch/new.toml" --fail-on-change) || status=$?
echo "$out"
[ "$status" -eq 1 ] || fail "a changed policy with --fail-on-change exits $status, expected 1"
grep -A4 '^changed  lease-by-index$' <<<"$out" | grep -qx '  + device 4' || fail "no '+ device 4' for lease-by-index"
grep -A4 '^changed  lease-by-index$' <<<"$out" | grep -qx '  - device 2' || fail "no '- device 2' for lease-by-index"
grep -A2 '^changed  display-unprivileged$' <<<"$out" | grep -qx '  + capability graphics' ||
  fail "dropping no-display-unprivileged.lua does not show graphics gained"
run --old "$old" --new "$scratch/new.toml" >/dev/null || fail "without --fail-on-change a change exits $?"

json=$(run --old "$old" --new "$scratch/new.toml" --format json)
python3 - "$json" <<'PY' || fail "JSON report"
import json, sys
doc = json.loads(sys.argv[1])
case = next(c for c in doc["cases"] if c["name"] == "lease-by-index")
assert case["changed"] and case["devices"] == {"gained": ["4"], "lost": ["2"]}, case
assert doc["summary"]["changed"] >= 2, doc["summary"]
PY
echo "policy-diff-test: ok"
