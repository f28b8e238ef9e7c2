#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The root filesystem of the systemd test host (tests/e2e/harness/systemd_host.hpp):
# Debian 12 debootstrapped (minbase) with systemd as init, dbus, runc and the
# packages that hold the shared libraries of the programs named on the
# command line (graft, graft-runtime, the plugins), so those run inside it
# as they are built here. Built once and cached, keyed by that package list:
#   $GRAFT_SYSTEMD_HOST_CACHE (default /var/cache/graft/systemd-host)/<key>/rootfs
# Prints the rootfs's path. Idempotent and safe to run concurrently (flock):
# a second caller waits for the first's build and then uses it. A tree of
# another key goes once no test has used it for a week; downloaded .debs
# stay in <cache>/debs, so a new key costs little. Needs root, debootstrap
# and a Debian mirror: $GRAFT_DEBIAN_MIRROR, else the one this machine's apt
# reads bookworm from (apt_mirror below).
# Exits 77 (with the reason on stderr) where it cannot build the rootfs.
#   systemd-host-rootfs.sh [PROGRAM|LIBRARY|DIRECTORY ...]
set -euo pipefail

cache=${GRAFT_SYSTEMD_HOST_CACHE:-/var/cache/graft/systemd-host}
suite=bookworm
base_packages=(systemd systemd-sysv dbus runc)

skip() { echo "graft-test skipped: $*" >&2; exit 77; }

[ "$(id -u)" -eq 0 ] || skip "building the systemd host's root filesystem needs root"
command -v debootstrap >/dev/null ||
  skip "debootstrap is not installed (tests/scripts/install-deps.sh --tests)"

# "SUITE URI" for each `deb` entry of a one-line sources file (sources.list,
# *.list): `deb [OPTIONS] URI SUITE COMPONENTS...`, comments from '#'.
one_line_entries() {
  awk '{ sub(/#.*/, ""); gsub(/\[[^]]*\]/, "") } $1 == "deb" && NF >= 3 { print $3, $2 }'
}

# The same for a deb822 file (*.sources): paragraphs of `Field: values`,
# continued on indented lines; each of its URIs with each of its suites,
# unless `Enabled: no`. Field names are case-insensitive.
deb822_entries() {
  awk '
    function flush(   n, m, i, j, uri, suites) {
      if ((" " f["types"] " ") ~ / deb / && tolower(f["enabled"]) !~ /^ *no *$/) {
        n = split(f["uris"], uri, " "); m = split(f["suites"], suites, " ")
        for (i = 1; i <= m; i++) for (j = 1; j <= n; j++) print suites[i], uri[j]
      }
      delete f; key = ""
    }
    /^#/ { next }
    /^[ \t]*$/ { flush(); next }
    /^[ \t]/ { if (key != "") f[key] = f[key] " " $0; next }
    { key = tolower(substr($0, 1, index($0, ":") - 1)); f[key] = substr($0, index($0, ":") + 1) }
    END { flush() }'
}

# The mirror this machine's apt reads $suite from, found where apt looks:
# Dir::Etc::sourcelist, then Dir::Etc::sourceparts (*.list and *.sources,
# in name order). The first `deb` entry of the suite whose URI debootstrap
# can fetch (http, https, file); nothing when there is none.
apt_mirror() {
  command -v apt-config >/dev/null || return 0
  local list="" parts="" file
  eval "$(apt-config shell list Dir::Etc::sourcelist/f parts Dir::Etc::sourceparts/d)"
  {
    [ -f "$list" ] && one_line_entries <"$list"
    for file in "$parts"/*; do
      case $file in
        *.list) one_line_entries <"$file" ;;
        *.sources) deb822_entries <"$file" ;;
      esac
    done
  } | awk -v suite="$suite" '!found && $1 == suite && $2 ~ /^(https?|file):/ { print $2; found = 1 }'
}

# The Debian packages that hold the libraries the given programs load (a
# directory stands for the shared objects in it).
library_packages() {
  local files=() arg
  for arg in "$@"; do
    if [ -d "$arg" ]; then files+=("$arg"/*.so); else files+=("$arg"); fi
  done
  [ ${#files[@]} -gt 0 ] || return 0
  ldd "${files[@]}" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
    while read -r library; do
      dpkg-query -S "$library" 2>/dev/null || dpkg-query -S "$(readlink -f "$library")" 2>/dev/null ||
        echo "graft: no package holds $library" >&2
    done | cut -d: -f1 | sort -u
}

mapfile -t packages < <(printf '%s\n' "${base_packages[@]}" $(library_packages "$@") | sort -u)
key=$(printf '%s\n' "$suite" minbase "${packages[@]}" | sha256sum | cut -c1-16)
target=$cache/$key

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ -f "$target/complete" ]; then
  touch "$target/complete"  # in use: see the clean-up below
  echo "$target/rootfs"
  exit 0
fi

# debootstrap mounts /proc and /sys in the target while it installs; a run
# that fails half-way can leave them there.
unmount_under() {
  findmnt -rn -o TARGET | awk -v dir="$1/" 'index($0, dir) == 1' | sort -r |
    while read -r mount_point; do umount -l "$mount_point" || true; done
}

# A build that failed a short while ago fails the same way now (a machine
# without the mirror): every test that needs the tree asks, and each
# attempt would otherwise wait on the network again.
failed=$cache/$key.failed
if [ -n "$(find "$failed" -mmin -30 2>/dev/null)" ]; then
  skip "$(cat "$failed") (not retried for 30 minutes: remove $failed to retry now)"
fi

# Only a build needs the mirror: a cached tree serves a machine without one.
mirror=${GRAFT_DEBIAN_MIRROR:-$(apt_mirror)}
[ -n "$mirror" ] ||
  skip "no Debian $suite mirror: apt's sources (Dir::Etc::sourcelist, Dir::Etc::sourceparts) name none" \
       "for $suite; set GRAFT_DEBIAN_MIRROR"

building=$cache/$key.building
unmount_under "$building"
rm -rf "$building"
mkdir -p "$building" "$cache/debs"
log=$cache/$key.log
include=$(IFS=,; echo "${packages[*]}")
echo "graft: debootstrapping the systemd test host ($include) into $target; log in $log" >&2
# wget's own defaults wait 15 minutes on a mirror that does not answer.
wgetrc=$(mktemp)
printf 'timeout = 30\ntries = 3\n' >"$wgetrc"
if ! WGETRC=$wgetrc debootstrap --variant=minbase --include="$include" --cache-dir="$cache/debs" \
     "$suite" "$building/rootfs" "$mirror" >"$log" 2>&1; then
  rm -f "$wgetrc"
  unmount_under "$building"
  rm -rf "$building"
  echo "debootstrap of Debian $suite from $mirror failed: $(tail -n 1 "$log")" >"$failed"
  skip "$(cat "$failed")"
fi
rm -f "$wgetrc" "$failed"
unmount_under "$building"
# Index files and man pages nothing here reads: a smaller tree to cache.
rm -rf "$building/rootfs/var/cache/apt/"*.bin "$building/rootfs/var/lib/apt/lists/"* \
       "$building/rootfs/usr/share/man" "$building/rootfs/usr/share/doc" "$building/rootfs/usr/share/locale"
# Another key's tree may be in use by another build tree's tests: only one
# no test has used for a week goes.
find "$cache" -mindepth 2 -maxdepth 2 -name complete -mtime +7 -printf '%h\n' | xargs -r rm -rf
touch "$building/complete"
mv "$building" "$target"
echo "$target/rootfs"
