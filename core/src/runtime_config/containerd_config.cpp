// SPDX-License-Identifier: Apache-2.0
#include "runtime_config/containerd_config.hpp"

#include <toml++/toml.h>

#include <fmt/format.h>

#include "runtime_config/owned_file.hpp"

namespace graft::runtime_config {
namespace {

constexpr std::string_view kBlockBegin = "# BEGIN graft runtime configure";
constexpr std::string_view kBlockEnd = "# END graft runtime configure";

Result<toml::table> parse_containerd_toml(const std::string& text) {
  try {
    return toml::parse(text);
  } catch (const toml::parse_error& e) {
    return make_error("line {} column {}: {}", e.source().begin.line, e.source().begin.column, e.description());
  }
}

// The CRI plugin's name in a config of `version`: as toml++ looks it up,
// and as a table header writes it.
struct CriPlugin {
  const char* key;
  std::string header;
};

Result<CriPlugin> cri_plugin(std::int64_t version) {
  if (version == 1) return CriPlugin{"cri", "plugins.cri"};
  if (version == 2) return CriPlugin{"io.containerd.grpc.v1.cri", "plugins.\"io.containerd.grpc.v1.cri\""};
  if (version == 3) return CriPlugin{"io.containerd.cri.v1.runtime", "plugins.\"io.containerd.cri.v1.runtime\""};
  return make_error("version {} is not one graft knows (1, 2 or 3); nothing was changed", version);
}

// What graft's block holds beside graft's entry, read from the rest of the file.
struct ContainerdSite {
  std::optional<bool> systemd_cgroup;  // the runc entry's, which graft's must share
  // containerd 1.6 drops its built-in runtimes map once the file names any
  // runtime, and the CRI plugin then fails to load ("no corresponding runtime
  // configured ... runc"): the default runc entry must be named with graft's.
  bool needs_runc = false;
};

ContainerdSite containerd_site(const toml::table& config, const CriPlugin& plugin) {
  auto containerd = config["plugins"][plugin.key]["containerd"];
  auto runtimes = containerd["runtimes"];
  std::string default_name = containerd["default_runtime_name"].value_or<std::string>("runc");
  return {runtimes["runc"]["options"]["SystemdCgroup"].value<bool>(),
          default_name == "runc" && !runtimes["runc"]};
}

std::string graft_block(const CriPlugin& plugin, const RuntimeEntry& entry, const ContainerdSite& site,
                        bool new_file) {
  std::string runtimes = plugin.header + ".containerd.runtimes.";
  std::string block = fmt::format("{}: graft's runtime for the CRI plugin (`graft runtime configure "
                                  "--remove` takes this block out)\n",
                                  kBlockBegin);
  if (new_file) block += "version = 2\n\n";
  if (site.needs_runc)
    block += fmt::format("# containerd's default runc entry, which naming any runtime here would drop\n"
                         "[{}runc]\n  runtime_type = \"io.containerd.runc.v2\"\n",
                         runtimes);
  block += fmt::format(
      "[{0}{1}]\n  runtime_type = \"io.containerd.runc.v2\"\n  [{0}{1}.options]\n    BinaryName = {2}\n",
      runtimes, entry.name, toml_string(entry.binary));
  if (site.systemd_cgroup) block += fmt::format("    SystemdCgroup = {}\n", *site.systemd_cgroup);
  return block + std::string(kBlockEnd) + "\n";
}

}  // namespace

Result<std::optional<std::string>> containerd_removed(const std::optional<std::string>& before) {
  if (!before) return before;
  std::size_t begin = before->find(kBlockBegin);
  while (begin != std::string::npos && begin != 0 && (*before)[begin - 1] != '\n')
    begin = before->find(kBlockBegin, begin + 1);
  if (begin == std::string::npos) return before;
  std::size_t end = before->find(kBlockEnd, begin);
  if (end == std::string::npos)
    return make_error("graft's block has its BEGIN line but no END line: mend it by hand; nothing was changed");
  end = before->find('\n', end);
  end = end == std::string::npos ? before->size() : end + 1;
  // The blank line configure put before the block goes with it.
  if (begin >= 2 && before->compare(begin - 2, 2, "\n\n") == 0) --begin;
  std::string after = before->substr(0, begin) + before->substr(end);
  if (after.empty()) return std::optional<std::string>();
  return std::optional<std::string>(after);
}

Result<std::string> containerd_configured(const std::optional<std::string>& before, const RuntimeEntry& entry) {
  if (before) {
    if (auto parsed = parse_containerd_toml(*before); !parsed)
      return make_error("not valid TOML ({}); nothing was changed", parsed.error().message);
  }
  auto without_block = containerd_removed(before);
  if (!without_block) return without_block.error();
  std::string rest = without_block->value_or("");
  auto config = parse_containerd_toml(rest);
  if (!config) return config.error();
  bool exists = !rest.empty();
  auto plugin = cri_plugin((*config)["version"].value_or<std::int64_t>(exists ? 1 : 2));
  if (!plugin) return plugin.error();
  if (exists && rest.back() != '\n') rest += '\n';
  std::string after =
      rest + (exists ? "\n" : "") + graft_block(*plugin, entry, containerd_site(*config, *plugin), !exists);
  if (auto parsed = parse_containerd_toml(after); !parsed)
    return make_error("graft's [{}.containerd.runtimes.{}] cannot be added ({}): is it defined there already? "
                      "nothing was changed",
                      plugin->header, entry.name, parsed.error().message);
  return after;
}

}  // namespace graft::runtime_config
