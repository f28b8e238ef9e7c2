#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Scaling: what one container costs as the host and the policy grow: GPUs
# (1, 8, 64; all requested), MIG instances (0: the 8-GPU row; 56: 8 GPUs with
# 7 each, every instance requested by GPU:instance index),
# libraries per capability set (10, 100: compute's list replaced by generated
# stub libraries), admin Lua rules (1, 10, 100 trivial ones in one file, and
# as many files of one rule each), and what
# else the host holds (1,500 other libraries in its ld.so.cache, 2,000 other
# mounts), each through `graft apply` on a fresh target, interleaved rounds,
# medians; then 50 hooks at once. Writes $RESULTS/scaling.md and $RESULTS/scaling.dat (for the plot).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

dir=$BENCH_WORK/scaling
rm -rf "$dir" && mkdir -p "$dir"

# add_stub_libraries POLICY PREFIX N VERSION: N stub libraries PREFIXnnnn
# (soname PREFIXnnnn.so.1, file PREFIXnnnn.so.VERSION) in the lib dir of
# POLICY's host, and its ld cache rebuilt. One stub is linked with the soname
# PREFIXXXXX.so.1 and copied with XXXX patched: same length, so the ELF stays
# valid.
add_stub_libraries() {
  local host lib template=$dir/$2XXXX.so
  host=$(dirname "$(dirname "$(dirname "$1")")")
  lib=$host/usr/lib/$(cc -print-multiarch)
  echo 'int graft_bench_stub;' > "$dir/stub.c"
  cc -shared -fPIC -Wl,--no-as-needed -lc -Wl,-soname,"$2XXXX.so.1" "$dir/stub.c" -o "$template"
  python3 - "$template" "$lib" "$2" "$3" "$4" <<'PY'
import os, sys
stub, lib, prefix, n, version = open(sys.argv[1], "rb").read(), sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
for i in range(1, n + 1):
    name = "%s%04d" % (prefix, i)
    open(f"{lib}/{name}.so.{version}", "wb").write(stub.replace((prefix + "XXXX").encode(), name.encode()))
    os.symlink(f"{name}.so.{version}", f"{lib}/{name}.so.1")
PY
  ldconfig -X -r "$host"
}

# with_libraries POLICY N: N stub libraries of the driver's version, and
# compute's list naming exactly them.
with_libraries() {
  local names=() i
  add_stub_libraries "$1" libbench "$2" 560.35.03
  for i in $(seq "$2"); do names+=("\"$(printf 'libbench%04d' "$i").so\""); done
  local IFS=,
  printf '\n[capability.compute]\nlibraries = [%s]\n' "${names[*]}" >> "$1"
}

# with_host_libraries POLICY N: N libraries no capability set names in the
# host's ld.so.cache besides the driver's, as a host with toolkits and other
# packages has (a GPU host's cache lists one to three thousand).
with_host_libraries() { add_stub_libraries "$1" libother "$2" 1.0; }

