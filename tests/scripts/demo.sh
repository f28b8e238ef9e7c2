#!/usr/bin/env bash
# The README demo command: builds graft, generates a fake 8-GPU host (driver
# libraries, ld.so.cache, procfs, device nodes when run as root) and a sample
# OCI bundle asking for GPU 1 with compute+utility, then prints the plan.
set -euo pipefail
cd "$(dirname "$0")/../.."

bash tests/scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target graft graft-fake-host >/dev/null

demo=$PWD/build/demo
host=$demo/host
bundle=$demo/bundle
policy=$(./build/tests/graft-fake-host "$host" 8)

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
./build/core/graft --policy "$policy" plan --bundle "$bundle" --id 3f2a
