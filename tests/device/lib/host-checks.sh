# SPDX-License-Identifier: Apache-2.0
# host-checks.sh (sourced by real-gpu.sh): `graft inventory` and `graft cdi
# generate` against what the driver itself says: its procfs, nvidia-smi and
# its library files. Uses graft, work, the *_root variables and fake.

# The site policy: the installed NVIDIA policy, the host roots given, then
# the tables of --policy-extra (a layout's [discovery] settings, say).
write_site_policy() {
  site=$work/site.toml
  {
    echo 'include = ["nvidia"]'
    echo '[host]'
    for root in driver dev proc sys run; do
      local var=${root}_root
      echo "${root}_root = \"${!var}\""
    done
    [ -z "$policy_extra" ] || cat "$policy_extra"
  } >"$site"
}

# Runs `graft inventory` once; the checks below read what it printed:
# inventory_version, and $work/inventory-gpus ("index minor uuid bus" lines).
check_inventory_runs() {
  local name="graft inventory runs with the installed policy and plugins"
  inventory=$work/inventory.txt
  if ! "$graft" --policy "$site" inventory >"$inventory" 2>"$work/inventory.err"; then
    fail "$name" "$(cat "$work/inventory.err")"
  elif ! grep -q '^GPU ' "$inventory"; then
    fail "$name" "it lists no GPU"$'\n'"$(cat "$inventory")"
  else
    ok "$name ($(grep -c '^GPU ' "$inventory") GPUs, $(grep -c '^library ' "$inventory") libraries)"
  fi
  inventory_version=$(awk '$1 == "driver" {print $2}' "$inventory")
  awk '$1 == "GPU" {print $2, $4, $5, $6}' "$inventory" >"$work/inventory-gpus"
}

check_driver_version_procfs() {
  local name="inventory: the driver version is the kernel module's" file=$proc_root/proc/driver/nvidia/version
  local version
  version=$(sed -nE 's/.*Kernel Module( for [^ ]+)?[[:space:]]+([0-9]+(\.[0-9]+)+).*/\2/p' "$file" 2>/dev/null | head -n 1)
  if [ -z "$version" ]; then
    fail "$name" "no version in $file"
  elif [ "$version" != "$inventory_version" ]; then
    fail "$name" "inventory says '$inventory_version', $file says $version"
  else
    ok "$name ($version)"
  fi
}

# "minor uuid bus" of every GPU the driver's procfs lists, by minor.
procfs_gpus() {
  local info
  for info in "$proc_root"/proc/driver/nvidia/gpus/*/information; do
    [ -f "$info" ] || continue
    local minor uuid bus
    minor=$(sed -n 's/^Device Minor:[[:space:]]*//p' "$info")
    uuid=$(sed -n 's/^GPU UUID:[[:space:]]*//p' "$info")
    bus=$(sed -n 's/^Bus Location:[[:space:]]*//p' "$info")
    echo "$minor $uuid $(normal_bus_id "$bus")"
  done | sort -n
}

check_gpus_procfs() {
  local name="inventory: GPUs (minor, UUID, bus id) are the ones in /proc/driver/nvidia/gpus"
  local expected found
  expected=$(procfs_gpus)
  found=$(while read -r _ minor uuid bus; do echo "$minor $uuid $(normal_bus_id "$bus")"; done \
            <"$work/inventory-gpus" | sort -n)
  if [ -z "$expected" ]; then
    fail "$name" "no GPU under $proc_root/proc/driver/nvidia/gpus"
  elif [ "$expected" != "$found" ]; then
    fail "$name" "procfs:"$'\n'"$expected"$'\n'"inventory:"$'\n'"$found"
  else
    ok "$name ($(wc -l <<<"$expected"))"
  fi
}

# The inventory's path of a binary or library, e.g. `inventory_path binary nvidia-smi`.
inventory_path() {
  awk -v kind="$1" -v name="$2" '$1 == kind && $NF != "(32-bit)" {
      path = (kind == "library") ? $3 : $2; n = split(path, p, "/")
      if (p[n] == name || index(p[n], name ".") == 1) { print path; exit } }' "$inventory"
}

