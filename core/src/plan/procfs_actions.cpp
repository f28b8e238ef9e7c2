// SPDX-License-Identifier: Apache-2.0
// The driver's procfs directory as the container sees it: a tmpfs holding
// copies of the allowed files (with policy rewrites, e.g. turning off device
// file modification) plus read-only binds of only the visible GPUs' dirs.
#include <fmt/format.h>

#include <set>

#include "paths/paths.hpp"
#include "inventory/driver_procfs.hpp"
#include "plan/plan_context.hpp"
#include "policy/vendors.hpp"

namespace graft {

void add_procfs_actions(PlanContext& context) {
  const ProcfsMask& mask = context.policy.procfs;
  if (mask.path.empty() || !context.intent.for_vendor(mask.vendor)) return;
  Action tmpfs{.kind = ActionKind::procfs_mask,
               .plugin = "procfs",
               .source = join_root(context.policy.host.proc_root, mask.path),
               .target = mask.path,
               .options = {"mode=0555", "nosuid", "nodev", "noexec"},
               .paths = mask.copy,
               .provenance = {"base", "hide other GPUs and driver controls", mask.origin}};
  for (const auto& rewrite : mask.rewrites)
    tmpfs.rewrites.push_back(fmt::format("{}: {} => {}", rewrite.file, rewrite.from, rewrite.to));
  context.plan.actions.push_back(tmpfs);

  std::set<unsigned> shown;
  for (const auto& grant : context.intent.devices) {
    if (!shown.insert(grant.gpu).second || grant.gpu >= context.inventory.gpus.size()) continue;
    const Gpu& gpu = context.inventory.gpus[grant.gpu];
    if (!serves_vendor(mask.vendor, gpu.vendor)) continue;
    // The directory name is taken from the host, which may print a 16-bit
    // PCI domain where other tools print 32 bits.
    std::string dir = expand_template(mask.gpu_dir, {{"bus_id", basename_of(gpu.proc_dir)}});
    context.plan.actions.push_back(Action{.kind = ActionKind::bind_mount,
                                          .plugin = "procfs",
                                          .source = gpu.proc_dir,
                                          .target = normalize_path(mask.path + "/" + dir),
                                          .options = {"ro", "nosuid", "nodev", "noexec"},
                                          .provenance = {fmt::format("GPU {}", gpu.index),
                                                         grant.reason.text, grant.reason.origin}});
  }
}

}  // namespace graft
