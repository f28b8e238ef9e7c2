#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Debian packages (cmake/packaging.cmake), built with `cpack -G DEB` from
# this build tree. graft: its files are exactly what the install rules
# install, less the nvidia-compat component, plus the site policy, which is a
# conffile; graft-nvidia-compat: exactly the nvidia-compat component (the
# program Docker's --gpus runs, its man page and Debian's documentation
# files), providing nvidia-container-runtime-hook, conflicting with NVIDIA's
# package that ships the same file, depending on this graft; graft-dev:
# exactly the dev component (the plugin ABI header), Section libdevel,
# depending on this graft; its control data names the package,
# version, computed Depends and Recommends; every entry is root's and no
# directory or file is group- or world-writable, though the package is built
# under umask 002; the man pages cover every program and subcommand; the
# shell completion scripts are what the packaged graft prints; the hooks.d
# file gives the hook an env of PATH alone. Then, unpacked with `dpkg -x`
# into a scratch root,
# the installed graft runs, checks the shipped site policy, every doc path an
# installed file names is installed, the man pages have FILES, SEE ALSO and
# one command per EXAMPLES line (package-docs-test.sh), and graft hooks a
# runc container (tests/e2e/package_install_test.cpp). Last, installed with
# dpkg in a Debian 12 root of its own and purged: the graft-cdi-refresh units
# are enabled, and purging removes the CDI specs graft wrote and no other.
# Usage: package-test.sh BUILD_DIR E2E_TEST_BINARY
set -euo pipefail
build=$(realpath "$1") e2e=$2

skip() { echo "graft-test skipped: $*"; exit 0; }
fail() { echo "package-test: $*" >&2; exit 1; }
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }

prefix=$(cache CMAKE_INSTALL_PREFIX)
[ "$prefix" = /usr ] ||
  skip "the .deb needs a tree configured with -DCMAKE_INSTALL_PREFIX=/usr (this one has $prefix; tests/scripts/test.sh configures its Release tree so)"
for tool in cpack dpkg-deb dpkg-shlibdeps dpkg-architecture help2man; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (tests/scripts/install-deps.sh)"
done
version=$(cache CMAKE_PROJECT_VERSION)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
scratch=$(mktemp -d /tmp/graft-package-XXXXXX)
trap 'rm -rf "$scratch"' EXIT

# umask 002, as on hosts with user private groups: the package's modes must
# not follow the builder's umask.
(cd "$build" && umask 002 && cpack -G DEB -B "$scratch/out" >"$scratch/cpack.log" 2>&1) ||
  { cat "$scratch/cpack.log" >&2; fail "cpack -G DEB failed"; }
deb=$scratch/out/graft_${version}_$(dpkg --print-architecture).deb
compat_deb=$scratch/out/graft-nvidia-compat_${version}_$(dpkg --print-architecture).deb
dev_deb=$scratch/out/graft-dev_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] && [ -f "$compat_deb" ] && [ -f "$dev_deb" ] ||
  fail "cpack made no $deb, $compat_deb and $dev_deb: $(ls "$scratch/out")"

# Contents: graft has what `cmake --install` installs less the nvidia-compat
# and dev components, and the site policy; graft-nvidia-compat and graft-dev
# their component alone.
DESTDIR="$scratch/reference" cmake --install "$build" >/dev/null
DESTDIR="$scratch/reference" cmake --install "$build" --component site-policy >/dev/null
DESTDIR="$scratch/reference-compat" cmake --install "$build" --component nvidia-compat >/dev/null
DESTDIR="$scratch/reference-dev" cmake --install "$build" --component dev >/dev/null
(cd "$scratch/reference-compat" && find . ! -type d | sort) >"$scratch/expected-compat"
(cd "$scratch/reference-dev" && find . ! -type d | sort) >"$scratch/expected-dev"
(cd "$scratch/reference" && find . ! -type d | sort) | comm -23 - "$scratch/expected-compat" |
  comm -23 - "$scratch/expected-dev" >"$scratch/expected"
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sort >"$scratch/packaged"
diff -u "$scratch/expected" "$scratch/packaged" >&2 ||
  fail "the graft package's files differ from the install rules' (- installed, + packaged)"
