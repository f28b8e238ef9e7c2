// SPDX-License-Identifier: Apache-2.0
// Driver libraries into the image's library directory: one read-only bind
// per selected file, the soname link the dynamic linker looks for, the
// policy's extra links (development names, vendor indirections), the 32-bit
// copies when a granted set asks for them, and one ld cache refresh that
// must list each soname link made (and, first, an image's newer copy of a
// driver library: forward_compat.hpp).
#include <map>
#include <set>

#include "paths/paths.hpp"
#include "inventory/driver_procfs.hpp"
#include "plan/forward_compat.hpp"
#include "plan/plan_context.hpp"

namespace graft {
namespace {

// The image's layout decides (request/image_layout.cpp); without a rootfs
// (audits, CDI) the multiarch layout is assumed and the reason says so.
void choose_lib_dirs(const Request& request, Plan& plan) {
  ImageLayout layout = request.layout.known ? request.layout : assumed_image_layout();
  plan.lib_dir = layout.lib_dir.path;
  plan.lib_dir_reason = layout.lib_dir.reason;
  plan.lib32_dir = layout.lib32_dir.path;
  plan.lib32_dir_reason = layout.lib32_dir.reason;
}

void add_library(const Library& library, const std::string& dir, const Provenance& provenance,
                 Plan& plan, std::set<std::string>& names) {
  std::string file = basename_of(library.host_path);
  plan.actions.push_back(Action{.kind = ActionKind::bind_mount,
                                .plugin = "libraries",
                                .source = library.host_path,
                                .target = dir + "/" + file,
                                .options = {"ro", "nosuid", "nodev"},
                                .provenance = provenance});
  names.insert(file);
  if (library.soname.empty() || library.soname == file) return;
  names.insert(library.soname);
  plan.actions.push_back(Action{.kind = ActionKind::symlink,
                                .plugin = "libraries",
                                .source = file,
                                .target = dir + "/" + library.soname,
                                .provenance = provenance});
}

// A policy link is only made when what it points at was injected, so a
// development link never dangles in a utility-only container.
void add_policy_symlinks(PlanContext& context, const std::string& dir,
                         const std::set<std::string>& names) {
  const auto& items = context.items;
  for (size_t i = 0; i < items.symlinks.size(); ++i) {
    const SymlinkSpec& link = items.symlinks[i];
    const auto& set = context.policy.capabilities.find(items.symlink_sets[i]);
    const std::string& version = driver_version_of(
        context.inventory, set == context.policy.capabilities.end() ? std::string() : set->second.vendor);
    std::string target = expand_template(link.target, {{"driver_version", version}});
    if (!names.count(target)) continue;
    context.plan.actions.push_back(Action{.kind = ActionKind::symlink,
                                          .plugin = "libraries",
                                          .source = target,
                                          .target = dir + "/" + link.link,
                                          .provenance = {items.symlink_sets[i], items.symlink_sets[i], link.origin}});
  }
}

// The refresh's content: where the new cache must list each soname, one per
// line, so the ldcache plugin can refuse a cache an image raced.
std::string expected_cache_entries(const std::set<std::string>& links) {
  std::string content;
  for (const auto& link : links) content += link + "\n";
  return content;
}

}  // namespace

Status add_library_actions(PlanContext& context) {
  choose_lib_dirs(context.request, context.plan);
  std::set<std::string> names, names32, soname_links;
  for (const auto& item : context.items.libraries) {
    auto found = context.inventory.libraries.find(item.value);
    if (found == context.inventory.libraries.end()) continue;
    for (const auto& library : found->second) {
      if (library.lib32 && !context.items.lib32) continue;
      const std::string& dir = library.lib32 ? context.plan.lib32_dir : context.plan.lib_dir;
      add_library(library, dir, provenance_of(item), context.plan, library.lib32 ? names32 : names);
      if (!library.soname.empty()) soname_links.insert(dir + "/" + library.soname);
    }
  }
  add_policy_symlinks(context, context.plan.lib_dir, names);
  if (!names32.empty()) add_policy_symlinks(context, context.plan.lib32_dir, names32);
  if (names.empty() && names32.empty()) return ok_status();
  Action refresh{.kind = ActionKind::ldcache_update,
                 .plugin = "ldcache",
                 .target = "/etc/ld.so.cache",
                 .content = expected_cache_entries(soname_links),
                 .provenance = {"libraries", "injected libraries", {}}};
  refresh.paths.push_back(context.plan.lib_dir);
  if (!names32.empty()) refresh.paths.push_back(context.plan.lib32_dir);
  if (auto status = add_forward_compat(context, refresh); !status) return status;
  context.plan.actions.push_back(refresh);
  return ok_status();
}

}  // namespace graft