# "driver V", "count N" and "gpu BUS UUID" lines, sorted, from `nvidia-smi -q`
# ("GPU 00000000:19:00.0" opens a GPU's section; its first "GPU UUID" is its own).
smi_report_facts() {
  awk '/^Driver Version/ {print "driver", $NF} /^Attached GPUs/ {print "count", $NF}
       /^GPU [0-9A-Fa-f]+:/ {bus = $2}
       /^[[:space:]]+GPU UUID[[:space:]]*:/ && !seen[bus]++ {print "gpu", bus, $NF}' "$1" |
    while read -r kind a b; do
      [ "$kind" = gpu ] && echo "gpu $(normal_bus_id "$a") $b" || echo "$kind $a"
    done | sort
}

# The same facts from the inventory.
inventory_facts() {
  {
    echo "driver $inventory_version"
    echo "count $(wc -l <"$work/inventory-gpus")"
    while read -r _ _ uuid bus; do echo "gpu $(normal_bus_id "$bus") $uuid"; done <"$work/inventory-gpus"
  } | sort
}

check_against_nvidia_smi() {
  local name="inventory: driver version, GPU count, bus ids and UUIDs are what nvidia-smi -q says"
  local smi nvml library_path=${LD_LIBRARY_PATH:-}
  smi_answers=0
  # The nvidia-smi and NVML the inventory found; else the ones on PATH.
  smi=$(inventory_path binary nvidia-smi) nvml=$(inventory_path library libnvidia-ml.so)
  [ -n "$smi" ] && [ -n "$nvml" ] && library_path=$(dirname "$nvml") || smi=$(command -v nvidia-smi)
  if [ -z "$smi" ]; then
    fail "$name" "neither the inventory nor PATH has an nvidia-smi"
    return
  fi
  LD_LIBRARY_PATH=$library_path "$smi" -q >"$work/smi-q.txt" 2>&1
  local status=$?
  if [ "$fake" = 1 ] && ! grep -q '^Driver Version' "$work/smi-q.txt"; then
    skip "$name" "the fake host's nvidia-smi is a stand-in that prints no -q report"
    return
  elif [ "$status" != 0 ]; then
    fail "$name" "$smi -q failed:"$'\n'"$(head -n 5 "$work/smi-q.txt")"
    return
  fi
  smi_answers=1
  local said found
  said=$(smi_report_facts "$work/smi-q.txt") found=$(inventory_facts)
  if [ "$said" != "$found" ]; then
    fail "$name" "nvidia-smi -q:"$'\n'"$said"$'\n'"inventory:"$'\n'"$found"
  else
    ok "$name"
  fi
}

