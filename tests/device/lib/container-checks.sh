# SPDX-License-Identifier: Apache-2.0
# container-checks.sh (sourced by real-gpu.sh): one runc container, graft as
# its prestart hook, granted one GPU by UUID; a script inside (probe.sh)
# reports "topic|value" lines that the checks below read.

# The granted GPU (--gpu INDEX, else the last one) and a minor it was not granted.
choose_gpus() {
  local line
  if [ -n "$gpu_choice" ]; then
    line=$(awk -v i="$gpu_choice" '$1 == i' "$work/inventory-gpus")
  else
    line=$(tail -n 1 "$work/inventory-gpus")
  fi
  read -r _ granted_minor granted_uuid granted_bus <<<"$line"
  other_minor=$(awk -v m="${granted_minor:-0}" '$2 != m {print $2; exit}' "$work/inventory-gpus")
  [ -n "$other_minor" ] || other_minor=$((${granted_minor:-0} + 1))
}

# The script the container runs: node access, procfs, the ld cache, and on a
# real driver nvidia-smi and the CUDA probe.
write_probe_script() {
  cat >"$1" <<'EOF'
#!/bin/sh
# probe.sh GRANTED_MINOR OTHER_MINOR real|fake
opened() { if (: <>"$1") 2>/tmp/open.err; then echo ok; else sed 's/.*: //' /tmp/open.err; fi; }
echo "node|granted|$(opened /dev/nvidia$1)"
if mknod /tmp/other-gpu c 195 "$2" 2>/tmp/mknod.err; then
  echo "node|other|$(opened /tmp/other-gpu)"
else
  echo "node|other|mknod: $(cat /tmp/mknod.err)"
fi
for dir in /proc/driver/nvidia/gpus/*; do echo "procfs|${dir##*/}"; done
ldconfig -p | grep 'libcuda\.so\.1 ' | sed 's/^[[:space:]]*/ldcache|/'
cuda-probe lookup 2>&1 | sed 's/^/lookup|/'
if command -v nvidia-smi >/dev/null; then
  nvidia-smi -L >/tmp/smi.out 2>&1; echo "smi-rc|$?"
  sed 's/^/smi|/' /tmp/smi.out
fi
[ "$3" = real ] || exit 0
cuda-probe compute >/tmp/cuda.out 2>&1; echo "cuda-rc|$?"
sed 's/^/cuda|/' /tmp/cuda.out
EOF
}

# A Debian-like rootfs: busybox, the probe tree (cuda-probe, its glibc,
# ldconfig) and probe.sh.
make_rootfs() {
  local rootfs=$1 applet multiarch
  mkdir -p "$rootfs"/{bin,sbin,etc/ld.so.conf.d,proc,sys,dev,tmp,run,usr/bin,usr/local/bin}
  chmod 1777 "$rootfs/tmp"
  cp "$busybox" "$rootfs/bin/busybox"
  for applet in sh cat ls head mknod grep sed echo test; do ln -s busybox "$rootfs/bin/$applet"; done
  cp -a "$probe_root/." "$rootfs/"
  multiarch=$(cd "$probe_root/lib" && ls -d -- *-linux-gnu 2>/dev/null | head -n 1)
  mkdir -p "$rootfs/usr/lib/$multiarch"
  echo 12.7 >"$rootfs/etc/debian_version"
  echo 'include /etc/ld.so.conf.d/*.conf' >"$rootfs/etc/ld.so.conf"
  printf '/lib/%s\n/usr/lib/%s\n' "$multiarch" "$multiarch" >"$rootfs/etc/ld.so.conf.d/$multiarch.conf"
  echo 'root:x:0:0:root:/root:/bin/sh' >"$rootfs/etc/passwd"
  echo 'root:x:0:' >"$rootfs/etc/group"
  write_probe_script "$rootfs/probe.sh"
}

