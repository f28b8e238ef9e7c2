// SPDX-License-Identifier: Apache-2.0
// The residual actions as `graft cdi-hook` options and back
// (container_edits/hook_arguments.hpp): what the options say is what the hook does,
// nothing more, and an action no option says exactly is an error. Pure.
#include <catch2/catch.hpp>

#include "container_edits/container_edits.hpp"
#include "container_edits/hook_arguments.hpp"
#include "planning_inputs.hpp"

using namespace graft;
using namespace graft::test;

namespace {

// What the hook does with an action, provenance aside.
bool same_work(const Action& a, const Action& b) {
  return a.kind == b.kind && a.plugin == b.plugin && a.source == b.source && a.target == b.target &&
         a.options == b.options && a.content == b.content && a.paths == b.paths &&
         a.rewrites == b.rewrites;
}

Plan every_residual_kind() {
  Intent intent = granting({0}, {"compute", "utility"});
  intent.files.push_back({"/etc/gpu/profile.conf", "visible = 0\n", {"profile", {}}});
  return planned(planning_host().build(), intent);
}

}  // namespace

TEST_CASE("a plan's residual actions read back from their cdi-hook options as the same work, in plan order",
          "[edits][cdi-hook]") {
  std::vector<Action> residual = split_plan(every_residual_kind()).residual;
  auto options = cdi_hook_actions_of(residual);
  REQUIRE(options.ok());
  auto back = actions_from_cdi_hook(*options);
  REQUIRE(back.ok());
  REQUIRE(back->size() == residual.size());
  for (std::size_t i = 0; i < residual.size(); ++i) {
    INFO(to_string(residual[i].kind) << " " << residual[i].target);
    CHECK(same_work((*back)[i], residual[i]));
  }
}

TEST_CASE("cdi-hook options name the container path first and say what is made", "[edits][cdi-hook]") {
  Plan plan;
  plan.actions = {Action{.kind = ActionKind::symlink, .plugin = "libraries", .source = "libgpu.so.1.0",
                         .target = "/usr/lib/x86_64-linux-gnu/libgpu.so.1"},
                  Action{.kind = ActionKind::ldcache_update, .plugin = "ldcache", .target = "/etc/ld.so.cache",
                         .content = "/usr/lib/x86_64-linux-gnu/libgpu.so.1\n",
                         .paths = {"/usr/lib/x86_64-linux-gnu"}}};
  auto options = cdi_hook_actions_of(plan.actions);
  REQUIRE(options.ok());
  CHECK(cdi_hook_arguments(*options) ==
        std::vector<std::string>{"--link", "/usr/lib/x86_64-linux-gnu/libgpu.so.1::libgpu.so.1.0",
                                 "--ldcache-dir", "/usr/lib/x86_64-linux-gnu", "--ldcache-entry",
                                 "/usr/lib/x86_64-linux-gnu/libgpu.so.1"});
}

TEST_CASE("a native action given to cdi-hook is an error naming it", "[edits][cdi-hook]") {
  Action mount{.kind = ActionKind::bind_mount, .plugin = "libraries", .source = "/host/libgpu.so",
               .target = "/usr/lib/libgpu.so", .options = {"ro", "nosuid", "nodev"}};
  auto options = cdi_hook_actions_of({mount});
  REQUIRE_FALSE(options.ok());
  CHECK(options.error().message ==
        "bind_mount /usr/lib/libgpu.so cannot be carried by graft cdi-hook: only read-only procfs binds are residual");
}

TEST_CASE("a procfs mask with other options than cdi-hook makes is refused, not silently changed",
          "[edits][cdi-hook]") {
  Action mask{.kind = ActionKind::procfs_mask, .plugin = "procfs", .source = "/proc/driver/gpu",
              .target = "/proc/driver/gpu", .options = {"mode=0755"}};
  auto options = cdi_hook_actions_of({mask});
  REQUIRE_FALSE(options.ok());
  CHECK_THAT(options.error().message, Catch::Contains("options other than mode=0555,nosuid,nodev,noexec"));
}

