// SPDX-License-Identifier: Apache-2.0
// Whether the real runtime runs with its systemd cgroup driver, read from
// its global options as that runtime reads them (runtime_grammar.hpp), the
// way the create path reads the bundle:
// - runc (Go's flag package through urfave/cli): `--systemd-cgroup` or
//   `-systemd-cgroup`, or either with `=VALUE`, VALUE read by Go's
//   strconv.ParseBool (1, t, T, TRUE, true, True; 0, f, F, FALSE, false,
//   False); a boolean flag never takes the next argument;
// - crun (argp): `--systemd-cgroup`, and `--cgroup-manager systemd` (or
//   `=systemd`), which `--cgroup-manager cgroupfs` or `disabled` turns off.
// The last setting wins, in both. Pure: the caller also asks whether
// systemd runs here (graft/base/systemd_booted.hpp).
#pragma once

#include <span>
#include <string>

#include "runtime_grammar.hpp"

namespace graft::runtime {

// `runtime_args` is what the real runtime gets; its global options are
// read up to the command. An argument the grammar cannot read ends them
// (a create with one is refused before this is asked: runtime_command.hpp).
bool uses_systemd_cgroup(std::span<const std::string> runtime_args, const RuntimeGrammar& grammar);

}  // namespace graft::runtime
