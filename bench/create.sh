#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Container create: `runc create` of a busybox bundle (8-GPU fake host, GPU 1,
# compute+utility) with no hook, with a createRuntime hook that does nothing
# (/bin/true: what running any hook costs runc), with `graft hook` as its
# createRuntime hook (both ldcache methods), with floor.c as the hook (the
# plan's syscalls and nothing else: the least any hook doing this plan can
# add; cgroup v1 only, as bench/floor.sh), through graft-runtime in
# declarative mode (the plan written into config.json: runc makes the nodes,
# binds and device rules, `graft cdi-hook` the rest), with config.json already
# carrying those edits (as a CDI-aware engine writes them from `graft cdi
# generate`'s spec; the writing is not timed) and, where installed, NVIDIA's
# nvidia-container-runtime-hook; interleaved rounds, medians of the create
# alone (making the rootfs and the delete are not timed). Each container gets
# a fresh rootfs, as container engines hand runc one: an overlay on the busybox
# image whose upper layer is on a tmpfs, as the floor's root is; plain runc and
# the default hook are also run with the layer on this machine's disk. Gives
# the default hook's phases from graft's audit line. Writes $RESULTS/create.md.
set -euo pipefail
# Its tmpfs and overlays are mounted in a mount namespace of its own, so that
# nothing beside it (the test suite runs the smoke bench in parallel with tests
# that watch the host's mount table) sees them; they go when it exits.
if [ -z "${GRAFT_BENCH_OWN_MOUNTS:-}" ]; then
  GRAFT_BENCH_OWN_MOUNTS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
source "$(dirname "$0")/lib.sh"

dir=$BENCH_WORK/create
rm -rf "$dir" && mkdir -p "$dir/tmpfs" "$dir/disk"
policy=$(make_host "$dir" 8)
state=$dir/runc-state
mount -t tmpfs -o mode=0755 tmpfs "$dir/tmpfs"

image=$dir/image  # the busybox image every rootfs starts from; never written
mkdir -p "$image/bin" "$image/etc" "$image/proc" "$image/dev" "$image/sys" "$image/tmp"
cp /bin/busybox "$image/bin/busybox"
ln -sf busybox "$image/bin/sh"

# fresh_rootfs ROOTFS LAYER: ROOTFS as a container's own copy of the image,
# its writes under LAYER (an overlay, or a copy where overlayfs cannot be
# mounted here); drop_rootfs ROOTFS LAYER undoes it.
fresh_rootfs() {
  mkdir -p "$1" "$2/upper" "$2/work"
  mount -t overlay overlay -o "lowerdir=$image,upperdir=$2/upper,workdir=$2/work" "$1" 2>/dev/null ||
    cp -a "$image/." "$1/"
}
drop_rootfs() { umount "$1" 2>/dev/null || true; rm -rf "$1" "$2"; }
fresh_rootfs "$dir/probe" "$dir/tmpfs/probe"
if mountpoint -q "$dir/probe"; then rootfs_kind="an overlay on the image"; else rootfs_kind="a copy of the image"; fi
drop_rootfs "$dir/probe" "$dir/tmpfs/probe"

