// SPDX-License-Identifier: Apache-2.0
#include "container_edits/hook_arguments.hpp"

#include <algorithm>

#include "plan/plan_context.hpp"

namespace graft {
namespace {

const std::vector<std::string> kMaskOptions = {"mode=0555", "nosuid", "nodev", "noexec"};
const std::vector<std::string> kProcfsBindOptions = {"ro", "nosuid", "nodev", "noexec"};
constexpr const char* kCacheFile = "/etc/ld.so.cache";
const Provenance kFromArguments{"cdi-hook", "graft cdi-hook arguments", {}};

std::string pair(const std::string& path, const std::string& value) { return path + "::" + value; }

struct Pair {
  std::string path, value;
};

Result<Pair> split_pair(const std::string& option, const std::string& text) {
  auto at = text.find("::");
  if (at == std::string::npos)
    return make_error("{} '{}': expected CONTAINER_PATH::VALUE", option, text);
  Pair out{text.substr(0, at), text.substr(at + 2)};
  if (!out.path.starts_with("/"))
    return make_error("{} '{}': the container path must be absolute", option, text);
  if (out.value.empty() && option != "--file")
    return make_error("{} '{}': nothing after '::'", option, text);
  return out;
}

Status check_absolute(const std::string& option, const std::string& path) {
  if (path.starts_with("/")) return ok_status();
  return make_error("{} '{}': must be an absolute path", option, path);
}

Status unencodable(const Action& action, const char* why) {
  return make_error("{} {} cannot be carried by graft cdi-hook: {}", to_string(action.kind),
                    action.target, why);
}

Status add_residual(const Action& action, CdiHookActions& out) {
  if (action.target.find("::") != std::string::npos) return unencodable(action, "its path holds '::'");
  switch (action.kind) {
    case ActionKind::symlink:
      if (action.plugin != "libraries") return unencodable(action, "not the libraries plugin");
      out.links.push_back(pair(action.target, action.source));
      return ok_status();
    case ActionKind::config_file:
      if (action.plugin != "libraries" || !action.options.empty())
        return unencodable(action, "not a plain file of the libraries plugin");
      out.files.push_back(pair(action.target, action.content));
      return ok_status();
    case ActionKind::procfs_mask:
      if (!out.procfs_mask.empty()) return unencodable(action, "a second procfs mask");
      if (action.plugin != "procfs" || action.options != kMaskOptions)
        return unencodable(action, "options other than mode=0555,nosuid,nodev,noexec");
      out.procfs_mask = pair(action.target, action.source);
      out.procfs_keep = action.paths;
      out.procfs_rewrites = action.rewrites;
      return ok_status();
    case ActionKind::bind_mount:
      if (action.plugin != "procfs" || action.options != kProcfsBindOptions)
        return unencodable(action, "only read-only procfs binds are residual");
      out.procfs_binds.push_back(pair(action.target, action.source));
      return ok_status();
    case ActionKind::ldcache_update:
      if (!out.ldcache_dirs.empty()) return unencodable(action, "a second ld cache refresh");
      if (action.plugin != "ldcache" || action.target != kCacheFile)
        return unencodable(action, "a cache other than /etc/ld.so.cache");
      out.ldcache_dirs = action.paths;
      for (std::size_t start = 0; start < action.content.size();) {
        auto end = action.content.find('\n', start);
        if (end == std::string::npos) end = action.content.size();
        if (end > start) out.ldcache_entries.push_back(action.content.substr(start, end - start));
        start = end + 1;
      }
      return ok_status();
    default: return unencodable(action, "a config expresses it natively");
  }
}

void append(std::vector<std::string>& args, const char* option, const std::vector<std::string>& values) {
  for (const auto& value : values) {
    args.push_back(option);
    args.push_back(value);
  }
}

Action procfs_bind(const Pair& bind) {
  return Action{.kind = ActionKind::bind_mount, .plugin = "procfs", .source = bind.value,
                .target = bind.path, .options = kProcfsBindOptions, .provenance = kFromArguments};
}

// "DEV[,DEV...]::PATH::HOST": the bind when the container has every DEV.
Status add_conditional_bind(const std::string& text, const std::vector<std::string>& device_paths,
                            std::vector<Action>& out) {
  const char* option = "--procfs-bind-if";
  auto at = text.find("::");
  if (at == std::string::npos) return make_error("{} '{}': expected DEVICES::PATH::HOST", option, text);
  bool present = true;
  for (std::size_t start = 0; start <= at;) {
    auto end = std::min(text.find(',', start), at);
    std::string device = text.substr(start, end - start);
    if (!device.starts_with("/"))
      return make_error("{} '{}': device '{}' must be an absolute path", option, text, device);
    present = present && std::find(device_paths.begin(), device_paths.end(), device) != device_paths.end();
    start = end + 1;
  }
  auto bind = split_pair(option, text.substr(at + 2));
  if (!bind) return bind.error();
  if (auto status = check_absolute(option, bind->value); !status) return status;
  if (present) out.push_back(procfs_bind(*bind));
  return ok_status();
}

Status add_procfs(const CdiHookActions& in, const std::vector<std::string>& device_paths,
                  std::vector<Action>& out) {
  if (in.procfs_mask.empty()) {
    if (!in.procfs_keep.empty() || !in.procfs_rewrites.empty())
      return make_error("--procfs-keep and --procfs-rewrite need a --procfs-mask");
  } else {
    auto mask = split_pair("--procfs-mask", in.procfs_mask);
    if (!mask) return mask.error();
    if (auto status = check_absolute("--procfs-mask", mask->value); !status) return status;
    out.push_back(Action{.kind = ActionKind::procfs_mask, .plugin = "procfs", .source = mask->value,
                         .target = mask->path, .options = kMaskOptions, .paths = in.procfs_keep,
                         .rewrites = in.procfs_rewrites, .provenance = kFromArguments});
  }
  for (const auto& text : in.procfs_binds) {
    auto bind = split_pair("--procfs-bind", text);
    if (!bind) return bind.error();
    if (auto status = check_absolute("--procfs-bind", bind->value); !status) return status;
    out.push_back(procfs_bind(*bind));
  }
  for (const auto& text : in.procfs_binds_if)
    if (auto status = add_conditional_bind(text, device_paths, out); !status) return status;
  return ok_status();
}

Status add_ldcache(const CdiHookActions& in, std::vector<Action>& out) {
  if (in.ldcache_dirs.empty()) {
    if (in.ldcache_entries.empty()) return ok_status();
    return make_error("--ldcache-entry needs an --ldcache-dir");
  }
  Action refresh{.kind = ActionKind::ldcache_update, .plugin = "ldcache", .target = kCacheFile,
                 .provenance = kFromArguments};
  for (const auto& dir : in.ldcache_dirs) {
    if (auto status = check_absolute("--ldcache-dir", dir); !status) return status;
    refresh.paths.push_back(dir);
  }
  for (const auto& entry : in.ldcache_entries) {
    if (auto status = check_absolute("--ldcache-entry", entry); !status) return status;
    refresh.content += entry + "\n";
  }
  out.push_back(std::move(refresh));
  return ok_status();
}

}  // namespace

bool CdiHookActions::empty() const { return *this == CdiHookActions{}; }

Result<CdiHookActions> cdi_hook_actions_of(const std::vector<Action>& residual) {
  CdiHookActions out;
  for (const Action& action : residual)
    if (auto status = add_residual(action, out); !status) return status.error();
  return out;
}

std::vector<std::string> cdi_hook_arguments(const CdiHookActions& actions) {
  std::vector<std::string> args;
  append(args, "--link", actions.links);
  append(args, "--file", actions.files);
  if (!actions.procfs_mask.empty()) append(args, "--procfs-mask", {actions.procfs_mask});
  append(args, "--procfs-keep", actions.procfs_keep);
  append(args, "--procfs-rewrite", actions.procfs_rewrites);
  append(args, "--procfs-bind", actions.procfs_binds);
  append(args, "--procfs-bind-if", actions.procfs_binds_if);
  append(args, "--ldcache-dir", actions.ldcache_dirs);
  append(args, "--ldcache-entry", actions.ldcache_entries);
  return args;
}

HookCommand cdi_hook_command(const std::string& graft_binary, const std::string& policy,
                             const CdiHookActions& actions) {
  HookCommand hook{graft_binary, {"graft", "--policy", policy, "cdi-hook", "createRuntime"}, {kHookPath}};
  for (auto& arg : cdi_hook_arguments(actions)) hook.args.push_back(std::move(arg));
  return hook;
}

Result<std::vector<Action>> actions_from_cdi_hook(const CdiHookActions& actions,
                                                  const std::vector<std::string>& device_paths) {
  Plan plan;
  for (const auto& text : actions.links) {
    auto link = split_pair("--link", text);
    if (!link) return link.error();
    plan.actions.push_back(Action{.kind = ActionKind::symlink, .plugin = "libraries",
                                  .source = link->value, .target = link->path,
                                  .provenance = kFromArguments});
  }
  for (const auto& text : actions.files) {
    auto file = split_pair("--file", text);
    if (!file) return file.error();
    plan.actions.push_back(Action{.kind = ActionKind::config_file, .plugin = "libraries",
                                  .target = file->path, .content = file->value,
                                  .provenance = kFromArguments});
  }
  if (auto status = add_procfs(actions, device_paths, plan.actions); !status) return status.error();
  if (auto status = add_ldcache(actions, plan.actions); !status) return status.error();
  if (auto status = order_and_merge(plan); !status) return status.error();
  return std::move(plan.actions);
}

}  // namespace graft
