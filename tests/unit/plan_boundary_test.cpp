// SPDX-License-Identifier: Apache-2.0
// The plan against the policy boundary on the host it runs on: a path the
// policy names may be declared, and still lead elsewhere on this host (a
// symlink, a node of another driver). What a plan binds or makes is judged
// where it really is and by what it is, and a plan reaching past the
// places is refused whole, with the line that asked for it.
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "boundary/node_allow.hpp"
#include "fixture_files.hpp"
#include "plan_support.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::testing;
using graft::fixture::make_symlink;
using graft::fixture::make_unix_socket;

namespace {

const Env kUtility = {{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "compute,utility"}};

// The error planning `env` gives; fails the case when it plans.
std::string refusal(const PlannedHost& host, const Env& env) {
  auto evaluation = host.evaluate(env);
  if (evaluation) FAIL("expected the plan to be refused");
  return evaluation.error().message;
}

void replace_with_link(const PlannedHost& host, const std::string& path, const std::string& target) {
  std::filesystem::remove_all(host.host.path(path));
  make_symlink(target, host.host.path(path));
}

}  // namespace

TEST_CASE("a declared socket that is a symlink to the runtime's socket is refused where it leads", "[boundary]") {
  auto host = PlannedHost::make(1);
  make_unix_socket(host.host.path("/run/containerd/containerd.sock"));
  replace_with_link(host, "/run/nvidia-persistenced/socket", "../containerd/containerd.sock");
  CHECK_THAT(refusal(host, kUtility),
             Catch::Contains("bind_mount " + host.host.path("/run/nvidia-persistenced/socket")) &&
                 Catch::Contains("nvidia.toml:") &&
                 Catch::Contains("/run/containerd/containerd.sock is a socket outside the declared sockets"));
}

TEST_CASE("a declared IPC directory that is a symlink to /etc is refused as a writable host directory", "[boundary]") {
  auto host = PlannedHost::make(1);
  replace_with_link(host, "/tmp/nvidia-mps", "../etc");
  CHECK_THAT(refusal(host, kUtility), Catch::Contains("/etc is a directory bound read-write"));
}

TEST_CASE("a declared configuration file that is a symlink to the password hashes is refused", "[boundary]") {
  auto host = PlannedHost::make(1);
  fixture::write_file(host.host.path("/etc/shadow"), "root:*:1::::::\n", 0640);
  replace_with_link(host, "/etc/OpenCL/vendors/nvidia.icd", "/etc/shadow");
  CHECK_THAT(refusal(host, kUtility), Catch::Contains("/etc/shadow is a regular file outside the declared files"));
}

TEST_CASE("a node at a declared device path of no declared driver's major is refused", "[boundary]") {
  auto host = PlannedHost::make(1);
  if (!nodes_available(host)) return;
  // /dev/mem's major, at a path the NVIDIA policy declares (/dev/nvidia*).
  std::string node = host.host.path("/dev/nvidia-uvm");
  std::filesystem::remove(node);
  REQUIRE(::mknod(node.c_str(), S_IFCHR | 0666, ::makedev(1, 1)) == 0);
  CHECK_THAT(refusal(host, kUtility), Catch::Contains("/dev/nvidia-uvm has major 1, of no declared GPU driver"));
}

TEST_CASE("a site class of the host's misc major is refused even at a declared path", "[boundary]") {
  auto host = PlannedHost::make(1, false, "[device.nvidia-uvm]\nmajor_name = \"misc\"\n");
  auto evaluation = host.evaluate(kUtility);
  REQUIRE_FALSE(evaluation);
  CHECK_THAT(evaluation.error().message,
             Catch::Contains("device.nvidia-uvm.major_name: misc is a driver whose nodes graft makes"));
}

TEST_CASE("the node's allow file lets a plan bind the socket it lists", "[boundary]") {
  auto host = PlannedHost::make(1, false, "[capability.utility]\nipc = [\"/run/acme/agent.sock\"]\n");
  make_unix_socket(host.host.path("/run/acme/agent.sock"));
  CHECK_THAT(refusal(host, kUtility), Catch::Contains("capability.utility.ipc: /run/acme/agent.sock"));
  auto node = parse_node_allow("places.sockets = \"/run/acme/agent.sock\"\n", "allow.conf");
  REQUIRE(node);
  host.policy.node_places = *node;
  auto plan = host.plan(kUtility);
  CHECK(has_target(plan, ActionKind::bind_mount, "/run/acme/agent.sock"));
}

TEST_CASE("a container that asks for no GPU is not judged against the boundary", "[boundary]") {
  auto host = PlannedHost::make(1, false, "[capability.x]\nipc = [\"/etc\"]\n");
  auto evaluation = host.evaluate({});
  REQUIRE(evaluation);
  CHECK_FALSE(evaluation->plan.inject);
}
