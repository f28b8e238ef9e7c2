#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source file of the tree names its license: an SPDX line
# (`SPDX-License-Identifier: Apache-2.0`) in its first three lines, or, for
# the shipped policy files under policies/ (whose line numbers plans, audit
# records and the docs quote), on its last line. LICENSE holds the text.
# The tree's files are git's: a copy without .git skips (exit 77).
# Usage: license-test.sh SOURCE_DIR
set -euo pipefail
cd "$1"
fail() { echo "license-test: $*" >&2; exit 1; }
[ -f LICENSE ] && grep -q 'Apache License' LICENSE && grep -q 'Version 2.0, January 2004' LICENSE ||
  fail "LICENSE does not hold the Apache License 2.0"
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "license-test: skipped: $1 is not a git checkout, so which files are the tree's is not known"
  exit 77
fi
tag='SPDX-License-Identifier: Apache-2.0'
missing=()
checked=0
while IFS= read -r file; do
  [ -f "$file" ] && [ ! -L "$file" ] || continue
  case "$file" in
    fuzz/corpus/*|tests/import/*) continue ;;  # inputs, not source
    *.cpp|*.hpp|*.c|*.h|*.sh|*.py|*.lua|*.toml|*.cmake|*.mjs|*.yaml|*.conf|*.in|*/CMakeLists.txt|CMakeLists.txt|.ci/run|*/Containerfile) ;;
    *) continue ;;
  esac
  case "$file" in *.json.in|*.h2m.in) continue ;; esac  # JSON has no comments; help2man includes are text
  checked=$((checked + 1))
  if [[ $file == policies/* ]]; then
    tail -n 1 "$file" | grep -qF "$tag" || missing+=("$file (last line)")
  else
    head -n 3 "$file" | grep -qF "$tag" || missing+=("$file")
  fi
done < <(git ls-files)
[ "${#missing[@]}" -eq 0 ] || fail "${#missing[@]} of $checked source files lack '$tag': ${missing[*]}"
echo "license-test: $checked source files name Apache-2.0"
