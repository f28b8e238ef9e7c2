// SPDX-License-Identifier: Apache-2.0
// [vendor.NAME.places]: the host places a vendor's sets may take from
// (policy/places.hpp). Each key is an array of absolute paths or patterns
// and replaces the earlier one, as any array does. Only the vendor layer
// declares them: a site file's table is read (so its keys are checked) but
// kept aside, since whoever edits the site policy must not widen what it
// may bind (docs/security.md, "The policy boundary").
#include <fmt/format.h>

#include "policy/key_reader.hpp"
#include "policy/read_sections.hpp"

namespace graft::policy_parse {
namespace {

// A list of places, replacing the earlier file's; paths must be absolute
// (driver names, as /proc/devices lists them, are not paths).
template <std::vector<Place> Places::*field, bool paths = true>
Status read_places(const TomlField& value, Places& places, const FileContext&) {
  auto list = as_sourced_list(value);
  if (!list) return list.error();
  std::vector<Place> read;
  for (auto& entry : *list) {
    if (paths && !entry.value.starts_with('/'))
      return value.error(fmt::format("'{}' is not an absolute path", entry.value));
    read.push_back(Place{std::move(entry.value), std::move(entry.origin)});
  }
  places.*field = std::move(read);
  return ok_status();
}

constexpr KeyReader<Places> kPlaceReaders[] = {
    {"device_drivers", read_places<&Places::device_drivers, false>},
    {"devices", read_places<&Places::devices>},
    {"sockets", read_places<&Places::sockets>},
    {"directories", read_places<&Places::directories>},
    {"read_only_directories", read_places<&Places::read_only_directories>},
    {"files", read_places<&Places::files>},
};

}  // namespace

Status read_vendor_places(const TomlField& field, Vendor& vendor, const FileContext& file) {
  if (file.vendor_layer) return read_table(field, kPlaceReaders, vendor.places, file);
  Places ignored;
  if (auto status = read_table(field, kPlaceReaders, ignored, file); !status) return status;
  vendor.site_places.push_back(field.origin());
  return ok_status();
}

}  // namespace graft::policy_parse
