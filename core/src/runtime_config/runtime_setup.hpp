// SPDX-License-Identifier: Apache-2.0
// `graft runtime configure`'s plan for one engine: which file it edits
// (the engine's usual place, or the one given), the change to it, and what
// the admin does next. Nothing is written here; file_change.hpp applies a
// change, unified_diff.hpp shows it.
#pragma once

#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "runtime_config/file_change.hpp"
#include "runtime_config/runtime_entry.hpp"

namespace graft::runtime_config {

struct SetupRequest {
  std::string engine;  // docker, containerd, crio or podman
  // "" for the engine's usual file. docker and containerd: the main file
  // (daemon.json, config.toml); crio and podman: the drop-in file, or a
  // directory to put 99-graft.conf in.
  std::string config;
  RuntimeEntry entry;
  bool remove = false;
};

struct Setup {
  FileChange change;
  std::vector<std::string> kept;  // one line each: what --remove left, and why
  std::string next_step;          // what the admin does once the file is written ("" if unchanged)
};

// The engines, in the order --help lists them.
const std::vector<std::string>& known_engines();

// The file to edit for `request` ("" config: the usual one).
std::string config_path(const SetupRequest& request);

// Reads the file and works out its new text. Errors name the file.
Result<Setup> plan_setup(const SetupRequest& request);

}  // namespace graft::runtime_config