# Mounts as `runc spec` writes them; on the fake host the kernel has no
# /proc/driver/nvidia for graft to cover, so a tmpfs at /proc/driver stands in.
bundle_mounts() {
  cat <<'EOF'
    {"destination": "/proc", "type": "proc", "source": "proc"},
    {"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "strictatime", "mode=755", "size=65536k"]},
    {"destination": "/dev/pts", "type": "devpts", "source": "devpts", "options": ["nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620"]},
    {"destination": "/dev/shm", "type": "tmpfs", "source": "shm", "options": ["nosuid", "noexec", "nodev", "mode=1777", "size=65536k"]},
    {"destination": "/sys", "type": "sysfs", "source": "sysfs", "options": ["nosuid", "noexec", "nodev", "ro"]}
EOF
  [ "$fake" = 1 ] &&
    echo '    ,{"destination": "/proc/driver", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "nodev", "noexec", "mode=755", "size=1024k"]}'
}

write_bundle_config() {
  local caps='"CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE", "CAP_MKNOD"'
  local mode=real
  [ "$fake" = 1 ] && mode=fake
  cat >"$1/config.json" <<EOF
{
  "ociVersion": "1.0.2",
  "process": {
    "terminal": false, "user": {"uid": 0, "gid": 0}, "cwd": "/",
    "args": ["/bin/sh", "/probe.sh", "$granted_minor", "$other_minor", "$mode"],
    "env": ["PATH=/usr/local/bin:/usr/bin:/bin:/sbin", "NVIDIA_VISIBLE_DEVICES=$granted_uuid",
            "NVIDIA_DRIVER_CAPABILITIES=compute,utility"],
    "capabilities": {"bounding": [$caps], "effective": [$caps], "permitted": [$caps]},
    "noNewPrivileges": true
  },
  "root": {"path": "rootfs", "readonly": false},
  "hostname": "graft-real-gpu",
  "mounts": [
$(bundle_mounts)
  ],
  "hooks": {"prestart": [{"path": "$graft", "args": ["graft", "--policy", "$site", "hook", "prestart"],
                          "env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],
                          "timeout": 60}]},
  "linux": {
    "resources": {"devices": [{"allow": false, "access": "rwm"}]},
    "namespaces": [{"type": "pid"}, {"type": "network"}, {"type": "ipc"}, {"type": "uts"}, {"type": "mount"}],
    "maskedPaths": ["/proc/kcore", "/proc/keys", "/proc/timer_list", "/sys/firmware"],
    "readonlyPaths": ["/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"]
  }
}
EOF
}

# Runs the container; its output goes to $work/container.out.
run_container() {
  choose_gpus
  local bundle=$work/bundle id=graft-real-gpu-$$-$RANDOM
  if [ -z "$granted_uuid" ]; then
    container_rc="not run"
    echo "the inventory has no GPU ${gpu_choice:+with index $gpu_choice }to grant" >"$work/container.err"
    : >"$work/container.out"
    return
  fi
  rm -rf "$bundle"
  mkdir -p "$bundle"
  make_rootfs "$bundle/rootfs"
  write_bundle_config "$bundle"
  timeout 300 "$runc" --root "$work/runc-state" run --bundle "$bundle" "$id" \
    </dev/null >"$work/container.out" 2>"$work/container.err"
  container_rc=$?
  "$runc" --root "$work/runc-state" delete --force "$id" >/dev/null 2>&1
}

# The value of the first "topic|..." line of the container, or every one's with `all`.
said() {
  local lines
  lines=$(sed -n "s/^$1|//p" "$work/container.out")
  [ "${2:-}" = all ] && echo "$lines" || head -n 1 <<<"$lines"
}

check_container_started() {
  local name="a runc container with graft as its prestart hook starts, granted GPU $granted_uuid"
  if [ "$container_rc" = 0 ] && grep -q '^node|' "$work/container.out"; then
    ok "$name"
  else
    fail "$name" "runc exited $container_rc:"$'\n'"$(cat "$work/container.err" "$work/container.out" | head -n 20)"
  fi
}

check_granted_nodes() {
  local name="container: the granted GPU's node opens, another GPU's (minor $other_minor) is refused"
  local expected=ok
  if [ "$fake" = 1 ]; then
    expected="No such device or address"
    name="container: the granted GPU's node reaches the (absent) driver, another GPU's (minor $other_minor) is refused"
  fi
  local granted other
  granted=$(sed -n 's/^node|granted|//p' "$work/container.out")
  other=$(sed -n 's/^node|other|//p' "$work/container.out")
  if [ "$granted" = "$expected" ] && [ "$other" = "Operation not permitted" ]; then
    ok "$name"
  else
    fail "$name" "/dev/nvidia$granted_minor: '$granted' (expected '$expected'), minor $other_minor: '$other' (expected 'Operation not permitted')"
  fi
}

check_container_procfs() {
  local name="container: /proc/driver/nvidia/gpus shows the granted GPU only"
  local dirs
  dirs=$(said procfs all | while read -r bus; do normal_bus_id "$bus"; done)
  if [ -n "$dirs" ] && [ "$dirs" = "$(normal_bus_id "$granted_bus")" ]; then
    ok "$name"
  else
    fail "$name" "it shows '$(echo $dirs)', not $granted_bus"
  fi
}

check_ld_cache() {
  local name="container: the ld cache lists libcuda.so.1 and a program loads it from there by its soname"
  local cached loaded
  cached=$(said ldcache | sed -n 's/.*=> //p') loaded=$(said lookup | sed -n 's/^libcuda\.so\.1: //p')
  if [ -n "$cached" ] && [ "$cached" = "$loaded" ]; then
    ok "$name ($cached)"
  else
    fail "$name" "ldconfig -p: '$(said ldcache)'; cuda-probe lookup: '$(said lookup all)'"
  fi
}

check_container_nvidia_smi() {
  local name="container: nvidia-smi -L lists exactly the granted GPU"
  if [ "$fake" = 1 ] && [ "$smi_answers" = 0 ]; then
    skip "$name" "the fake host's nvidia-smi is a stand-in that prints no GPU list"
    return
  fi
  local lines
  lines=$(said smi all)
  if [ "$(said smi-rc)" = 0 ] && [ "$(grep -c '^GPU ' <<<"$lines")" = 1 ] &&
     grep -q "^GPU .*(UUID: $granted_uuid)" <<<"$lines"; then
    ok "$name"
  else
    fail "$name" "exit $(said smi-rc):"$'\n'"$lines"
  fi
}

check_cuda_compute() {
  local name="container: a CUDA program sees the granted GPU alone and computes a vector add on it"
  if [ "$fake" = 1 ]; then
    skip "$name" "the fake driver's libcuda.so.1 has no cuInit"
    return
  fi
  local lines bus
  lines=$(said cuda all)
  bus=$(sed -n 's/^device 0: .*, bus //p' <<<"$lines")
  if [ "$(said cuda-rc)" = 0 ] && grep -qx 'devices: 1' <<<"$lines" &&
     [ "$(normal_bus_id "$bus")" = "$(normal_bus_id "$granted_bus")" ] &&
     grep -qx 'vector add: 4096 of 4096 sums right' <<<"$lines"; then
    ok "$name ($(sed -n 's/^device 0: //p' <<<"$lines"))"
  else
    [ -c "$dev_root/dev/nvidia-uvm" ] || lines="$lines"$'\n'"(the host has no $dev_root/dev/nvidia-uvm: CUDA needs the nvidia-uvm module and its node, e.g. nvidia-modprobe -u -c 0)"
    fail "$name" "exit $(said cuda-rc):"$'\n'"$lines"
  fi
}
