#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Prints the figures table of docs/security.md from one ctest run: the
# outcome lines the hostile-image, race and load tests print, the [hostile]
# request cases, and every sanitizer report or signal death in the log.
#
#   bash tests/scripts/security-figures.sh [BUILD_DIR]   # default: build
#
# Run it after the README test command (or `ctest` in BUILD_DIR); it reads
# BUILD_DIR/Testing/Temporary/LastTest.log, where ctest keeps the output of
# every test, passed or not.
set -euo pipefail
build=${1:-build}
log="$build/Testing/Temporary/LastTest.log"
[[ -r $log ]] || { echo "security-figures: no ctest log at $log (run ctest in $build first)" >&2; exit 1; }

count() { grep -c -E "$1" "$log" || true; }

# Hostile-image cases: one line each, outcome in field 5.
image_outcomes() {
  grep '^hostile-outcome|' "$log" | awk -F'|' '
    { n++; o[$5]++; if ($0 ~ /escape=[1-9]/) esc++; if ($6 ~ /signal:/) sig++ }
    END { printf "%d|%d|%d|%d|%d|%d\n", n, o["injected"], o["refused by graft"], o["refused by runc"], esc, sig }'
}

# Race tallies: key=value fields, summed over targets and link forms.
race() {
  grep '^race-outcome|' "$log" | awk -F'|' '
    { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[2] != "") sum[kv[1]] += kv[2] } }
    END { printf "%d|%d|%d|%d|%d\n", sum["runs"], sum["injected"], sum["refused"], sum["escapes"], sum["swaps"] }'
}

race_signals() { grep '^race-refusal|' "$log" | grep -c 'signal:' || true; }

# The [hostile] cases of graft_tests, by name, and how many passed.
hostile() {
  local names passed=0 total=0
  names=$("$build/tests/graft_tests" "[hostile]" --list-test-names-only 2>/dev/null | grep -v '^$' || true)
  while IFS= read -r name; do
    [[ -z $name ]] && continue
    total=$((total + 1))
    if awk -v n="$name" '
         index($0, "Test: " n) && !seen { seen = 1; next }
         seen && /^Test (Passed|Failed)/ { print; exit }' "$log" | grep -q 'Test Passed'; then
      passed=$((passed + 1))
    fi
  done <<<"$names"
  echo "$total|$passed"
}

IFS='|' read -r m_n m_inj m_graft m_runc m_esc m_sig <<<"$(image_outcomes)"
IFS='|' read -r r_runs r_inj r_ref r_esc r_swaps <<<"$(race)"
IFS='|' read -r h_total h_passed <<<"$(hostile)"
load=$(grep '^load-outcome|' "$log" | tail -n +1 || true)
sanitizer=$(count 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:')
failed=$(count '^Test Failed')
total_tests=$(count '^Test (Passed|Failed)')

echo "| figure | value |"
echo "|---|---|"
echo "| ctest tests in this run / failed | $total_tests / $failed |"
echo "| hostile-image containers started (\`hostile-outcome\`) | $m_n |"
echo "| ... injected / refused by graft / refused by runc | $m_inj / $m_graft / $m_runc |"
echo "| race runs (\`race-outcome\`): injected / refused | $r_runs: $r_inj / $r_ref |"
echo "| race: directory swaps while the hook ran | $r_swaps |"
echo "| escapes (sentinel changed or host mount left), images + races | $((m_esc + r_esc)) |"
echo "| hostile request and broken input cases (\`[hostile]\`) passed | $h_passed of $h_total |"
while IFS= read -r line; do
  [[ -z $line ]] && continue
  echo "| load run | \`${line#load-outcome|}\` |"
done <<<"$load"
echo "| crashes: hook killed by a signal in image/race runs | $((m_sig + $(race_signals))) |"
echo "| crashes: sanitizer reports anywhere in the log | $sanitizer |"
