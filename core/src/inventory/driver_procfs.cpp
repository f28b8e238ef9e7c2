// SPDX-License-Identifier: Apache-2.0
#include "inventory/driver_procfs.hpp"

#include "inventory/field_transform.hpp"
#include "inventory/gpu_record.hpp"

#include <dirent.h>
#include <glob.h>

#include <algorithm>
#include <charconv>
#include <list>
#include <regex>
#include <sstream>

#include "paths/paths.hpp"
#include "graft/base/bounded_read.hpp"
#include "policy/version_regex.hpp"
#include "policy/vendors.hpp"

namespace graft {
namespace {

// Far more than any driver's procfs file or /proc/devices holds.
constexpr std::size_t kProcfsFileLimit = 16u << 20;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Loops rather than find_first_not_of: that searches its set once per
// character, and this runs on every kept line of the partition minors table.
std::string_view trim_view(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

std::optional<unsigned> parse_unsigned(std::string_view text) {
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::vector<std::string> glob_paths(const std::string& pattern) {
  std::vector<std::string> paths;
  glob_t matches{};
  if (::glob(pattern.c_str(), 0, nullptr, &matches) == 0)
    for (size_t i = 0; i < matches.gl_pathc; ++i) paths.emplace_back(matches.gl_pathv[i]);
  ::globfree(&matches);
  return paths;
}

// Numbered entries like "gi3" in a directory, sorted by number.
std::vector<unsigned> numbered_entries(const std::string& dir, std::string_view prefix) {
  std::vector<unsigned> numbers;
  DIR* handle = ::opendir(dir.c_str());
  if (!handle) return numbers;
  while (auto* entry = ::readdir(handle)) {
    std::string_view name = entry->d_name;
    if (!name.starts_with(prefix)) continue;
    if (auto number = parse_unsigned(name.substr(prefix.size()))) numbers.push_back(*number);
  }
  ::closedir(handle);
  std::sort(numbers.begin(), numbers.end());
  return numbers;
}

// Which lines of the partition minors table belong in the inventory. With a
// GI key "gpu{minor}/gi{gi}/access", a name "gpu<N>/gi..." is GPU N's and is
// kept when N is one of the host's minors; any other name is kept. Only the
// start of the text is read, so a whole line can be judged before it is split.
class PartitionCapFilter {
 public:
  PartitionCapFilter(const std::string& gi_key, const std::vector<Gpu>& gpus) {
    auto minor_at = gi_key.find("{minor}");
    auto gi_at = gi_key.find("{gi}");
    if (minor_at == std::string::npos || gi_at == std::string::npos || gi_at < minor_at) return;
    before_minor_ = gi_key.substr(0, minor_at);
    after_minor_ = gi_key.substr(minor_at + 7, gi_at - minor_at - 7);
    for (const auto& gpu : gpus) host_minors_.push_back(gpu.minor);
    std::sort(host_minors_.begin(), host_minors_.end());
  }

  // `name` must stay valid until the next call: the driver lists each GPU's
  // names together, so the answer for one "gpu<N>/gi" holds for the names
  // after it that start the same, and they are judged by that prefix alone.
  bool keeps(std::string_view name) {
    if (!last_prefix_.empty() && name.starts_with(last_prefix_)) return last_kept_;
    if (before_minor_.empty() || !name.starts_with(before_minor_)) return true;
    std::string_view rest = name.substr(before_minor_.size());
    unsigned minor = 0;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), minor);
    if (ec != std::errc()) return true;
    rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
    if (!rest.starts_with(after_minor_)) return true;
    last_prefix_ = name.substr(0, name.size() - rest.size() + after_minor_.size());
    last_kept_ = std::binary_search(host_minors_.begin(), host_minors_.end(), minor);
    return last_kept_;
  }

 private:
  std::string before_minor_, after_minor_;
  std::vector<unsigned> host_minors_;  // sorted
  std::string_view last_prefix_;       // "gpu3/gi" of the last GPU name judged
  bool last_kept_ = false;
};

// A field of the record by its Inventory name, through its transform.
Result<std::string> gpu_field(const GpuRecord& record, const GpuDiscovery& discovery, const std::string& name) {
  auto value_of = [&](const std::string& field) -> std::string {
    auto key = discovery.gpu_fields.find(field);
    if (key == discovery.gpu_fields.end()) return {};
    auto value = record.find(key->second);
    return value == record.end() ? std::string() : value->second;
  };
  std::string value = value_of(name);
  auto transform = discovery.gpu_field_transforms.find(name);
  if (transform == discovery.gpu_field_transforms.end() || value.empty()) return value;
  auto converted = apply_field_transform(transform->second, value, value_of("bus_domain"));
  if (!converted) return make_error("field {}: {}", discovery.gpu_fields.at(name), converted.error().message);
  return converted;
}

// A GPU of the record at `path`; no GPU (nullopt) when gpu_skip says so.
Result<std::optional<Gpu>> read_gpu_record(const std::string& path, const GpuDiscovery& discovery) {
  auto text = read_file(path, kProcfsFileLimit);
  if (!text) return text.error();
  auto record = parse_gpu_record(*text, discovery.gpu_record_format);
  if (skipped_record(record, discovery.gpu_skip)) return std::optional<Gpu>();
  Gpu gpu;
  auto minor_text = gpu_field(record, discovery, "minor");
  if (!minor_text) return make_error("{}: {}", path, minor_text.error().message);
  auto minor = parse_unsigned(*minor_text);
  if (!minor) return make_error("{}: no valid device minor", path);
  gpu.minor = *minor;
  for (auto [name, into] : {std::pair{"uuid", &gpu.uuid}, std::pair{"bus_id", &gpu.bus_id},
                            std::pair{"model", &gpu.model}}) {
    auto value = gpu_field(record, discovery, name);
    if (!value) return make_error("{}: {}", path, value.error().message);
    *into = std::move(*value);
  }
  gpu.proc_dir = dirname_of(path);
  if (gpu.uuid.empty() || gpu.bus_id.empty()) return make_error("{}: missing UUID or bus id", path);
  return std::optional<Gpu>(std::move(gpu));
}

}  // namespace

std::string expand_template(std::string text, const std::map<std::string, std::string>& values) {
  for (const auto& [name, value] : values) {
    std::string token = "{" + name + "}";
    for (auto at = text.find(token); at != std::string::npos; at = text.find(token, at + value.size()))
      text.replace(at, token.size(), value);
  }
  return text;
}

const std::string& discovery_root(const HostRoots& roots, std::string_view path) {
  return path.starts_with("/sys/") ? roots.sys_root : roots.proc_root;
}

namespace {

Result<std::string> read_version(const GpuDiscovery& discovery, const HostRoots& roots,
                                 std::vector<std::string>& warnings) {
  if (discovery.version_file.empty()) return std::string();
  std::string path = join_root(discovery_root(roots, discovery.version_file), discovery.version_file);
  auto text = read_file(path, kProcfsFileLimit);
  if (!text) {
    if (discovery.version_required) warnings.push_back("no driver loaded: " + text.error().message);
    return std::string();
  }
  std::smatch match;
  bool found = false;
  try {  // std::regex reports bad patterns and runaway matches only by throwing
    if (discovery.version_regex) found = std::regex_search(*text, match, discovery.version_regex->pattern);
    else found = std::regex_search(*text, match, std::regex(discovery.version_pattern));
  } catch (const std::regex_error& error) {
    return make_error("discovery.version_pattern: {}", error.what());
  }
  if (!found || match.size() < 2)
    return make_error("{}: no driver version matching /{}/", path, discovery.version_pattern);
  return match[1].str();
}

// One source's GPUs, ordered by minor and numbered within the vendor.
Result<std::vector<Gpu>> read_source_gpus(const GpuSource& source, const HostRoots& roots) {
  std::vector<Gpu> gpus;
  const std::string& glob = source.discovery->gpu_glob;
  if (glob.empty()) return gpus;
  for (const auto& path : glob_paths(join_root(discovery_root(roots, glob), glob))) {
    auto gpu = read_gpu_record(path, *source.discovery);
    if (!gpu) return gpu.error();
    if (*gpu) gpus.push_back(std::move(**gpu));
  }
  std::sort(gpus.begin(), gpus.end(), [](const Gpu& a, const Gpu& b) { return a.minor < b.minor; });
  for (size_t i = 0; i < gpus.size(); ++i) {
    if (i > 0 && gpus[i].minor == gpus[i - 1].minor)
      return make_error("two {}GPUs report device minor {}", source.vendor.empty() ? "" : source.vendor + " ",
                        gpus[i].minor);
    gpus[i].vendor = source.vendor;
    gpus[i].vendor_index = static_cast<unsigned>(i);
  }
  return gpus;
}

// The minors table lists every possible partition of every possible GPU
// (thousands of lines on a real driver, most for GPUs the host does not
// have), so it is split by hand and only the lines that can matter are kept:
// those of the host's GPUs and those that name no GPU ("config", "monitor").
Status read_source_partition_caps(const GpuDiscovery& discovery, const std::vector<Gpu>& gpus,
                                  const HostRoots& roots, std::vector<PartitionCaps::value_type>& listing,
                                  std::string& text) {
  std::string path = join_root(roots.proc_root, discovery.partition_minors);
  auto read = read_file(path, kProcfsFileLimit);
  if (!read) return ok_status();  // no partition support on this host
  text = std::move(*read);
  PartitionCapFilter wanted(discovery.partition_gi_key, gpus);
  std::string_view rest = text;
  for (int number = 1; !rest.empty(); ++number) {
    // Cut without substr, which is not always inlined (it may throw) and ran
    // twice per line of thousands.
    auto end = std::min(rest.find('\n'), rest.size());
    std::string_view line(rest.data(), end);
    rest.remove_prefix(std::min(end + 1, rest.size()));
    if (!wanted.keeps(line)) continue;
    // Two memchr scans: a character-by-character search was a tenth of this.
    auto space = std::min(line.find(' '), line.find('\t'));
    if (space == std::string_view::npos) continue;
    std::string_view minor_text = trim_view(line.substr(space));
    auto minor = parse_unsigned(minor_text);
    if (!minor) return make_error("{}:{}: invalid minor '{}'", path, number, minor_text);
    listing.emplace_back(line.substr(0, space), *minor);
  }
  return ok_status();
}

std::vector<Gpu> gpus_of(const std::vector<Gpu>& gpus, const std::string& vendor) {
  std::vector<Gpu> own;
  for (const auto& gpu : gpus)
    if (gpu.vendor == vendor) own.push_back(gpu);
  return own;
}

void read_gpu_partitions(const GpuDiscovery& discovery, const PartitionCaps& caps, const std::string& proc_root,
                         Gpu& gpu) {
  std::map<std::string, std::string> values{{"minor", std::to_string(gpu.minor)}};
  std::string dir = join_root(proc_root, expand_template(discovery.partition_dir, values));
  for (unsigned gi : numbered_entries(dir, "gi")) {
    std::string gi_dir = dir + "/gi" + std::to_string(gi);
    values["gi"] = std::to_string(gi);
    for (unsigned ci : numbered_entries(gi_dir, "ci")) {
      values["ci"] = std::to_string(ci);
      Partition partition;
      partition.index = static_cast<unsigned>(gpu.partitions.size());
      partition.gi = gi;
      partition.ci = ci;
      partition.gi_access = gi_dir + "/access";
      partition.ci_access = gi_dir + "/ci" + std::to_string(ci) + "/access";
      partition.gi_minor = caps.find(expand_template(discovery.partition_gi_key, values));
      partition.ci_minor = caps.find(expand_template(discovery.partition_ci_key, values));
      gpu.partitions.push_back(std::move(partition));
    }
  }
}

}  // namespace

Status read_driver_version(const Policy& policy, Inventory& inventory) {
  bool first = true;
  for (const auto& source : gpu_sources(policy)) {
    auto version = read_version(*source.discovery, policy.host, inventory.warnings);
    if (!version) return version.error();
    if (first) inventory.driver_version = *version;
    first = false;
    inventory.driver_versions[source.vendor] = std::move(*version);
  }
  return ok_status();
}

Status read_gpus(const Policy& policy, Inventory& inventory) {
  for (const auto& source : gpu_sources(policy)) {
    auto gpus = read_source_gpus(source, policy.host);
    if (!gpus) return gpus.error();
    for (auto& gpu : *gpus) {
      gpu.index = static_cast<unsigned>(inventory.gpus.size());
      inventory.gpus.push_back(std::move(gpu));
    }
  }
  return ok_status();
}

// Every source's lines as one table; `texts` keeps the views valid until then.
Status read_partition_caps(const Policy& policy, Inventory& inventory) {
  std::vector<PartitionCaps::value_type> listing;
  std::list<std::string> texts;  // a list: the views must survive each new text
  for (const auto& source : gpu_sources(policy)) {
    if (source.discovery->partition_minors.empty()) continue;
    auto own = gpus_of(inventory.gpus, source.vendor);
    if (auto status = read_source_partition_caps(*source.discovery, own, policy.host, listing, texts.emplace_back());
        !status)
      return status;
  }
  // A repeated name keeps its first minor.
  if (!listing.empty()) inventory.partition_caps = PartitionCaps::from_listing(listing);
  return ok_status();
}

Status read_partitions(const Policy& policy, Inventory& inventory) {
  for (auto& gpu : inventory.gpus) {
    const GpuDiscovery& discovery = gpu_discovery_of(policy, gpu.vendor);
    if (!discovery.partition_dir.empty())
      read_gpu_partitions(discovery, inventory.partition_caps, policy.host.proc_root, gpu);
  }
  return ok_status();
}

Status read_char_majors(const Policy& policy, Inventory& inventory) {
  auto text = read_file(join_root(policy.host.proc_root, "/proc/devices"), kProcfsFileLimit);
  if (!text) return ok_status();
  std::istringstream lines(*text);
  bool in_char_section = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("Character devices")) in_char_section = true;
    else if (line.starts_with("Block devices")) in_char_section = false;
    if (!in_char_section) continue;
    std::istringstream words(line);
    std::string major_text, name;
    if (!(words >> major_text >> name)) continue;
    if (auto major = parse_unsigned(major_text)) inventory.char_majors[name] = *major;
  }
  return ok_status();
}

}  // namespace graft
