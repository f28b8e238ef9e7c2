// SPDX-License-Identifier: Apache-2.0
#include "inventory/partition_uuids.hpp"

#include <unistd.h>

#include <cerrno>
#include <map>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "policy/vendors.hpp"
#include "trust/trusted_file.hpp"

namespace graft {
namespace {

constexpr std::size_t kMapLimit = 1u << 20;
constexpr std::size_t kMaxUuid = 128;

using PartitionKey = std::tuple<unsigned, unsigned, unsigned>;  // gpu minor, gi, ci

bool plain_uuid(const std::string& uuid) {
  if (uuid.empty() || uuid.size() > kMaxUuid) return false;
  for (char c : uuid)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
  return true;
}

// The file's lines as key -> uuid, or an error naming the bad line.
Result<std::map<PartitionKey, std::string>> parse_map(const std::string& path, const std::string& text) {
  std::map<PartitionKey, std::string> map;
  std::istringstream lines(text);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    auto hash = line.find('#');
    std::istringstream words(line.substr(0, hash));
    std::string uuid, extra;
    unsigned minor = 0, gi = 0, ci = 0;
    if (!(words >> uuid)) continue;  // blank or comment
    if (!(words >> minor >> gi >> ci) || (words >> extra) || !plain_uuid(uuid))
      return make_error("{}:{}: expected '<uuid> <gpu minor> <gi> <ci>'", path, number);
    if (!map.emplace(PartitionKey{minor, gi, ci}, uuid).second)
      return make_error("{}:{}: a second UUID for GPU minor {} GI {} CI {}", path, number, minor, gi, ci);
  }
  return map;
}

}  // namespace

namespace {

void read_source_uuids(const std::string& path, const std::string& vendor, Inventory& inventory) {
  if (::access(path.c_str(), F_OK) != 0 && errno == ENOENT) return;
  auto text = read_trusted_file(path, kMapLimit);
  auto map = text ? parse_map(path, *text) : Result<std::map<PartitionKey, std::string>>(text.error());
  if (!map) {
    inventory.warnings.push_back(fmt::format("partition UUIDs not used: {}", map.error().message));
    return;
  }
  for (auto& gpu : inventory.gpus)
    if (gpu.vendor == vendor)
      for (auto& partition : gpu.partitions)
        if (auto found = map->find({gpu.minor, partition.gi, partition.ci}); found != map->end())
          partition.uuid = found->second;
}

}  // namespace

Status read_partition_uuids(const Policy& policy, Inventory& inventory) {
  for (const auto& source : gpu_sources(policy))
    if (!source.discovery->partition_uuid_file.empty())
      read_source_uuids(source.discovery->partition_uuid_file, source.vendor, inventory);
  return ok_status();
}

}  // namespace graft
