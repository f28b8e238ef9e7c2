#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Whole process: `graft plan` and `graft hook` from exec to exit against
# /bin/true and a static C hello (hello/hello.c), interleaved rounds, medians;
# peak RSS from one more run of each under /usr/bin/time -f %M (the children's
# ru_maxrss). The hook runs as runc would run it: OCI state on stdin, naming a
# target process in its own mount namespace (a fresh one per run, not timed).
# Writes $RESULTS/process.md.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

dir=$BENCH_WORK/process
rm -rf "$dir" && mkdir -p "$dir/bundle"
policy=$(make_host "$dir" 8)
python3 - "$dir/bundle/config.json" <<'PY'
import json, sys
json.dump({"ociVersion": "1.0.2", "root": {"path": "rootfs"},
           "process": {"args": ["/bin/true"], "cwd": "/",
                       "env": ["NVIDIA_VISIBLE_DEVICES=1", "NVIDIA_DRIVER_CAPABILITIES=compute,utility"]}},
          open(sys.argv[1], "w"))
PY

commands_true=(/bin/true)
commands_hello=("$BENCH_BIN/hello")
commands_version=("$GRAFT" version)
commands_plan=("$GRAFT" --policy "$policy" plan "${REQUEST_ENV[@]}")
commands_hook=("$GRAFT" --policy "$policy" hook createRuntime)

# measure NAME time|rss: one run, timed (ms) or its peak RSS (KiB). A hook
# gets a fresh target and the OCI state naming it on stdin.
measure() {
  local -n command=commands_$1
  local pid="" input=/dev/null
  if [ "$1" = hook ]; then
    pid=$(start_target "$dir/bundle/rootfs")
    printf '{"ociVersion": "1.0.2", "id": "process-bench", "status": "creating", "pid": %s, "bundle": "%s"}' \
      "$pid" "$dir/bundle" > "$dir/state.json"
    input=$dir/state.json
  fi
  if [ "$2" = time ]; then
    time_ms "${command[@]}" < "$input"
  else
    /usr/bin/time -f %M -o "$dir/rss" "${command[@]}" < "$input" >/dev/null 2>&1
    cat "$dir/rss"
  fi
  [ -z "$pid" ] || stop_target "$pid"
}

names=(true hello version plan hook)
for name in "${names[@]}"; do measure "$name" time >/dev/null; : > "$dir/$name.txt"; done
for round in $(seq "$ROUNDS"); do
  for name in $(rotated "$round" "${names[@]}"); do measure "$name" time >> "$dir/$name.txt"; done
done

declare -A label=([true]="/bin/true" [hello]="static C hello" [version]="\`graft version\`"
                  [plan]="\`graft plan\` (8-GPU host, GPU 1, compute+utility)"
                  [hook]="\`graft hook createRuntime\` (same request, applied)")
true_ms=$(median < "$dir/true.txt")
max_rss=0
{
  echo "Exec to exit, medians of $ROUNDS interleaved rounds; peak RSS from one run under" "\`/usr/bin/time -f %M\`."
  echo
  row "process" "median ms" "ratio to /bin/true" "peak RSS (MiB)"
  row "---" "---:" "---:" "---:"
  for name in "${names[@]}"; do
    value=$(median < "$dir/$name.txt")
    rss=$(measure "$name" rss)
    if [[ $name = plan || $name = hook ]] && [ "$rss" -gt "$max_rss" ]; then max_rss=$rss; fi
    row "${label[$name]}" "$value" "$(ratio "$value" "$true_ms")" "$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')"
    figure "${name}_ms" "$value"
  done
} > "$RESULTS/process.md"
figure plan_ratio_true "$(ratio "$(median < "$dir/plan.txt")" "$true_ms")"
figure peak_rss_mib "$(awk -v k="$max_rss" 'BEGIN { printf "%.1f", k / 1024 }')"
