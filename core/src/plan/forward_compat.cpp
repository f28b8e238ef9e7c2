// SPDX-License-Identifier: Apache-2.0
#include "plan/forward_compat.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "image/image_versions.hpp"
#include "paths/paths.hpp"

namespace graft {
namespace {

// The soname of the deciding library when the plan injects its native copy
// ("libvendor.so.1"), or "" when it does not.
std::string injected_soname(const PlanContext& context, const std::string& prefix) {
  bool selected = std::any_of(context.items.libraries.begin(), context.items.libraries.end(),
                              [&](const auto& item) { return item.value == prefix; });
  auto found = context.inventory.libraries.find(prefix);
  if (!selected || found == context.inventory.libraries.end()) return "";
  for (const auto& library : found->second)
    if (!library.lib32 && !library.soname.empty()) return library.soname;
  return "";
}

// The driver version of the vendor whose set brought the deciding library.
const std::string& host_version(const PlanContext& context, const std::string& prefix) {
  for (const auto& item : context.items.libraries) {
    if (item.value != prefix) continue;
    auto set = context.policy.capabilities.find(item.capability);
    if (set != context.policy.capabilities.end()) return driver_version_of(context.inventory, set->second.vendor);
  }
  return context.inventory.driver_version;
}

void note(PlanContext& context, const std::string& text) {
  context.plan.intent.request_notes.push_back("forward compat: " + text);
}

// Writes the ld.so.conf.d entry and lists the image's soname first.
void prefer(PlanContext& context, Action& refresh, const std::string& soname, const std::string& reason) {
  const ForwardCompat& compat = context.policy.forward_compat;
  context.plan.actions.push_back(Action{.kind = ActionKind::config_file,
                                        .plugin = "libraries",
                                        .source = "",
                                        .target = compat.conf_file,
                                        .options = {},
                                        .content = compat.dir.value + "\n",
                                        .provenance = {"forward compat", reason, compat.dir.origin}});
  refresh.content = compat.dir.value + "/" + soname + "\n" + refresh.content;
  note(context, reason + ": " + compat.dir.value + " preferred");
}

}  // namespace

Status add_forward_compat(PlanContext& context, Action& refresh) {
  const ForwardCompat& compat = context.policy.forward_compat;
  if (!compat.enabled) return ok_status();
  if (compat.dir.value.empty() || compat.library.value.empty() || compat.conf_file.empty()) {
    context.plan.warnings.push_back("forward_compat is enabled but dir, library or conf_file is unset");
    return ok_status();
  }
  std::string soname = injected_soname(context, compat.library.value);
  if (soname.empty()) return ok_status();
  if (context.request.rootfs.empty()) {
    note(context, "not checked: no container root to look in");
    return ok_status();
  }
  auto files = image_versioned_files(context.request.rootfs, compat.dir.value, compat.library.value);
  if (!files.ok()) {
    context.plan.warnings.push_back("forward compat not used: " + files.error().message);
    return ok_status();
  }
  if (files->empty()) return ok_status();
  const VersionedFile& image = files->front();
  const std::string& host_driver = host_version(context, compat.library.value);
  auto host = parse_dotted_version(host_driver);
  std::string what = fmt::format("image {}/{}", compat.dir.value, image.name);
  if (host.empty() || image.version.front() <= host.front()) {
    note(context, fmt::format("{} is not newer than host driver {}: not used", what, host_driver));
    return ok_status();
  }
  std::string reason = fmt::format("image {} {} newer than host driver {}", compat.library.value,
                                   image.name.substr(compat.library.value.size() + 1), host_driver);
  if (!exists_in_root(context.request.rootfs, compat.dir.value + "/" + soname)) {
    note(context, fmt::format("{}, but the image has no {} there: not used", reason, soname));
    return ok_status();
  }
  prefer(context, refresh, soname, reason);
  return ok_status();
}

}  // namespace graft
