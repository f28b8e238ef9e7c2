#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One man page for a program, from its own --help: help2man writes the page
# from `PROGRAM --help` and `--version`, and a COMMANDS section gets every
# subcommand's --help, found by walking the "Subcommands:" lists (so a new
# subcommand, or a nested one like `policy check`, needs no edit here).
# SECTIONS, a help2man include file, adds sections --help has no place for
# (FILES, SEE ALSO). The EXAMPLES section keeps --help's lines, one command
# each: help2man would fill them into one paragraph.
# The page is gzipped as Debian ships man pages (-9n: no name or timestamp).
# Usage: help-to-man.sh HELP2MAN PROGRAM OUTPUT.1.gz [SECTIONS.h2m]
set -euo pipefail
help2man=$1 program=$2 output=$3 sections=${4:-}
name=$(basename "$program")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Run by name from PATH, so the usage lines say "graft", not the build path.
export PATH="$(dirname "$program"):$PATH"

# The names listed under "Subcommands:" in a --help text.
subcommands() { sed -n '/^Subcommands:/,/^$/{/^  [a-z]/{s/^  \([a-z][a-z0-9-]*\).*/\1/p}}'; }

# --help text as roff that keeps its lines: backslashes escaped, and a line
# starting with . or ' kept from reading as a request.
as_roff() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

# Appends the --help of `name ARGS...` and of each of its subcommands.
describe() {
  local help sub
  help=$("$name" "$@" --help)
  if [ $# -gt 0 ]; then
    printf '.SS "%s %s"\n.nf\n' "$name" "$*"
    as_roff <<<"$help"
    printf '.fi\n'
  fi
  for sub in $(subcommands <<<"$help"); do describe "$@" "$sub"; done
}

{
  echo "[COMMANDS]"
  describe
} >"$scratch/commands.h2m"
# A program without subcommands (graft-runtime) gets no COMMANDS section.
include=()
[ "$(wc -l <"$scratch/commands.h2m")" -gt 1 ] && include=(--include "$scratch/commands.h2m")
[ -z "$sections" ] || include+=(--include "$sections")

# The EXAMPLES section as --help writes it, one line each, in no-fill mode:
# help2man would fill its lines into paragraphs.
"$name" --help | sed -n '/^Examples:$/,/^$/{/^Examples:$/d;/^$/d;p}' | as_roff >"$scratch/examples.roff"
keep_example_lines() {
  awk -v verbatim="$scratch/examples.roff" '
    /^\.SH / { skipping = 0 }
    !skipping { print }
    $0 == ".SH EXAMPLES" {
      print ".nf"
      while ((getline line < verbatim) > 0) print line
      print ".fi"
      skipping = 1
    }'
}

summary=$("$name" --help | head -n1 | sed "s/^$name: //")
"$help2man" --no-info --section 1 --name "$summary" "${include[@]}" \
  --output "$scratch/$name.1" "$name"
keep_example_lines <"$scratch/$name.1" | gzip -9n >"$output"
