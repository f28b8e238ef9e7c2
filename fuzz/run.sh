#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer targets with clang in build-fuzz/ and runs each for
# SECONDS (default 60): `bash fuzz/run.sh [SECONDS] [TARGET...]`.
# GRAFT_FUZZ_PARALLEL=N runs N targets at a time (default 1). New corpus
# entries go to build-fuzz/corpus/<target>/, crashes, leaks and timeouts to
# build-fuzz/findings/<target>/, the full output to build-fuzz/logs/<target>.log.
# Ends with one line per target: executions, seconds, result; exits 1 when
# any target found something.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

seconds=${1:-60}
[ $# -gt 0 ] && shift
all_targets=(ldcache elf_identity oci_state bundle_config env_devices requirements policy)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
parallel=${GRAFT_FUZZ_PARALLEL:-1}

bash tests/scripts/install-deps.sh
# clang and its libFuzzer runtime: Debian's clang pulls libclang-rt-14-dev.
if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "graft fuzz: needs clang and libclang-rt-14-dev; run as root or install them" >&2
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev >/dev/null
fi

CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGRAFT_FUZZ=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

# Extra read-only seeds: the shipped and example policies for the loader.
extra_seeds() {
  case "$1" in
    policy) echo "$repo/policies/nvidia $repo/policies/examples" ;;
  esac
}

# Inputs long enough for quadratic matching in the Lua rules to show as a timeout.
max_len() {
  case "$1" in
    env_devices|requirements) echo 65536 ;;
    *) echo 16384 ;;
  esac
}

run_target() {
  local target=$1 out=build-fuzz
  mkdir -p "$out/corpus/$target" "$out/findings/$target" "$out/logs"
  # shellcheck disable=SC2046
  "$out/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len="$(max_len "$target")" -print_final_stats=1 \
    -artifact_prefix="$out/findings/$target/" \
    "$out/corpus/$target" "fuzz/corpus/$target" $(extra_seeds "$target") \
    >"$out/logs/$target.log" 2>&1
}

summary() {
  local target=$1 log=build-fuzz/logs/$1.log status=$2
  local execs time result=clean
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  time=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | tail -1 | awk '{print $5}')
  [ "$status" -ne 0 ] && result="FOUND (exit $status): $(ls build-fuzz/findings/"$target" | head -3 | tr '\n' ' ')"
  printf '%-14s executions %-10s seconds %-6s %s\n' "$target" "${execs:-?}" "${time:-?}" "$result"
}

failed=0
declare -A pids=() status=()
queue=("${targets[@]}")
while [ ${#queue[@]} -gt 0 ] || [ ${#pids[@]} -gt 0 ]; do
  while [ ${#queue[@]} -gt 0 ] && [ ${#pids[@]} -lt "$parallel" ]; do
    run_target "${queue[0]}" & pids[${queue[0]}]=$!
    echo "fuzzing ${queue[0]} for ${seconds}s"
    queue=("${queue[@]:1}")
  done
  for target in "${!pids[@]}"; do
    if ! kill -0 "${pids[$target]}" 2>/dev/null; then
      rc=0; wait "${pids[$target]}" || rc=$?
      status[$target]=$rc
      [ "$rc" -ne 0 ] && failed=1
      unset "pids[$target]"
    fi
  done
  sleep 1
done
for target in "${targets[@]}"; do summary "$target" "${status[$target]}"; done
exit $failed
