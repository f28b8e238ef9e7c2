// SPDX-License-Identifier: Apache-2.0
// Binaries, firmware, IPC endpoints and configuration files: each a bind
// mount of something discovery found, with options by kind. Binaries stay
// executable; all are nosuid,nodev. IPC sockets and FIFOs are read-only: a
// read-only bind still lets a client connect() and write, while a container
// root can no longer chmod or chown the host's inode through it. An IPC
// directory (the MPS pipe directory) stays writable, never executable:
// clients and the per-user MPS server make their pipes in it
// (docs/security.md, "Device, socket and FIFO binds").
#include "plan/plan_context.hpp"

namespace graft {
namespace {

void bind(const HostFile& file, const char* plugin, std::vector<std::string> options,
          const CapabilityItem& item, Plan& plan) {
  plan.actions.push_back(Action{.kind = ActionKind::bind_mount,
                                .plugin = plugin,
                                .source = file.host_path,
                                .target = file.container_path,
                                .options = std::move(options),
                                .provenance = provenance_of(item)});
}

template <typename Map>
const HostFile* find(const Map& map, const std::string& key) {
  auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

}  // namespace

void add_file_actions(PlanContext& context) {
  const Inventory& inventory = context.inventory;
  Plan& plan = context.plan;
  for (const auto& item : context.items.binaries)
    if (auto* file = find(inventory.binaries, item.value))
      bind(*file, "libraries", {"ro", "nosuid", "nodev"}, item, plan);
  for (const auto& item : context.items.firmware)
    if (auto found = inventory.firmware.find(item.value); found != inventory.firmware.end())
      for (const auto& file : found->second)
        bind(file, "libraries", {"ro", "nosuid", "nodev", "noexec"}, item, plan);
  for (const auto& item : context.items.ipc)
    if (auto* file = find(inventory.ipc, item.value))
      bind(*file, "ipc", {file->directory ? "rw" : "ro", "nosuid", "nodev", "noexec"}, item, plan);
  for (const auto& item : context.items.config_files)
    if (auto* file = find(inventory.config_files, item.value))
      bind(*file, "libraries", {"ro", "nosuid", "nodev", "noexec"}, item, plan);
}

// No mount options: the libraries plugin writes a plain 0644 file owned by
// the container's owner into the root (docs/mount-plugins.md), not a mount,
// so "ro" here would promise what apply never does.
void add_config_file_actions(PlanContext& context) {
  for (const auto& file : context.intent.files)
    context.plan.actions.push_back(Action{.kind = ActionKind::config_file,
                                          .plugin = "libraries",
                                          .source = "",
                                          .target = file.path,
                                          .options = {},
                                          .content = file.content,
                                          .provenance = {"files", file.reason.text, file.reason.origin}});
}

void add_env_actions(PlanContext& context) {
  for (const auto& env : context.intent.env)
    context.plan.actions.push_back(Action{.kind = ActionKind::env,
                                          .plugin = kRuntimeConfigExecutor,
                                          .source = env.name,
                                          .target = env.name,
                                          .content = env.value,
                                          .provenance = {"env", env.reason.text, env.reason.origin}});
}

}  // namespace graft
