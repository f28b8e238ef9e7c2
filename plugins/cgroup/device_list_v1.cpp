// SPDX-License-Identifier: Apache-2.0
// Reading and asking a v1 devices.list (device_list_v1.hpp).
#include "device_list_v1.hpp"

#include <fcntl.h>
#include <linux/bpf.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include <fmt/format.h>

#include "graft/base/bounded_read.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft::cgroup {
namespace {

// devices.list holds one line per exception; a cgroup with thousands is
// already far more than any runtime writes.
constexpr std::size_t kMaxListBytes = 1u << 20;

// "195" or "*" (nullopt); false when it is neither.
bool parse_number(std::string_view text, std::optional<std::uint32_t>& out) {
  if (text == "*") {
    out.reset();
    return true;
  }
  std::uint32_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return false;
  out = value;
  return true;
}

bool parse_access(std::string_view text, std::uint32_t& bits) {
  bits = 0;
  for (char letter : text) {
    std::uint32_t bit = letter == 'r'   ? BPF_DEVCG_ACC_READ
                        : letter == 'w' ? BPF_DEVCG_ACC_WRITE
                        : letter == 'm' ? BPF_DEVCG_ACC_MKNOD
                                        : 0;
    if (bit == 0) return false;
    bits |= bit;
  }
  return !text.empty();
}

// "c 195:1 rw".
std::optional<ListedException> parse_line(std::string_view line) {
  ListedException entry;
  if (line.size() < 2 || line[1] != ' ') return std::nullopt;
  entry.type = line[0];
  if (entry.type != 'a' && entry.type != 'c' && entry.type != 'b') return std::nullopt;
  line.remove_prefix(2);
  const std::size_t colon = line.find(':'), space = line.find(' ');
  if (colon == std::string_view::npos || space == std::string_view::npos || colon > space)
    return std::nullopt;
  if (!parse_number(line.substr(0, colon), entry.major) ||
      !parse_number(line.substr(colon + 1, space - colon - 1), entry.minor) ||
      !parse_access(line.substr(space + 1), entry.access_bits))
    return std::nullopt;
  return entry;
}

bool type_matches(char type, std::uint32_t type_bit) {
  return type == 'a' || (type == 'c' && type_bit == BPF_DEVCG_DEV_CHAR) ||
         (type == 'b' && type_bit == BPF_DEVCG_DEV_BLOCK);
}

}  // namespace

Result<std::vector<ListedException>> parse_device_list(std::string_view text) {
  std::vector<ListedException> list;
  for (std::size_t number = 1; !text.empty(); ++number) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (line.empty()) continue;
    auto entry = parse_line(line);
    if (!entry) return make_error("devices.list line {}: cannot read '{}'", number, line);
    list.push_back(*entry);
  }
  return list;
}

bool list_allows(const std::vector<ListedException>& list, const DeviceQuestion& question) {
  for (const ListedException& entry : list) {
    if (entry.type == 'a') return true;  // the default allows; denials are not listed
    if (!type_matches(entry.type, question.type_bit)) continue;
    if (entry.major && *entry.major != question.major) continue;
    if (entry.minor && *entry.minor != question.minor) continue;
    if ((question.access_bits & ~entry.access_bits) != 0) continue;
    return true;
  }
  return false;
}

Result<std::vector<ListedException>> read_device_list(int cgroup_fd, const std::string& path) {
  UniqueFd list(::openat(cgroup_fd, "devices.list", O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!list.valid())
    return make_sys_error(errno, "cgroup {}: devices.list", path);
  auto text = read_bounded(list.get(), kMaxListBytes, fmt::format("{}/devices.list", path));
  if (!text) return text.error();
  auto parsed = parse_device_list(*text);
  if (!parsed) return parsed.error().context("cgroup " + path);
  return parsed;
}

}  // namespace graft::cgroup
