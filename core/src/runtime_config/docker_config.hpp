// SPDX-License-Identifier: Apache-2.0
// Docker's daemon.json, with graft's runtime merged in or taken out. The
// JSON is edited as a document: every other key keeps its value and its
// place; the file is re-indented as its first indented line was (daemon.json
// has no comments to keep). A file whose JSON already holds graft's entry
// is returned as it was, byte for byte.
#pragma once

#include <optional>
#include <string>

#include "graft/base/error.hpp"
#include "runtime_config/runtime_entry.hpp"

namespace graft::runtime_config {

// `runtimes.<name>` = {"path", "runtimeArgs" when there are arguments};
// with set_as_default, "default-runtime"; with cdi, "features": {"cdi": true}.
// nullopt before: the file is created. A file that is not a JSON object,
// or whose "runtimes" is not an object, is an error (nothing is written).
Result<std::string> docker_configured(const std::optional<std::string>& before, const RuntimeEntry& entry);

// Takes out what docker_configured would add, where it still holds that
// value: runtimes.<name> when it equals graft's entry (then "runtimes" if
// that leaves it empty), "default-runtime" when it names graft's runtime.
// "features.cdi" stays: other CDI specs may rely on it. nullopt after: the
// object is empty and the file goes. `kept` says what was left and why.
struct DockerRemoval {
  std::optional<std::string> after;
  std::string kept;  // "" or one line
};
Result<DockerRemoval> docker_removed(const std::optional<std::string>& before, const RuntimeEntry& entry);

}  // namespace graft::runtime_config
