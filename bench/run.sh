#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The bench command (README "Where to read next", docs/performance.md): builds what the benchmarks need, runs every one of
# them in one go and writes docs/performance.md (a table per benchmark, the
# targets, the machine, the load before and after) and
# docs/performance-scaling.png. Needs root (mount namespaces, runc, cgroups).
#   bench/run.sh [--quick | --smoke] [--no-write]
# --quick: 3 rounds per figure instead of 15, same code paths (for trying the
# scripts). --no-write: leave docs/ alone; the results stay under the work dir.
# --smoke: what ctest runs (bench_smoke) to prove the scripts work: 1 round,
# no docs, no package installs and no build (the binaries of GRAFT_BENCH_BUILD,
# already built); exits 77 (skipped) without root or a tool it needs.
# Every figure in docs/performance.md comes from this script's run; nothing
# there is written by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
source=$PWD

rounds=15 mode=full write=true smoke=false
for argument in "$@"; do
  case $argument in
    --quick) rounds=3 mode=quick ;;
    --smoke) rounds=1 mode=smoke write=false smoke=true && export BENCH_SMOKE=1 ;;
    --no-write) write=false ;;
    *) echo "usage: bench/run.sh [--quick | --smoke] [--no-write]" >&2; exit 2 ;;
  esac
done
skip_or_fail() {  # REASON: a smoke run is skipped, a real one fails
  if $smoke; then
    echo "graft-test skipped: $1"
    exit 77
  fi
  echo "bench/run.sh: $1" >&2
  exit 1
}
[ "$(id -u)" -eq 0 ] || skip_or_fail "needs root (mount namespaces, runc, device cgroups)"

if $smoke; then
  # The README's test command installs the test packages, not the bench ones
  # (gnuplot-nox, valgrind, time: install-deps.sh --bench), so there the
  # smoke test skips, and its line says which package to install and how to
  # run it then.
  missing=()
  for tool_package in runc:runc gnuplot:gnuplot-nox valgrind:valgrind callgrind_annotate:valgrind \
                      unshare:util-linux nsenter:util-linux /usr/bin/time:time cc:gcc; do
    command -v "${tool_package%%:*}" >/dev/null ||
      missing+=("${tool_package#*:} (for ${tool_package%%:*})")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    list=$(IFS=,; echo "${missing[*]}")
    how="install them with \`bash tests/scripts/install-deps.sh --bench\`, then run \`ctest -L bench\` in the build tree"
    skip_or_fail "bench packages not installed: ${list//,/, }; $how"
  fi
else
  bash tests/scripts/install-deps.sh --bench
fi

# A Release tree: build/ when it is one, else build-bench/ (GRAFT_BENCH_BUILD overrides).
build=${GRAFT_BENCH_BUILD:-}
if [ -z "$build" ]; then
  build=build-bench
  grep -qs '^CMAKE_BUILD_TYPE:STRING=Release$' build/CMakeCache.txt && build=build
fi
if ! $smoke; then
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGRAFT_WERROR=ON \
      -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" >/dev/null
  fi
  cmake --build "$build" -j"$(nproc)" --target graft graft-runtime graft-fake-host graft_plugins >/dev/null
fi
build=$(cd "$build" && pwd)

export GRAFT=$build/bin/graft GRAFT_RUNTIME=$build/bin/graft-runtime PLUGINS=$build/lib/graft/plugins
export FAKE_HOST=$build/tests/graft-fake-host
export BENCH_BIN=$build/bench ROUNDS=$rounds
export BENCH_WORK=${GRAFT_BENCH_WORK:-$build/bench-work}
export RESULTS=$BENCH_WORK/results
rm -rf "$BENCH_WORK" && mkdir -p "$BENCH_BIN" "$RESULTS"

flags=(-O2 -Wall -Wextra -Werror)
cc "${flags[@]}" -o "$BENCH_BIN/floor" bench/floor/floor.c
cc "${flags[@]}" -static -o "$BENCH_BIN/hello" bench/hello/hello.c
cc "${flags[@]}" -shared -fPIC -o "$BENCH_BIN/valgrind_shim.so" bench/callgrind/valgrind_shim.c -ldl
cc "${flags[@]}" -o "$BENCH_BIN/valgrind_helper" bench/callgrind/valgrind_helper.c

# The targets' device cgroup: a child of the devices hierarchy (v1) or of
# the unified root (v2), removed at exit.
if [ -d /sys/fs/cgroup/devices ]; then
  export BENCH_CGROUP=/sys/fs/cgroup/devices/graft-bench-$$
else
  export BENCH_CGROUP=/sys/fs/cgroup/graft-bench-$$
fi
mkdir "$BENCH_CGROUP"
trap 'rmdir "$BENCH_CGROUP" 2>/dev/null || true' EXIT

{
  echo "started=\"$(date -u "+%Y-%m-%d %H:%M UTC")\""
  echo "load_start=\"$(cut -d" " -f1-3 /proc/loadavg)\""
} > "$RESULTS/run.env"
for benchmark in floor.sh create.sh process.sh scaling.sh callgrind/run.sh; do
  echo "bench: $benchmark" >&2
  bash "bench/$benchmark"
done
{
  echo "load_end=\"$(cut -d" " -f1-3 /proc/loadavg)\""
  echo "mode=$mode"
  echo "rounds=$rounds"
  echo "commit=\"$(git -C "$source" rev-parse --short HEAD)$(git -C "$source" diff --quiet HEAD -- . 2>/dev/null || echo " (with uncommitted changes)")\""
} >> "$RESULTS/run.env"

bash bench/report.sh "$RESULTS" "$RESULTS/performance.md" "$RESULTS/performance-scaling.png"
if $smoke; then  # every table and the plot came out
  for section in "## Targets" "## Floor" "## Container create" "## Whole process" "## Scaling" \
                 "## Instruction counts"; do
    grep -q "^$section" "$RESULTS/performance.md" || { echo "bench: no \"$section\" section" >&2; exit 1; }
  done
  [ -s "$RESULTS/performance-scaling.png" ] || { echo "bench: no scaling plot" >&2; exit 1; }
  ! grep -q '| nan |' "$RESULTS/performance.md" || { echo "bench: a figure is missing (nan)" >&2; exit 1; }
fi
if $write; then
  cp "$RESULTS/performance.md" docs/performance.md
  cp "$RESULTS/performance-scaling.png" docs/performance-scaling.png
  echo "bench: wrote docs/performance.md and docs/performance-scaling.png" >&2
else
  echo "bench: results in $RESULTS (docs/ left alone)" >&2
fi
