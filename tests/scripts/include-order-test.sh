#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Data flows one way: each folder of core/src includes only itself and the
# folders docs/architecture.md lists before it ("Include order"). The order
# is read from that list, so the document and the check cannot disagree: a
# folder that includes one listed after it, a folder missing from the list,
# or a listed folder that does not exist fails, one line per offence with
# the including file and line.
# Usage: include-order-test.sh SOURCE_DIR
set -euo pipefail
cd "$1"
doc=docs/architecture.md
fail() { echo "include-order-test: $*" >&2; exit 1; }

# The numbered list between the two markers: "1. `install/`: ...".
mapfile -t order < <(sed -n '/<!-- include order: begin -->/,/<!-- include order: end -->/p' "$doc" |
                     sed -n 's#^[0-9]\+\. `\([a-z_]*\)/`.*#\1#p')
[ "${#order[@]}" -gt 0 ] || fail "$doc has no include-order list between its markers"

declare -A rank
for i in "${!order[@]}"; do
  folder=${order[$i]}
  [ -d "core/src/$folder" ] || fail "$doc lists core/src/$folder/, which does not exist"
  [ -z "${rank[$folder]:-}" ] || fail "$doc lists core/src/$folder/ twice"
  rank[$folder]=$i
done

offences=()
for dir in core/src/*/; do
  folder=$(basename "$dir")
  [ -n "${rank[$folder]:-}" ] || { offences+=("core/src/$folder/ is not in $doc's include order"); continue; }
  while IFS=: read -r file line text; do
    included=$(sed -n 's#^\#include "\([a-z_]*\)/.*#\1#p' <<<"$text")
    [ -n "${rank[$included]:-}" ] || continue  # graft/..., a generated or a library header
    if [ "${rank[$included]}" -gt "${rank[$folder]}" ]; then
      offences+=("$file:$line: $folder/ includes $included/, which $doc orders after it")
    fi
  done < <(grep -Hn '^#include "[a-z_]*/' "$dir"* || true)
done
if [ "${#offences[@]}" -gt 0 ]; then
  printf 'include-order-test: %s\n' "${offences[@]}" >&2
  exit 1
fi
echo "include-order-test: ${#order[@]} folders of core/src include only folders before them"