dpkg-deb -c "$compat_deb" | awk '$1 !~ /^d/ {print $6}' | sort >"$scratch/packaged-compat"
diff -u "$scratch/expected-compat" "$scratch/packaged-compat" >&2 ||
  fail "graft-nvidia-compat's files differ from the nvidia-compat component's (- installed, + packaged)"
for file in ./usr/bin/nvidia-container-runtime-hook ./usr/libexec/graft/nvidia-container-runtime-hook \
            ./usr/share/man/man1/nvidia-container-runtime-hook.1.gz \
            ./usr/share/doc/graft-nvidia-compat/copyright ./usr/share/doc/graft-nvidia-compat/changelog.gz; do
  grep -qxF "$file" "$scratch/packaged-compat" || fail "graft-nvidia-compat lacks $file"
done
# graft-dev: the plugin ABI header, which graft no longer carries.
dpkg-deb -c "$dev_deb" | awk '$1 !~ /^d/ {print $6}' | sort >"$scratch/packaged-dev"
diff -u "$scratch/expected-dev" "$scratch/packaged-dev" >&2 ||
  fail "graft-dev's files differ from the dev component's (- installed, + packaged)"
for file in ./usr/include/graft/plugin.h ./usr/share/doc/graft-dev/copyright ./usr/share/doc/graft-dev/changelog.gz; do
  grep -qxF "$file" "$scratch/packaged-dev" || fail "graft-dev lacks $file"
done
! grep -q '^\./usr/include/' "$scratch/packaged" || fail "graft ships headers: $(grep '^\./usr/include/' "$scratch/packaged")"
for file in ./usr/bin/graft ./etc/graft/graft.toml ./usr/share/containers/oci/hooks.d/graft.json \
            ./usr/share/graft/policies/nvidia/nvidia.toml ./usr/share/man/man1/graft.1.gz \
            ./usr/share/bash-completion/completions/graft ./usr/share/zsh/vendor-completions/_graft \
            ./usr/share/graft/audit-record.schema.json \
            ./usr/share/doc/graft/{policy,cli,hooks,runtimes,cdi,migrating}.md \
            ./usr/share/doc/graft/{audit-record.schema,plan-schema,verify-schema}.json \
            ./usr/lib/systemd/system/graft-cdi-refresh.service ./usr/lib/systemd/system/graft-cdi-refresh.path \
            "./usr/lib/$multiarch/graft/plugins/"lib{devices,libraries,ipc,procfs,cgroup,ldcache}.so; do
  grep -qxF "$file" "$scratch/packaged" || fail "the package lacks $file"
done
# Owners and modes: root/root, and nothing group- or world-writable (a
# directory such as /usr/share/containers/oci/hooks.d that a group could write
# would let it add hooks that run as root). A symlink's own mode means nothing
# (it is always rwxrwxrwx); its owner still counts.
for package in "$deb" "$compat_deb" "$dev_deb"; do dpkg-deb -c "$package"; done |
  awk '$2 != "root/root" || ($1 !~ /^l/ && (substr($1, 6, 1) == "w" || substr($1, 9, 1) == "w"))' >"$scratch/writable"
[ ! -s "$scratch/writable" ] ||
  fail "entries not root's, or group- or world-writable: $(cat "$scratch/writable")"
for listing in "$scratch/packaged" "$scratch/packaged-compat"; do
  for program in $(grep '^\./usr/bin/' "$listing"); do
    grep -qxF "./usr/share/man/man1/$(basename "$program").1.gz" "$listing" ||
      fail "$program has no man page in its package"
  done
done

# Control data.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = graft ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), not the project's $version"
[ "$(field Recommends)" = "runc | crun" ] || fail "Recommends: $(field Recommends)"
[ -n "$(field Maintainer)" ] && [ -n "$(field Description)" ] || fail "no Maintainer or Description"
# Depends, computed by dpkg-shlibdeps, names the package of every shared
# library the programs load (only glibc's with GRAFT_STATIC_LIBS, the default).
dpkg-deb -x "$deb" "$scratch/unpacked"
for program in graft graft-runtime; do
  loaded=$(ldd "$scratch/unpacked/usr/bin/$program")
  for library in $(awk '/=> \// {print $3}' <<<"$loaded"); do
    owners=$(dpkg -S "$library" 2>/dev/null || true)
    package=$(sed -n '1s/:.*//p' <<<"$owners")
    [ -n "$package" ] || fail "no installed package ships $library, which $program loads"
    field Depends | grep -q "\b$package\b" || fail "Depends lacks $package ($library): $(field Depends)"
  done
