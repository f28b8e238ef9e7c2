#!/bin/sh
# node-agent.sh: what the graft DaemonSet runs on each GPU node (daemonset.yaml);
# the image has it as /usr/local/bin/graft-node-agent (Containerfile).
#
# 1. copies graft's installed tree (the image's $IMAGE_TREE) to the host as
#    /opt/graft/releases/<version> and points the symlink /opt/graft/current
#    at it, so runtimes on the host run /opt/graft/current/bin/graft;
# 2. writes the site policy from the ConfigMap (mounted at $POLICY_SOURCE) to
#    the host's /etc/graft, after `graft policy check` accepted it: a policy
#    that does not load never replaces one that does;
# 3. loops: when the driver version (/proc/driver/nvidia/version) or the
#    policy changed, or the CDI spec is missing, regenerates the node's CDI
#    spec /var/run/cdi/graft.json with the graft just installed on the host
#    (`cdi generate --host-root`): it reads the driver's files through the
#    read-only host root mounted at $HOST_ROOT and names the host's own
#    paths, its hooks the host's graft and /etc/graft/graft.toml.
#
# Every file and the symlink are written beside their target and renamed over
# it, so a runtime reading one mid-update sees the old one or the new one.
# ONCE=1 runs one pass and exits (a Job, or a test).
set -eu

IMAGE_TREE=${IMAGE_TREE:-/opt/graft/current}   # graft as installed in the image
HOST_ROOT=${HOST_ROOT:-/host}                  # where the host paths are mounted
POLICY_SOURCE=${POLICY_SOURCE:-/config}        # the ConfigMap volume
INTERVAL=${INTERVAL:-30}                       # seconds between checks
ONCE=${ONCE:-}                                 # set: one pass, then exit

host_graft=$HOST_ROOT/opt/graft
host_policy=$HOST_ROOT/etc/graft
driver_version_file=$HOST_ROOT/proc/driver/nvidia/version
cdi_spec=$HOST_ROOT/var/run/cdi/graft.json
graft=$IMAGE_TREE/bin/graft

log() { echo "graft-node-agent: $*" >&2; }

# Replaces $2 with $1 by rename when they differ.
replace_file() {
  if [ -f "$2" ] && cmp -s "$1" "$2"; then return 0; fi
  cp "$1" "$2.tmp"
  mv -f "$2.tmp" "$2"
}

install_tree() {
  version=$("$graft" --version | awk '{print $NF; exit}' | tr -c 'A-Za-z0-9.+\n-' '_')
  release=$host_graft/releases/$version
  if [ ! -x "$release/bin/graft" ]; then
    rm -rf "$release.tmp"
    mkdir -p "$host_graft/releases"
    cp -a "$IMAGE_TREE" "$release.tmp"
    mv "$release.tmp" "$release"
  fi
  ln -sfn "releases/$version" "$host_graft/current.tmp"
  mv -T "$host_graft/current.tmp" "$host_graft/current"
  log "graft $version is /opt/graft/current on this node"
}

policy_digest() { cat "$POLICY_SOURCE"/* 2>/dev/null | sha256sum | cut -d' ' -f1; }

# The ConfigMap's files, checked as they will stand in /etc/graft, then written.
# They are checked in a directory beside /etc/graft's files, not in /tmp: graft
# trusts a policy only below directories nobody else can write, and the pod's
# /tmp would be an emptyDir (mode 0777, no sticky bit).
install_policy() {
  mkdir -p "$host_policy"
  rm -rf "$host_policy"/.incoming.*   # left by an agent that was killed mid-check
  check=$(mktemp -d "$host_policy/.incoming.XXXXXX")
  cp "$POLICY_SOURCE"/* "$check"/
  if "$graft" policy check --policy "$check/graft.toml" >&2; then
    for file in "$check"/*; do replace_file "$file" "$host_policy/${file##*/}"; done
    log "site policy written to /etc/graft"
  else
    log "the ConfigMap's policy does not load; the node keeps its current one"
  fi
  rm -rf "$check"
}

# The driver's version line, or nothing when no driver is loaded.
driver_version() { head -n 1 "$driver_version_file" 2>/dev/null || true; }

# The host's graft (not the image's) runs, so the spec's hooks name a binary
# the host has; generate writes the spec beside it and renames it over.
generate_cdi_spec() {
  mkdir -p "${cdi_spec%/*}"
  "$host_graft/current/bin/graft" --policy "$host_policy/graft.toml" \
    cdi generate --host-root "$HOST_ROOT" --output "$cdi_spec" || return 1
  log "CDI spec for driver '$1' written to /var/run/cdi/graft.json"
}

install_tree
install_policy
seen_policy=$(policy_digest)
seen_driver=
while :; do
  if [ "$(policy_digest)" != "$seen_policy" ]; then
    install_policy
    seen_policy=$(policy_digest)
    seen_driver=   # the spec follows the policy too
  fi
  driver=$(driver_version)
  if [ -z "$driver" ]; then
    # No driver: a spec naming its files would only make containers fail later.
    [ ! -f "$cdi_spec" ] || { rm -f "$cdi_spec"; log "no NVIDIA driver loaded; CDI spec removed"; }
    seen_driver=
  elif [ "$driver" != "$seen_driver" ] || [ ! -f "$cdi_spec" ]; then
    if generate_cdi_spec "$driver"; then
      seen_driver=$driver
    else
      [ -n "$ONCE" ] && exit 1
      log "CDI spec generation failed; retrying in ${INTERVAL}s"
    fi
  fi
  [ -z "$ONCE" ] || exit 0
  sleep "$INTERVAL"
done
