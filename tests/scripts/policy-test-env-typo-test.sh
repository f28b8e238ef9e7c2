#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `graft policy test` flags a case whose request sets an env name one or two
# edits from a name the policy reads ([audit] env): NVIDIA_VISIBLE_DEVICE
# injects nothing, and a case expecting exactly that must not pass quietly.
# A real, different variable (CUDA_VISIBLE_DEVICES) is not flagged.
# Usage: policy-test-env-typo-test.sh GRAFT SITE_POLICY POLICY_DIR
set -euo pipefail
graft=$1 policy=$2 policy_dir=$3
scratch=$(mktemp -d /tmp/graft-policy-env-typo-XXXXXX)
trap 'rm -rf "$scratch"' EXIT

fail() { echo "policy-test-env-typo-test: $*" >&2; exit 1; }

cat >"$scratch/typo.toml" <<'CASE'
[request]
env = { NVIDIA_VISIBLE_DEVICE = "0" }
[expect]
injected = false
CASE
cat >"$scratch/other-variable.toml" <<'CASE'
[request]
env = { CUDA_VISIBLE_DEVICES = "0" }
[expect]
injected = false
CASE

status=0
out=$("$graft" --policy "$policy" --policy-dir "$policy_dir" policy test "$scratch") || status=$?
echo "$out"
[ "$status" -eq 1 ] || fail "exit $status, expected 1"
grep -qx 'FAIL typo' <<<"$out" || fail "the misspelled case is not a FAIL"
grep -qx '  - request.env name = "NVIDIA_VISIBLE_DEVICES"  (a name the policy reads)' <<<"$out" ||
  fail "no '- request.env name' line naming the policy's variable"
grep -qx '  + request.env name = "NVIDIA_VISIBLE_DEVICE"  (one the policy does not read: a typo?)' <<<"$out" ||
  fail "no '+ request.env name' line naming the case's"
grep -qx 'PASS other-variable' <<<"$out" || fail "CUDA_VISIBLE_DEVICES is flagged as a typo"
echo "policy-test-env-typo-test: ok"
