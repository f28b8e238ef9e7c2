#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What the installed packages point a reader to, checked in ROOT, where the
# graft, graft-nvidia-compat and graft-dev packages are unpacked (called by
# package-test.sh):
# - every documentation path an installed file names (the man pages, which
#   hold every --help text, the site policy, the shipped policies, the
#   programs' own strings) is a file under /usr/share/doc/graft/ that the
#   packages install, never a source-tree path such as docs/policy.md;
# - the man pages of graft and graft-runtime have FILES and SEE ALSO
#   sections, and their EXAMPLES, as man renders them, hold one command a
#   line.
# Usage: package-docs-test.sh ROOT
set -euo pipefail
root=$1
doc_dir=/usr/share/doc/graft

fail() { echo "package-docs-test: $*" >&2; exit 1; }

# An installed file's text as a reader sees it: man pages unzipped, with
# roff's escaped hyphens and font changes undone; binaries as raw bytes.
readable() {
  case "$1" in
    *.gz) zcat "$1" | sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' ;;
    *) cat "$1" ;;
  esac
}

# Every installed file but the documentation itself.
installed=$(cd "$root" && find . -type f ! -path "./usr/share/doc/*" | sort)
[ -n "$installed" ] || fail "nothing is unpacked in $root"
checked=0
while read -r file; do
  text=$(readable "$root/$file" | tr -c '[:print:]\n' '\n')
  source_paths=$(grep -oE '(^|[^A-Za-z0-9_/.-])docs/[A-Za-z0-9_-]+\.(md|json)' <<<"$text" |
                 sed 's/^[^d]*//' | sort -u || true)
  [ -z "$source_paths" ] ||
    fail "${file#.} names source-tree documentation, not the installed $doc_dir/: $(tr '\n' ' ' <<<"$source_paths")"
  for reference in $(grep -oE "$doc_dir/[A-Za-z0-9_.-]*" <<<"$text" | sed 's/\.*$//' | sort -u); do
    [ -e "$root$reference" ] || fail "${file#.} names $reference, which no package installs"
    checked=$((checked + 1))
  done
done <<<"$installed"
[ "$checked" -gt 0 ] || fail "no installed file names anything under $doc_dir"

# The man pages' sections, and EXAMPLES as man renders them (wide, so that
# lines it fills together stay together).
for page in graft graft-runtime; do
  file=$root/usr/share/man/man1/$page.1.gz
  [ -f "$file" ] || fail "no man page $file"
  for section in FILES '"SEE ALSO"' EXAMPLES; do
    zcat "$file" | grep -qx "\.SH $section" || fail "$page.1 has no $section section"
  done
  examples=$(MANWIDTH=300 man -l "$file" 2>/dev/null | col -b |
             sed -n '/^EXAMPLES/,/^[A-Z]/{/^EXAMPLES/d;/^[A-Z]/d;p}')
  [ -n "$examples" ] || fail "$page.1's EXAMPLES section is empty as rendered"
  while IFS= read -r line; do
    commands=$({ grep -oE '(^|[[:space:]])(graft|graft-runtime|docker|ctr|podman)[[:space:]]+[a-z]' <<<"$line" || true; } | wc -l)
    [ "$commands" -le 1 ] || fail "$page.1's EXAMPLES run $commands commands on one line: $line"
  done <<<"$examples"
done
echo "package-docs-test: $checked references to $doc_dir resolve; graft.1 and graft-runtime.1 have FILES, SEE ALSO and one-command EXAMPLES lines"
