#!/usr/bin/env bash
# The Kubernetes node agent (deploy/kubernetes/node-agent.sh) run as its pod
# runs it, with no cluster: a fake GPU node's root stands for the pod's
# /host, `cmake --install` into a scratch prefix made self-contained by
# deploy/kubernetes/bundle-tree.sh (as the Containerfile does) for the image's
# /opt/graft/current, and a directory for the ConfigMap volume. One pass
# (ONCE=1) must install graft on the "host", write the checked policy, and
# write a CDI spec that names only the host's own paths, whose hooks run the
# host's graft with the host's policy, and which `graft cdi validate`
# accepts. A broken ConfigMap policy must leave the host's policy alone, and
# a node whose driver is gone must lose its spec.
# Usage: node-agent-test.sh BUILD_DIR GRAFT_FAKE_HOST_BINARY
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "$1") fake_host=$2

skip() { echo "graft-test skipped: $*"; exit 0; }
fail() { echo "node-agent-test: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || skip "the fake node's device nodes need root"
command -v patchelf >/dev/null || skip "patchelf is not installed (tests/scripts/install-deps.sh --tests)"

scratch=$(mktemp -d /tmp/graft-node-agent-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
host=$scratch/host image=$scratch/image config=$scratch/config
"$fake_host" "$host" 2 >/dev/null
rm -f "$host/etc/graft/graft.toml"  # the fake host's own policy points at it; a node's does not
cmake --install "$build" --prefix "$image" >/dev/null
sh "$source_dir/deploy/kubernetes/bundle-tree.sh" "$image"
# Output captured before grep -q reads it: under pipefail, a grep that stops
# early can make the writer die of SIGPIPE and fail the pipeline.
# Only glibc comes from the host: every other library a program or plugin
# loads is in the tree (with GRAFT_STATIC_LIBS, the default, there is none).
for program in "$image"/bin/graft "$image"/bin/graft-runtime $(find "$image/lib" -path '*/graft/plugins/*.so'); do
  libraries=$(ldd "$program")
  outside=$(awk '/=> \// {print $3}' <<<"$libraries" | grep -v -E '/(libc|libm|libgcc_s|ld-linux[^/]*)\.so' |
            grep -v "^$image/.*/bundled/" || true)
  [ -z "$outside" ] || fail "$program loads libraries from outside the tree: $outside"
done
mkdir -p "$config"
printf 'include = ["nvidia"]\n' >"$config/graft.toml"

agent() {
  IMAGE_TREE=$image HOST_ROOT=$host POLICY_SOURCE=$config ONCE=1 \
    sh "$source_dir/deploy/kubernetes/node-agent.sh" 2>"$scratch/agent.log"
}
agent || { cat "$scratch/agent.log" >&2; fail "one pass of the agent failed"; }

# graft on the host, under a versioned release that `current` points at.
version=$("$image/bin/graft" --version | awk '{print $NF}')
[ "$(readlink "$host/opt/graft/current")" = "releases/$version" ] ||
  fail "/opt/graft/current -> $(readlink "$host/opt/graft/current"), not releases/$version"
[ "$("$host/opt/graft/current/bin/graft" --version)" = "graft $version" ] || fail "the host's graft does not run"
[ "$("$host/opt/graft/current/bin/graft-runtime" --version)" = "graft-runtime $version" ] ||
  fail "the host's graft-runtime does not run"
cmp -s "$config/graft.toml" "$host/etc/graft/graft.toml" || fail "the ConfigMap's policy is not the host's"

# The spec: valid, the host's paths only, hooks on the host's graft and policy.
spec=$host/var/run/cdi/graft.json
[ -f "$spec" ] || { cat "$scratch/agent.log" >&2; fail "no CDI spec written"; }
"$image/bin/graft" cdi validate "$spec" >/dev/null || fail "graft cdi validate rejects the agent's spec"
! grep -qF "$scratch" "$spec" || fail "the spec names a path of the agent's own view: $(grep -oF "$scratch[^\"]*" "$spec" | head -1)"
grep -qF "\"/opt/graft/releases/$version/bin/graft\"" "$spec" || fail "the spec's hooks do not run the host's graft"
grep -qF '"/etc/graft/graft.toml"' "$spec" || fail "the spec's hooks do not read the host's policy"
grep -qE '"hostPath": "/usr/lib/[^"]*/libcuda\.so\.' "$spec" || fail "the spec binds no driver library by its host path"
grep -q "CDI spec for driver .* written to /var/run/cdi/graft.json" "$scratch/agent.log" || fail "no log line for the spec"

# A ConfigMap policy that does not load never replaces the node's.
printf 'include = ["nvidia"]\n[host]\nno_such_key = 1\n' >"$config/graft.toml"
agent || { cat "$scratch/agent.log" >&2; fail "the agent failed on a broken ConfigMap policy"; }
grep -q "does not load; the node keeps its current one" "$scratch/agent.log" || fail "no log line for the broken policy"
[ "$(cat "$host/etc/graft/graft.toml")" = 'include = ["nvidia"]' ] || fail "a broken policy replaced the node's"

# No driver loaded: the spec goes, since its files would only fail containers.
rm "$host/proc/driver/nvidia/version"
agent || { cat "$scratch/agent.log" >&2; fail "the agent failed on a node without a driver"; }
[ ! -e "$spec" ] || fail "the spec stayed after the driver went"
echo "node-agent-test: 3 passes checked (install and spec, broken policy, no driver)"
