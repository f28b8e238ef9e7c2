#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# real-gpu.sh: graft against a real NVIDIA driver, from a prebuilt install
# tree, on a host that may have no network, no container runtime and the
# driver under another root. What it needs is carried in: graft's install
# tree, runc, a static busybox, and the CUDA probe's tree (cuda_probe.c, its
# glibc and a static ldconfig); tests/device/make-carry.sh puts them in one
# directory. It checks
#   - `graft inventory` against the driver's procfs, `nvidia-smi -q` and the
#     driver's library files (each found, or left out on purpose:
#     left-out-libraries.txt);
#   - that `graft cdi generate` writes a spec `graft cdi validate` accepts;
#   - that the CUDA probe computes on the host itself, without graft (so a
#     host or driver problem is told from graft's);
#   - a runc container with graft as its prestart hook, granted one GPU: its
#     node opens, another GPU's is refused (EPERM), /proc/driver/nvidia shows
#     that GPU only, the ld cache lists libcuda.so.1 and a program loads it by
#     its soname, `nvidia-smi -L` lists exactly that GPU, and a CUDA vector add
#     through the driver API computes the known sums on it.
# With --fake-host (the suite runs it so, on tests/fixture's fake host) there
# is no driver to talk to: the CUDA checks say SKIP, and so do the nvidia-smi
# ones when its nvidia-smi prints no report; the granted node gives ENXIO
# instead of opening, and a tmpfs stands in for the kernel's /proc/driver in
# the container. docs/testing.md says how to run it.
# One ok/FAIL/SKIP line per check, then `real-gpu: N ok, M failed, K skipped`;
# the exit status is 1 if any check failed, 2 when it cannot run at all.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/report.sh"
. "$here/lib/host-checks.sh"
. "$here/lib/container-checks.sh"

usage() {
  cat >&2 <<'EOF'
usage: real-gpu.sh --carry DIR | --install DIR --runc PATH --busybox PATH --probe-root DIR
                   [--driver-root DIR] [--dev-root DIR] [--proc-root DIR] [--sys-root DIR]
                   [--run-root DIR] [--policy-extra FILE] [--gpu INDEX] [--work DIR] [--keep]
                   [--fake-host]
EOF
  exit 2
}

install='' runc='' busybox='' probe_root='' work='' keep=0 fake=0 gpu_choice='' policy_extra=''
driver_root=/ dev_root=/ proc_root=/ sys_root=/ run_root=/
while [ $# -gt 0 ]; do
  case $1 in
    --carry) [ $# -ge 2 ] || usage
      install=$2/install runc=$2/runc busybox=$2/busybox probe_root=$2/probe-root; shift ;;
    --install|--runc|--busybox|--probe-root|--driver-root|--dev-root|--proc-root|--sys-root|--run-root|--gpu|--work|--policy-extra)
      [ $# -ge 2 ] || usage
      name=${1#--}; name=${name//-/_}
      [ "$name" = gpu ] && name=gpu_choice
      printf -v "$name" '%s' "$2"; shift ;;
    --keep) keep=1 ;;
    --fake-host) fake=1 ;;
    *) usage ;;
  esac
  shift
done
[ -n "$install" ] && [ -n "$runc" ] && [ -n "$busybox" ] && [ -n "$probe_root" ] || usage
for dir in install probe_root driver_root dev_root proc_root sys_root run_root; do
  [ -d "${!dir}" ] || { echo "real-gpu: --${dir//_/-} ${!dir} is not a directory" >&2; exit 2; }
  printf -v "$dir" '%s' "$(cd "${!dir}" && pwd)"
done
# A tree staged with DESTDIR has the prefix inside it.
[ ! -x "$install/bin/graft" ] && [ -x "$install/usr/bin/graft" ] && install=$install/usr
graft=$install/bin/graft
[ -x "$graft" ] || { echo "real-gpu: no $graft in the install tree" >&2; exit 2; }
[ -z "$policy_extra" ] || [ -f "$policy_extra" ] ||
  { echo "real-gpu: --policy-extra $policy_extra is not a file" >&2; exit 2; }
runc=$(realpath "$runc") busybox=$(realpath "$busybox")

if [ -z "$work" ]; then
  work=$(mktemp -d /tmp/graft-real-gpu-XXXXXX)
  [ "$keep" = 1 ] || trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)

# What cannot run here is a setup error (exit 2), not a failed check.
[ "$(id -u)" = 0 ] || { echo "real-gpu: run it as root (runc needs it)" >&2; exit 2; }
for program in "$graft" "$runc"; do
  "$program" --version >/dev/null 2>"$work/preflight.err" ||
    { echo "real-gpu: $program does not run here: $(head -n 3 "$work/preflight.err")" >&2; exit 2; }
done

echo "real-gpu: graft $("$graft" --version | awk '{print $NF}') from $install; driver root $driver_root$([ "$fake" = 1 ] && echo ' (fake host)')"
echo "real-gpu: kernel $(uname -r), /sys/fs/cgroup $(stat -fc %T /sys/fs/cgroup 2>/dev/null), $("$runc" --version | head -n 1)"
write_site_policy
check_inventory_runs
check_driver_version_procfs
check_gpus_procfs
check_against_nvidia_smi
check_driver_libraries
check_cdi_spec
check_cuda_on_host
run_container
check_container_started
check_granted_nodes
check_container_procfs
check_ld_cache
check_container_nvidia_smi
check_cuda_compute
summary
