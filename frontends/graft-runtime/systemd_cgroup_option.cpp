// SPDX-License-Identifier: Apache-2.0
// The systemd cgroup driver among a runtime's global options (systemd_cgroup_option.hpp).
#include "systemd_cgroup_option.hpp"

#include <optional>
#include <string_view>

#include "runtime_option.hpp"

namespace graft::runtime {
namespace {

// Go's strconv.ParseBool, which reads runc's boolean flags; nothing for a
// value it refuses (runc then exits before it creates anything).
std::optional<bool> go_bool(std::string_view text) {
  for (std::string_view yes : {"1", "t", "T", "TRUE", "true", "True"})
    if (text == yes) return true;
  for (std::string_view no : {"0", "f", "F", "FALSE", "false", "False"})
    if (text == no) return false;
  return std::nullopt;
}

// What one global option says of the cgroup driver: systemd or not;
// nothing for any other option.
std::optional<bool> driver_setting(const RuntimeGrammar& grammar, const FoundOption& found) {
  std::string_view name = found.option->name;
  if (name == "systemd-cgroup") {
    // Only runc's parser reads a value on it (crun's refuses one).
    if (grammar.syntax == OptionSyntax::go_flag && !found.value.empty()) return go_bool(found.value);
    return true;
  }
  if (name == "cgroup-manager") return found.value == "systemd";  // crun: cgroupfs, disabled
  return std::nullopt;
}

}  // namespace

bool uses_systemd_cgroup(std::span<const std::string> runtime_args, const RuntimeGrammar& grammar) {
  bool systemd = false;
  for (std::size_t at = 0; at < runtime_args.size();) {
    ReadArgument read = read_argument(grammar, grammar.global, runtime_args, at);
    if (read.kind != ReadArgument::Kind::options) break;  // the command, `--`, or an argument not read
    for (const auto& found : read.found)
      if (auto setting = driver_setting(grammar, found)) systemd = *setting;
    at += read.width;
  }
  return systemd;
}

}  // namespace graft::runtime
