#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `graft policy diff` over the example cases: the same policy twice changes
# nothing (exit 0 even with --fail-on-change). A changed policy (team-b's
# lease moved from GPUs 2,3 to 3,4; the display and MIG rules dropped; the
# lease rule's refusal reworded) shows, in text and JSON: GPU 4 gained and
# GPU 2 lost with the rule that denied it, the denials that moved, a
# refusal whose reason changed apart from a case now allowed, and the cases
# whose own [expect] it breaks; --fail-on-change makes that exit 1. A new
# policy whose rule raises on a case exits 1 without --fail-on-change.
# Usage: policy-diff-test.sh GRAFT SOURCE_DIR
set -euo pipefail
graft=$1 src=$2
scratch=$(mktemp -d /tmp/graft-policy-diff-XXXXXX)
trap 'rm -rf "$scratch"' EXIT

fail() { echo "policy-diff-test: $*" >&2; exit 1; }

old=$src/policies/examples/example-site.toml
cases=$src/policies/examples/tests
count=$(ls "$cases"/*.toml "$cases"/*.lua | wc -l)
sed -e "s/has no GPU lease/is leased no GPU/" "$src/policies/examples/tenant-gpu-lease.lua" >"$scratch/lease.lua"
sed -e "s|^rules = \[|rules = [\"$scratch/lease.lua\"]\n#|" \
    -e 's|^team-b = \[2, 3\]|team-b = [3, 4]|' "$old" >"$scratch/new.toml"
run() { "$graft" --policy-dir "$src/policies" policy diff --cases "$cases" "$@"; }
section() { sed -n "/^[a-z]* *$1\$/,/^[a-z]/p" <<<"$2"; }

out=$(run --old "$old" --new "$old" --fail-on-change) || fail "an unchanged policy exits $?"
grep -qx "$count cases: 0 changed, $count unchanged" <<<"$out" || fail "unchanged: wrong summary: $out"

status=0
out=$(run --old "$old" --new "$scratch/new.toml" --fail-on-change) || status=$?
echo "$out"
[ "$status" -eq 1 ] || fail "a changed policy with --fail-on-change exits $status, expected 1"
lease=$(section lease-by-index "$out")
grep -Eqx '  \+ device 4  \(rule nvidia-visible-devices, .*\)' <<<"$lease" || fail "no '+ device 4' with its rule"
grep -Eqx '  - device 2  \(denied: lease for team-b; rule tenant-gpu-lease, lease\.lua:[0-9]+\)' <<<"$lease" ||
  fail "no '- device 2' naming the rule that denied it"
grep -Eqx '  - denied GPU 4: lease for team-b  \(was: rule tenant-gpu-lease, tenant-gpu-lease\.lua:[0-9]+\)' \
  <<<"$lease" || fail "the denial of GPU 4 lifted is not shown"
grep -qx '  breaks its \[expect\] (met under the old policy):' <<<"$lease" || fail "lease-by-index: [expect] broken not marked"
grep -Eq '^  \+ capability graphics  \(rule ' <<<"$(section display-unprivileged "$out")" ||
  fail "dropping no-display-unprivileged.lua does not show graphics gained with its rule"
missing=$(section lease-missing "$out")
grep -qx '  refusal reason changed (refused under both)' <<<"$missing" || fail "lease-missing: no 'refusal reason changed'"
grep -q 'now refused' <<<"$missing" && fail "lease-missing was refused before: it is not 'now refused'"
grep -Eqx "    now: tenant 'team-c' is leased no GPU \(policy.data.leases\)  \(rule tenant-gpu-lease, lease\.lua:[0-9]+\)" \
  <<<"$missing" || fail "lease-missing: the new reason and its rule"
grep -q '^  now allowed (was refused: mig-config is reserved' <<<"$(section mig-config-other-namespace "$out")" ||
  fail "mig-config-other-namespace: not 'now allowed'"
run --old "$old" --new "$scratch/new.toml" >/dev/null || fail "without --fail-on-change a change exits $?"

json=$(run --old "$old" --new "$scratch/new.toml" --format json)
python3 - "$json" <<'PY' || fail "JSON report"
import json, sys
doc = json.loads(sys.argv[1])
cases = {c["name"]: c for c in doc["cases"]}
lease = cases["lease-by-index"]
assert lease["changed"] and [d["name"] for d in lease["devices"]["gained"]] == ["4"], lease
assert [d["name"] for d in lease["devices"]["lost"]] == ["2"], lease
assert lease["devices"]["lost"][0]["origin"].startswith("rule tenant-gpu-lease, lease.lua:"), lease
assert lease["expect_broken"][0]["field"] == "devices", lease
assert lease["expect_broken"][0]["expected"] == ["2", "3"], lease
assert cases["lease-missing"]["verdict"] == "reason_changed", cases["lease-missing"]
assert cases["mig-config-other-namespace"]["verdict"] == "now_allowed"
assert doc["summary"]["changed"] >= 3 and doc["summary"]["expect_broken"] >= 2, doc["summary"]
assert doc["summary"]["failed"] == 0, doc["summary"]
PY

# A new policy whose rule raises on one case fails the diff by itself.
cat >"$scratch/raises.lua" <<'LUA'
rule("raises", function(req, host, grant)
  if req.annotations["example.com/tenant"] == "team-a" then error("lease service unreachable") end
end)
LUA
examples=$src/policies/examples
sed -e "s|^rules = \[.*|rules = [\"$scratch/raises.lua\", \"$examples/tenant-gpu-lease.lua\"]|" "$old" >"$scratch/raises.toml"
status=0
out=$(run --old "$old" --new "$scratch/raises.toml") || status=$?
echo "$out"
[ "$status" -eq 1 ] || fail "a new policy that errors on a case exits $status without --fail-on-change, expected 1"
section lease-by-uuid "$out" | grep -q '^error    lease-by-uuid$' || fail "the failing case is not marked error"
grep -q 'new policy error: .*lease service unreachable' <<<"$out" || fail "the new policy's error is not shown"
grep -q '; the new policy fails on 2$' <<<"$out" || fail "the summary does not count the failures"

# A new policy whose rule file does not load is one error, before any case.
printf 'rule("broken", function(req, host, grant)\n  if then\nend)\n' >"$scratch/broken.lua"
sed -e "s|^rules = \[.*|rules = [\"$scratch/broken.lua\", \"$examples/tenant-gpu-lease.lua\"]|" "$old" >"$scratch/broken.toml"
status=0
out=$(run --old "$old" --new "$scratch/broken.toml" 2>&1) || status=$?
echo "$out"
[ "$status" -eq 1 ] || fail "a new policy whose rules do not load exits $status, expected 1"
[ "$(wc -l <<<"$out")" -eq 1 ] || fail "a new policy whose rules do not load is not one line: $out"
grep -q "^graft: --new: rules did not load: $scratch/broken.lua:2:" <<<"$out" ||
  fail "the load error does not name --new and the rule file's line: $out"
echo "policy-diff-test: ok"
