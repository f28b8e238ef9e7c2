// SPDX-License-Identifier: Apache-2.0
#include "inventory/field_transform.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <optional>

namespace graft {
namespace {

std::optional<std::uint64_t> parse_decimal_u64(std::string_view text) {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

Result<std::string> pci_bus_id_of_location(std::string_view value, std::string_view domain) {
  auto location = parse_decimal_u64(value);
  if (!location) return make_error("'{}' is not a decimal PCI location id", value);
  auto domain_number = domain.empty() ? std::optional<std::uint64_t>(0) : parse_decimal_u64(domain);
  if (!domain_number || *domain_number > 0xffff)
    return make_error("'{}' is not a decimal PCI domain (0 to 65535)", domain);
  // bus (8 bits) above device (5 bits) above function (3 bits).
  if (*location > 0xffff) return make_error("PCI location id {} does not fit bus, device and function", value);
  return fmt::format("{:04x}:{:02x}:{:02x}.{:x}", *domain_number, *location >> 8, (*location >> 3) & 0x1f,
                     *location & 7);
}

Result<std::string> hex_of_decimal(std::string_view value) {
  auto number = parse_decimal_u64(value);
  if (!number) return make_error("'{}' is not a decimal number", value);
  return fmt::format("0x{:x}", *number);
}

Result<std::string> apply_field_transform(Discovery::FieldTransform transform, std::string_view value,
                                          std::string_view domain) {
  switch (transform) {
    case Discovery::FieldTransform::pci_location_id:
      return pci_bus_id_of_location(value, domain);
    case Discovery::FieldTransform::hex:
      return hex_of_decimal(value);
  }
  return make_error("unknown field transform");
}

}  // namespace graft
