#!/usr/bin/env bash
# Installs what graft builds and tests with, from Debian packages only.
# Idempotent and quick when everything is already there.
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  liblua5.4-dev libtomlplusplus-dev libspdlog-dev libfmt-dev nlohmann-json3-dev
  libcli11-dev catch2
  python3-jsonschema   # validates `graft plan --format json` against docs/plan-schema.json
  runc crun            # the end-to-end tests start real containers with graft as their hook
  busybox-static       # the containers' userland, built into OCI bundles by the tests
  util-linux           # unshare, for runc in cgroup v2 mode
  inotify-tools        # inotifywait: proves from the host that a planted node is never opened
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "graft: missing packages (${missing[*]}); run as root or install them first" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
