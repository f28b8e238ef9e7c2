#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README demo command: builds graft, generates a fake 8-GPU host (driver
# libraries, ld.so.cache, procfs, device nodes when run as root) and a sample
# OCI bundle asking for GPU 1 with compute+utility, prints the plan, then
# starts that container with runc and graft as its prestart hook and shows
# what it got (as root; the fake GPUs open with ENXIO: no driver behind them).
set -euo pipefail
cd "$(dirname "$0")/../.."

bash tests/scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGRAFT_WERROR=ON \
  -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" >/dev/null
cmake --build build -j"$(nproc)" --target graft graft-fake-host graft_plugins >/dev/null

demo=$PWD/build/demo
host=$demo/host
bundle=$demo/bundle
policy=$(./build/tests/graft-fake-host "$host" 8)
printf '\n[plugins]\ndir = "%s"\n' "$PWD/build/lib/graft/plugins" >> "$policy"

mkdir -p "$bundle/rootfs/etc"
echo "12.7" > "$bundle/rootfs/etc/debian_version"
cat > "$bundle/config.json" <<JSON
{
  "ociVersion": "1.0.2",
  "root": { "path": "rootfs" },
  "process": {
    "args": ["nvidia-smi"],
    "env": ["PATH=/usr/bin:/bin", "NVIDIA_VISIBLE_DEVICES=1",
            "NVIDIA_DRIVER_CAPABILITIES=compute,utility", "NVIDIA_REQUIRE_CUDA=cuda>=12.0"],
    "capabilities": { "bounding": ["CAP_CHOWN", "CAP_NET_BIND_SERVICE"] }
  },
  "annotations": { "example.com/tenant": "team-a" },
  "linux": { "cgroupsPath": "/demo/3f2a" }
}
JSON

echo "# graft plan --policy $policy --bundle $bundle --id 3f2a"
./build/bin/graft --policy "$policy" plan --bundle "$bundle" --id 3f2a

if [ "$(id -u)" -ne 0 ] || ! command -v runc >/dev/null; then
  echo "# (not starting the container: that needs root and runc)"
  exit 0
fi

# The same bundle as a runnable container: busybox, the host's static
# ldconfig for `ldconfig -p`, and graft as the prestart hook. This machine
# has no driver, so its procfs has no /proc/driver/nvidia for graft to
# cover; a tmpfs at /proc/driver stands in for the directory a driver makes.
rootfs=$bundle/rootfs
mkdir -p "$rootfs/bin" "$rootfs/sbin" "$rootfs/proc" "$rootfs/dev" "$rootfs/sys" "$rootfs/tmp"
cp /bin/busybox "$rootfs/bin/busybox"
for applet in sh ls cat head grep readlink; do ln -sf busybox "$rootfs/bin/$applet"; done
cp /sbin/ldconfig "$rootfs/sbin/ldconfig"
cat > "$rootfs/show.sh" <<'SH'
echo "devices:   $(ls /dev | grep nvidia | tr '\n' ' ')"
echo "open:      $(cat /dev/nvidia1 2>&1 | head -1)"
echo "libcuda:   $(readlink /usr/lib/x86_64-linux-gnu/libcuda.so.1)"
echo "write:     $(echo x 2>&1 > /usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03)"
echo "ld cache:  $(/sbin/ldconfig -p | grep -c nvidia) nvidia entries, e.g. $(/sbin/ldconfig -p | grep libcuda.so.1)"
echo "gpus:      $(ls /proc/driver/nvidia/gpus)"
echo "params:    $(grep ModifyDeviceFiles /proc/driver/nvidia/params)"
SH
python3 - "$bundle/config.json" "$PWD/build/bin/graft" "$policy" <<'PY'
import json, sys
path, graft, policy = sys.argv[1:]
config = json.load(open(path))
config["process"].update(args=["/bin/sh", "/show.sh"], terminal=False, cwd="/",
                         user={"uid": 0, "gid": 0})
config["process"]["capabilities"] = {k: ["CAP_MKNOD"] for k in ("bounding", "effective", "permitted")}
config["hostname"] = "demo"
config["mounts"] = [
    {"destination": "/proc", "type": "proc", "source": "proc"},
    {"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "strictatime", "mode=755"]},
    {"destination": "/proc/driver", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "nodev", "noexec"]}]
config["linux"]["namespaces"] = [{"type": t} for t in ("pid", "ipc", "uts", "mount")]
config["hooks"] = {"prestart": [{"path": graft, "args": ["graft", "--policy", policy, "hook", "prestart"]}]}
json.dump(config, open(path, "w"), indent=2)
PY
echo
echo "# runc run 3f2a   (graft hook prestart applies the plan above)"
state=$demo/runc-state
runc --root "$state" delete -f 3f2a >/dev/null 2>&1 || true
(cd "$bundle" && runc --root "$state" run 3f2a)
echo "# audit: $(tail -1 "$host/audit.jsonl" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["outcome"], r["applied"], "actions, ms:", {k: round(v, 2) for k, v in r["duration_ms"].items()})')"
