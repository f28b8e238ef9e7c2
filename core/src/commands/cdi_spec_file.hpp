// SPDX-License-Identifier: Apache-2.0
// What `graft cdi generate` and `graft cdi refresh` share: reading the site
// policy and the host for a spec, and installing a spec as a file.
#pragma once

#include "cdi/cdi_spec.hpp"
#include "commands/command_steps.hpp"
#include "inventory/inventory.hpp"

namespace graft::commands {

// The site policy (its host roots under --host-root), the spec request the
// options make, and the host's inventory.
struct HostForSpec {
  Policy policy;
  cdi::SpecRequest request;
  Inventory inventory;
};
Result<HostForSpec> read_host_for_spec(const GlobalOptions& global, const CdiGenerateOptions& options);

// The spec in the options' format.
std::string render_spec(const cdi::Spec& spec, const CdiGenerateOptions& options);

// Replaces options.output whole with `text` (written beside it, then
// renamed), links /dev/char to the spec's nodes (cdi/device_links.hpp) and
// says in one stderr line what it wrote.
Status install_spec(const cdi::Spec& spec, const std::string& text, const CdiGenerateOptions& options);

}  // namespace graft::commands
