#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Floor: graft's apply against floor/floor.c doing exactly the plan's syscalls
# on the same kind of scratch root, interleaved, medians of ROUNDS. graft's
# side is read two ways: the audit line's plugin phases (prepare, enter, apply,
# finish: what the plugins did, after discovery, rules and loading), and the
# whole `graft apply` process. Both ldcache methods. Writes $RESULTS/floor.md.
# cgroup v1 only: floor.c has no eBPF device filter for v2.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

if [ ! -e "${BENCH_CGROUP:-/nonexistent}/devices.allow" ]; then
  echo "Not measured: floor.c does the cgroup v1 devices.allow write only, and this machine's" \
       "device cgroup is v2 (an eBPF program: graft's wraps the runtime's, see" \
       "plugins/cgroup/device_filter_v2.cpp)." > "$RESULTS/floor.md"
  exit 0
fi

dir=$BENCH_WORK/floor
rm -rf "$dir" && mkdir -p "$dir"
policy=$(make_host "$dir" 8)
audit=$dir/host/audit.jsonl
"$GRAFT" --policy "$policy" plan "${REQUEST_ENV[@]}" --format json > "$dir/plan.json"
python3 "$(dirname "$0")/floor/flatten.py" "$dir/plan.json" > "$dir/actions.tsv"

# One graft apply; keeps the ld cache it wrote as the floor's bytes to write.
graft_apply() {  # METHOD_POLICY ROUND -> "process_ms plugin_ms apply_ms"
  local pid whole
  pid=$(start_target "$dir/root")
  whole=$(time_ms "$GRAFT" --policy "$1" apply --pid "$pid" --rootfs "$dir/root" --trust-pid \
    --id "floor-$2" "${REQUEST_ENV[@]}")
  [ -s "$dir/ldcache.bytes" ] || nsenter -t "$pid" -m cat "$dir/root/etc/ld.so.cache" > "$dir/ldcache.bytes"
  stop_target "$pid"
  echo "$whole $(audit_fields "$audit" prepare+enter+apply+finish apply)"
}

floor_run() {  # -> "process_ms syscalls_ms"
  local start=${EPOCHREALTIME/./} inner end
  inner=$("$BENCH_BIN/floor" "$dir/actions.tsv" "$dir/root" "${BENCH_CGROUP:-/nonexistent}" "$dir/ldcache.bytes")
  end=${EPOCHREALTIME/./}
  echo "$(awk -v d=$((end - start)) 'BEGIN { printf "%.2f", d / 1000 }') $inner"
}

declare -A method_policy=([write]=$(with_ldcache_method "$policy" write)
                          [ldconfig]=$(with_ldcache_method "$policy" ldconfig))
graft_apply "${method_policy[write]}" warmup >/dev/null
floor_run >/dev/null
: > "$dir/floor.txt"
for method in write ldconfig; do : > "$dir/graft-$method.txt"; done
for round in $(seq "$ROUNDS"); do
  for what in $(rotated "$round" floor write ldconfig); do
    if [ "$what" = floor ]; then floor_run >> "$dir/floor.txt"
    else graft_apply "${method_policy[$what]}" "$round" >> "$dir/graft-$what.txt"; fi
  done
done

col() { awk -v c="$1" '{ print $c }' "$2" | median; }
floor_process=$(col 1 "$dir/floor.txt")
figure floor_ms "$(col 2 "$dir/floor.txt")"
floor_syscalls=$(col 2 "$dir/floor.txt")
actions=$(wc -l < "$dir/actions.tsv")
{
  echo "Plan: 8-GPU fake host, GPU 1, compute+utility: $actions actions" \
       "($(cut -f1 "$dir/actions.tsv" | sort | uniq -c | awk '{ printf "%s%s %s", sep, $1, $2; sep=", " }'))."
  echo "Medians of $ROUNDS interleaved rounds, milliseconds. graft's plugin phases are the audit line's" \
       "prepare, enter, apply and finish (opening the host objects is in prepare, as it is in the floor's" \
       "timed part); the floor's whole process includes making its namespace and scratch root."
  echo
  row "what" "syscalls (plugin phases for graft)" "ratio to floor" "apply phase alone" "ratio" "whole process" "ratio"
  row "---" "---:" "---:" "---:" "---:" "---:" "---:"
  row "floor (floor.c)" "$floor_syscalls" "1.00" "$floor_syscalls" "1.00" "$floor_process" "1.00"
  for method in write ldconfig; do
    plugin=$(col 2 "$dir/graft-$method.txt")
    apply=$(col 3 "$dir/graft-$method.txt")
    whole=$(col 1 "$dir/graft-$method.txt")
    row "graft apply, ldcache $method" "$plugin" "$(ratio "$plugin" "$floor_syscalls")" \
        "$apply" "$(ratio "$apply" "$floor_syscalls")" "$whole" "$(ratio "$whole" "$floor_process")"
    figure "apply_ratio_$method" "$(ratio "$plugin" "$floor_syscalls")"
    figure "apply_phase_ratio_$method" "$(ratio "$apply" "$floor_syscalls")"
    figure "plugin_ms_$method" "$plugin"
    figure "apply_ms_$method" "$apply"
  done
} > "$RESULTS/floor.md"