done
dpkg-deb -e "$deb" "$scratch/control"
[ "$(cat "$scratch/control/conffiles")" = /etc/graft/graft.toml ] ||
  fail "conffiles: $(cat "$scratch/control/conffiles")"
# graft-nvidia-compat: opted into, one provider of the name at a time.
compat_field() { dpkg-deb -f "$compat_deb" "$1"; }
[ "$(compat_field Package)" = graft-nvidia-compat ] || fail "Package: $(compat_field Package)"
[ "$(compat_field Version)" = "$version" ] || fail "graft-nvidia-compat Version: $(compat_field Version)"
[ "$(compat_field Provides)" = nvidia-container-runtime-hook ] ||
  fail "graft-nvidia-compat Provides: $(compat_field Provides)"
for conflict in nvidia-container-toolkit nvidia-container-runtime-hook; do
  compat_field Conflicts | tr ',' '\n' | grep -qx " *$conflict" ||
    fail "graft-nvidia-compat Conflicts lacks $conflict: $(compat_field Conflicts)"
done
compat_field Depends | tr ',' '\n' | grep -qx " *graft (= $version)" ||
  fail "graft-nvidia-compat Depends lacks graft (= $version): $(compat_field Depends)"
dpkg-deb -e "$compat_deb" "$scratch/control-compat"
[ ! -e "$scratch/control-compat/conffiles" ] || fail "graft-nvidia-compat has conffiles"
# graft-dev: the ABI of this graft, for plugins built outside its tree.
dev_field() { dpkg-deb -f "$dev_deb" "$1"; }
[ "$(dev_field Package)" = graft-dev ] || fail "Package: $(dev_field Package)"
[ "$(dev_field Version)" = "$version" ] || fail "graft-dev Version: $(dev_field Version)"
[ "$(dev_field Section)" = libdevel ] || fail "graft-dev Section: $(dev_field Section)"
[ -z "$(dev_field Recommends)" ] || fail "graft-dev Recommends: $(dev_field Recommends)"
dev_field Depends | tr ',' '\n' | grep -qx " *graft (= $version)" ||
  fail "graft-dev Depends lacks graft (= $version): $(dev_field Depends)"
# graft's description names the ways it reaches containers, in plain words.
# (Read once: `field ... | grep -q` under pipefail fails when grep exits at
# its first match and dpkg-deb gets SIGPIPE.)
description=$(field Description)
for word in graft-runtime Docker containerd podman CDI; do
  grep -qw -- "$word" <<<"$description" || fail "graft's Description does not name $word: $description"
done

# The copyright file is DEP-5 and licenses graft under Apache-2.0, with
# the license's text where Debian keeps it.
copyright=$(cat "$scratch/unpacked/usr/share/doc/graft/copyright")
grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' <<<"$copyright" ||
  fail "graft's copyright file is not DEP-5"
grep -qx 'License: Apache-2.0' <<<"$copyright" || fail "graft's copyright file does not name Apache-2.0"
grep -qF '/usr/share/common-licenses/Apache-2.0' <<<"$copyright" ||
  fail "graft's copyright file does not point to /usr/share/common-licenses/Apache-2.0"

# Debian's own checks: lintian finds no error (warnings are printed, not fatal).
changelog_version=$(zcat "$build/debian/changelog.gz" | sed -n '1s/^graft (\([^)]*\)).*/\1/p')
[ "$changelog_version" = "$version" ] ||
  fail "cmake/debian/changelog's newest entry is $changelog_version, not the project's $version"
if command -v lintian >/dev/null; then
  lintian --allow-root --tag-display-limit 0 "$deb" "$compat_deb" "$dev_deb" >"$scratch/lintian.log" 2>&1 || true
  cat "$scratch/lintian.log"
  ! grep -q '^E: ' "$scratch/lintian.log" || fail "lintian reports errors"
else
  echo "package-test: lintian is not installed; Debian's package checks not run (tests/scripts/install-deps.sh --tests)"
fi