# with_host_mounts CASE N: graft runs in a mount namespace holding N more
# mounts, as on a node running many containers (reading /proc/self/mountinfo
# costs every line; the cgroup plugin asks for its mounts by id instead);
# the row's whole process then includes nsenter.
declare -A case_wrap
with_host_mounts() {
  local holder
  mkdir -p "$dir/mounts"
  holder=$(start_in_namespace '
    mount -t tmpfs tmpfs "$2" && i=0 &&
    while [ $i -lt "$3" ]; do mkdir "$2/m$i" && mount --bind "$2/m$i" "$2/m$i" || exit 1; i=$((i + 1)); done &&
    touch "$1" && exec sleep 3600' "$dir/mounts" "$2")
  holders+=("$holder")
  case_wrap[$1]="nsenter -t $holder -m"
}
holders=()
trap 'for h in "${holders[@]}"; do kill "$h" 2>/dev/null; done' EXIT

# case NAME LABEL GPUS HOST_FLAG VISIBLE SETUP: a host and policy for one row.
declare -A case_policy case_visible case_label
cases=()
add_case() {
  local name=$1 policy
  mkdir -p "$dir/$name"
  policy=$(make_host "$dir/$name" "$3" ${4:+"$4"})
  [ -z "$6" ] || $6 "$policy" "$7"
  case_policy[$name]=$policy case_visible[$name]=$5 case_label[$name]=$2
  cases+=("$name")
}
if [ -n "${BENCH_SMOKE:-}" ]; then  # run.sh --smoke: one small case per dimension
  add_case gpus-2 "GPUs: 2" 2 "" all "" ""
  add_case mig-2 "MIG instances: 2" 1 --mig=2 0:0,0:1 "" ""
  add_case libs-10 "libraries in compute: 10" 1 "" 0 with_libraries 10
  add_case rules-10 "admin rule files: 10, one rule each" 1 "" 0 with_rules 10
  add_case one-file-10 "admin rules: 10, in one file" 1 "" 0 with_rule_file 10
  add_case cache-50 "other libraries in the host's ld.so.cache: 50" 1 "" 0 with_host_libraries 50
  add_case mounts-20 "other mounts on the host: 20 (whole process with nsenter)" 1 "" 0 "" ""
  with_host_mounts mounts-20 20
  case_policy[gpus-8]=${case_policy[gpus-2]} concurrency=5
else
add_case gpus-1 "GPUs: 1" 1 "" all "" ""
add_case gpus-8 "GPUs: 8 (MIG instances: 0)" 8 "" all "" ""
add_case gpus-64 "GPUs: 64" 64 "" all "" ""
add_case mig-56 "MIG instances: 56 (8 GPUs x 7)" 8 --mig=7 \
  "$(for g in $(seq 0 7); do for p in $(seq 0 6); do printf '%s:%s,' "$g" "$p"; done; done | sed 's/,$//')" "" ""
add_case libs-10 "libraries in compute: 10" 8 "" 1 with_libraries 10
add_case libs-100 "libraries in compute: 100" 8 "" 1 with_libraries 100
add_case rules-1 "admin rules: 1, in one file" 8 "" 1 with_rules 1
add_case one-file-10 "admin rules: 10, in one file" 8 "" 1 with_rule_file 10
add_case one-file-100 "admin rules: 100, in one file" 8 "" 1 with_rule_file 100
add_case rules-10 "admin rule files: 10, one rule each" 8 "" 1 with_rules 10
add_case rules-100 "admin rule files: 100, one rule each" 8 "" 1 with_rules 100
add_case cache-1500 "other libraries in the host's ld.so.cache: 1,500" 8 "" 1 with_host_libraries 1500
add_case mounts-2000 "other mounts on the host: 2,000 (whole process with nsenter)" 8 "" 1 "" ""
with_host_mounts mounts-2000 2000
concurrency=50
fi

apply_once() {  # CASE ROUND -> "whole_ms inventory_ms rules_ms plugins_ms actions"
  local name=$1 pid whole audit=$dir/$1/host/audit.jsonl
  pid=$(start_target "$dir/$name/root")
  whole=$(time_ms ${case_wrap[$name]:-} "$GRAFT" --policy "${case_policy[$name]}" apply --pid "$pid" --rootfs "$dir/$name/root" \
    --trust-pid --id "scale-$2" --env "NVIDIA_VISIBLE_DEVICES=${case_visible[$name]}" \
    --env NVIDIA_DRIVER_CAPABILITIES=compute,utility)
  stop_target "$pid"
  echo "$whole $(audit_fields "$audit" inventory rules load_plugins+prepare+enter+apply+finish applied)"
}

for name in "${cases[@]}"; do apply_once "$name" warmup >/dev/null; : > "$dir/$name.txt"; done
for round in $(seq "$ROUNDS"); do
  for name in $(rotated "$round" "${cases[@]}"); do apply_once "$name" "$round" >> "$dir/$name.txt"; done
done

# 50 at once: 50 targets, then 50 `graft apply` started together; the wall
# time until the last exits, against one alone (the gpus-8 host, GPU 1).
# (A smoke run starts 5.)
concurrent() {
  local n=$1 pids=() targets=() i start end policy=${case_policy[gpus-8]}
  for i in $(seq "$n"); do targets+=("$(start_target "$dir/concurrent/root$i")"); done
  start=${EPOCHREALTIME/./}
  for i in $(seq "$n"); do
    "$GRAFT" --policy "$policy" apply --pid "${targets[$((i - 1))]}" --rootfs "$dir/concurrent/root$i" \
      --trust-pid --id "concurrent-$i" "${REQUEST_ENV[@]}" >/dev/null 2>&1 &
    pids+=($!)
  done
  local failed=0
  for i in "${pids[@]}"; do wait "$i" || failed=$((failed + 1)); done
  end=${EPOCHREALTIME/./}
  for i in "${targets[@]}"; do stop_target "$i"; done
  if [ "$failed" -ne 0 ]; then
    echo "bench: $failed of $n concurrent applies failed" >&2
    return 1
  fi
  awk -v d=$((end - start)) 'BEGIN { printf "%.2f\n", d / 1000 }'
}
mkdir -p "$dir/concurrent"
: > "$dir/one.txt"
: > "$dir/fifty.txt"
for round in $(seq "$(( (ROUNDS + 2) / 3 ))"); do
  concurrent 1 >> "$dir/one.txt"
  concurrent "$concurrency" >> "$dir/fifty.txt"
done

col() { awk -v c="$1" '{ print $c }' "$dir/$2.txt" | median; }
{
  echo "\`graft apply\` on a fresh target per run (request: compute+utility; NVIDIA_VISIBLE_DEVICES=all" \
       "for the GPU rows, every instance for the MIG row, 1 otherwise), medians of $ROUNDS interleaved rounds, milliseconds." \
       "Phases from the audit line; plugins = loading them and prepare, enter, apply, finish."
  echo
  row "case" "actions applied" "whole process" "inventory" "rules" "plugins"
  row "---" "---:" "---:" "---:" "---:" "---:"
  for name in "${cases[@]}"; do
    row "${case_label[$name]}" "$(col 5 "$name" | cut -d. -f1)" "$(col 1 "$name")" "$(col 2 "$name")" "$(col 3 "$name")" \
        "$(col 4 "$name")"
  done
  one=$(median < "$dir/one.txt")
  fifty=$(median < "$dir/fifty.txt")
  echo
  echo "Concurrency (8-GPU host, GPU 1), wall time until the last \`graft apply\` exits," \
       "medians of $(wc -l < "$dir/one.txt") rounds:"
  echo
  row "hooks at once" "wall ms" "per hook (wall / n)" "ratio of wall to one alone"
  row "---" "---:" "---:" "---:"
  row 1 "$one" "$one" "1.00"
  row "$concurrency" "$fifty" "$(awk -v w="$fifty" -v n="$concurrency" 'BEGIN { printf "%.2f", w / n }')" \
      "$(ratio "$fifty" "$one")"
} > "$RESULTS/scaling.md"
{
  echo "# case actions whole_ms inventory_ms rules_ms plugins_ms"
  for name in "${cases[@]}"; do
    echo "$name $(col 5 "$name" | cut -d. -f1) $(col 1 "$name") $(col 2 "$name") $(col 3 "$name") $(col 4 "$name")"
  done
} > "$RESULTS/scaling.dat"
if [ -z "${BENCH_SMOKE:-}" ]; then
  figure whole_rules_1_ms "$(col 1 rules-1)"
  figure whole_rules_100_ms "$(col 1 rules-100)"
fi
