// SPDX-License-Identifier: Apache-2.0
// `graft apply --pid N --id ID` on a running container: N must be the
// container's. Its pidfd is taken first, then /proc/N/cgroup must name ID
// (as runc, crun, containerd, podman, docker and LXC name their cgroups),
// unless --trust-pid says the caller checked. The "container" is a process in
// a mount namespace of its own (hook_harness.hpp), in the test's cgroup,
// which names no container.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>

#include "hook_harness.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::harness;

namespace {

bool can_run() { return host().device_nodes_created() && ::geteuid() == 0; }

std::string gpu_bundle(const std::string& name) {
  return write_bundle(host().path("/apply-pid/" + name), {R"("NVIDIA_VISIBLE_DEVICES=1")"});
}

testing::CommandResult apply(const std::string& policy, pid_t pid, const std::string& bundle,
                             std::vector<std::string> extra) {
  std::vector<std::string> argv{"--policy", policy, "apply", "--pid", std::to_string(pid),
                                "--rootfs", bundle + "/rootfs", "--bundle", bundle};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return testing::run_graft(argv);
}

}  // namespace

TEST_CASE("a pid whose cgroup does not name the container id is refused before anything is applied",
          "[apply][hostile]") {
  if (!can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins("cgroup");
  Container container;
  std::size_t before = container.mount_count();
  std::string bundle = gpu_bundle("other-cgroup");
  auto result = apply(write_policy("apply-pid-cgroup", plugins.path()), container.pid(), bundle,
                      {"--id", "lxc1"});
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err,
             Catch::StartsWith("graft: container lxc1: process " + std::to_string(container.pid()) +
                               " is not container lxc1: none of its cgroups names the id (first: "));
  CHECK(container.mount_count() == before);
}

TEST_CASE("without --id the pid cannot be checked and is refused", "[apply][hostile]") {
  if (!can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins("cgroup");
  Container container;
  std::string bundle = gpu_bundle("no-id");
  auto result = apply(write_policy("apply-pid-no-id", plugins.path()), container.pid(), bundle, {});
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK(result.err == "graft: container apply: --pid " + std::to_string(container.pid()) +
                          ": give the container's --id, so graft can check that the process is "
                          "its (its cgroup names the id), or --trust-pid to skip that check\n");
}

TEST_CASE("graft apply --trust-pid applies to a pid whose cgroup names no container", "[apply][hostile]") {
  if (!can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins("cgroup");
  Container container;
  std::size_t before = container.mount_count();
  std::string bundle = gpu_bundle("trusted");
  auto result = apply(write_policy("apply-pid-trusted", plugins.path()), container.pid(), bundle,
                      {"--id", "lxc1", "--trust-pid"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(container.mount_count() > before);
}

namespace {

// What `graft apply --pid <the test's own pid>` would have changed on the
// host: the mount table, and the bundle's rootfs where the plan puts nodes.
struct HostTouched {
  std::string bundle;
  bool operator()() const {
    return !host_has_no_mount_under(bundle + "/") || std::filesystem::exists(bundle + "/rootfs/dev/nvidia1");
  }
};

std::string own_namespace_refusal(pid_t pid) {
  return "graft: container lxc1: container process " + std::to_string(pid) +
         " shares graft's own mount namespace, which no container does (a wrong or reused pid?): "
         "refusing to apply to the host\n";
}

}  // namespace

TEST_CASE("with --trust-pid, graft apply still refuses a process in its own mount namespace",
          "[apply][hostile]") {
  if (!can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins("cgroup");
  HostTouched touched{gpu_bundle("own-ns-trusted")};
  auto result = apply(write_policy("apply-pid-own-ns-trusted", plugins.path()), ::getpid(),
                      touched.bundle, {"--id", "lxc1", "--trust-pid"});
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(result.err == own_namespace_refusal(::getpid()));
  CHECK_FALSE(touched());
}

TEST_CASE("a process in graft's own mount namespace is refused before its cgroup is read",
          "[apply][hostile]") {
  if (!can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins("cgroup");
  HostTouched touched{gpu_bundle("own-ns-checked")};
  auto result = apply(write_policy("apply-pid-own-ns", plugins.path()), ::getpid(), touched.bundle,
                      {"--id", "lxc1"});
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(result.err == own_namespace_refusal(::getpid()));
  CHECK_FALSE(touched());
}
