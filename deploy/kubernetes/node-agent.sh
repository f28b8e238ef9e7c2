#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# node-agent.sh: what the graft DaemonSet runs on each GPU node (daemonset.yaml);
# the image has it as /usr/local/bin/graft-node-agent (Containerfile).
#
# 1. copies graft's installed tree (the image's $IMAGE_TREE) to the host as
#    /opt/graft/releases/<version>-<digest of its bytes> and points the symlink
#    /opt/graft/current at it, so runtimes on the host run
#    /opt/graft/current/bin/graft, and a rebuilt image of the same version is
#    installed rather than taken for the one already there;
# 2. installs the site policy from the ConfigMap (mounted at $POLICY_SOURCE)
#    on the host, after `graft policy check` accepted it and its settings
#    passed the node's trust check (below): its files go whole into a new
#    /etc/graft/site/<digest>/, and one rename of /etc/graft/graft.toml, a
#    file that includes site/<digest>/graft.toml, switches the node to it.
#    A policy that does not load or that the node does not trust never
#    replaces the node's; why is one line in the log and in
#    /etc/graft/node-agent.status;
# 3. loops: when the driver version (/proc/driver/nvidia/version) or the
#    policy changed, or the CDI spec is missing, regenerates the node's CDI
#    spec /var/run/cdi/graft.json with the graft just installed on the host
#    (`cdi generate --host-root`): it reads the driver's files through the
#    read-only host root mounted at $HOST_ROOT and names the host's own
#    paths, its hooks the host's graft and /etc/graft/graft.toml.
#
# The trust check: whoever edits the ConfigMap decides what GPU containers
# get, but not what graft itself executes, loads or writes as root on the
# node (docs/kubernetes.md, "The trust boundary"). graft itself refuses a
# policy naming a host path outside the places its shipped vendor policies
# declare (a socket, file, directory or device node for containers, a
# directory it writes into): `policy check` names each with its file:line,
# with the node's allow.conf as the one widening, and the hook and `cdi
# generate` on the node refuse the same (docs/security.md, "The policy
# boundary"). The policy may read no
# file but its own and graft's shipped policies (unchecked_paths), so the
# node loads what the agent checked. The settings that name a host path
# graft runs, loads or writes (guarded_settings) must keep the values graft
# and its shipped policies give them, unless the node's own
# /etc/graft-node/allow.conf, which the pod can only read, lists the setting
# with that value, as `KEY = "VALUE"`.
#
# Every file and symlink is written beside its target and renamed over it, so
# a runtime reading one mid-update sees the old one or the new one.
# ONCE=1 runs one pass and exits (a Job, or a test).
set -eu
umask 022   # graft trusts a policy or plugin only where no one else can write
export LC_ALL=C   # one byte order for sort and comm

IMAGE_TREE=${IMAGE_TREE:-/opt/graft/current}   # graft as installed in the image
HOST_ROOT=${HOST_ROOT:-/host}                  # where the host paths are mounted
POLICY_SOURCE=${POLICY_SOURCE:-/config}        # the ConfigMap volume
INTERVAL=${INTERVAL:-30}                       # seconds between checks
ONCE=${ONCE:-}                                 # set: one pass, then exit

host_graft=$HOST_ROOT/opt/graft
host_policy=$HOST_ROOT/etc/graft
node_allow=$HOST_ROOT/etc/graft-node/allow.conf
status_file=$host_policy/node-agent.status
driver_version_file=$HOST_ROOT/proc/driver/nvidia/version
cdi_spec=$HOST_ROOT/var/run/cdi/graft.json
graft=$IMAGE_TREE/bin/graft
shipped=$(realpath -s -m "$("$graft" version | awk '$1 == "policies" {print $2}')")   # its shipped policies

log() { printf '%s\n' "graft-node-agent: $*" >&2; }
# One line for the pod's log and, replacing the last one, for the node.
report() {
  log "$*"
  printf '%s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*" >"$status_file.tmp" &&
    mv -f "$status_file.tmp" "$status_file"
}

command -v jq >/dev/null || { log "jq is not installed; the agent reads graft's JSON with it"; exit 1; }

# A digest of a directory's names, types, modes, link targets and bytes.
# Fails when tar does: dash has no pipefail, so tar's status and the sum
# both come back on fd 3, as two lines in either order.
tree_digest() {
  set -- "$( { { (cd "$1" && tar --sort=name --numeric-owner --owner=0 --group=0 --mtime=@0 -cf - .)
                 echo "tar=$?" >&3; } | sha256sum >&3; } 3>&1 )"
  case $1 in *tar=0*) ;; *) log "cannot read the tree to digest it"; return 1 ;; esac
  printf '%s\n' "$1" | sed -n 's/^\([0-9a-f]\{16\}\).*/\1/p'
}

