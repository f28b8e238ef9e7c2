#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make-carry.sh: everything real-gpu.sh needs on a GPU host that has none of
# it, in one directory, from this build tree and this machine:
#   install/      `cmake --install BUILD --prefix ...`, stripped
#   runc          a wrapper that runs runc.d/runc with the libraries it
#                 needs beyond glibc (libseccomp) from runc.d/lib
#   busybox       a static busybox
#   probe-root/   files copied into the container's rootfs: the CUDA probe
#                 (usr/local/bin/cuda-probe), the glibc it and the driver's
#                 libraries load, and a static ldconfig (sbin/ldconfig)
# Then, on the GPU host: bash tests/device/real-gpu.sh --carry DIR
# The GPU host needs a glibc at least as new as the one graft and runc were
# linked against here (theirs is the host's; the container gets its own copy).
# Usage: make-carry.sh BUILD_DIR [OUT_DIR (default: device-carry in the source tree)]
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: make-carry.sh BUILD_DIR [OUT_DIR]" >&2; exit 2; }
build=$(realpath "$1") out=${2:-$source_dir/device-carry}

die() { echo "make-carry: $*" >&2; exit 1; }
is_static() { ! ldd "$1" 2>&1 | grep -q '=>'; }

# Copies the file at $1 (following links) to the same path under $2.
copy_at_path() {
  mkdir -p "$2$(dirname "$1")"
  cp -L "$1" "$2$1"
}

carry_runc() {
  local runc library
  runc=$(command -v runc || true)
  [ -n "$runc" ] || die "no runc on this machine (tests/scripts/install-deps.sh --tests)"
  mkdir -p "$out/runc.d/lib"
  cp -L "$runc" "$out/runc.d/runc"
  for library in $(ldd "$runc" | awk '/=> \// {print $3}'); do
    case $(basename "$library") in libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*) continue ;; esac
    cp -L "$library" "$out/runc.d/lib/"
  done
  cat >"$out/runc" <<'EOF'
#!/bin/sh
# runc as carried by tests/device/make-carry.sh, with its non-glibc libraries.
here=$(dirname "$(readlink -f "$0")")
LD_LIBRARY_PATH=$here/runc.d/lib exec "$here/runc.d/runc" "$@"
EOF
  chmod 0755 "$out/runc"
}

# The probe, the loader and libraries it names, the ones every driver
# library needs (libm, libdl, libpthread, librt), and a static ldconfig.
carry_probe_root() {
  local probe=$build/tests/device/cuda-probe root=$out/probe-root library libc_dir ldconfig
  [ -x "$probe" ] || die "no $probe (cmake --build $build --target graft_cuda_probe)"
  mkdir -p "$root/usr/local/bin" "$root/sbin"
  cp "$probe" "$root/usr/local/bin/cuda-probe"
  for library in $(ldd "$probe" | awk '/=> \// {print $3} /^[[:space:]]*\// {print $1}'); do
    copy_at_path "$library" "$root"
  done
  libc_dir=$(dirname "$(ldd "$probe" | awk '/libc\.so/ {print $3}')")
  for library in libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1; do
    [ -e "$libc_dir/$library" ] && copy_at_path "$libc_dir/$library" "$root"
  done
  ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
  is_static "$ldconfig" || die "$ldconfig is not static: it would not run in the container"
  cp -L "$ldconfig" "$root/sbin/ldconfig"
}

rm -rf "$out"
mkdir -p "$out"
cmake --install "$build" --prefix "$out/install" --strip >/dev/null
carry_runc
busybox=$(command -v busybox || true)
[ -n "$busybox" ] && is_static "$busybox" || die "no static busybox (Debian's busybox-static)"
cp -L "$busybox" "$out/busybox"
carry_probe_root
echo "make-carry: $out ($(du -sm "$out" | cut -f1) MiB)"
