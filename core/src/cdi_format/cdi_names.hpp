// SPDX-License-Identifier: Apache-2.0
// CDI names: vendor, class and device name (a spec's kind is "vendor/class";
// a device's qualified name, "vendor/class=name", is parsed only by the
// rules that read requests, in Lua). The rules are those
// of the CDI spec 1.1.0 (SPEC.md "Kind" and "CDI Devices") as its reference
// parser (pkg/parser/parser.go) enforces them; see docs/cdi.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cdi_format/cdi_version.hpp"
#include "graft/base/error.hpp"

namespace graft::cdi {

struct QualifiedName {
  std::string vendor;
  std::string klass;
  std::string device;

  bool operator==(const QualifiedName&) const = default;
};

// Each error names the part, the offending value and the rule it broke.
// Vendor: a letter, then letters, digits, '_', '-', '.', ending alphanumeric;
// at most 253 characters (a DNS subdomain's length).
Status validate_vendor(std::string_view vendor);
// Class: as vendor, at most 63 characters; '.' only from cdiVersion 0.6.0.
Status validate_class(std::string_view klass);
// Device: an alphanumeric (a digit only from 0.5.0), then letters, digits,
// '_', '-', '.', ':', ending alphanumeric.
Status validate_device_name(std::string_view device);

// "vendor/class": the spec's kind field.
Result<QualifiedName> parse_kind(std::string_view kind);

// The version-gated name features a name uses (dotted class, leading digit).
std::vector<Feature> features_of(const QualifiedName& name);

}  // namespace graft::cdi