# bundle NAME HOOK_JSON: a bundle dir whose config.json has these hooks.
bundle() {
  local bundle=$dir/$1
  mkdir -p "$bundle"
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

# Each variant: its bundle and where its containers' upper layers go.
declare -A bundles=(
  [plain]=$(bundle plain '{}')
  [noop]=$(bundle noop '{"createRuntime": [{"path": "/bin/true", "args": ["true"]}]}')
  [write]=$(bundle write "$(graft_hook "$(with_ldcache_method "$policy" write)")")
  [ldconfig]=$(bundle ldconfig "$(graft_hook "$(with_ldcache_method "$policy" ldconfig)")")
)
bundles[plain-disk]=${bundles[plain]} bundles[write-disk]=${bundles[write]}
declare -A layers=([plain]=tmpfs [noop]=tmpfs [write]=tmpfs [ldconfig]=tmpfs [plain-disk]=disk [write-disk]=disk)
variants=(plain noop write ldconfig)
# floor.c's plan, as bench/floor.sh makes it; its ld cache bytes are those
# graft wrote in the default hook's first (warm-up) create.
floor_state="not measured: the machine's device cgroup is v2, and floor.c writes v1's devices.allow only"
if [ -e "${BENCH_CGROUP:-/nonexistent}/devices.allow" ]; then
  "$GRAFT" --policy "$policy" plan "${REQUEST_ENV[@]}" --format json > "$dir/plan.json"
  python3 "$(dirname "$0")/floor/flatten.py" "$dir/plan.json" > "$dir/actions.tsv"
  bundles[floor]=$(bundle floor "$(printf '{"createRuntime": [{"path": "%s", "args": ["floor", "--hook", "%s", "%s", "%s"]}]}' \
    "$BENCH_BIN/floor" "$dir/actions.tsv" "$BENCH_CGROUP" "$dir/ldcache.bytes")")
  layers[floor]=tmpfs floor_state=measured
  variants+=(floor)
fi
# declarative_policy REAL_RUNTIME: the default hook's policy with graft-runtime
# in declarative mode over REAL_RUNTIME; prints its path.
declarative_policy() {
  local copy=${policy%.toml}-declarative-$(basename "$1").toml
  { cat "$(with_ldcache_method "$policy" write)"
    printf '\n[runtime]\npath = "%s"\nmode = "declarative"\n' "$1"; } > "$copy"
  echo "$copy"
}
# The shim creates through runc, each time from the engine's config.json (kept
# beside it), as a new container's create does. The `edited` bundle is the CDI
# route: its config.json carries the shim's edits already, made once here with
# /bin/true as the real runtime, and runc creates it as it is.
declare -A runtimes=([shim]="$GRAFT_RUNTIME --graft-policy $(declarative_policy "$(command -v runc)")")
bundles[shim]=$(bundle shim '{}')
cp "${bundles[shim]}/config.json" "${bundles[shim]}/config.engine.json"
bundles[edited]=$(bundle edited '{}')
fresh_rootfs "${bundles[edited]}/rootfs" "$dir/tmpfs/edit"
(cd "${bundles[edited]}" && "$GRAFT_RUNTIME" --graft-policy "$(declarative_policy /bin/true)" create edit >/dev/null)
drop_rootfs "${bundles[edited]}/rootfs" "$dir/tmpfs/edit"
layers[shim]=tmpfs layers[edited]=tmpfs
variants+=(shim edited)
toolkit_hook=$(command -v nvidia-container-runtime-hook || true)
if [ -n "$toolkit_hook" ]; then
  bundles[toolkit]=$(bundle toolkit \
    "$(printf '{"prestart": [{"path": "%s", "args": ["nvidia-container-runtime-hook", "prestart"]}]}' "$toolkit_hook")")
  layers[toolkit]=tmpfs
  variants+=(toolkit)
fi
variants+=(plain-disk write-disk)

create_ms() {  # VARIANT ID -> ms
  local ms rootfs=${bundles[$1]}/rootfs layer=$dir/${layers[$1]}/$2
  fresh_rootfs "$rootfs" "$layer"
  [ ! -e "${bundles[$1]}/config.engine.json" ] || cp "${bundles[$1]}/config.engine.json" "${bundles[$1]}/config.json"
  ms=$(cd "${bundles[$1]}" && time_ms ${runtimes[$1]:-runc} --root "$state" create "$2")
  runc --root "$state" delete -f "$2" >/dev/null 2>&1
  [ "$1" != write ] || [ -s "$dir/ldcache.bytes" ] || cp "$rootfs/etc/ld.so.cache" "$dir/ldcache.bytes"
  drop_rootfs "$rootfs" "$layer"
  echo "$ms"
}

for variant in "${variants[@]}"; do
  create_ms "$variant" "warmup-$variant" >/dev/null
  : > "$dir/$variant.txt"
done
# Plain runc create alone ranges over half its median and more from one
# create to the next on the 2-CPU bench machine (13 to 46 ms in one run of
# 30), so this takes six times the rounds of the other benchmarks: the
# median of 90 paired differences still moves by about a millisecond.
# Each round starts one variant later than the last (rotated, lib.sh): plain
# runc had always run first, after the disk rows' deletes.
rounds=$((ROUNDS * 6))
for round in $(seq "$rounds"); do
  for variant in $(rotated "$round" "${variants[@]}"); do
    create_ms "$variant" "bench-$variant-$round" >> "$dir/$variant.txt"
  done
done

# What VARIANT adds to BASE: the median over the rounds of its create minus
# BASE's in the same round. The machine's speed drifts over a run by more than
# a hook costs (one run's medians put graft's hook at 1.07x plain runc, the
# next one's at 1.32x); within a round the drift is shared, so it cancels.
added_to() { paste "$dir/$1.txt" "$dir/$2.txt" | awk '{ printf "%.2f\n", $1 - $2 }' | median; }

declare -A label=([plain]="plain runc" [noop]="runc + a hook that does nothing (\`/bin/true\`)"
                  [write]="runc + \`graft hook\`, ldcache write (default)"
                  [ldconfig]="runc + \`graft hook\`, ldcache ldconfig"
                  [shim]="graft-runtime, declarative mode, then runc (nodes, binds and device rules by runc; \`graft cdi-hook\` the rest)"
                  [edited]="runc, config.json already carrying those edits (as a CDI-aware engine writes them from \`graft cdi generate\`'s spec; the writing not timed)"
                  [toolkit]="runc + nvidia-container-runtime-hook"
                  [floor]="runc + floor.c as the hook (the plan's syscalls and nothing else)"
                  [plain-disk]="plain runc, upper layer on this machine's disk"
                  [write-disk]="runc + \`graft hook\`, ldcache write, upper layer on this machine's disk")
plain=$(median < "$dir/plain.txt")
figure create_plain_ms "$plain"
figure create_plain_middle_half "$(middle_half < "$dir/plain.txt")"
{
  echo "\`runc create\` of a busybox bundle (8-GPU fake host, GPU 1, compute+utility)," \
       "each container on a fresh rootfs ($rootfs_kind, as container engines hand runc one)" \
       "whose upper layer is on a tmpfs unless the row says otherwise;" \
       "$rounds interleaved rounds, milliseconds: each row's median and the middle half of its" \
       "rounds; what it adds is the median of its create minus plain runc's in the same round," \
       "and its ratio is plain runc's median plus that, over plain runc's median;" \
       "the disk rows against plain runc on the disk."
  echo
  row "how the container is created" "create median" "middle half" "added" "ratio to plain runc"
  row "---" "---:" "---:" "---:" "---:"
  for variant in "${variants[@]}"; do
    base=plain name=$variant
    [ "${layers[$variant]}" = tmpfs ] || base=plain-disk
    base_ms=$(median < "$dir/$base.txt")
    added=$(minus "$(added_to "$variant" "$base")" 0)
    times=$(ratio "$(plus "$base_ms" "$added")" "$base_ms")
    row "${label[$variant]}" "$(median < "$dir/$variant.txt")" "$(middle_half < "$dir/$variant.txt")" \
        "$added" "$times"
    if [[ $variant != plain* ]]; then
      figure "create_ratio_${name/-/_}" "$times"
      figure "create_added_${name/-/_}" "$added"
    fi
  done
  [ -n "$toolkit_hook" ] || row "NVIDIA's nvidia-container-runtime-hook" "not installed" "" "" ""
  [ "$floor_state" = measured ] || row "${label[floor]}" "$floor_state" "" "" ""
} > "$RESULTS/create.md"

# Where the default hook's time goes, with the layer on the tmpfs and on the
# disk: graft's phases, medians over its rounds' audit lines. The rest of what
# it adds (graft's process outside the phases, runc running a hook at all) is
# not split by difference: the create medians move by more than that.
python3 - "$dir/host/audit.jsonl" "$dir/phases.tsv" >> "$RESULTS/create.md" <<'EOF'
import json, statistics, sys
audit, figures = sys.argv[1], sys.argv[2]
records = [json.loads(line) for line in open(audit)]
phases = [("inventory", "discovering the inventory"), ("rules", "evaluating the rules"),
          ("plan", "making the plan"), ("load_plugins", "loading the plugins"),
          ("prepare", "prepare (opening the host objects)"),
          ("enter", "entering the container's namespaces"),
          ("apply", "apply (mountpoints, mounts, nodes, symlinks, the ld cache, cgroup writes)"),
          ("finish", "finish")]
medians, rounds = {}, {}
for variant in ("write", "write-disk"):
    times = [r["duration_ms"] for r in records if r.get("id", "").rsplit("-", 1)[0] == "bench-" + variant]
    rounds[variant] = len(times)
    medians[variant] = {name: statistics.median(t[name] for t in times) for name, _ in phases}
    medians[variant]["phases"] = sum(medians[variant].values())
print(f"\nWhere the default hook's time goes: graft's phases from its audit line, medians over the "
      f"{rounds['write']} rounds. The rest of what it adds is graft's process outside these phases "
      f"(start-up, reading the policy, the audit record, exit) and runc running a hook at all.\n")
print("| phase (ms) | upper layer on a tmpfs | on this machine's disk |")
print("| --- | ---: | ---: |")
for name, label in phases + [("phases", "all these phases")]:
    print(f"| {label} | {medians['write'][name]:.2f} | {medians['write-disk'][name]:.2f} |")
with open(figures, "w") as out:
    for variant, prefix in (("write", ""), ("write-disk", "disk_")):
        out.writelines(f"{prefix}{name}\t{ms:.2f}\n" for name, ms in medians[variant].items())
EOF
while IFS=$'\t' read -r name ms; do figure "create_phase_${name}_ms" "$ms"; done < "$dir/phases.tsv"
