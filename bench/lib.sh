# SPDX-License-Identifier: Apache-2.0
# bench/lib.sh: what every benchmark script shares: the run's settings, a
# clock read without forking, medians, and the fake host + policy the figures
# are taken on. Sourced, never run.
# Settings (exported by bench/run.sh): GRAFT (the binary), GRAFT_RUNTIME (the
# shim), PLUGINS (its plugin dir), FAKE_HOST (graft-fake-host), BENCH_WORK
# (scratch dir), RESULTS (where each script writes its table), ROUNDS
# (interleaved rounds per figure).

# Milliseconds since the epoch, with microseconds, from bash's own clock.
now_ms() {
  local t=${EPOCHREALTIME/./}
  echo "$((t / 1000)).$(printf '%03d' $((t % 1000)))"
}

# Milliseconds a command takes, its output discarded.
time_ms() {
  local start=${EPOCHREALTIME/./} end
  "$@" >/dev/null 2>&1 || { echo "bench: failed: $*" >&2; return 1; }
  end=${EPOCHREALTIME/./}
  awk -v d=$((end - start)) 'BEGIN { printf "%.2f\n", d / 1000 }'
}

# The median of the numbers on stdin, one per line.
median() {
  sort -g | awk '{ v[NR] = $1 } END {
    if (NR == 0) { print "nan"; exit }
    if (NR % 2) printf "%.2f\n", v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# rotated ROUND ITEM...: the items one per line, starting at the ROUND-th
# (counting round robin). Interleaved rounds go through their variants in
# this order, so that none always runs first, right after the last round's
# clean-up, or in any one place.
rotated() {
  local round=$1 i
  shift
  for ((i = 0; i < $#; i++)); do echo "${@:$(((round + i) % $# + 1)):1}"; done
}

# The first and third quartiles of the numbers on stdin, as "Q1–Q3".
middle_half() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "nan"; exit }
    printf "%.2f–%.2f\n", v[int((NR + 3) / 4)], v[int((3 * NR + 3) / 4)] }'
}

# The numbers on stdin with thousands separators: 1234567 -> 1,234,567.
commas() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }

# a / b to two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "nan"; else printf "%.2f\n", a / b }'; }
# a - b to two decimals.
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f\n", a - b }'; }
# a + b to two decimals.
plus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", a + b }'; }

# make_host DIR GPUS [--mig]: a fake host under DIR/host; prints its policy
# path, which names the build's plugin dir and an audit log in the host. The
# ldcache method is chosen per run through LDCACHE_METHOD (write|ldconfig).
make_host() {
  local dir=$1
  shift
  local policy
  policy=$("$FAKE_HOST" "$dir/host" "$@" 2>/dev/null)
  printf '\n[plugins]\ndir = "%s"\n' "$PLUGINS" >> "$policy"
  echo "$policy"
}

# with_ldcache_method POLICY METHOD: a copy of POLICY (next to it) whose
# ldcache plugin uses METHOD; prints the copy's path.
with_ldcache_method() {
  local copy=${1%.toml}-$2.toml
  { cat "$1"; printf '\n[plugins.config.ldcache]\nmethod = "%s"\n' "$2"; } > "$copy"
  echo "$copy"
}

# with_rules POLICY FILES [RULES]: FILES admin rule files, each holding RULES
# (default 1) trivial restrict-phase rules.
with_rules() {
  local policy=$1 files=$2 per_file=${3:-1} names=() i j file
  mkdir -p "$(dirname "$policy")/rules"
  for i in $(seq "$files"); do
    file=$(dirname "$policy")/rules/bench$i.lua
    : > "$file"
    for j in $(seq "$per_file"); do
      printf 'rule("bench-%s-%s", "restrict", function(req, host, grant)\n  if grant:injecting() then return end\nend)\n' \
        "$i" "$j" >> "$file"
    done
    names+=("\"rules/bench$i.lua\"")
  done
  local IFS=,
  { echo "rules = [${names[*]}]"; cat "$policy"; } > "$policy.new" && mv "$policy.new" "$policy"
}

# with_rule_file POLICY N: one admin rule file holding N trivial rules.
with_rule_file() { with_rules "$1" 1 "$2"; }

# audit_fields AUDIT_LOG SPEC...: from the last audit record, one value per
# SPEC, space-separated: "applied" (the count), or duration_ms names joined
# by "+" (their sum). One python3 per call: it is slow to start.
audit_fields() {
  tail -1 "$1" | python3 -c '
import json, sys
record = json.load(sys.stdin)
def value(spec):
    if spec == "applied":
        return str(record["applied"])
    return "%.3f" % sum(record["duration_ms"][name] for name in spec.split("+"))
print(" ".join(value(spec) for spec in sys.argv[1:]))' "${@:2}"
}

# A Markdown table row: row CELL...
row() {
  local line="|" cell
  for cell in "$@"; do line+=" $cell |"; done
  echo "$line"
}

# figure NAME VALUE: one measured figure for the targets table (bench/report.sh).
figure() { printf '%s\t%s\n' "$1" "$2" >> "$RESULTS/figures.tsv"; }

# start_in_namespace SCRIPT ARG...: `sh -c SCRIPT` in a private mount
# namespace, with a path as $1 and the ARGs after it; SCRIPT creates that
# path once it is ready and then sleeps. Prints its pid once the path exists.
start_in_namespace() {
  local script=$1 marks ready pid
  shift
  marks=$(mktemp -d "$BENCH_WORK/ready.XXXXXX")  # a fresh directory: no name to race for
  ready=$marks/ready
  unshare -m --propagation private sh -c "$script" namespace "$ready" "$@" >/dev/null 2>&1 &
  pid=$!
  while [ ! -e "$ready" ]; do
    kill -0 "$pid" 2>/dev/null || { echo "bench: the process in a new mount namespace failed" >&2; return 1; }
    sleep 0.005
  done
  rm -rf "$marks"
  echo "$pid"
}

# start_target ROOT: a process in a private mount namespace whose ROOT is a
# fresh tmpfs with the skeleton floor.c makes, in the bench's devices cgroup
# (v1) so the plan's cgroup writes land somewhere harmless; prints its pid once
# the root is ready. graft apply --pid targets it like a container's init.
start_target() {
  mkdir -p "$1"
  start_in_namespace '
    mount -t tmpfs -o mode=0755 tmpfs "$2" &&
    mkdir "$2/bin" "$2/dev" "$2/etc" "$2/proc" "$2/run" "$2/tmp" "$2/usr" "$2/usr/bin" "$2/usr/lib" &&
    { [ -z "$3" ] || echo $$ > "$3/cgroup.procs"; } && touch "$1" && exec sleep 600' \
    "$1" "${BENCH_CGROUP:-}"
}

stop_target() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null || true; }

# The request every benchmark makes unless it says otherwise: the demo's.
REQUEST_ENV=(--env NVIDIA_VISIBLE_DEVICES=1 --env NVIDIA_DRIVER_CAPABILITIES=compute,utility)
