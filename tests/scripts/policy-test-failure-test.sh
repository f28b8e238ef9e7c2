#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `graft policy test` fails loudly: a case whose expectation the policy does
# not meet exits 1, prints FAIL with the "- expected" / "+ actual" lines, and
# the JUnit file holds a <failure> for it (and none for the passing case).
# Usage: policy-test-failure-test.sh GRAFT SITE_POLICY POLICY_DIR
set -euo pipefail
graft=$1 policy=$2 policy_dir=$3
scratch=$(mktemp -d /tmp/graft-policy-test-XXXXXX)
trap 'rm -rf "$scratch"' EXIT

fail() { echo "policy-test-failure-test: $*" >&2; exit 1; }

cat >"$scratch/a-passes.toml" <<'CASE'
[request]
env = { NVIDIA_VISIBLE_DEVICES = "0" }
[expect]
devices = [0]
CASE
cat >"$scratch/b-fails.toml" <<'CASE'
# GPU 0 is asked for; the case wrongly expects GPU 1 and a <refusal> "&".
[request]
env = { NVIDIA_VISIBLE_DEVICES = "0" }
[expect]
devices = [1]
refused = "<refusal> &"
CASE

status=0
out=$("$graft" --policy "$policy" --policy-dir "$policy_dir" policy test "$scratch" --junit "$scratch/junit.xml") ||
  status=$?
echo "$out"
[ "$status" -eq 1 ] || fail "exit $status, expected 1"
grep -qx 'PASS a-passes' <<<"$out" || fail "no PASS line for a-passes"
grep -qx 'FAIL b-fails' <<<"$out" || fail "no FAIL line for b-fails"
grep -qx '  - devices = \["1"\]' <<<"$out" || fail "no '- devices' line"
grep -qx '  + devices = \["0"\]' <<<"$out" || fail "no '+ devices' line"
grep -qx '2 cases: 1 passed, 1 failed' <<<"$out" || fail "no summary line"

junit=$(cat "$scratch/junit.xml")
[ "$(grep -c '<failure' <<<"$junit")" -eq 1 ] || fail "junit: expected exactly one <failure>"
grep -q '<testcase name="b-fails"[^>]*>' <<<"$junit" || fail "junit: no testcase b-fails"
grep -q '<testcase name="a-passes"[^>]*/>' <<<"$junit" || fail "junit: a-passes is not a passing testcase"
grep -q '/&lt;refusal&gt; &amp;/' <<<"$junit" || fail "junit: the pattern is not escaped"
if command -v python3 >/dev/null; then
  python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$scratch/junit.xml" ||
    fail "junit: not well-formed XML"
fi

status=0
"$graft" --policy "$policy" --policy-dir "$policy_dir" policy test "$scratch/nonexistent" 2>/dev/null || status=$?
[ "$status" -eq 2 ] || fail "a missing case path exits $status, expected 2"
echo "policy-test-failure-test: ok"
