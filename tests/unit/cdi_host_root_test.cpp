// SPDX-License-Identifier: Apache-2.0
// Reading a host mounted elsewhere (a pod's /host) while naming the host's
// own paths: the pure path arithmetic of cdi/host_root.hpp.
#include <catch2/catch.hpp>

#include "cdi/host_root.hpp"

using namespace graft;
using namespace graft::cdi;

namespace {

Action action(ActionKind kind, std::string source, std::string target) {
  Action made;
  made.kind = kind;
  made.source = std::move(source);
  made.target = std::move(target);
  return made;
}

}  // namespace

TEST_CASE("every host root is read under the mount", "[cdi][host-root]") {
  HostRoots roots;
  roots.driver_root = "/run/driver";
  HostRoots under = roots_under(roots, "/host");
  CHECK(under.driver_root == "/host/run/driver");
  CHECK(under.dev_root == "/host");
  CHECK(under.proc_root == "/host");
  CHECK(under.sys_root == "/host");
  CHECK(under.run_root == "/host");
}

TEST_CASE("no host root, or /, reads this host as it is", "[cdi][host-root]") {
  HostRoots roots;
  roots.dev_root = "/srv/dev";
  CHECK(roots_under(roots, "").dev_root == "/srv/dev");
  CHECK(roots_under(roots, "/").dev_root == "/srv/dev");
  CHECK(*path_on_host("", "/host/x") == "/host/x");
}

TEST_CASE("a path under the mount is named as the host names it", "[cdi][host-root]") {
  CHECK(*path_on_host("/host", "/host/usr/lib/libx.so.1") == "/usr/lib/libx.so.1");
  CHECK(*path_on_host("/host/", "/host//dev/gpu0") == "/dev/gpu0");
  CHECK(*path_on_host("/host", "/host") == "/");
}

TEST_CASE("a path outside the mount is an error, never a path of the generator's view", "[cdi][host-root]") {
  auto outside = path_on_host("/host", "/opt/graft/bin/graft");
  REQUIRE_FALSE(outside);
  CHECK_THAT(outside.error().message, Catch::Contains("/opt/graft/bin/graft is not under the host root /host"));
  CHECK_FALSE(path_on_host("/host", "/hostile/x"));  // a sibling that shares the prefix
  CHECK_FALSE(path_on_host("/host", "/host/../etc/shadow"));
  CHECK_FALSE(path_on_host("/host", "relative/path"));
}

TEST_CASE("a plan names host files by their host paths and leaves container-side values alone",
          "[cdi][host-root]") {
  Plan plan;
  plan.actions = {action(ActionKind::device_node, "/host/dev/gpu0", "/dev/gpu0"),
                  action(ActionKind::bind_mount, "/host/usr/lib/libx.so.1", "/usr/lib/libx.so.1"),
                  action(ActionKind::procfs_mask, "/host/proc/driver/x", "/proc/driver/x"),
                  action(ActionKind::symlink, "/host/keep-me", "/usr/lib/libx.so"),
                  action(ActionKind::config_file, "profile.json", "/etc/x/profile.json")};
  auto on_host = plan_on_host(plan, "/host");
  REQUIRE(on_host);
  CHECK(on_host->actions[0].source == "/dev/gpu0");
  CHECK(on_host->actions[1].source == "/usr/lib/libx.so.1");
  CHECK(on_host->actions[2].source == "/proc/driver/x");
  CHECK(on_host->actions[3].source == "/host/keep-me");  // a link value inside the container
  CHECK(on_host->actions[4].source == "profile.json");
}

TEST_CASE("a plan with a host file outside the mount is an error naming its target", "[cdi][host-root]") {
  Plan plan;
  plan.actions = {action(ActionKind::bind_mount, "/usr/lib/libx.so.1", "/usr/lib/libx.so.1")};
  auto on_host = plan_on_host(plan, "/host");
  REQUIRE_FALSE(on_host);
  CHECK_THAT(on_host.error().message, Catch::Contains("/usr/lib/libx.so.1"));
}
