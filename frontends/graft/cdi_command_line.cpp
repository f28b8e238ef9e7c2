// SPDX-License-Identifier: Apache-2.0
// The `cdi` and `cdi-hook` subcommands of graft's command line, with CLI11
// (cdi_command_line.hpp).
#include "cdi_command_line.hpp"

#include "graft/engine/install_dirs.hpp"

namespace graft::cli {
namespace {

void add_cdi_hook_actions(CLI::App& command, CdiHookActions& actions) {
  command.add_option("--link", actions.links, "Make the symlink PATH -> VALUE (PATH::VALUE)");
  command.add_option("--file", actions.files, "Write CONTENT to the file PATH (PATH::CONTENT)");
  command.add_option("--procfs-mask", actions.procfs_mask,
                     "A tmpfs at PATH with copies of files of the host dir HOST (PATH::HOST)");
  command.add_option("--procfs-keep", actions.procfs_keep, "A file the procfs mask keeps");
  command.add_option("--procfs-rewrite", actions.procfs_rewrites,
                     "An edit of a kept file, 'NAME: FROM => TO'");
  command.add_option("--procfs-bind", actions.procfs_binds,
                     "Bind HOST at PATH read-only, on the mask (PATH::HOST)");
  command.add_option("--procfs-bind-if", actions.procfs_binds_if,
                     "As --procfs-bind, if config.json has every device node DEV (DEV[,DEV...]::PATH::HOST)");
  command.add_option("--ldcache-dir", actions.ldcache_dirs, "Refresh /etc/ld.so.cache with DIR");
  command.add_option("--ldcache-entry", actions.ldcache_entries,
                     "A path the refreshed cache must list");
}

// What a spec holds and how it is written, for `generate` and `refresh` alike.
void add_spec_options(CLI::App& command, CdiGenerateOptions& options) {
  command.add_option("--format", options.format, "json or yaml")
      ->check(CLI::IsMember({"json", "yaml"}))->capture_default_str();
  command.add_option("--cdi-version", options.cdi_version,
                     "auto (the lowest the spec needs) or a released version such as 0.5.0")
      ->capture_default_str();
  command.add_option("--kind", options.kind, "VENDOR/CLASS (default: the policy's [cdi] kind)");
  command.add_option("--gpu-capabilities", options.gpu_capabilities,
                     "What each GPU device carries beside the GPU: default (the policy's [defaults] "
                     "capabilities, what a consumer naming only the GPU expects), none (least privilege: "
                     "the GPU alone; ask for capability-<set> devices), or SET,SET "
                     "(default: the policy's [cdi] gpu_capabilities)");
  command.add_option("--host-root", options.host_root,
                     "Read the host mounted at this directory; the spec names the host's own paths, "
                     "so the policy and this graft must lie under it too");
}

}  // namespace

void add_cdi_hook_command(CLI::App& app, CdiHookOptions& options) {
  auto* command = app.add_subcommand(
      "cdi-hook", "OCI hook from a CDI spec: do exactly what its options say in the container");
  command->footer(
      "Examples (a CDI spec's hook; graft cdi generate writes them; " + doc_page("cdi.md") + "):\n"
      "  graft cdi-hook createRuntime --link /usr/lib/x86_64-linux-gnu/libgpu.so.1::libgpu.so.1.0 \\\n"
      "      --ldcache-dir /usr/lib/x86_64-linux-gnu < state.json");
  command->add_option("stage", options.stage, "Hook stage the runtime calls us from")
      ->check(CLI::IsMember({"prestart", "createRuntime", "createContainer"}))
      ->capture_default_str();
  add_cdi_hook_actions(*command, options.actions);
}

void add_cdi_command(CLI::App& app, CdiCommandOptions& options) {
  auto* command = app.add_subcommand("cdi", "Write or check a CDI spec (" + doc_page("cdi.md") + ")");
  command->require_subcommand(1);
  command->footer(
      "Examples:\n  graft cdi generate --output /etc/cdi/graft.json\n  graft cdi refresh\n"
      "  graft cdi validate /etc/cdi/graft.json");
  auto* generate = command->add_subcommand("generate", "Write the CDI spec for this host's GPUs and capabilities");
  generate->footer(
      "Examples:\n"
      "  graft cdi generate --output /etc/cdi/graft.json\n"
      "  graft cdi generate --format yaml --cdi-version 0.6.0 --kind example.com/gpu\n"
      "  # least privilege, beside the default spec: GPUs alone, sets as capability-<set> devices\n"
      "  graft cdi generate --gpu-capabilities none --kind example.com/gpu --output /etc/cdi/least.json\n"
      "  # from a pod that mounts the node at /host, running the node's own graft:\n"
      "  /host/opt/graft/current/bin/graft --policy /host/etc/graft/graft.toml \\\n"
      "      cdi generate --host-root /host --output /host/var/run/cdi/graft.json");
  generate->add_option("--output", options.generate.output, "File to write (replaced whole), or - for stdout")
      ->capture_default_str();
  add_spec_options(*generate, options.generate);
  auto* refresh = command->add_subcommand(
      "refresh", "Keep a spec file current: write it when the host has a driver and a GPU, else remove "
                 "graft's stale spec (the graft-cdi-refresh units run it)");
  refresh->footer(
      "Examples:\n"
      "  graft cdi refresh                     # /var/run/cdi/graft.json\n"
      "  graft cdi refresh --output /etc/cdi/graft.json");
  refresh->add_option("--output", options.refresh.output, "File to keep current (replaced whole, or removed)")
      ->capture_default_str();
  add_spec_options(*refresh, options.refresh);
  auto* validate = command->add_subcommand("validate", "Check a CDI spec file against the CDI rules");
  validate->footer("Example:\n  graft cdi validate /etc/cdi/graft.json");
  validate->add_option("file", options.validate_file, "The spec (JSON or YAML)")->required();
}

}  // namespace graft::cli
