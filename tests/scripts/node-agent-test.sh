#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Kubernetes node agent (deploy/kubernetes/node-agent.sh) run as its pod
# runs it, with no cluster: a fake GPU node's root stands for the pod's
# /host, `cmake --install` into a scratch prefix made self-contained by
# deploy/kubernetes/bundle-tree.sh (as the Containerfile does) for the image's
# /opt/graft/current, and a directory for the ConfigMap volume. Each case
# starts from a fresh node and runs the agent one pass at a time (ONCE=1);
# docs/kubernetes.md states what the cases check ("The trust boundary").
# Every case runs and prints PASS or FAIL; the script fails if one did.
# Usage: node-agent-test.sh BUILD_DIR GRAFT_FAKE_HOST_BINARY
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "$1") fake_host=$2

skip() { echo "graft-test skipped: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "the fake node's device nodes need root"
command -v patchelf >/dev/null || skip "patchelf is not installed (tests/scripts/install-deps.sh --tests)"
command -v jq >/dev/null || skip "jq is not installed (tests/scripts/install-deps.sh --tests); the agent reads graft's JSON with it"

scratch=$(mktemp -d /tmp/graft-node-agent-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
host=$scratch/host image=$scratch/image config=$scratch/config log=$scratch/agent.log
cmake --install "$build" --prefix "$image" >/dev/null
sh "$source_dir/deploy/kubernetes/bundle-tree.sh" "$image"
graft=$image/bin/graft
version=$("$graft" --version | awk '{print $NF}')

# A fresh node and a ConfigMap holding only `include = ["nvidia"]`.
new_node() {
  rm -rf "$host" "$config"
  "$fake_host" "$host" 2 >/dev/null
  rm -f "$host/etc/graft/graft.toml"  # the fake host's own policy points at it; a node's does not
  mkdir -p "$config"
  printf 'include = ["nvidia"]\n' >"$config/graft.toml"
}
# One pass, as the pod runs it; its log in $log. Extra VAR=VALUE arguments first.
agent() {
  env IMAGE_TREE="$image" HOST_ROOT="$host" POLICY_SOURCE="$config" ONCE=1 "$@" \
    sh "$source_dir/deploy/kubernetes/node-agent.sh" 2>"$log"
}
# The merged policy as the hook on the node reads it (/etc/graft/graft.toml).
node_policy() { "$graft" policy show --format json --policy "$host/etc/graft/graft.toml"; }
status_line() { cat "$host/etc/graft/node-agent.status" 2>/dev/null || true; }

failed=0 cases=0
# case_ NAME FUNCTION: runs FUNCTION in a subshell (errexit on: not in an
# `if`, where bash would ignore it); its `fail` ends only that case.
case_() {
  cases=$((cases + 1))
  set +e
  (set -e; "$2") >"$scratch/case.out" 2>&1
  local status=$?
  set -e
  if [ "$status" = 0 ]; then
    echo "PASS $1"
  else
    failed=$((failed + 1))
    echo "FAIL $1"
    sed 's/^/    /' "$scratch/case.out"
  fi
}
fail() { echo "$*"; echo "agent log:"; cat "$log" 2>/dev/null; exit 1; }

# Only glibc comes from the host: every other library a program or plugin
# loads is in the tree (with GRAFT_STATIC_LIBS, the default, there is none).
# Output captured before grep reads it: under pipefail, a grep that stops
# early can make the writer die of SIGPIPE and fail the pipeline.
tree_is_self_contained() {
  for program in "$image"/bin/graft "$image"/bin/graft-runtime $(find "$image/lib" -path '*/graft/plugins/*.so'); do
    libraries=$(ldd "$program")
    outside=$(awk '/=> \// {print $3}' <<<"$libraries" | grep -v -E '/(libc|libm|libgcc_s|ld-linux[^/]*)\.so' |
              grep -v "^$image/.*/bundled/" || true)
    [ -z "$outside" ] || fail "$program loads libraries from outside the tree: $outside"
  done
}

# graft on the host under a release that `current` names, the ConfigMap's
# policy on the host, and a valid spec that names only the host's own paths,
# whose hooks run the host's graft with the host's policy.
installs_graft_policy_and_spec() {
  new_node
  agent || fail "one pass of the agent failed"
  release=$(readlink "$host/opt/graft/current")
  [[ $release == releases/"$version"-* ]] || fail "/opt/graft/current -> $release, not releases/$version-<digest>"
  [ "$("$host/opt/graft/current/bin/graft" --version)" = "graft $version" ] || fail "the host's graft does not run"
  [ "$("$host/opt/graft/current/bin/graft-runtime" --version)" = "graft-runtime $version" ] ||
    fail "the host's graft-runtime does not run"
  policy=$(node_policy) || fail "the node's policy does not load"
  site=$(jq -r '.files[] | select(contains("/etc/graft/site/"))' <<<"$policy")
  cmp -s "$config/graft.toml" "$site" || fail "the ConfigMap's policy is not the node's (the node loads $site)"
  [[ $(status_line) == *"site policy"*"is /etc/graft/graft.toml"* ]] || fail "status: $(status_line)"
  spec=$host/var/run/cdi/graft.json
  [ -f "$spec" ] || fail "no CDI spec written"
  "$graft" cdi validate "$spec" >/dev/null || fail "graft cdi validate rejects the agent's spec"
  ! grep -qF "$scratch" "$spec" || fail "the spec names a path of the agent's own view: $(grep -oF "$scratch[^\"]*" "$spec" | head -1)"
  grep -qF "\"/opt/graft/$release/bin/graft\"" "$spec" || fail "the spec's hooks do not run the host's graft"
  grep -qF '"/etc/graft/graft.toml"' "$spec" || fail "the spec's hooks do not read the host's policy"
  grep -qE '"hostPath": "/usr/lib/[^"]*/libcuda\.so\.' "$spec" || fail "the spec binds no driver library by its host path"
  grep -q "CDI spec for driver .* written to /var/run/cdi/graft.json" "$log" || fail "no log line for the spec"
}

broken_policy_keeps_the_nodes() {
  new_node
  agent || fail "the first pass failed"
  before=$(node_policy)
  printf 'include = ["nvidia"]\n[host]\nno_such_key = 1\n' >"$config/graft.toml"
  agent || fail "the agent failed on a broken ConfigMap policy"
  grep -q "does not load; the node keeps its current one" "$log" || fail "no log line for the broken policy"
  [ "$(node_policy)" = "$before" ] || fail "a broken policy replaced the node's"
  [[ $(status_line) == *"does not load"* ]] || fail "status: $(status_line)"
}

no_driver_no_spec() {
  new_node
  agent || fail "the first pass failed"
  rm "$host/proc/driver/nvidia/version"
  agent || fail "the agent failed on a node without a driver"
  [ ! -e "$host/var/run/cdi/graft.json" ] || fail "the spec stayed after the driver went"
}

# A ConfigMap policy that moves SETTING (TOML lines) is refused whole: the
# node keeps its policy, and the log and the status name KEY in one line.
refuses() {  # KEY TOML
  new_node
  agent || fail "the first pass failed"
  before=$(cat "$host/etc/graft/graft.toml")
  printf 'include = ["nvidia"]\n%s\n' "$2" >"$config/graft.toml"
  printf '\177ELF' >"$config/libgraft_evil.so"  # what plugins.dir = "." would load
  agent || fail "the agent failed on a policy it should refuse"
  [ "$(cat "$host/etc/graft/graft.toml")" = "$before" ] || fail "a policy that moves $1 replaced the node's"
  line=$(grep "keeps its current policy" "$log") || fail "no log line for the refusal"
  [ "$(wc -l <<<"$line")" = 1 ] && [[ $line == *"$1 = "* ]] || fail "the log does not name $1 in one line: $line"
  [[ $(status_line) == *"$1 = "*"keeps its current policy"* ]] || fail "status: $(status_line)"
}
refuses_plugins_dir_into_its_own_files() { refuses plugins.dir $'[plugins]\ndir = "."'; }
refuses_runtime_path() { refuses runtime.path $'[runtime]\npath = "/tmp/not-runc"'; }
refuses_ldconfig() { refuses plugins.config.ldcache.ldconfig $'[plugins.config.ldcache]\nmethod = "ldconfig"\nldconfig = "/tmp/ldconfig"'; }
refuses_cgroup_root() { refuses plugins.config.cgroup.cgroup_root $'[plugins.config.cgroup]\ncgroup_root = "/etc"'; }
refuses_driver_root() { refuses host.driver_root $'[host]\ndriver_root = "/run/nvidia/driver"'; }

# A ConfigMap policy naming a host path outside the policy boundary (TOML
# lines) is refused whole: the node keeps its policy, and the log and the
# status name the path, with the line of the ConfigMap's file, in one line.
refuses_outside() {  # PATH TOML
  new_node
  agent || fail "the first pass failed"
  before=$(cat "$host/etc/graft/graft.toml")
  printf 'include = ["nvidia"]\n%s\n' "$2" >"$config/graft.toml"
  agent || fail "the agent failed on a policy it should refuse"
  [ "$(cat "$host/etc/graft/graft.toml")" = "$before" ] || fail "a policy naming $1 replaced the node's"
  line=$(grep "keeps its current policy" "$log") || fail "no log line for the refusal"
  [ "$(wc -l <<<"$line")" = 1 ] || fail "the refusal is not one line: $line"
  [[ $line == *"<the ConfigMap's files>/graft.toml:"[0-9]*": "*" $1 is "*"outside the policy boundary"* ]] ||
    fail "the log does not name $1 and its line: $line"
  [[ $(status_line) == *" $1 is "*"keeps its current policy"* ]] || fail "status: $(status_line)"
}
refuses_host_etc() { refuses_outside /etc $'[capability.x]\nalways = true\nipc = ["/etc"]'; }
refuses_runtime_socket() {
  refuses_outside /run/containerd/containerd.sock $'[capability.x]\nalways = true\nipc = ["/run/containerd/containerd.sock"]'
}
refuses_host_disk() {
  refuses_outside /dev/vda $'[device.disk]\npath = "/dev/vda"\n[capability.x]\nalways = true\ndevices = ["disk"]'
}
refuses_shadow() { refuses_outside /etc/shadow $'[capability.compute]\nconfig_files = ["/etc/shadow"]'; }
refuses_claims_in_sudoers() {
  refuses_outside /etc/sudoers.d $'[exclusive]\ngpus = true\nstate_dir = "/etc/sudoers.d"'
}
refuses_audit_log() { refuses_outside /etc/cron.d/graft $'[audit]\nlog = "/etc/cron.d/graft"'; }
refuses_a_socket_through_dot_dot() {
  refuses_outside /run/containerd/containerd.sock \
    $'[capability.utility]\nipc = ["/run/nvidia-persistenced/../containerd/containerd.sock"]'
}

# The node's allow.conf widens the boundary by the path it lists, for the
# check here and for the hook there; the ConfigMap's own places do not.
node_allow_widens_the_boundary() {
  new_node
  agent || fail "the first pass failed"
  printf 'include = ["nvidia"]\n[vendor.nvidia.places]\nsockets = ["/run/acme/agent.sock"]\n' >"$config/graft.toml"
  printf '[capability.utility]\nipc = ["/run/acme/agent.sock"]\n' >>"$config/graft.toml"
  agent || fail "the agent failed on a policy it should refuse"
  grep -q "/run/acme/agent.sock is a socket or IPC directory outside the policy boundary" "$log" ||
    fail "the ConfigMap's own places widened the boundary"
  mkdir -p "$host/etc/graft-node"
  printf 'places.sockets = "/run/acme/agent.sock"  # the acme agent runs here\n' >"$host/etc/graft-node/allow.conf"
  printf 'include = ["nvidia"]\n[capability.utility]\nipc = ["/run/acme/agent.sock"]\n' >"$config/graft.toml"
  agent || fail "the agent failed on an allowed policy"
  shown=$(node_policy)  # whole before grep reads it (pipefail, SIGPIPE)
  grep -qF '"/run/acme/agent.sock"' <<<"$shown" || fail "the allowed socket did not reach the node: $(status_line)"
}

# A benign change (the request channels) is installed as before.
installs_a_benign_change() {
  new_node
  printf 'include = ["nvidia"]\n[requests]\nunprivileged = ["volume-mounts"]\n' >"$config/graft.toml"
  agent || fail "the agent failed on a benign policy"
  [ "$(node_policy | jq -c '.requests.unprivileged')" = '["volume-mounts"]' ] || fail "status: $(status_line)"
}

# A drop-in directory outside the ConfigMap's files is missing in the pod,
# where it loads as empty, but may be there on the node: a kubelet volume of
# some other pod, say, holding a drop-in that sets plugins.dir beside itself.
# The node must load only what the agent checked.
refuses_a_drop_in_outside_its_files() {
  new_node
  agent || fail "the first pass failed"
  before=$(cat "$host/etc/graft/graft.toml")
  outside=/var/lib/kubelet/pods/graft-test-$$/volumes/kubernetes.io~configmap/drop-in
  printf 'include = ["nvidia"]\ndrop_ins = ["%s"]\n' "$outside" >"$config/graft.toml"
  agent || fail "the agent failed on a policy it should refuse"
  [ "$(cat "$host/etc/graft/graft.toml")" = "$before" ] || fail "a policy with a drop-in outside its files replaced the node's"
  grep -qF "reads $outside, which is neither among its own files" "$log" || fail "no log line names the directory"
}

# /etc/graft-node/allow.conf, on the node, lets exactly the settings it lists through.
node_allows_what_it_lists() {
  new_node
  mkdir -p "$host/etc/graft-node"
  printf '# this node runs crun\nruntime.path = "/usr/bin/crun"\n  audit.log="/var/log/graft/audit.jsonl"  \n' \
    >"$host/etc/graft-node/allow.conf"
  printf 'include = ["nvidia"]\n[runtime]\npath = "/usr/bin/crun"\n[audit]\nlog = "/var/log/graft/audit.jsonl"\n' \
    >"$config/graft.toml"
  agent || fail "the agent failed on an allowed policy"
  [ "$(node_policy | jq -r '.runtime.path, .audit.log' | paste -sd' ')" = "/usr/bin/crun /var/log/graft/audit.jsonl" ] ||
    fail "the allowed settings did not reach the node"
  grep -qF 'this node allows runtime.path = "/usr/bin/crun"' "$log" || fail "no log line for the allowed setting"
  before=$(cat "$host/etc/graft/graft.toml")
  printf 'include = ["nvidia"]\n[runtime]\npath = "/usr/bin/runc"\n' >"$config/graft.toml"
  agent || fail "the agent failed on a policy it should refuse"
  [ "$(cat "$host/etc/graft/graft.toml")" = "$before" ] || fail "a value the node did not list replaced its policy"
  grep -qF 'runtime.path = "/usr/bin/runc"' "$log" || fail "the refusal does not name the value"
}

# The node switches from one ConfigMap version to the next whole: after each
# rename the agent makes, the policy the hook would read is all the old
# version or all the new one (a graft.toml and its rule file of one version).
policy_switches_whole() {
  new_node
  version_of() {  # N: a ConfigMap whose graft.toml and rule file both say N
    printf 'include = ["nvidia"]\nrules = ["site-rules.lua"]\n[data]\nsite_version = "%s"\n' "$1" >"$config/graft.toml"
    printf 'rule("site-v%s", function(req, host, grant) end)\n' "$1" >"$config/site-rules.lua"
  }
  version_of 1
  agent || fail "the first pass failed"
  mkdir -p "$scratch/bin"
  real_mv=$(command -v mv)
  cat >"$scratch/bin/mv" <<EOF
#!/bin/sh
# mv, then what the hook would read now, as "data-version rule-names".
"$real_mv" "\$@" || exit
{ "$graft" policy show --format json --policy "$host/etc/graft/graft.toml" 2>/dev/null |
    jq -r '"\(.data.site_version) \([.registered_rules[].name | select(startswith("site-"))] | join(","))"' ||
  echo "does not load"; } >>"$scratch/observed"
EOF
  chmod +x "$scratch/bin/mv"
  version_of 2
  : >"$scratch/observed"
  agent PATH="$scratch/bin:$PATH" || fail "the second pass failed"
  [ "$(tail -n 1 "$scratch/observed")" = "2 site-v2" ] || fail "the node did not switch to version 2"
  mixed=$(grep -v -x -e "1 site-v1" -e "2 site-v2" "$scratch/observed" || true)
  [ -z "$mixed" ] || fail "the hook could have read a mixed or broken policy mid-switch: $(paste -sd';' <<<"$mixed")"
}

# An image rebuilt with the same version string but other bytes is installed,
# not skipped because a release of that version is already there.
same_version_other_bytes_replaced() {
  new_node
  agent || fail "the first pass failed"
  first=$(readlink "$host/opt/graft/current")
  rebuilt=$scratch/rebuilt
  rm -rf "$rebuilt"; cp -a "$image" "$rebuilt"
  echo "# rebuilt" >>"$rebuilt/share/graft/examples/graft.toml"
  agent IMAGE_TREE="$rebuilt" || fail "the pass with the rebuilt image failed"
  cmp -s "$host/opt/graft/current/share/graft/examples/graft.toml" "$rebuilt/share/graft/examples/graft.toml" ||
    fail "the node still runs the first build (current -> $(readlink "$host/opt/graft/current"))"
  [ -x "$host/opt/graft/$first/bin/graft" ] || fail "the first release went while specs may still name it"
}

# The rules line configmap.yaml suggests loads both where the agent checks it
# (the pod) and where the hook reads it (the node's /etc/graft).
configmap_rules_example_loads() {
  new_node
  example=$(grep -o 'rules = \[[^]]*\]' "$source_dir/deploy/kubernetes/configmap.yaml" | head -n 1)
  [ -n "$example" ] || fail "configmap.yaml shows no rules line"
  rule_file=$(sed 's/.*"\(.*\)".*/\1/' <<<"$example")
  printf 'include = ["nvidia"]\n%s\n' "$example" >"$config/graft.toml"
  printf 'rule("site-example", function(req, host, grant) end)\n' >"$config/${rule_file##*/}"
  agent || fail "the agent failed"
  node_policy | jq -e '[.registered_rules[].name] | index("site-example")' >/dev/null ||
    fail "the node does not run the example's rule file ($example)"
}

case_ "graft's tree carries every library but glibc's" tree_is_self_contained
case_ "one pass installs graft, the ConfigMap's policy and a CDI spec of the node's own paths" installs_graft_policy_and_spec
case_ "a ConfigMap policy that does not load never replaces the node's" broken_policy_keeps_the_nodes
case_ "a node whose driver went loses its CDI spec" no_driver_no_spec
case_ "a ConfigMap policy that points plugins.dir at its own files is refused" refuses_plugins_dir_into_its_own_files
case_ "a ConfigMap policy that names another runtime.path is refused" refuses_runtime_path
case_ "a ConfigMap policy that moves audit.log into cron.d is refused" refuses_audit_log
case_ "a ConfigMap set binding the host's /etc is refused" refuses_host_etc
case_ "a ConfigMap set giving containers containerd's socket is refused" refuses_runtime_socket
case_ "a ConfigMap device class naming the host's disk is refused" refuses_host_disk
case_ "a ConfigMap set binding /etc/shadow is refused" refuses_shadow
case_ "a ConfigMap claims directory in sudoers.d is refused" refuses_claims_in_sudoers
case_ "a ConfigMap socket path climbing out with '..' is refused where it lands" refuses_a_socket_through_dot_dot
case_ "the node's allow.conf, not the ConfigMap, widens the boundary" node_allow_widens_the_boundary
case_ "a benign ConfigMap change is installed" installs_a_benign_change
case_ "a ConfigMap policy that names another ldconfig for the ldcache plugin is refused" refuses_ldconfig
case_ "a ConfigMap policy that moves the cgroup plugin's cgroup_root is refused" refuses_cgroup_root
case_ "a ConfigMap policy that moves a host root is refused" refuses_driver_root
case_ "a ConfigMap policy whose drop-in directory lies outside its own files is refused" refuses_a_drop_in_outside_its_files
case_ "a node takes exactly the settings its allow.conf lists" node_allows_what_it_lists
case_ "the node switches from one ConfigMap version to the next whole" policy_switches_whole
case_ "an image of the same version with other bytes replaces the node's graft" same_version_other_bytes_replaced
case_ "configmap.yaml's rules example loads in the pod and on the node" configmap_rules_example_loads
echo "node-agent-test: $((cases - failed)) of $cases cases passed"
[ "$failed" = 0 ]
