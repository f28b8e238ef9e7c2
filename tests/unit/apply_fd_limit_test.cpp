// SPDX-License-Identifier: Apache-2.0
// `graft apply` under a low open-file limit: preparing holds each host object
// open until it is applied (apply/open_file_limit.hpp), so the soft
// RLIMIT_NOFILE is raised to the hard one first. The limits are set with
// prlimit(1) on the graft process, as a runtime or service manager would
// hand them down. The "container" is a process in a mount namespace of its
// own (hook_harness.hpp).
#include <catch2/catch.hpp>

#include <unistd.h>

#include "hook_harness.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::harness;

namespace {

// Below what the GPU 1 plan holds open at once on the harness host, and
// enough for graft to read its policy and inventory.
constexpr int kLowLimit = 24;

bool limits_can_run() {
  return host().device_nodes_created() && ::geteuid() == 0 && ::access("/usr/bin/prlimit", X_OK) == 0;
}

std::string rootfs_of(const std::string& name) { return host().path("/apply-fd-limit/" + name) + "/rootfs"; }

testing::CommandResult apply_with_limits(const std::string& name, int soft, int hard, pid_t pid) {
  std::string bundle = gpu1_bundle(host().path("/apply-fd-limit/" + name));  // its rootfs: rootfs_of(name)
  PluginDir plugins;
  std::string policy = write_policy("apply-fd-limit-" + name, plugins.path());
  return testing::run_command({"/usr/bin/prlimit", "--nofile=" + std::to_string(soft) + ":" +
                                   std::to_string(hard), "--", GRAFT_BINARY, "--policy", policy,
                               "apply", "--pid", std::to_string(pid), "--rootfs", bundle + "/rootfs",
                               "--bundle", bundle, "--id", name, "--trust-pid"});
}

}  // namespace

TEST_CASE("a plan that holds more files open than the soft limit is applied within the hard limit",
          "[apply][limits]") {
  if (!limits_can_run()) {
    GRAFT_SKIP("needs root, device nodes and prlimit");
  }
  Container container;
  auto result = apply_with_limits("soft-limit", kLowLimit, 4096, container.pid());
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(container.mount_count_under(rootfs_of("soft-limit")) > 0);
}

TEST_CASE("a hard limit below what the plan holds open fails in one line before the container is touched",
          "[apply][limits]") {
  if (!limits_can_run()) {
    GRAFT_SKIP("needs root, device nodes and prlimit");
  }
  Container container;
  auto result = apply_with_limits("hard-limit", kLowLimit, kLowLimit, container.pid());
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: container hard-limit: ") &&
                             Catch::Contains(": Too many open files (graft holds ") &&
                             Catch::Contains(" its limit of 24, the hard RLIMIT_NOFILE it was started with") &&
                             Catch::EndsWith(": raise the runtime's)\n"));
  CHECK(container.mount_count_under(rootfs_of("hard-limit")) == 0);
}
