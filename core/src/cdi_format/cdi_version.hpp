// SPDX-License-Identifier: Apache-2.0
// CDI spec versions and which spec features each one introduced, so a
// generated spec can declare the lowest cdiVersion a runtime must accept.
// Facts from cncf-tags/container-device-interface SPEC.md ("Released
// versions") and specs-go/version.go at spec version 1.1.0; see docs/cdi.md.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "graft/base/error.hpp"

namespace graft::cdi {

struct Version {
  int major = 0;
  int minor = 0;
  int patch = 0;

  auto operator<=>(const Version&) const = default;
};

// What a spec can use that some cdiVersion does not accept.
enum class Feature {
  container_env,               // containerEdits.env
  device_hooks,                // hooks in a device's containerEdits
  hook_env,                    // hooks[].env
  mount_type,                  // mounts[].type
  device_node_host_path,       // deviceNodes[].hostPath
  device_name_leading_digit,   // devices[].name starting with 0-9
  annotations,                 // spec- or device-level annotations
  dotted_class_name,           // "." in the class part of kind
  intel_rdt,                   // containerEdits.intelRdt
  additional_gids,             // containerEdits.additionalGids
  net_devices,                 // containerEdits.netDevices
  intel_rdt_schemata,          // intelRdt.schemata / intelRdt.enableMonitoring
};

// The earliest version the reference library reports as a minimum (0.3.0,
// the first tagged release); 0.1.0 and 0.2.0 are accepted strings only.
Version earliest_version();

// "1.1.0"; parse_version also takes a leading "v", as the spec library does,
// and refuses any version that was never released (0.1.0 ... 1.1.0 are).
std::string to_string(Version version);
Result<Version> parse_version(std::string_view text);

std::string_view feature_name(Feature feature);
Version introduced_in(Feature feature);
bool supports(Version version, Feature feature);

// The lowest version that supports every feature, never below earliest_version().
Version minimum_version(std::span<const Feature> features);

// Ok when `version` supports every feature; otherwise an error naming the
// first unsupported feature and the version that introduced it.
Status check_supports(Version version, std::span<const Feature> features);

}  // namespace graft::cdi
