// SPDX-License-Identifier: Apache-2.0
// make_plan, called directly: the libraries, links, ld cache refresh, binaries,
// firmware, IPC paths and config files that granted capability sets yield,
// with their mount options. Inputs built in code; no fake host, no root.
#include <catch2/catch.hpp>

#include <algorithm>

#include "planning_inputs.hpp"

using namespace graft;
using namespace graft::test;

namespace {

using Options = std::vector<std::string>;

Plan plan_with_sets(std::initializer_list<const char*> sets) {
  return planned(planning_host().build(), granting({0}, sets));
}

}  // namespace

TEST_CASE("each library is bound read-only under the image's library directory, with a link from its soname",
          "[planner]") {
  Plan plan = plan_with_sets({"compute"});
  const Action* library = find_action(plan, ActionKind::bind_mount, plan.lib_dir + "/libgpu-compute.so.1.0");
  REQUIRE(library);
  CHECK(library->source == "/usr/lib/libgpu-compute.so.1.0");
  CHECK(library->options == Options{"ro", "nosuid", "nodev"});
  const Action* link = find_action(plan, ActionKind::symlink, plan.lib_dir + "/libgpu-compute.so.1");
  REQUIRE(link);
  CHECK(link->source == "libgpu-compute.so.1.0");
}

TEST_CASE("a library whose file name is its soname gets no link", "[planner]") {
  Plan plan = plan_with_sets({"video"});
  CHECK(has_target(plan, ActionKind::bind_mount, plan.lib_dir + "/libgpu-video.so.1"));
  CHECK_FALSE(has_target(plan, ActionKind::symlink, plan.lib_dir + "/libgpu-video.so.1"));
}

TEST_CASE("libraries go to the multiarch directory without a rootfs, to the image's directory otherwise",
          "[planner]") {
  Request other = audit_request();
  other.layout = {.known = true,
                  .lib_dir = {"/usr/lib64", "no multiarch directory in the image"},
                  .lib32_dir = {"/usr/lib32", "no 32-bit multiarch directory in the image"}};
  Plan unknown = plan_with_sets({"compute"});
  Plan rpm_like = planned(planning_host().build(), granting({0}, {"compute"}), planning_policy(), other);
  CHECK(unknown.lib_dir.starts_with("/usr/lib/"));
  CHECK(unknown.lib_dir.ends_with("-linux-gnu"));
  CHECK_THAT(unknown.lib_dir_reason, Catch::Contains("no rootfs given"));
  CHECK(rpm_like.lib_dir == "/usr/lib64");
  CHECK(rpm_like.lib32_dir == "/usr/lib32");
  CHECK(rpm_like.lib_dir_reason == "no multiarch directory in the image");
  CHECK(has_target(rpm_like, ActionKind::bind_mount, "/usr/lib64/libgpu-compute.so.1.0"));
}

TEST_CASE("32-bit copies come only with a set that asks for them, into the 32-bit directory", "[planner]") {
  Plan with = plan_with_sets({"compute", "compat32"});
  Plan without = plan_with_sets({"compute"});
  const Action* copy = find_action(with, ActionKind::bind_mount, with.lib32_dir + "/libgpu-compute.so.1.0");
  REQUIRE(copy);
  CHECK(copy->source == "/usr/lib32/libgpu-compute.so.1.0");
  CHECK(has_target(with, ActionKind::symlink, with.lib32_dir + "/libgpu-compute.so.1"));
  CHECK_FALSE(has_target(without, ActionKind::bind_mount, without.lib32_dir + "/libgpu-compute.so.1.0"));
}

TEST_CASE("a policy link is made only when what it points at was injected", "[planner]") {
  Policy policy = planning_policy();
  policy.capabilities["utility"].symlinks.push_back({"libgpu-absent.so", "libgpu-absent.so.1", {}});
  policy.capabilities["utility"].symlinks.push_back(
      {"libgpu-ml.so", "libgpu-ml.so.{driver_version}", {}});  // the file itself, by version
  Plan plan = planned(planning_host().build(), granting({0}, {"compute", "utility"}), policy);
  const Action* development = find_action(plan, ActionKind::symlink, plan.lib_dir + "/libgpu-compute.so");
  REQUIRE(development);
  CHECK(development->source == "libgpu-compute.so.1");
  CHECK(development->provenance.origin.brief() == "test-policy.toml:16");
  const Action* versioned = find_action(plan, ActionKind::symlink, plan.lib_dir + "/libgpu-ml.so");
  REQUIRE(versioned);
  CHECK(versioned->source == "libgpu-ml.so.1.0");
  CHECK_FALSE(has_target(plan, ActionKind::symlink, plan.lib_dir + "/libgpu-absent.so"));
}

TEST_CASE("the ld cache refresh expects every soname link and covers each library directory used",
          "[planner]") {
  Plan plan = plan_with_sets({"compute", "utility", "compat32"});
  const Action* refresh = find_action(plan, ActionKind::ldcache_update, "/etc/ld.so.cache");
  REQUIRE(refresh);
  CHECK(refresh->plugin == "ldcache");
  CHECK_THAT(refresh->content, Catch::Contains(plan.lib_dir + "/libgpu-compute.so.1\n") &&
                                   Catch::Contains(plan.lib_dir + "/libgpu-ml.so.1\n") &&
                                   Catch::Contains(plan.lib32_dir + "/libgpu-compute.so.1\n") &&
                                   !Catch::Contains(plan.lib_dir + "/libgpu-compute.so\n"));
  CHECK(refresh->paths == Options{plan.lib_dir, plan.lib32_dir});
}

