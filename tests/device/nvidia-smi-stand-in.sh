#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A stand-in for nvidia-smi on the fake host (fake-host-test.sh installs it
# as the fake driver's usr/bin/nvidia-smi): `-q` and `-L` in the real one's
# format, with its upper-case, 8-digit-domain bus ids, from the driver's
# procfs two directories above it (the fake host's on the host, the
# container's own /proc once graft mounted it at /usr/bin). POSIX sh and sed
# only, so it also runs on the container's busybox.
procfs=${0%/*}/../../proc/driver/nvidia
field() { sed -n "s/^$1:[[:space:]]*//p" "$2"; }

list() {
  index=0
  for info in "$procfs"/gpus/*/information; do
    [ -f "$info" ] || continue
    echo "GPU $index: $(field Model "$info") (UUID: $(field 'GPU UUID' "$info"))"
    index=$((index + 1))
  done
}

query() {
  version=$(sed -n 's/.*Kernel Module[[:space:]]*\([0-9.]*\).*/\1/p' "$procfs/version")
  count=0
  for info in "$procfs"/gpus/*/information; do [ -f "$info" ] && count=$((count + 1)); done
  printf '\n==============NVSMI LOG==============\n\n'
  printf '%-42s: %s\n' "Timestamp" "Fri Nov 27 23:55:01 2026" "Driver Version" "$version" \
    "CUDA Version" "12.6"
  printf '\n%-42s: %s\n' "Attached GPUs" "$count"
  for info in "$procfs"/gpus/*/information; do
    [ -f "$info" ] || continue
    bus=$(field 'Bus Location' "$info" | sed 'y/abcdef/ABCDEF/')
    echo "GPU 0000$bus"
    printf '    %-38s: %s\n' "Product Name" "$(field Model "$info")" "Product Brand" "NVIDIA" \
      "Persistence Mode" "Enabled" "GPU UUID" "$(field 'GPU UUID' "$info")" \
      "Minor Number" "$(field 'Device Minor' "$info")"
    # A MIG device's UUID under its GPU: only the GPU's own UUID line counts.
    printf '    MIG Device\n        %-34s: %s\n' "GPU UUID" "MIG-00000000-0000-0000-0000-000000000000"
    echo
  done
}

case ${1:-} in
  -L) list ;;
  -q) query ;;
  *) echo "nvidia-smi stand-in: only -q and -L" >&2; exit 2 ;;
esac