# A release is named by its bytes: an existing one is used only while they
# still match its name, and a new build of the same version gets its own.
install_tree() {
  version=$("$graft" --version | awk '{print $NF; exit}' | tr -c 'A-Za-z0-9.+\n-' '_')
  digest=$(tree_digest "$IMAGE_TREE") || exit 1
  name=$version-$digest
  release=$host_graft/releases/$name
  if [ ! -d "$release" ] || [ "$(tree_digest "$release")" != "$digest" ]; then
    rm -rf "$release.tmp"
    mkdir -p "$host_graft/releases"
    cp -a "$IMAGE_TREE" "$release.tmp"
    [ "$(tree_digest "$release.tmp")" = "$digest" ] || { log "the copy of graft $name differs from the image"; exit 1; }
    rm -rf "$release"   # changed since it was installed: never run it
    mv -T "$release.tmp" "$release"
  fi
  ln -sfn "releases/$name" "$host_graft/current.tmp"
  mv -T "$host_graft/current.tmp" "$host_graft/current"
  log "graft $name is /opt/graft/current on this node"
}

policy_digest() { cat "$POLICY_SOURCE"/* "$node_allow" 2>/dev/null | sha256sum | cut -d' ' -f1; }

# The settings of a merged policy (graft policy show's JSON on stdin) that
# name a host path graft executes, loads or writes as root, one
# `KEY = VALUE` line each, VALUE as JSON: the host roots (graft reads under
# them every host file it binds into containers), the plugin directory,
# every plugin setting (the ldcache plugin's ldconfig and cgroup_root, the
# cgroup plugin's cgroup_root and bpffs, whatever a plugin adds) but the
# ldcache plugin's method and timeout_ms, which name no path, the runtime
# graft-runtime executes, and the audit log graft appends to.
guarded_settings() {
  jq -r '
    def line($key; $value): "\($key) = \($value | tojson)";
    (.host | to_entries[] | line("host.\(.key)"; .value)),
    line("plugins.dir"; .plugins.dir),
    (.plugins.config | paths(scalars) as $path | ($path | map(tostring) | join(".")) as $key
      | select($key | IN("ldcache.method", "ldcache.timeout_ms") | not)
      | line("plugins.config.\($key)"; getpath($path))),
    line("runtime.path"; .runtime.path),
    line("audit.log"; .audit.log)'
}

# The lines of the node's allow.conf, `#` comments and blank lines dropped,
# spaced as guarded_settings writes them.
node_allowed() {
  sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e 's/[[:space:]]*=[[:space:]]*/ = /' \
    "$node_allow" 2>/dev/null | grep -v '^$' || true
}

# The files and drop-in directories the merged policy in DIR/policy.json
# reads that are neither the ConfigMap's (DIR/files) nor graft's shipped
# policies: an absolute path there names one thing in the pod, where the
# agent checks, and another on the node, where the hook reads it (a drop-in
# directory missing in the pod loads as empty, and its node twin unchecked).
unchecked_paths() {
  jq -r --arg own "$1/files" --arg shipped "$shipped" '
    def inside($dir): . == $dir or startswith($dir + "/");
    if has("drop_ins") | not then error("graft policy show lists no drop_ins") else . end
    | (.files[], (.rules[], .rule_modules[], .drop_ins[] | .value))
    | select((inside($own) or inside($shipped)) | not)' "$1/policy.json"
}

# Prints the guarded settings the merged policy in DIR/policy.json moves
# from the values graft and the shipped policies it includes give them, and
# that the node does not allow; logs those it allows. Fails (closed) when a
# step fails: no pipelines, whose status would be their last command's.
untrusted_settings() {
  jq -r --arg shipped "$shipped/" \
    '"include = \([.files[] | select(startswith($shipped))] | tojson)"' "$1/policy.json" >"$1/shipped.toml" ||
    return 1
  "$graft" policy show --format json --policy "$1/shipped.toml" >"$1/shipped.json" || return 1
  for side in policy shipped; do
    guarded_settings <"$1/$side.json" >"$1/$side.lines" && [ -s "$1/$side.lines" ] || return 1
    sort "$1/$side.lines" >"$1/$side.settings" || return 1
  done
  comm -23 "$1/policy.settings" "$1/shipped.settings" >"$1/moved" || return 1
  node_allowed >"$1/allowed"
  while IFS= read -r setting; do
    if grep -qxF -e "$setting" "$1/allowed"; then log "this node allows $setting (/etc/graft-node/allow.conf)"
    else printf '%s\n' "$setting"; fi
  done <"$1/moved"
}

