// SPDX-License-Identifier: Apache-2.0
// Field transforms: the named conversions [discovery] gpu_field_transforms
// applies to a value read from a GPU record, so a driver that prints a fact
// in another form (a packed PCI location, a decimal id) still fills the
// Inventory's usual form. Pure.
#pragma once

#include <string>
#include <string_view>

#include "graft/base/error.hpp"
#include "policy/policy.hpp"

namespace graft {

// "pci-location-id": `value` is a decimal number packing bus << 8 |
// device << 3 | function, `domain` the PCI domain in decimal ("" = 0);
// gives "dddd:bb:dd.f" in lower-case hex, as sysfs names PCI devices.
Result<std::string> pci_bus_id_of_location(std::string_view value, std::string_view domain);

// "hex": a decimal number as "0x" and lower-case hex ("0" stays "0x0").
Result<std::string> hex_of_decimal(std::string_view value);

// Applies `transform`; `domain` is used by pci-location-id only.
Result<std::string> apply_field_transform(Discovery::FieldTransform transform, std::string_view value,
                                          std::string_view domain);

}  // namespace graft