TEST_CASE("cdi-hook options without '::', with a relative path or an empty value are refused",
          "[edits][cdi-hook]") {
  CdiHookActions no_pair{.links = {"/usr/lib/libgpu.so.1"}};
  CHECK(actions_from_cdi_hook(no_pair).error().message ==
        "--link '/usr/lib/libgpu.so.1': expected CONTAINER_PATH::VALUE");
  CdiHookActions relative{.links = {"usr/lib/libgpu.so.1::libgpu.so.1.0"}};
  CHECK(actions_from_cdi_hook(relative).error().message ==
        "--link 'usr/lib/libgpu.so.1::libgpu.so.1.0': the container path must be absolute");
  CdiHookActions empty{.procfs_binds = {"/proc/driver/gpu/gpus/x::"}};
  CHECK(actions_from_cdi_hook(empty).error().message == "--procfs-bind '/proc/driver/gpu/gpus/x::': nothing after '::'");
  CdiHookActions relative_dir{.ldcache_dirs = {"usr/lib"}};
  CHECK(actions_from_cdi_hook(relative_dir).error().message == "--ldcache-dir 'usr/lib': must be an absolute path");
}

TEST_CASE("procfs keep and rewrite without a mask, and cache entries without a dir, are refused",
          "[edits][cdi-hook]") {
  CHECK(actions_from_cdi_hook({.procfs_keep = {"version"}}).error().message ==
        "--procfs-keep and --procfs-rewrite need a --procfs-mask");
  CHECK(actions_from_cdi_hook({.ldcache_entries = {"/usr/lib/libgpu.so.1"}}).error().message ==
        "--ldcache-entry needs an --ldcache-dir");
}

TEST_CASE("a file's content is everything after the first '::'", "[edits][cdi-hook]") {
  auto actions = actions_from_cdi_hook({.files = {"/etc/gpu/profile.conf::a::b\n"}});
  REQUIRE(actions.ok());
  REQUIRE(actions->size() == 1);
  CHECK(actions->front().kind == ActionKind::config_file);
  CHECK(actions->front().content == "a::b\n");
}

TEST_CASE("no options is no action: the hook leaves the container untouched", "[edits][cdi-hook]") {
  CdiHookActions none;
  CHECK(none.empty());
  auto actions = actions_from_cdi_hook(none);
  REQUIRE(actions.ok());
  CHECK(actions->empty());
}

TEST_CASE("the hook graft emits runs its own binary at createRuntime with only PATH in its env",
          "[edits][cdi-hook]") {
  HookCommand hook = cdi_hook_command("/usr/bin/graft", "/etc/graft/graft.toml",
                                      {.links = {"/usr/lib/libgpu.so.1::libgpu.so.1.0"}});
  CHECK(hook.path == "/usr/bin/graft");
  CHECK(hook.args == std::vector<std::string>{"graft", "--policy", "/etc/graft/graft.toml", "cdi-hook",
                                              "createRuntime", "--link", "/usr/lib/libgpu.so.1::libgpu.so.1.0"});
  REQUIRE(hook.env.size() == 1);
  CHECK(hook.env.front().starts_with("PATH=/"));
}

TEST_CASE("a conditional procfs bind is made only when the container has every device node it names",
          "[edits][cdi-hook]") {
  CdiHookActions options{.procfs_mask = "/proc/driver/gpu::/proc/driver/gpu",
                         .procfs_binds_if = {"/dev/gpu1::/proc/driver/gpu/gpus/b::/host/gpus/b",
                                             "/dev/cap1,/dev/gpu1::/proc/driver/gpu/caps/c::/host/caps/c"}};
  auto none = actions_from_cdi_hook(options, {"/dev/gpu0"});
  REQUIRE(none.ok());
  CHECK(none->size() == 1);  // the mask alone
  auto gpu = actions_from_cdi_hook(options, {"/dev/gpuctl", "/dev/gpu1"});
  REQUIRE(gpu.ok());
  REQUIRE(gpu->size() == 2);
  CHECK(gpu->back().target == "/proc/driver/gpu/gpus/b");
  CHECK(gpu->back().source == "/host/gpus/b");
  CHECK(gpu->back().options == std::vector<std::string>{"ro", "nosuid", "nodev", "noexec"});
  auto both = actions_from_cdi_hook(options, {"/dev/gpu1", "/dev/cap1"});
  REQUIRE(both.ok());
  CHECK(both->size() == 3);
}

TEST_CASE("a conditional procfs bind with a relative device or no bind is refused", "[edits][cdi-hook]") {
  CHECK(actions_from_cdi_hook({.procfs_binds_if = {"dev/gpu1::/proc/x::/host/x"}}).error().message ==
        "--procfs-bind-if 'dev/gpu1::/proc/x::/host/x': device 'dev/gpu1' must be an absolute path");
  CHECK(actions_from_cdi_hook({.procfs_binds_if = {"/dev/gpu1"}}).error().message ==
        "--procfs-bind-if '/dev/gpu1': expected DEVICES::PATH::HOST");
}
