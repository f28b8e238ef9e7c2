#!/usr/bin/env bash
# Container create: `runc create` of a busybox bundle (8-GPU fake host, GPU 1,
# compute+utility) with no hook, with a createRuntime hook that does nothing
# (/bin/true: what running any hook costs runc), with `graft hook` as its
# createRuntime hook (both ldcache methods) and, where installed, NVIDIA's
# nvidia-container-runtime-hook; interleaved rounds, medians of the create
# alone (the delete after each is not timed). Writes $RESULTS/create.md.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

dir=$BENCH_WORK/create
rm -rf "$dir" && mkdir -p "$dir"
policy=$(make_host "$dir" 8)
state=$dir/runc-state

# bundle NAME HOOK_JSON: a bundle dir whose config.json has these hooks.
bundle() {
  local bundle=$dir/$1
  mkdir -p "$bundle/rootfs/bin" "$bundle/rootfs/etc" "$bundle/rootfs/proc" "$bundle/rootfs/dev" \
           "$bundle/rootfs/sys" "$bundle/rootfs/tmp"
  cp /bin/busybox "$bundle/rootfs/bin/busybox"
  ln -sf busybox "$bundle/rootfs/bin/sh"
  python3 - "$bundle/config.json" "$2" <<'PY'
import json, sys
path, hooks = sys.argv[1], json.loads(sys.argv[2])
config = {
    "ociVersion": "1.0.2",
    "root": {"path": "rootfs"},
    "hostname": "bench",
    "process": {"args": ["/bin/sh", "-c", "true"], "cwd": "/", "user": {"uid": 0, "gid": 0},
                "env": ["PATH=/bin", "NVIDIA_VISIBLE_DEVICES=1",
                        "NVIDIA_DRIVER_CAPABILITIES=compute,utility"],
                "capabilities": {k: ["CAP_MKNOD"] for k in ("bounding", "effective", "permitted")}},
    "mounts": [
        {"destination": "/proc", "type": "proc", "source": "proc"},
        {"destination": "/dev", "type": "tmpfs", "source": "tmpfs",
         "options": ["nosuid", "strictatime", "mode=755"]},
        {"destination": "/proc/driver", "type": "tmpfs", "source": "tmpfs",
         "options": ["nosuid", "nodev", "noexec"]}],
    "linux": {"namespaces": [{"type": t} for t in ("pid", "ipc", "uts", "mount")]},
}
if hooks:
    config["hooks"] = hooks
json.dump(config, open(path, "w"), indent=2)
PY
  echo "$bundle"
}

graft_hook() {  # POLICY -> hooks JSON
  printf '{"createRuntime": [{"path": "%s", "args": ["graft", "--policy", "%s", "hook", "createRuntime"]}]}' \
    "$GRAFT" "$1"
}

declare -A bundles=(
  [plain]=$(bundle plain '{}')
  [noop]=$(bundle noop '{"createRuntime": [{"path": "/bin/true", "args": ["true"]}]}')
  [write]=$(bundle write "$(graft_hook "$(with_ldcache_method "$policy" write)")")
  [ldconfig]=$(bundle ldconfig "$(graft_hook "$(with_ldcache_method "$policy" ldconfig)")")
)
variants=(plain noop write ldconfig)
toolkit_hook=$(command -v nvidia-container-runtime-hook || true)
if [ -n "$toolkit_hook" ]; then
  bundles[toolkit]=$(bundle toolkit \
    "$(printf '{"prestart": [{"path": "%s", "args": ["nvidia-container-runtime-hook", "prestart"]}]}' "$toolkit_hook")")
  variants+=(toolkit)
fi

create_ms() {  # VARIANT ID -> ms
  local ms
  ms=$(cd "${bundles[$1]}" && time_ms runc --root "$state" create "$2")
  runc --root "$state" delete -f "$2" >/dev/null 2>&1
  echo "$ms"
}

for variant in "${variants[@]}"; do
  create_ms "$variant" "warmup-$variant" >/dev/null
  : > "$dir/$variant.txt"
done
for round in $(seq "$ROUNDS"); do
  for variant in "${variants[@]}"; do
    create_ms "$variant" "bench-$variant-$round" >> "$dir/$variant.txt"
  done
done

declare -A label=([plain]="plain runc" [noop]="runc + a hook that does nothing (\`/bin/true\`)"
                  [write]="runc + \`graft hook\`, ldcache write (default)"
                  [ldconfig]="runc + \`graft hook\`, ldcache ldconfig"
                  [toolkit]="runc + nvidia-container-runtime-hook")
plain=$(median < "$dir/plain.txt")
figure create_plain_ms "$plain"
{
  echo "\`runc create\` of a busybox bundle (8-GPU fake host, GPU 1, compute+utility)," \
       "medians of $ROUNDS interleaved rounds, milliseconds."
  echo
  row "how the container is created" "create median" "added" "ratio to plain runc"
  row "---" "---:" "---:" "---:"
  for variant in "${variants[@]}"; do
    value=$(median < "$dir/$variant.txt")
    row "${label[$variant]}" "$value" "$(minus "$value" "$plain")" "$(ratio "$value" "$plain")"
    if [ "$variant" != plain ]; then
      figure "create_ratio_$variant" "$(ratio "$value" "$plain")"
      figure "create_added_$variant" "$(minus "$value" "$plain")"
    fi
  done
  [ -n "$toolkit_hook" ] || row "NVIDIA's nvidia-container-runtime-hook" "not installed" "" ""
} > "$RESULTS/create.md"
