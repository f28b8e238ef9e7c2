// SPDX-License-Identifier: Apache-2.0
// The `runtime configure` subcommand of graft's command line, with CLI11
// (runtime_command_line.hpp).
#include "runtime_command_line.hpp"

namespace graft::cli {

void add_runtime_command(CLI::App& app, RuntimeConfigureOptions& options) {
  auto* command = app.add_subcommand("runtime", "Set up a container engine to run containers through graft-runtime");
  command->require_subcommand(1);
  command->footer("Example:\n  graft runtime configure --runtime docker --dry-run");
  auto* configure = command->add_subcommand(
      "configure", "Add graft's runtime (named graft) to an engine's configuration, or take it out");
  configure->footer(
      "Files (--config replaces them):\n"
      "  docker      /etc/docker/daemon.json: runtimes.graft merged in, other keys kept in order\n"
      "  containerd  /etc/containerd/config.toml: a marked block at its end with the CRI runtime graft\n"
      "  crio        /etc/crio/crio.conf.d/99-graft.conf (--config: that file, or a directory for it)\n"
      "  podman      /etc/containers/containers.conf.d/99-graft.conf (--config: as for crio)\n"
      "A second run changes nothing; --remove takes out only what graft added. Restart the engine after.\n"
      "Examples:\n"
      "  graft runtime configure --runtime docker --dry-run     (the diff, nothing written)\n"
      "  graft runtime configure --runtime docker --set-as-default\n"
      "  graft runtime configure --runtime containerd\n"
      "  graft runtime configure --runtime crio --remove");
  configure->add_option("--runtime", options.runtime, "The engine: docker, containerd, crio or podman")
      ->required()->check(CLI::IsMember({"docker", "containerd", "crio", "podman"}));
  configure->add_option("--config", options.config, "The file to edit instead of the engine's usual one");
  configure->add_option("--runtime-path", options.runtime_path,
                        "The runtime binary to name (default: the graft-runtime beside this graft; "
                        "a wrapper that passes --graft-policy for engines without runtime arguments)");
  configure->add_flag("--dry-run", options.dry_run, "Print the diff of each file it would change; change nothing");
  configure->add_flag("--remove", options.remove, "Take out what an earlier run added, where it is unchanged");
  configure->add_flag("--set-as-default", options.set_as_default,
                      "docker: also make graft the default runtime (\"default-runtime\")");
  configure->add_flag("--cdi", options.cdi, "docker: also turn CDI on (\"features\": {\"cdi\": true})");
}

}  // namespace graft::cli
