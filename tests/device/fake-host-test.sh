#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# real-gpu.sh in the suite: make-carry.sh's directory from this build tree,
# a fake host of two GPUs (tests/fixture) as every host root, --fake-host,
# its nvidia-smi replaced by nvidia-smi-stand-in.sh (which prints -q and -L
# from the fake procfs as the real one would). It must pass with only the
# two CUDA checks (host, container) skipped: the fake libcuda.so.1 has no
# cuInit. Then the fake driver gets a library of its version that no policy
# names: the library check must fail, naming it, and the run exit 1.
# Usage: fake-host-test.sh BUILD_DIR GRAFT_FAKE_HOST_BINARY
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath "$1") fake_host=$2

skip() { echo "graft-test skipped: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "runc and the fake host's device nodes need root"
command -v runc >/dev/null || skip "runc is not installed (tests/scripts/install-deps.sh --tests)"
busybox=$(command -v busybox || true)
[ -n "$busybox" ] && ! ldd "$busybox" 2>&1 | grep -q '=>' ||
  skip "no static busybox (busybox-static; tests/scripts/install-deps.sh --tests)"

scratch=$(mktemp -d /tmp/graft-real-gpu-suite-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
host=$scratch/host
bash "$here/make-carry.sh" "$build" "$scratch/carry" >/dev/null
"$fake_host" "$host" 2 >/dev/null
cp "$here/nvidia-smi-stand-in.sh" "$host/usr/bin/nvidia-smi"

run() {
  local status=0
  bash "$here/real-gpu.sh" --carry "$scratch/carry" --fake-host --driver-root "$host" --dev-root "$host" \
    --proc-root "$host" --sys-root "$host" --run-root "$host" --work "$scratch/work" >"$scratch/out" 2>&1 ||
    status=$?
  cat "$scratch/out"
  return "$status"
}

run || { echo "fake-host-test: real-gpu.sh failed on the fake host"; exit 1; }
grep -qx 'real-gpu: [0-9]* ok, 0 failed, 2 skipped' "$scratch/out" ||
  { echo "fake-host-test: expected the two CUDA checks alone to skip"; exit 1; }

version=$(sed -nE 's/.*Kernel Module[[:space:]]+([0-9.]+).*/\1/p' "$host/proc/driver/nvidia/version")
libdir=$(dirname "$(find "$host/usr/lib" -name "libcuda.so.$version" ! -path '*i386*' | head -n 1)")
cp "$libdir/libcuda.so.$version" "$libdir/libnvidia-unheard-of.so.$version"
if run; then echo "fake-host-test: a driver library graft does not find went unnoticed"; exit 1; fi
grep -q "^FAIL inventory: every library of the driver's version" "$scratch/out" &&
  grep -qF "$libdir/libnvidia-unheard-of.so.$version" "$scratch/out" ||
  { echo "fake-host-test: the library check did not name libnvidia-unheard-of.so.$version"; exit 1; }
echo "fake-host-test: passed on the fake host; a library graft does not find fails the run"