# Directories the driver's libraries may be in: where the inventory found
# them, and the usual library directories of the driver root.
library_dirs() {
  local dir
  awk '$1 == "library" {print $3}' "$inventory" | xargs -r -n 1 dirname
  for dir in lib lib64 lib32 usr/lib usr/lib64 usr/lib32 usr/local/lib usr/local/nvidia/lib \
             usr/local/nvidia/lib64 lib/*-linux-gnu usr/lib/*-linux-gnu; do
    [ -d "$driver_root/$dir" ] && echo "$driver_root/$dir"
  done
}

# Every lib*.so.<driver version> file in those directories is the driver's
# own: each must be what the inventory found, or on left-out-libraries.txt.
check_driver_libraries() {
  local name="inventory: every library of the driver's version is found, or left out on purpose"
  [ -n "$inventory_version" ] || { fail "$name" "the inventory has no driver version"; return; }
  local found_real files missing="" left_out="" count=0 file
  found_real=$(awk '$1 == "library" {print $3}' "$inventory" | xargs -r realpath -e 2>/dev/null | sort -u)
  files=$(library_dirs | sort -u | while read -r dir; do
            find "$dir" -maxdepth 1 -name "lib*.so.$inventory_version" ! -type d 2>/dev/null
          done | xargs -r realpath -e | sort -u)
  for file in $files; do
    count=$((count + 1))
    grep -qxF "$file" <<<"$found_real" && continue
    local stem
    stem=$(basename "$file") stem=${stem%.so.*}.so
    if grep -q "^$stem[[:space:]]" "$here/left-out-libraries.txt"; then
      left_out="$left_out $stem"
    else
      missing="$missing"$'\n'"$file"
    fi
  done
  if [ "$count" = 0 ]; then
    fail "$name" "no lib*.so.$inventory_version under $driver_root's library directories"
  elif [ -n "$missing" ]; then
    fail "$name" "not found by graft, and not on tests/device/left-out-libraries.txt:$missing"
  else
    ok "$name ($count files;$([ -n "$left_out" ] && echo " left out:$left_out" || echo " none left out"))"
  fi
}

check_cdi_spec() {
  local name="graft cdi generate writes a spec that graft cdi validate accepts, naming every GPU"
  local spec=$work/cdi.json
  if ! "$graft" --policy "$site" cdi generate --output "$spec" >"$work/cdi.err" 2>&1; then
    fail "$name" "generate: $(cat "$work/cdi.err")"
  elif ! "$graft" --policy "$site" cdi validate "$spec" >"$work/cdi.err" 2>&1; then
    fail "$name" "validate: $(cat "$work/cdi.err")"
  else
    local uuid unnamed=""
    for uuid in $(awk '{print $3}' "$work/inventory-gpus"); do
      grep -q "\"name\": *\"$uuid\"" "$spec" || unnamed="$unnamed $uuid"
    done
    [ -z "$unnamed" ] && ok "$name" || fail "$name" "no device named$unnamed in $spec"
  fi
}

# cuda-probe run on the host itself, without graft, on the carried glibc
# (through its own loader) and the driver's libcuda.so.1: it tells a host or
# driver problem from graft's. As any first CUDA program on a host does, it
# may load nvidia-uvm and make /dev/nvidia-uvm (libcuda runs nvidia-modprobe).
# On the fake host, only `lookup` can run: the fake libcuda.so.1 has no cuInit.
check_cuda_on_host() {
  local name="host: a CUDA program computes the vector add on the GPU without graft"
  local libcuda loader multiarch mode=compute
  libcuda=$(inventory_path library libcuda.so)
  [ -n "$libcuda" ] || { fail "$name" "the inventory has no libcuda.so"; return; }
  loader=$(ls "$probe_root"/lib*/ld-linux*.so.* 2>/dev/null | head -n 1)
  multiarch=$(cd "$probe_root/lib" && ls -d -- *-linux-gnu 2>/dev/null | head -n 1)
  [ "$fake" = 1 ] && mode=lookup
  "$loader" --library-path "$probe_root/lib/$multiarch:$(dirname "$libcuda")" \
    "$probe_root/usr/local/bin/cuda-probe" "$mode" >"$work/host-cuda.out" 2>&1
  local status=$? loaded
  loaded=$(sed -n 's/^libcuda\.so\.1: //p' "$work/host-cuda.out")
  if [ "$status" != 0 ] || [ "$(realpath "$loaded" 2>/dev/null)" != "$(realpath "$libcuda")" ]; then
    fail "$name" "cuda-probe $mode exited $status, loading '$loaded' (the inventory's: $libcuda):"$'\n'"$(cat "$work/host-cuda.out")"
  elif [ "$fake" = 1 ]; then
    skip "$name" "the fake driver's libcuda.so.1 has no cuInit (the probe loaded it: $loaded)"
  elif grep -qx 'vector add: 4096 of 4096 sums right' "$work/host-cuda.out"; then
    ok "$name ($(sed -n 's/^device 0: //p' "$work/host-cuda.out"))"
  else
    fail "$name" "$(cat "$work/host-cuda.out")"
  fi
}
