#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# How a test run that skipped ends (tests/support/catch_main.cpp): one case
# prints the skip marker and exits 0, for ctest's SKIP_REGULAR_EXPRESSION;
# a run of many cases with --skipped-exit-code exits that code when a case
# skipped and none failed, and fails when one failed beside the skip.
# Usage: skip-exit-code-test.sh GRAFT_TESTS
set -uo pipefail
tests=$1

fail() { echo "skip-exit-code-test: $*" >&2; exit 1; }
# Prints the exit code of one run of the probes (tests/unit/skip_report_probes.cpp).
exit_code() { "$tests" "$@" >/dev/null 2>&1; echo $?; }

out=$("$tests" "[skip-probe]" 2>&1)
[ $? = 0 ] || fail "a lone skipped case should exit 0 for ctest's skip marker: $out"
grep -q '^graft-test skipped: this probe always skips$' <<<"$out" ||
  fail "a lone skipped case printed no skip marker: $out"

code=$(exit_code --skipped-exit-code 77 "[skip-probe],[pass-probe]")
[ "$code" = 77 ] || fail "a run with a skipped case and no failure exited $code, not 77"
code=$(exit_code --skipped-exit-code 77 "[pass-probe]")
[ "$code" = 0 ] || fail "a run in which every case passed exited $code, not 0"
code=$(exit_code --skipped-exit-code 77 "[skip-probe],[fail-probe]")
[ "$code" != 0 ] && [ "$code" != 77 ] ||
  fail "a run with a failed case beside a skipped one exited $code: it must fail, not skip"
# Catch exits with the number of failed cases: one failure must not read as
# a skip when the skip code is 1.
code=$(exit_code --skipped-exit-code 1 "[fail-probe]")
[ "$code" != 0 ] && [ "$code" != 1 ] ||
  fail "a run with one failed case and --skipped-exit-code 1 exited $code: it must fail, not skip"
echo "skip-exit-code-test: every run ended as it should"
