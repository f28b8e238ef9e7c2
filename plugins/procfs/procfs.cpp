// SPDX-License-Identifier: Apache-2.0
// procfs: hides the driver's procfs directory behind a mask and shows
// through it only what the plan grants.
//
// procfs_mask: prepare reads and rewrites the files the plan keeps and builds
// a detached tmpfs holding them; apply makes it read-only while it is still
// detached and only then lays it over the target (made inside the root if the
// container's /proc lacks it), so the container never sees a writable mask.
// bind_mount: prepare clones the source read-only and, when the target lies
// under a mask, makes its mountpoint inside that still-detached tmpfs, so
// apply attaches onto an fd of the tmpfs itself, not a path looked up again.
// Every prepare runs before any apply, so those mountpoints exist before the
// mask turns read-only (mounting onto them needs no write access).
// Other procfs binds get a mountpoint inside the root, as libraries do.
#include <linux/mount.h>

#include <map>
#include <span>

#include <fmt/format.h>

#include "plugin_glue.hpp"
#include "prepared_bind.hpp"
#include "procfs_mask.hpp"
#include "root_path.hpp"

namespace graft::plugin {
namespace {

struct Mask {
  std::string target;
  UniqueFd tmpfs;  // detached until apply attaches it; the same mount afterwards
  bool attached = false;
  // The directories of the last mountpoint made in the tmpfs, outermost
  // first, until the mask is applied. The plan lists a MIG host's capability
  // files directory by directory, so the next one mostly shares them: each is
  // made and settled once, and at most a path's depth of fds stays open.
  std::vector<std::pair<std::string, UniqueFd>> last_dirs;
};

struct ProcBind {
  PreparedBind bind;
  const Mask* mask = nullptr;  // the mask it lies under, if any
  UniqueFd mountpoint;               // inside the mask's tmpfs
};

class Procfs {
 public:
  explicit Procfs(const Host& host) : host_(host) {}

  Status prepare(const graft_action& action, const graft_apply_context&) {
    return action.kind == GRAFT_ACTION_PROCFS_MASK ? prepare_mask(action) : prepare_bind(action);
  }

  Status apply(const graft_action& action, const graft_apply_context& context) {
    RootFs root(host_, context);
    return action.kind == GRAFT_ACTION_PROCFS_MASK ? apply_mask(action, root)
                                                   : apply_bind(action, root);
  }

  Status finish(const graft_apply_context&) {
    for (auto& [index, mask] : masks_)
      if (!mask.attached) return make_error("{}: mask prepared but never applied", mask.target);
    return ok_status();
  }

 private:
  Status prepare_mask(const graft_action& action) {
    std::vector<std::string> missing;
    auto files = read_mask_files(action, missing);
    if (!files) return files.error();
    for (const auto& name : missing)
      host_.log(GRAFT_LOG_WARNING, fmt::format("{}: {}/{} does not exist on this host; the "
                                               "mask leaves it out", action.target,
                                               action.source, name));
    if (auto status = apply_rewrites(action, *files); !status) return status;
    auto tmpfs = build_mask(action, *files);
    if (!tmpfs) return tmpfs.error();
    masks_.insert_or_assign(action.index, Mask{action.target, std::move(*tmpfs)});
    return ok_status();
  }

  Status apply_mask(const graft_action& action, const RootFs& root) {
    auto found = masks_.find(action.index);
    if (found == masks_.end()) return not_prepared(action);
    auto target = root.make_dirs(action.target);
    if (!target) return target.error();
    // Read-only before it is attached: there is no moment at which the
    // container could write into the mask.
    if (auto status = set_mount_attributes(found->second.tmpfs.get(), {.set = MOUNT_ATTR_RDONLY},
                                           action.target);
        !status)
      return status;
    if (auto status = attach_mount(found->second.tmpfs.get(), target->get(), action.target);
        !status)
      return status;
    found->second.attached = true;
    found->second.last_dirs.clear();  // every prepare has run: no mountpoint is made in it again
    return ok_status();
  }

  Status prepare_bind(const graft_action& action) {
    auto bind = plugin::prepare_bind(action, {FileType::regular, FileType::directory});
    if (!bind) return bind.error();
    ProcBind prepared{.bind = std::move(*bind)};
    Mask* mask = mask_over(action.target);
    prepared.mask = mask;
    if (mask != nullptr) {
      auto mountpoint = mountpoint_in_mask(*mask, prepared.bind);
      if (!mountpoint) return mountpoint.error();
      prepared.mountpoint = std::move(*mountpoint);
    }
    binds_.put(action.index, std::move(prepared));
    return ok_status();
  }

  Status apply_bind(const graft_action& action, const RootFs& root) {
    auto prepared = binds_.take(action);
    if (!prepared) return prepared.error();
    if (prepared->mask == nullptr) return attach_bind(prepared->bind, root);
    if (!prepared->mask->attached)
      return make_error("{}: the mask over {} was not applied before it", action.target,
                        prepared->mask->target);
    return attach_mount(prepared->bind.mount.get(), prepared->mountpoint.get(), action.target);
  }

  // The deepest mask whose target is a proper parent of `target`.
  Mask* mask_over(const std::string& target) {
    Mask* best = nullptr;
    for (auto& [index, mask] : masks_)
      if (target.starts_with(mask.target + "/") &&
          (best == nullptr || mask.target.size() > best->target.size()))
        best = &mask;
    return best;
  }

  static Result<UniqueFd> mountpoint_in_mask(Mask& mask, const PreparedBind& bind) {
    auto names = split_container_path(bind.target.substr(mask.target.size()));
    if (!names) return names.error();
    if (names->empty()) return make_error("{}: nothing below the mask", bind.target);
    auto parent = dir_in_mask(mask, std::span<const std::string>(names->data(), names->size() - 1));
    if (!parent) return parent.error();
    return make_leaf_at(*parent, names->back(), bind.leaf, Owner{}, bind.target);
  }

  // The directory `names` below the mask's tmpfs root, made as needed; the
  // fd stays the mask's. The tmpfs is the plugin's own and still detached,
  // so nothing else can change what a kept fd names.
  static Result<int> dir_in_mask(Mask& mask, std::span<const std::string> names) {
    auto& kept = mask.last_dirs;
    size_t shared = 0;
    while (shared < kept.size() && shared < names.size() && kept[shared].first == names[shared]) ++shared;
    kept.resize(shared);
    std::string shown = mask.target;
    for (size_t i = 0; i < names.size(); ++i) {
      shown += "/" + names[i];
      if (i < shared) continue;
      auto made = make_dir_at(i == 0 ? mask.tmpfs.get() : kept.back().second.get(), names[i], Owner{}, shown);
      if (!made) return made.error();
      kept.emplace_back(names[i], std::move(*made));
    }
    return kept.empty() ? mask.tmpfs.get() : kept.back().second.get();
  }

  const Host& host_;
  std::map<std::uint32_t, Mask> masks_;  // kept until finish
  Prepared<ProcBind> binds_;
};

}  // namespace
}  // namespace graft::plugin

GRAFT_PLUGIN(graft::plugin::Procfs, "procfs", "1.0", GRAFT_ACTION_PROCFS_MASK,
             GRAFT_ACTION_BIND_MOUNT)
