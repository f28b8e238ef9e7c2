#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cuda-probe against a stand-in libcuda.so.1 (mock_libcuda.c), so that its
# calls, arguments and checks are exercised before a real driver sees them:
# `lookup` names the library it loaded, `compute` lists the one device and
# gets every sum right, and a driver that refuses the first PTX header gets
# the kernel under the next one, its JIT log printed.
# Usage: cuda-probe-test.sh CUDA_PROBE MOCK_LIBCUDA_DIR
set -uo pipefail
probe=$1 mock_dir=$2
failed=0
expect() {  # expect NAME OUTPUT LINE...
  local name=$1 output=$2 line
  shift 2
  for line in "$@"; do
    grep -qxF -- "$line" <<<"$output" || { echo "FAIL $name: no line '$line' in:"; echo "$output"; failed=1; return; }
  done
  echo "ok   $name"
}
out=$(LD_LIBRARY_PATH=$mock_dir "$probe" lookup 2>&1)
expect "lookup names the libcuda.so.1 it loaded" "$out" "libcuda.so.1: $mock_dir/libcuda.so.1"
out=$(LD_LIBRARY_PATH=$mock_dir "$probe" compute 2>&1)
expect "compute lists the device and gets every sum right" "$out" \
  "devices: 1" "device 0: Mock GPU 0, bus 0000:3B:00.0" "vector add: 4096 of 4096 sums right"
out=$(GRAFT_MOCK_CUDA_REFUSE=".version 4.0" LD_LIBRARY_PATH=$mock_dir "$probe" compute 2>&1)
expect "a refused PTX header is retried under the next, with the JIT log" "$out" \
  "jit refused PTX .version 4.0: 222 ptxas fatal: mock refuses .version 4.0" "vector add: 4096 of 4096 sums right"
out=$(GRAFT_MOCK_CUDA_REFUSE=".address_size" LD_LIBRARY_PATH=$mock_dir "$probe" compute 2>&1)
status=$?
expect "a kernel no header makes loadable fails with the driver's error name" "$out" \
  "error: cuModuleLoadDataEx (the vector add PTX): CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)"
[ "$status" = 1 ] || { echo "FAIL that run exited $status, not 1"; failed=1; }
if ldconfig -p | grep -q 'libcuda\.so\.1 '; then
  echo "SKIP no libcuda.so.1: this machine's ld cache has one"
  exit "$failed"
fi
out=$(LD_LIBRARY_PATH=/nonexistent "$probe" lookup 2>&1)
[ $? = 1 ] && grep -q '^error: dlopen libcuda.so.1: ' <<<"$out" && echo "ok   no libcuda.so.1 is one error line, exit 1" ||
  { echo "FAIL no libcuda.so.1: $out"; failed=1; }
exit "$failed"
