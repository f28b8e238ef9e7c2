#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# An install under another prefix than the configured one, and one staged
# with DESTDIR, find their shipped policies and plugins from where the
# binary is: `graft version` names the directories, they hold what was
# installed, `include = ["nvidia"]` resolves, the installed policy test
# suites pass, the installed importer runs, the hooks.d file gives the hook
# an explicit env of PATH alone, and Docker's --gpus entry point
# nvidia-container-runtime-hook is installed in libexec/graft/, off PATH.
# Usage: install-test.sh BUILD_DIR
set -euo pipefail
build=$1
scratch=$(mktemp -d /tmp/graft-install-XXXXXX)
trap 'rm -rf "$scratch"' EXIT

fail() { echo "install-test: $*" >&2; exit 1; }

# The hooks.d file at $1 gives the hook an env of PATH alone (docs/hooks.md):
# without one, the hook would get whatever environment its caller passes on.
check_hooks_file() {
  python3 - "$1" <<'PY' || fail "$1 does not give the hook an env of PATH alone"
import json, sys
hook = json.load(open(sys.argv[1]))["hook"]
sys.exit(hook.get("env") != ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"])
PY
}

check_installed() {
  local prefix=$1 graft=$1/bin/graft out policies plugins graft_version
  [ -x "$graft" ] || fail "no $graft"
  graft_version=$("$graft" --version)
  out=$("$graft" version)
  policies=$(sed -n 's/^policies *//p' <<<"$out")
  plugins=$(sed -n 's/^plugins *//p' <<<"$out")
  [ "$(realpath "$policies")" = "$(realpath "$prefix/share/graft/policies")" ] ||
    fail "$graft looks for policies in $policies, not under $prefix"
  case "$(realpath "$plugins")" in
    "$(realpath "$prefix")"/lib*/graft/plugins) ;;
    *) fail "$graft looks for plugins in $plugins, not under $prefix/lib" ;;
  esac
  # Docker's --gpus entry point comes with a plain install, off PATH: a
  # source install opts in by linking it onto dockerd's PATH (docs/hooks.md).
  [ "$("$prefix/libexec/graft/nvidia-container-runtime-hook" -version)" = \
    "nvidia-container-runtime-hook ($graft_version)" ] ||
    fail "no working $prefix/libexec/graft/nvidia-container-runtime-hook"
  [ ! -e "$prefix/bin/nvidia-container-runtime-hook" ] && [ ! -L "$prefix/bin/nvidia-container-runtime-hook" ] ||
    fail "a plain install put nvidia-container-runtime-hook on PATH ($prefix/bin)"
  link_dir=$(mktemp -d "$scratch/path-XXXXXX")
  ln -s "$prefix/libexec/graft/nvidia-container-runtime-hook" "$link_dir/nvidia-container-runtime-hook"
  hook_out=$(printf '{}' | "$link_dir/nvidia-container-runtime-hook" prestart 2>&1) && hook_rc=0 || hook_rc=$?
  case "$hook_out" in
    *"cannot run"*) fail "the hook, reached through a link, did not find $prefix/bin/graft: $hook_out" ;;
  esac
  case "$hook_out" in
    graft:*) ;;
    *) fail "the hook, reached through a link, ran no graft (exit $hook_rc): $hook_out" ;;
  esac
  for plugin in devices libraries ipc procfs cgroup ldcache; do
    [ -f "$plugins/lib$plugin.so" ] || fail "$plugins/lib$plugin.so is missing"
  done
  printf 'include = ["nvidia"]\n' >"$scratch/site.toml"
  # Offline: the include is what is tested; this machine has no driver.
  "$graft" --policy "$scratch/site.toml" policy check --offline >/dev/null ||
    fail "$graft cannot resolve include = [\"nvidia\"]"
  # The policy test suites are installed beside the policies they test.
  "$graft" --policy "$scratch/site.toml" policy test "$policies/nvidia/tests" >/dev/null ||
    fail "the installed nvidia test cases do not pass with $graft"
  "$graft" --policy "$policies/examples/example-site.toml" policy test "$policies/examples/tests" >/dev/null ||
    fail "the installed example test cases do not pass with $graft"
  # The nvidia importer is installed with its policy (docs/migrating.md).
  printf 'accept-nvidia-visible-devices-envvar-when-unprivileged = false\n' >"$scratch/config.toml"
  "$graft" policy import-nvidia "$scratch/config.toml" 2>/dev/null | grep -q '^unprivileged = \["annotations"\]$' ||
    fail "$graft policy import-nvidia does not find the installed importer"
  echo "install-test: $prefix: policies $policies, plugins $plugins"
}

cmake --install "$build" --prefix "$scratch/usr" >/dev/null
check_installed "$scratch/usr"
check_hooks_file "$scratch/usr/share/containers/oci/hooks.d/graft.json"
DESTDIR="$scratch/stage" cmake --install "$build" --prefix /opt/graft >/dev/null
check_installed "$scratch/stage/opt/graft"
check_hooks_file "$scratch/stage/opt/graft/share/containers/oci/hooks.d/graft.json"
echo "1 passed, 0 failed"
