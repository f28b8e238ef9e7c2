// SPDX-License-Identifier: Apache-2.0
// Claim files and their conflicts (claim.hpp).
#include "claims/claim.hpp"

#include <charconv>

#include <fmt/format.h>

namespace graft {
namespace {

// The value of the line "KEY VALUE"; empty when the line is not there.
std::string_view field(std::string_view text, std::string_view key) {
  while (!text.empty()) {
    auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (line.size() > key.size() && line.substr(0, key.size()) == key && line[key.size()] == ' ')
      return line.substr(key.size() + 1);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return {};
}

template <typename Number>
bool parse_number(std::string_view text, Number& into) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), into);
  return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

std::string file_safe(std::string_view name) {
  std::string out;
  for (char c : name) {
    bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                c == '_' || c == '-';
    out += safe ? c : '_';
  }
  return out;
}

std::string gpu_name(const Gpu& gpu) {
  if (!gpu.uuid.empty()) return gpu.uuid;
  if (!gpu.bus_id.empty()) return gpu.bus_id;
  return std::to_string(gpu.index);
}

const Gpu* gpu_at(const Inventory& inventory, unsigned index) {
  for (const auto& gpu : inventory.gpus)
    if (gpu.index == index) return &gpu;
  return nullptr;
}

}  // namespace

std::string claim_text(const Holder& holder) {
  return fmt::format("container {}\npid {}\nstart {}\n", holder.container_id, holder.pid, holder.start_time);
}

Result<Holder> parse_claim(std::string_view text) {
  Holder holder;
  holder.container_id = std::string(field(text, "container"));
  if (holder.container_id.empty()) return make_error("no 'container' line");
  if (!parse_number(field(text, "pid"), holder.pid) || holder.pid <= 0)
    return make_error("no positive 'pid' line");
  if (!parse_number(field(text, "start"), holder.start_time)) return make_error("no 'start' line");
  return holder;
}

Result<std::uint64_t> stat_start_time(std::string_view stat) {
  auto close = stat.rfind(')');
  if (close == std::string_view::npos) return make_error("no ')' after the command name");
  std::string_view rest = stat.substr(close + 1);  // " STATE PPID ...": field 3 on
  for (int field = 3; field < 22; ++field) {
    auto space = rest.find(' ', 1);
    if (space == std::string_view::npos) return make_error("fewer than 22 fields");
    rest.remove_prefix(space);
  }
  rest.remove_prefix(1);
  rest = rest.substr(0, rest.find(' '));
  std::uint64_t start = 0;
  if (!parse_number(rest, start)) return make_error("field 22 is not a number");
  return start;
}

std::vector<ClaimKey> claim_keys(const std::vector<DeviceGrant>& grants, const Inventory& inventory) {
  std::vector<ClaimKey> keys;
  for (const auto& grant : grants) {
    const Gpu* gpu = gpu_at(inventory, grant.gpu);
    std::string name = gpu ? gpu_name(*gpu) : std::to_string(grant.gpu);
    ClaimKey key{.gpu_file = "gpu-" + file_safe(name)};
    key.label = fmt::format("GPU {} ({})", grant.gpu, name);
    key.file = key.gpu_file;
    if (grant.partition) {
      key.partition = true;
      key.file += ".p" + std::to_string(*grant.partition);
      key.label = fmt::format("GPU {} ({}) partition {}", grant.gpu, name, *grant.partition);
    }
    keys.push_back(std::move(key));
  }
  return keys;
}

bool claims_conflict(const ClaimKey& wanted, std::string_view existing) {
  if (existing == wanted.file) return true;
  if (wanted.partition) return existing == wanted.gpu_file;
  std::string prefix = wanted.gpu_file + ".p";
  return existing.substr(0, prefix.size()) == prefix;
}

}  // namespace graft