# Unpacked: the installed graft, its hooks.d file, its man page.
root=$scratch/root
dpkg -x "$deb" "$root"
dpkg -x "$compat_deb" "$root"
dpkg -x "$dev_deb" "$root"
graft=$root/usr/bin/graft
[ "$("$graft" --version)" = "graft $version" ] || fail "graft --version: $("$graft" --version)"
compat_version=$("$root/usr/bin/nvidia-container-runtime-hook" -version)
[ "$compat_version" = "nvidia-container-runtime-hook (graft $version)" ] ||
  fail "nvidia-container-runtime-hook -version: $compat_version"
python3 - "$root/usr/share/containers/oci/hooks.d/graft.json" <<'PY' ||
import json, sys
hook = json.load(open(sys.argv[1]))["hook"]
sys.exit(hook.get("path") != "/usr/bin/graft" or
         hook.get("env") != ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"])
PY
  fail "the hooks.d file does not run /usr/bin/graft with an env of PATH alone"
man_page=$(zcat "$root/usr/share/man/man1/graft.1.gz")
for command in $("$graft" --help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z-]*\).*/\1/p'); do
  grep -qF ".SS \"graft $command\"" <<<"$man_page" || fail "graft.1 lacks the $command command"
done
# Its completion scripts are what it prints: generated from its own commands.
for shell in bash zsh; do
  [ "$shell" = bash ] && script=$root/usr/share/bash-completion/completions/graft ||
    script=$root/usr/share/zsh/vendor-completions/_graft
  "$graft" completion "$shell" | cmp -s - "$script" ||
    fail "$script is not what the packaged graft completion $shell prints"
done
# What the installed files point a reader to, and the man pages' sections.
bash "$(dirname "$0")/package-docs-test.sh" "$root" ||
  fail "the packages name documentation they do not install, or a man page lacks a section"
# It takes what it ships from where it is installed, not from this build.
where=$("$graft" version)
[ "$(realpath "$(sed -n 's/^policies *//p' <<<"$where")")" = "$root/usr/share/graft/policies" ] &&
  [ "$(realpath "$(sed -n 's/^plugins *//p' <<<"$where")")" = "$root/usr/lib/$multiarch/graft/plugins" ] ||
  fail "graft version: $where"
# Offline: this build machine has no driver for the host check to find.
"$graft" --policy "$root/etc/graft/graft.toml" policy check --offline >"$scratch/check.log" 2>&1 ||
  { cat "$scratch/check.log" >&2; fail "graft policy check fails on the shipped /etc/graft/graft.toml"; }
# The shipped site policy shows every section a site sets (commented out
# but [requests]), and every [host] root.
site_policy=$root/etc/graft/graft.toml
for section in host plugins requests defaults discovery forward_compat runtime cdi audit limits sample.team-a data.imex_channels; do
  grep -qE "^(# )?\[${section//./\\.}\]$" "$site_policy" || fail "the shipped graft.toml lacks a [$section] section"
done
for key in driver_root dev_root proc_root sys_root run_root; do
  grep -qE "^# $key = " "$site_policy" || fail "the shipped graft.toml's [host] lacks $key"
done

