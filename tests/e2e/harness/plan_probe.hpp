// SPDX-License-Identifier: Apache-2.0
// From `graft plan --format json` to proof inside the container: a busybox
// sh script generated from the plan's actions that looks at every planned
// path from inside (node type and numbers, whether it opens and with which
// error, whether a read-only mount refuses a write, where a link leads), plus
// fixed probes: the vendor's nodes in /dev (DeviceProbes: NVIDIA's unless a
// case names others), a GPU node made by hand with mknod, /proc/driver/nvidia,
// `ldconfig -p`. It prints one "kind|subject|values..." line per fact; the
// tests parse them into a ProbeReport and assert on the facts.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace graft::e2e {

// Where the script lives inside the container.
inline constexpr const char* kProbeScript = "/graft-check.sh";

// The /dev probes a script makes whatever the plan holds.
struct DeviceProbes {
  std::vector<std::string> listed;  // sh globs: each node they match is a "devls" line
  std::vector<std::string> opened;  // nodes opened by name, planned or not
  // A GPU node the container must not use, made by hand (mknod, then opened
  // as "made:<path>"): the device cgroup, not its absence, must refuse it.
  std::string made;
  unsigned made_major = 0;
  unsigned made_minor = 0;
};

// The fake NVIDIA host's: /dev/nvidia*, the control nodes, GPU 0 made by hand.
const DeviceProbes& nvidia_device_probes();

std::string probe_script(const nlohmann::json& plan, const DeviceProbes& devices = nvidia_device_probes());

// `text` single-quoted for sh: container paths from a plan go into scripts so.
std::string shell_quote(const std::string& text);

// The lines the script printed.
class ProbeReport {
 public:
  static ProbeReport parse(const std::string& output);

  // The values after "kind|subject|", or nothing when the script printed no such line.
  std::optional<std::vector<std::string>> find(const std::string& kind, const std::string& subject) const;
  // Every subject printed for a list kind ("devls", "gpu", "params", "ldcache", "libls").
  std::vector<std::string> subjects(const std::string& kind) const;
  bool finished() const { return finished_; }  // the script reached its end

  // open(2) of `path` as `cat` reports it: "ok", or the error text
  // ("No such device or address"); "not probed" when absent from the report.
  std::string open_result(const std::string& path) const;

 private:
  std::multimap<std::string, std::vector<std::string>> lines_;  // kind -> subject, values...
  bool finished_ = false;
};

// The targets of the plan's actions of one kind ("device_node", ...), in plan order.
std::vector<std::string> planned_targets(const nlohmann::json& plan, const std::string& kind);

}  // namespace graft::e2e
