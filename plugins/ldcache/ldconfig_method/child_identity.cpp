// SPDX-License-Identifier: Apache-2.0
// Parsing the kernel's id maps and choosing the child's identity from them.
#include "child_identity.hpp"

#include <charconv>
#include <optional>

namespace graft::ldcache {
namespace {

std::optional<std::uint32_t> next_number(std::string_view& text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  std::uint32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  text.remove_prefix(static_cast<size_t>(end - text.data()));
  return value;
}

// The host id that `inside` maps to, if any.
std::optional<std::uint32_t> outside_of(const std::vector<IdRange>& map, std::uint32_t inside) {
  for (const auto& range : map)
    if (inside >= range.inside && inside - range.inside < range.count)
      return range.outside + (inside - range.inside);
  return std::nullopt;
}

}  // namespace

Result<std::vector<IdRange>> parse_id_map(std::string_view text) {
  std::vector<IdRange> map;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    std::string_view rest = line;
    auto inside = next_number(rest), outside = next_number(rest), count = next_number(rest);
    if (!inside || !outside || !count || rest.find_first_not_of(" \t") != std::string_view::npos)
      return make_error("malformed id map line '{}'", line);
    map.push_back(IdRange{*inside, *outside, *count});
  }
  return map;
}

bool maps_host_id(const std::vector<IdRange>& map, std::uint32_t id) {
  for (const auto& range : map)
    if (id >= range.outside && id - range.outside < range.count) return true;
  return false;
}

Result<Identity> child_identity(uid_t owner_uid, gid_t owner_gid,
                                const std::vector<IdRange>& uid_map,
                                const std::vector<IdRange>& gid_map) {
  if (maps_host_id(uid_map, owner_uid) && maps_host_id(gid_map, owner_gid))
    return Identity{owner_uid, owner_gid, false};
  auto root_uid = outside_of(uid_map, 0), root_gid = outside_of(gid_map, 0);
  if (!root_uid || !root_gid)
    return make_error(
        "the container root's owner {}:{} is not mapped by the container's user namespace, "
        "which maps no root either: refusing to run ldconfig as an id the container does not have",
        owner_uid, owner_gid);
  return Identity{static_cast<uid_t>(*root_uid), static_cast<gid_t>(*root_gid), true};
}

}  // namespace graft::ldcache