# Installed with dpkg and purged, in the systemd test host's cached Debian 12
# root under an overlay (nothing reaches the cache or this machine): the
# units are enabled; the installed graft writes its spec to /var/run/cdi and
# /etc/cdi for a fake GPU host; foreign specs lie beside them, one of them at
# graft's own name; `dpkg --purge graft` removes graft's two and leaves the
# rest byte for byte.
purge_test() {
  local rootfs merged=$scratch/purge/merged
  rootfs=$(bash "$(dirname "$0")/systemd-host-rootfs.sh" "$root/usr/bin/graft" "$root/usr/bin/graft-runtime" \
             "$root/usr/lib/$multiarch/graft/plugins" 2>"$scratch/rootfs.log") || {
    [ $? -eq 77 ] && { echo "package-test: purge not checked: $(tail -n 1 "$scratch/rootfs.log")"; return 0; }
    cat "$scratch/rootfs.log" >&2; fail "tests/scripts/systemd-host-rootfs.sh failed"; }
  mkdir -p "$scratch/purge/upper" "$scratch/purge/work" "$merged"
  cp "$deb" "$scratch/purge/graft.deb"
  "$build/tests/graft-fake-host" "$scratch/purge/gpu-host" 2 >/dev/null
  unshare --mount --propagation private bash -euo pipefail -s "$rootfs" "$scratch/purge" >"$scratch/purge.log" 2>&1 <<'INNER' ||
rootfs=$1 work=$2 merged=$2/merged
mount -t overlay overlay -o "lowerdir=$rootfs,upperdir=$work/upper,workdir=$work/work" "$merged"
mount -t proc proc "$merged/proc"
mount -t tmpfs tmpfs "$merged/dev" && mknod -m 666 "$merged/dev/null" c 1 3
# The fake host at its own path inside, as its policy and links name it.
mkdir -p "$merged$work/gpu-host" && mount --bind "$work/gpu-host" "$merged$work/gpu-host"
cp "$work/graft.deb" "$merged/tmp/graft.deb"
in_root() { chroot "$merged" "$@"; }
# A path inside, seen from outside: the root's /var/run is a link to /run,
# which outside would be this machine's own.
inside() { echo "$merged${1/#\/var\/run\//\/run\/}"; }
in_root dpkg -i /tmp/graft.deb
for unit in graft-cdi-refresh.service graft-cdi-refresh.path; do
  [ -L "$merged/etc/systemd/system/multi-user.target.wants/$unit" ] || { echo "$unit is not enabled"; exit 1; }
done
mkdir -p "$merged/srv"
printf 'include = ["nvidia"]\n[host]\n' >"$merged/srv/policy.toml"
for key in driver_root dev_root proc_root sys_root run_root; do
  echo "$key = \"$work/gpu-host\"" >>"$merged/srv/policy.toml"
done
mkdir -p "$merged/run/cdi"
in_root graft --policy /srv/policy.toml cdi generate --output /var/run/cdi/graft.json
in_root graft --policy /srv/policy.toml cdi refresh --output /etc/cdi/graft.json
for spec in /var/run/cdi/graft.json /etc/cdi/graft.json; do
  [ -f "$(inside "$spec")" ] || { echo "the installed graft wrote no $spec"; exit 1; }
done
foreign='{"cdiVersion": "0.5.0", "kind": "nvidia.com/gpu", "devices": [], "containerEdits": {"hooks":
  [{"hookName": "createContainer", "path": "/usr/bin/nvidia-cdi-hook", "args": ["nvidia-cdi-hook", "update-ldcache"]}]}}'
for spec in /var/run/cdi/nvidia.json /etc/cdi/nvidia.json /etc/cdi/graft.yaml; do
  echo "$foreign" >"$(inside "$spec")"
done
in_root dpkg --purge graft
for spec in /var/run/cdi/graft.json /etc/cdi/graft.json; do
  [ ! -e "$(inside "$spec")" ] || { echo "purge left graft's $spec"; exit 1; }
done
for spec in /var/run/cdi/nvidia.json /etc/cdi/nvidia.json /etc/cdi/graft.yaml; do
  [ "$(cat "$(inside "$spec")")" = "$foreign" ] || { echo "purge changed or removed the foreign $spec"; exit 1; }
done
[ ! -e "$merged/etc/systemd/system/multi-user.target.wants/graft-cdi-refresh.path" ] ||
  { echo "purge left graft-cdi-refresh.path enabled"; exit 1; }
INNER
    { cat "$scratch/purge.log" >&2; fail "install, generate and purge in a Debian root"; }
  echo "package-test: dpkg -i enables the graft-cdi-refresh units; dpkg --purge removes graft's specs and no other"
}
purge_test

# A hooked runc container with the installed graft and its plugins.
GRAFT_E2E_INSTALLED_ROOT=$root "$e2e" "[package]" >"$scratch/e2e.log" 2>&1 ||
  { cat "$scratch/e2e.log" >&2; fail "the installed graft did not hook a runc container"; }
if grep -q "graft-test skipped:" "$scratch/e2e.log"; then
  grep "graft-test skipped:" "$scratch/e2e.log"
  exit 0
fi
grep -q "All tests passed" "$scratch/e2e.log" || { cat "$scratch/e2e.log" >&2; fail "no container case ran"; }
tail -n 2 "$scratch/e2e.log"
echo "package-test: $(basename "$deb"), $(basename "$compat_deb"), $(basename "$dev_deb"): contents, control, conffiles, man pages, --version, policy check and a hooked runc container"