# The lines of $1 as one line, the checked copy's directory $2 (where a
# relative path in the ConfigMap's graft.toml points) shown as what it is.
one_line() {
  printf '%s\n' "$1" | awk -v here="$2" -v shown="<the ConfigMap's files>" '
    { while ((at = index($0, here)) > 0) $0 = substr($0, 1, at - 1) shown substr($0, at + length(here)) }
    NR > 1 { printf ", " }
    { printf "%s", $0 }'
}

# Switches the node to the checked files in $1 with one rename; keeps the
# version it replaces (a hook may be reading it) and removes older ones.
switch_policy() {
  version=$(tree_digest "$1") || return 1
  mkdir -p "$host_policy/site"
  previous=$(sed -n 's|^include = \["site/\([0-9a-f]*\)/graft.toml"\]$|\1|p' "$host_policy/graft.toml" 2>/dev/null || true)
  [ -d "$host_policy/site/$version" ] || mv -T "$1" "$host_policy/site/$version"
  printf '%s\n' "# Written by graft-node-agent: the site policy from the graft-policy ConfigMap," \
    "# installed whole in site/$version/ and switched to by one rename of this file." \
    "include = [\"site/$version/graft.toml\"]" >"$host_policy/.graft.toml.new"
  if cmp -s "$host_policy/.graft.toml.new" "$host_policy/graft.toml"; then rm -f "$host_policy/.graft.toml.new"
  else mv -f "$host_policy/.graft.toml.new" "$host_policy/graft.toml"; fi
  for old in "$host_policy"/site/*; do
    case ${old##*/} in "$version" | "$previous") ;; *) rm -rf "$old" ;; esac
  done
  report "site policy $version is /etc/graft/graft.toml"
}

# The ConfigMap's files, checked as they will stand on the node, then
# switched to. They are checked in a directory beside /etc/graft's files, not
# in /tmp: graft trusts a policy only below directories nobody else can
# write, and the pod's /tmp would be an emptyDir (mode 0777, no sticky bit).
install_policy() {
  mkdir -p "$host_policy"
  rm -rf "$host_policy"/.incoming.*   # left by an agent that was killed mid-check
  incoming=$(mktemp -d "$host_policy/.incoming.XXXXXX")
  mkdir "$incoming/files"
  cp "$POLICY_SOURCE"/* "$incoming/files/"
  # --offline: the pod's /, /proc and ld.so.cache are not the node's, and a
  # node whose driver is still loading must still take a valid policy; the
  # CDI pass below reads the driver through $HOST_ROOT and logs when none is loaded.
  if ! checked=$("$graft" --node-allow "$node_allow" policy check --offline \
                   --policy "$incoming/files/graft.toml" 2>&1); then
    printf '%s\n' "$checked" >&2
    outside=$(printf '%s\n' "$checked" | sed -n 's/^error *\(.*outside the policy boundary.*\)$/\1/p')
    if [ -n "$outside" ]; then
      report "the ConfigMap's policy names $(one_line "$outside" "$incoming/files"); the node keeps its current policy"
    else
      report "the ConfigMap's policy does not load; the node keeps its current one"
    fi
  elif ! "$graft" policy show --format json --policy "$incoming/files/graft.toml" >"$incoming/policy.json" ||
       ! unchecked=$(unchecked_paths "$incoming") || ! untrusted=$(untrusted_settings "$incoming"); then
    report "graft cannot show the ConfigMap's merged policy; the node keeps its current one"
  elif [ -n "$unchecked" ]; then
    report "the ConfigMap's policy reads $(one_line "$unchecked" "$incoming/files"), which is" \
      "neither among its own files nor graft's shipped policies, so the node would not load what" \
      "the agent checked; the node keeps its current policy"
  elif [ -n "$untrusted" ]; then
    report "the ConfigMap's policy sets $(one_line "$untrusted" "$incoming/files")," \
      "which graft executes, loads or writes as root on the node and which" \
      "/etc/graft-node/allow.conf does not allow; the node keeps its current policy"
  else
    switch_policy "$incoming/files"
  fi
  rm -rf "$incoming"
}

# The driver's version line, or nothing when no driver is loaded.
driver_version() { head -n 1 "$driver_version_file" 2>/dev/null || true; }

# The host's graft (not the image's) runs, so the spec's hooks name a binary
# the host has; generate writes the spec beside it and renames it over.
generate_cdi_spec() {
  mkdir -p "${cdi_spec%/*}"
  "$host_graft/current/bin/graft" --policy "$host_policy/graft.toml" --node-allow "$node_allow" \
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
