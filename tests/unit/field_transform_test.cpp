// SPDX-License-Identifier: Apache-2.0
// Field transforms of [discovery] gpu_field_transforms: packed PCI
// locations to bus ids, decimal ids to hex.
#include <catch2/catch.hpp>

#include "inventory/field_transform.hpp"

using namespace graft;

TEST_CASE("a PCI location id unpacks to bus, device and function", "[inventory][field_transform]") {
  CHECK(*pci_bus_id_of_location("6400", "") == "0000:19:00.0");
  // bus 0xc1, device 0x1f, function 7
  CHECK(*pci_bus_id_of_location(std::to_string(0xc1 << 8 | 0x1f << 3 | 7), "0") == "0000:c1:1f.7");
}

TEST_CASE("a PCI location id takes the domain field in decimal", "[inventory][field_transform]") {
  CHECK(*pci_bus_id_of_location("256", "17") == "0011:01:00.0");
}

TEST_CASE("a PCI location id that is not a small decimal number is an error", "[inventory][field_transform]") {
  CHECK_FALSE(pci_bus_id_of_location("0x1900", ""));
  CHECK_FALSE(pci_bus_id_of_location("65536", ""));
  CHECK_FALSE(pci_bus_id_of_location("6400", "65536"));
  CHECK_FALSE(pci_bus_id_of_location("6400", "x"));
}

TEST_CASE("the hex transform writes a decimal number as 0x and lower-case hex", "[inventory][field_transform]") {
  CHECK(*hex_of_decimal("1311768467463790320") == "0x123456789abcdef0");
  CHECK(*hex_of_decimal("0") == "0x0");
  CHECK_FALSE(hex_of_decimal("12a"));
  CHECK_FALSE(hex_of_decimal(""));
}
