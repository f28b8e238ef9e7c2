// SPDX-License-Identifier: Apache-2.0
#include "intent/intent_changes.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace graft {
namespace {

// Changes are built from keyed entries: what an entry is called ("device GPU
// 1"), the denial that names its removal ("GPU 1"), and its reason.
struct KeyedEntry {
  std::string key;
  std::string denial_what;
  std::string detail;  // compared to tell a changed entry from an equal one
  std::string reason;
};

std::string with_reason(std::string line, const std::string& reason) {
  if (!reason.empty()) line += " (" + reason + ")";
  return line;
}

std::string device_key(const DeviceGrant& device) {
  if (!device.partition) return fmt::format("GPU {}", device.gpu);
  return fmt::format("GPU {} partition {}", device.gpu, *device.partition);
}

std::vector<KeyedEntry> device_entries(const std::vector<DeviceGrant>& devices) {
  std::vector<KeyedEntry> entries;
  for (const auto& device : devices)
    entries.push_back({"device " + device_key(device), fmt::format("GPU {}", device.gpu), "", device.reason.text});
  return entries;
}

std::vector<KeyedEntry> node_entries(const std::vector<NodeGrant>& nodes) {
  std::vector<KeyedEntry> entries;
  for (const auto& node : nodes) {
    std::string what = "node " + node.name();
    entries.push_back({what, what, "", node.reason.text});
  }
  return entries;
}

std::vector<KeyedEntry> named_entries(const char* kind, const std::vector<NamedGrant>& grants) {
  std::vector<KeyedEntry> entries;
  for (const auto& grant : grants) {
    std::string what = fmt::format("{} {}", kind, grant.name);
    entries.push_back({what, what, "", grant.reason.text});
  }
  return entries;
}

std::vector<KeyedEntry> env_entries(const std::vector<EnvGrant>& env) {
  std::vector<KeyedEntry> entries;
  for (const auto& var : env) entries.push_back({"env " + var.name, "", var.value, var.reason.text});
  return entries;
}

std::vector<KeyedEntry> file_entries(const std::vector<FileGrant>& files) {
  std::vector<KeyedEntry> entries;
  for (const auto& file : files) entries.push_back({"file " + file.path, "", file.content, file.reason.text});
  return entries;
}

const KeyedEntry* find_key(const std::vector<KeyedEntry>& entries, const std::string& key) {
  auto it = std::find_if(entries.begin(), entries.end(), [&](const KeyedEntry& e) { return e.key == key; });
  return it == entries.end() ? nullptr : &*it;
}

// Denials `after` has that `before` lacks, in `after`'s order.
std::vector<Denial> new_denials(const Intent& before, const Intent& after) {
  std::vector<Denial> added;
  for (const auto& denial : after.denials)
    if (std::find(before.denials.begin(), before.denials.end(), denial) == before.denials.end())
      added.push_back(denial);
  return added;
}

class ChangeList {
 public:
  explicit ChangeList(std::vector<Denial> denials) : denials_(std::move(denials)) {}

  void compare(const std::vector<KeyedEntry>& before, const std::vector<KeyedEntry>& after, bool show_values) {
    for (const auto& entry : before)
      if (!find_key(after, entry.key)) lines_.push_back(with_reason("- " + entry.key, removal_reason(entry)));
    for (const auto& entry : after) {
      const KeyedEntry* old = find_key(before, entry.key);
      if (!old) {
        std::string line = "+ " + entry.key + (show_values ? "=" + entry.detail : "");
        lines_.push_back(with_reason(line, entry.reason));
      } else if (old->detail != entry.detail) {
        std::string line = "~ " + entry.key + (show_values ? ": " + old->detail + " -> " + entry.detail : " (changed)");
        lines_.push_back(with_reason(line, entry.reason));
      }
    }
  }

  void add(std::string line) { lines_.push_back(std::move(line)); }

  // The denials no removal line has taken.
  std::vector<std::string> take(const Intent& before, const Intent& after) {
    for (const auto& denial : denials_)
      if (!used_.contains(denial.what)) lines_.push_back(with_reason("+ denied " + denial.what, denial.reason.text));
    if (after.refusal && !(before.refusal == after.refusal))
      lines_.push_back(with_reason("refused", after.refusal->text));
    if (before.refusal && !after.refusal) lines_.push_back("refusal lifted");
    return std::move(lines_);
  }

 private:
  std::string removal_reason(const KeyedEntry& entry) {
    if (entry.denial_what.empty()) return "";
    for (const auto& denial : denials_)
      if (denial.what == entry.denial_what) {
        used_.insert(denial.what);
        return denial.reason.text;
      }
    return "";
  }

  std::vector<Denial> denials_;
  std::set<std::string> used_;
  std::vector<std::string> lines_;
};

}  // namespace

std::vector<std::string> intent_changes(const Intent& before, const Intent& after) {
  ChangeList changes(new_denials(before, after));
  if (before.inject != after.inject)
    changes.add(with_reason(fmt::format("inject: {} -> {}", before.inject, after.inject), after.inject_reason.text));
  if (before.vendors != after.vendors)
    changes.add(fmt::format("vendors: [{}] -> [{}]", fmt::join(before.vendors, ", "), fmt::join(after.vendors, ", ")));
  for (std::size_t i = 0; i < after.request_notes.size(); ++i)
    if (i >= before.request_notes.size() || before.request_notes[i] != after.request_notes[i])
      changes.add("+ note " + after.request_notes[i]);
  changes.compare(device_entries(before.devices), device_entries(after.devices), false);
  changes.compare(named_entries("capability", before.capabilities), named_entries("capability", after.capabilities),
                  false);
  changes.compare(named_entries("extra", before.extras), named_entries("extra", after.extras), false);
  changes.compare(node_entries(before.nodes), node_entries(after.nodes), false);
  changes.compare(env_entries(before.env), env_entries(after.env), true);
  changes.compare(file_entries(before.files), file_entries(after.files), false);
  return changes.take(before, after);
}

}  // namespace graft
