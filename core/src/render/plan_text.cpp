// SPDX-License-Identifier: Apache-2.0
// The plan as an auditor reads it: who asked for what, what was granted and
// denied and by which rule, then every action grouped by the capability (or
// GPU) that brought it, each line ending with its policy or rule origin.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>

#include "render/render.hpp"

namespace graft {
namespace {

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

// `text` left-aligned in `width` columns. ASCII, as nearly every line is, is
// padded here: fmt measures a padded string's width by decoding it, which
// was a twentieth of a `graft plan`; other text keeps fmt's measure.
void padded(std::string& out, std::string_view text, std::size_t width) {
  auto is_ascii = [](char c) { return static_cast<unsigned char>(c) < 0x80; };
  if (!std::all_of(text.begin(), text.end(), is_ascii)) {
    fmt::format_to(std::back_inserter(out), "{:<{}}", text, width);
    return;
  }
  out += text;
  if (text.size() < width) out.append(width - text.size(), ' ');
}

void line(std::string& out, std::string_view label, std::string_view text, std::string_view origin) {
  padded(out, label, 9);
  padded(out, text, 64);
  out += ' ';
  out += origin;
  // A line without an origin (a request note) ends at its text, not in padding.
  while (!out.empty() && out.back() == ' ') out.pop_back();
  out += '\n';
}

// How many entries an ldcache refresh must find in the cache it writes.
std::string expected_cache_note(const std::string& content) {
  auto count = std::count(content.begin(), content.end(), '\n');
  return count == 0 ? "" : fmt::format(" (must list {} sonames)", count);
}

std::string describe(const Action& action) {
  std::string options = join(action.options, ",");
  switch (action.kind) {
    case ActionKind::device_node:
      return fmt::format("device  {} {} {}:{} ({})", action.target, action.device_type,
                         action.major, action.minor, options);
    case ActionKind::cgroup_allow:
      return fmt::format("cgroup  allow {} {}", action.target, action.access);
    case ActionKind::bind_mount:
      return fmt::format("mount   {} {}{}", options, action.target,
                         action.source == action.target ? "" : " <- " + action.source);
    case ActionKind::symlink:
      return fmt::format("link    {} -> {}", action.target, action.source);
    case ActionKind::procfs_mask:
      return fmt::format("procfs  mask {} (keep {}{}{})", action.target, join(action.paths, ","),
                         action.rewrites.empty() ? "" : "; ", join(action.rewrites, "; "));
    case ActionKind::config_file:
      return fmt::format("config  {} ({} bytes)", action.target, action.content.size());
    case ActionKind::env:
      return fmt::format("env     {}={}", action.target, action.content);
    case ActionKind::ldcache_update:
      return fmt::format("ldcache update {}{}", join(action.paths, " "),
                         expected_cache_note(action.content));
  }
  return {};
}

void render_decisions(const Plan& plan, std::string& out) {
  const Intent& intent = plan.intent;
  for (size_t i = 0; i < intent.request_notes.size(); ++i)
    line(out, i == 0 ? "request" : "", intent.request_notes[i], "");
  if (!plan.inject && !intent.refusal)
    line(out, "skip", "not a GPU container: nothing injected", intent.inject_reason.origin.brief());
  std::string label = "granted";
  for (const auto& device : plan.devices) {
    std::string what = device.partition
                           ? fmt::format("GPU {}:{}  {}  {}", device.index, *device.partition,
                                         device.uuid, device.bus_id)
                           : fmt::format("GPU {}  {}  {}", device.index, device.uuid, device.bus_id);
    line(out, std::exchange(label, ""), what + "  (" + device.reason.text + ")",
         device.reason.origin.brief());
  }
  for (const auto* grants : {&intent.capabilities, &intent.extras})
    for (const auto& grant : *grants)
      line(out, std::exchange(label, ""), grant.name + "  (" + grant.reason.text + ")",
           grant.reason.origin.brief());
  for (const auto& node : intent.nodes)
    line(out, std::exchange(label, ""), "node " + node.name() + "  (" + node.reason.text + ")",
         node.reason.origin.brief());
  label = "denied";
  for (const auto& denial : intent.denials)
    line(out, std::exchange(label, ""), denial.what + "  (" + denial.reason.text + ")",
         denial.reason.origin.brief());
  if (intent.refusal)
    line(out, "REFUSED", intent.refusal->text, intent.refusal->origin.brief());
}

bool uses_dir(const Plan& plan, const std::string& dir) {
  return std::any_of(plan.actions.begin(), plan.actions.end(),
                     [&](const Action& action) { return action.target.starts_with(dir + "/"); });
}

// Which library directory the image got, and why: the one choice in a plan
// that depends on the image rather than on the policy.
void render_lib_dirs(const Plan& plan, std::string& out) {
  if (!plan.lib_dir.empty() && uses_dir(plan, plan.lib_dir))
    out += fmt::format("library dir {}: {}\n", plan.lib_dir, plan.lib_dir_reason);
  if (!plan.lib32_dir.empty() && uses_dir(plan, plan.lib32_dir))
    out += fmt::format("library dir (32-bit) {}: {}\n", plan.lib32_dir, plan.lib32_dir_reason);
}

}  // namespace

std::string render_plan_text(const Plan& plan) {
  std::string out = fmt::format("container {}{}   driver {}\n", plan.container_id,
                                plan.bundle.empty() ? "" : " (bundle " + plan.bundle + ")",
                                plan.driver_version.empty() ? "none" : plan.driver_version);
  render_decisions(plan, out);
  render_lib_dirs(plan, out);
  // Group by what brought each action, keeping first-appearance order.
  std::vector<std::string> groups;
  std::map<std::string, std::vector<const Action*>> by_group;
  for (const auto& action : plan.actions) {
    auto& members = by_group[action.provenance.capability];
    if (members.empty()) groups.push_back(action.provenance.capability);
    members.push_back(&action);
  }
  for (const auto& group : groups) {
    // A reason every member shares heads the group; otherwise each line
    // names its own (a [video] group holds video's libraries and those it
    // pulls via compute.libraries: no one reason heads both).
    const std::vector<const Action*>& members = by_group[group];
    const std::string& first = members.front()->provenance.reason;
    bool shared = std::all_of(members.begin(), members.end(),
                              [&](const Action* action) { return action->provenance.reason == first; });
    const std::string& reason = shared ? first : group;
    out += reason == group ? fmt::format("\n[{}]\n", group) : fmt::format("\n[{}]  {}\n", group, reason);
    for (const Action* action : members) {
      std::string origin = action->provenance.origin.brief();
      if (action->provenance.reason != reason) origin += "  " + action->provenance.reason;
      line(out, "", describe(*action), origin);
    }
  }
  if (!plan.warnings.empty()) out += "\n";
  for (const auto& warning : plan.warnings) line(out, "warning", warning, "");
  out += fmt::format("\n{} actions\n", plan.actions.size());
  return out;
}

std::string refusal_line(const Plan& plan) {
  return "container " + plan.container_id + " refused: " + plan.intent.refusal->text + " (" +
         plan.intent.refusal->origin.brief() + ")";
}

}  // namespace graft
