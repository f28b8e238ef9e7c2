// SPDX-License-Identifier: Apache-2.0
// Uid maps and owner kinds for user_namespace.hpp.
#include "trust/user_namespace.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <charconv>
#include <limits>
#include <optional>
#include <string>

#include "graft/base/bounded_read.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {
namespace {

constexpr std::size_t kUidMapMaxLines = 340;  // the kernel's limit since 4.15

// The next unsigned number in `text` from `pos` (spaces skipped).
bool next_uid_map_number(std::string_view text, std::size_t& pos, std::uint32_t& out) {
  while (pos < text.size() && text[pos] == ' ') ++pos;
  const char* first = text.data() + pos;
  const char* last = text.data() + text.size();
  auto [end, error] = std::from_chars(first, last, out);
  if (error != std::errc() || end == first) return false;
  pos += static_cast<std::size_t>(end - first);
  return true;
}

Result<IdRange> parse_id_range(std::string_view line, std::size_t number) {
  IdRange range;
  std::size_t pos = 0;
  bool read = next_uid_map_number(line, pos, range.inside) && next_uid_map_number(line, pos, range.outside) &&
              next_uid_map_number(line, pos, range.count);
  while (read && pos < line.size() && line[pos] == ' ') ++pos;
  if (!read || pos != line.size() || range.count == 0)
    return make_error("uid_map line {}: not three numbers \"inside outside count\"", number);
  return range;
}

bool in_id_range(std::uint32_t id, std::uint32_t first, std::uint32_t count) {
  return id >= first && id - first < count;
}

// A small file of /proc read whole; none when it cannot be read.
std::optional<std::string> read_small_proc_file(const char* path) {
  UniqueFd fd(::open(path, O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return std::nullopt;
  auto text = read_bounded(fd.get(), 64u << 10, path);
  if (!text) return std::nullopt;
  return *text;
}

UserNamespaceView read_user_namespace() {
  UserNamespaceView view;
  view.euid = ::geteuid();
  view.uids.ranges = {IdRange{0, 0, std::numeric_limits<std::uint32_t>::max()}};
  // A namespace whose map is not written yet has an empty one: nothing in
  // it is root or us, which is what an empty map says.
  auto text = read_small_proc_file("/proc/self/uid_map");
  auto overflow = read_small_proc_file("/proc/sys/kernel/overflowuid");
  if (!text || !overflow) return view;
  auto map = parse_id_map(*text);
  std::uint32_t overflow_uid = 0;
  std::size_t pos = 0;
  if (!map || !next_uid_map_number(*overflow, pos, overflow_uid)) return view;
  view.uids = std::move(*map);
  view.overflow_uid = overflow_uid;
  return view;
}

}  // namespace

bool IdMap::is_initial() const {
  return ranges.size() == 1 && ranges[0].inside == 0 && ranges[0].outside == 0 &&
         ranges[0].count == std::numeric_limits<std::uint32_t>::max();
}

bool IdMap::maps_inside(std::uint32_t id) const {
  for (const auto& range : ranges)
    if (in_id_range(id, range.inside, range.count)) return true;
  return false;
}

bool IdMap::maps_outside(std::uint32_t id) const {
  for (const auto& range : ranges)
    if (in_id_range(id, range.outside, range.count)) return true;
  return false;
}

Result<IdMap> parse_id_map(std::string_view text) {
  IdMap map;
  std::size_t number = 0;
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (++number > kUidMapMaxLines) return make_error("uid_map: more than {} lines", kUidMapMaxLines);
    auto range = parse_id_range(line, number);
    if (!range) return range.error();
    map.ranges.push_back(*range);
  }
  return map;
}

OwnerKind classify_owner(uid_t uid, const UserNamespaceView& view) {
  const IdMap& map = view.uids;
  if (map.is_initial() || map.maps_inside(uid)) {
    if (uid == view.overflow_uid && !map.is_initial()) return OwnerKind::overflow;
    if (uid == 0) return OwnerKind::root;
    if (uid == view.euid) return OwnerKind::us;
    return OwnerKind::someone_else;
  }
  // Not mapped: the kernel shows no other uid than the overflow one that way.
  if (uid != view.overflow_uid) return OwnerKind::someone_else;
  return settle_overflow(false, view);
}

OwnerKind settle_overflow(bool owner_mapped, const UserNamespaceView& view) {
  if (owner_mapped) return view.euid == view.overflow_uid ? OwnerKind::us : OwnerKind::someone_else;
  // Where host root is mapped, its files show as its inside uid: an unmapped
  // owner is then certainly someone else. And a graft the map leaves out
  // itself may be anyone on the host, host root included: it trusts no
  // owner it cannot tell from another user.
  if (view.uids.maps_outside(0) || !view.uids.maps_inside(view.euid)) return OwnerKind::someone_else;
  return OwnerKind::unmapped;
}

const UserNamespaceView& own_user_namespace() {
  static const UserNamespaceView view = read_user_namespace();
  return view;
}

}  // namespace graft
