# SPDX-License-Identifier: Apache-2.0
# report.sh (sourced by real-gpu.sh): one line per check, and the summary.
#   ok NAME            ok   NAME
#   fail NAME WHY      FAIL NAME: first line of WHY, its other lines indented
#   skip NAME WHY      SKIP NAME: WHY
passed=0 failed=0 skipped=0

ok() {
  passed=$((passed + 1))
  echo "ok   $1"
}

fail() {
  failed=$((failed + 1))
  local first rest
  first=$(head -n 1 <<<"$2") rest=$(tail -n +2 <<<"$2")
  echo "FAIL $1: $first"
  [ -z "$rest" ] || sed 's/^/       /' <<<"$rest"
}

skip() {
  skipped=$((skipped + 1))
  echo "SKIP $1: $2"
}

# The summary line; exits 1 if a check failed.
summary() {
  echo "real-gpu: $passed ok, $failed failed, $skipped skipped"
  [ "$failed" = 0 ] || exit 1
  exit 0
}

# A PCI bus id as procfs writes it: lower case, a domain of 4 digits
# (nvidia-smi writes 00000000:1B:00.0, procfs and CUDA 0000:1b:00.0).
normal_bus_id() {
  awk '{ id = tolower($0); n = split(id, part, ":")
         if (n == 3) { d = part[1]; sub(/^0+/, "", d); while (length(d) < 4) d = "0" d
                       id = d ":" part[2] ":" part[3] }
         print id }' <<<"$1"
}