TEST_CASE("a plan that injects no library refreshes no ld cache", "[planner]") {
  Plan plan = plan_with_sets({"ipc"});
  REQUIRE_FALSE(plan.actions.empty());
  CHECK(targets(plan, ActionKind::ldcache_update).empty());
}

TEST_CASE("a set pulling another set's libraries brings them with a reason naming the pull, and nothing else of it",
          "[planner]") {
  Plan plan = plan_with_sets({"video"});
  const Action* pulled = find_action(plan, ActionKind::bind_mount, plan.lib_dir + "/libgpu-compute.so.1.0");
  REQUIRE(pulled);
  CHECK(pulled->provenance.capability == "video");
  CHECK(pulled->provenance.reason == "via compute.libraries");
  CHECK(pulled->provenance.origin.brief() == "test-policy.toml:13");
  CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/gpu-uvm"));
  CHECK_FALSE(mounts_file(plan, "gpu-smi"));
}

TEST_CASE("two sets naming one library or binary mount it once", "[planner]") {
  Plan plan = plan_with_sets({"compute", "video", "utility"});
  auto mounts = targets(plan, ActionKind::bind_mount);
  CHECK(std::count(mounts.begin(), mounts.end(), plan.lib_dir + "/libgpu-compute.so.1.0") == 1);
  CHECK(std::count(mounts.begin(), mounts.end(), "/usr/bin/gpu-smi") == 1);
}

TEST_CASE("what a set names but the host lacks is left out without an error", "[planner]") {
  InventoryBuilder host;
  host.gpu(0, "0000:01:00.0").node("/dev/gpuctl", 195, 255).node("/dev/gpu0", 195, 0);
  Plan plan = planned(host.build(), granting({0}, {"utility", "ipc", "firmware", "config"}));
  CHECK(targets(plan, ActionKind::symlink).empty());
  for (const auto& bind : actions_of(plan, ActionKind::bind_mount)) CHECK(bind.plugin == "procfs");
}

TEST_CASE("binaries are bound read-only and stay executable", "[planner]") {
  Plan plan = plan_with_sets({"utility"});
  const Action* binary = find_action(plan, ActionKind::bind_mount, "/usr/bin/gpu-smi");
  REQUIRE(binary);
  CHECK(binary->options == Options{"ro", "nosuid", "nodev"});
}

TEST_CASE("firmware and config files are bound read-only and never executable", "[planner]") {
  Plan plan = plan_with_sets({"firmware", "config"});
  for (const char* target : {"/lib/firmware/gpu/gsp.bin", "/etc/gpu/icd.json"}) {
    INFO(target);
    const Action* file = find_action(plan, ActionKind::bind_mount, target);
    REQUIRE(file);
    CHECK(file->options == Options{"ro", "nosuid", "nodev", "noexec"});
  }
}

TEST_CASE("an IPC socket is bound read-only, an IPC directory stays writable, neither executable", "[planner]") {
  Plan plan = plan_with_sets({"ipc"});
  const Action* socket = find_action(plan, ActionKind::bind_mount, "/run/gpu/socket");
  const Action* pipes = find_action(plan, ActionKind::bind_mount, "/tmp/gpu-pipes");
  REQUIRE(socket);
  REQUIRE(pipes);
  CHECK(socket->plugin == "ipc");
  CHECK(socket->options == Options{"ro", "nosuid", "nodev", "noexec"});
  CHECK(pipes->options == Options{"rw", "nosuid", "nodev", "noexec"});
}

TEST_CASE("a file the rules ask for is written as a plain file with no mount options", "[planner]") {
  Intent intent = granting({0}, {});
  intent.files.push_back({"/etc/gpu/profile.conf", "visible = 0\n", {"profile", {"profile.lua", 7, 1}}});
  Plan plan = planned(planning_host().build(), intent);
  const Action* file = find_action(plan, ActionKind::config_file, "/etc/gpu/profile.conf");
  REQUIRE(file);
  CHECK(file->content == "visible = 0\n");
  CHECK(file->options.empty());
  CHECK(file->provenance.origin.brief() == "profile.lua:7");
}

TEST_CASE("an environment grant becomes one env action with its value", "[planner]") {
  Intent intent = granting({0}, {});
  intent.env.push_back({"GPU_VISIBLE", "0", {"visible", {}}});
  Plan plan = planned(planning_host().build(), intent);
  auto env = actions_of(plan, ActionKind::env);
  REQUIRE(env.size() == 1);
  CHECK(env[0].target == "GPU_VISIBLE");
  CHECK(env[0].content == "0");
}

TEST_CASE("an env action names the runtime config as its executor rather than a plugin", "[planner]") {
  Intent intent = granting({0}, {});
  intent.env.push_back({"GPU_VISIBLE", "0", {"visible", {}}});
  Plan plan = planned(planning_host().build(), intent);
  auto env = actions_of(plan, ActionKind::env);
  REQUIRE(env.size() == 1);
  CHECK(env[0].plugin == "runtime-config");
}
