// SPDX-License-Identifier: Apache-2.0
// Reading /proc/self/mountinfo for the cgroup plugins (plugins/common/
// container_cgroup.hpp): only cgroup and cgroup2 mounts are kept, unescaped,
// in the file's order, whatever else a busy node has mounted. Pure: text in,
// entries out.
#include <catch2/catch.hpp>

#include <string>

#include "container_cgroup.hpp"

using graft::cgroup::MountEntry;
using graft::cgroup::parse_cgroup_mounts;

namespace {

// A mountinfo line; `optional` is the tagged fields before the "-".
std::string line(int id, const std::string& root, const std::string& point, const std::string& fstype,
                 const std::string& super, const std::string& optional = "shared:1") {
  return std::to_string(id) + " 1 0:" + std::to_string(id) + " " + root + " " + point +
         " rw,nosuid " + optional + " - " + fstype + " " + fstype + " " + super + "\n";
}

}  // namespace

TEST_CASE("Only cgroup and cgroup2 mounts are kept from mountinfo, in its order", "[cgroup]") {
  std::string text = line(20, "/", "/", "ext4", "rw") +
                     line(21, "/", "/sys/fs/cgroup/devices", "cgroup", "rw,devices") +
                     line(22, "/", "/proc", "proc", "rw") +
                     line(23, "/", "/sys/fs/cgroup/unified", "cgroup2", "rw,nsdelegate") +
                     line(24, "/", "/run/containerd/io.containerd/abc/rootfs", "overlay", "rw,lowerdir=/a");
  auto mounts = parse_cgroup_mounts(text);
  REQUIRE(mounts.size() == 2);
  CHECK(mounts[0].mount_point == "/sys/fs/cgroup/devices");
  CHECK(mounts[0].fstype == "cgroup");
  CHECK(mounts[0].super_options == "rw,devices");
  CHECK(mounts[1].mount_point == "/sys/fs/cgroup/unified");
  CHECK(mounts[1].fstype == "cgroup2");
}

TEST_CASE("A cgroup mount's root and mount point are unescaped", "[cgroup]") {
  auto mounts = parse_cgroup_mounts(line(30, "/a\\040b", "/sys/fs/cgroup/dev\\134ices", "cgroup", "rw,devices"));
  REQUIRE(mounts.size() == 1);
  CHECK(mounts[0].root == "/a b");
  CHECK(mounts[0].mount_point == "/sys/fs/cgroup/dev\\ices");
}

TEST_CASE("Optional fields of any number, or none, do not hide a cgroup mount's type", "[cgroup]") {
  std::string text = line(40, "/", "/c1", "cgroup", "rw,devices", "") +
                     line(41, "/", "/c2", "cgroup2", "rw", "shared:5 master:3 propagate_from:2") +
                     line(42, "/", "/m", "tmpfs", "rw", "shared:6 master:3");
  auto mounts = parse_cgroup_mounts(text);
  REQUIRE(mounts.size() == 2);
  CHECK(mounts[0].mount_point == "/c1");
  CHECK(mounts[1].mount_point == "/c2");
  CHECK(mounts[1].fstype == "cgroup2");
}

TEST_CASE("Short or malformed mountinfo lines are skipped, not misread", "[cgroup]") {
  std::string text = "garbage\n"
                     "1 2 3 4 5 6\n"
                     "1 2 0:3 / /x rw shared:1 -\n"               // nothing after the dash
                     "1 2 0:3 / /cgroup-named-dir rw - ext4 cgroup rw\n" +  // "cgroup" as a source
                     line(50, "/", "/kept", "cgroup", "rw,devices") + "\n\n";
  auto mounts = parse_cgroup_mounts(text);
  REQUIRE(mounts.size() == 1);
  CHECK(mounts[0].mount_point == "/kept");
}

TEST_CASE("A mountinfo of thousands of other mounts gives just its cgroup mounts", "[cgroup]") {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += line(100 + i, "/", "/var/lib/kubelet/pods/p" + std::to_string(i), "tmpfs", "rw");
  text += line(9000, "/", "/sys/fs/cgroup", "cgroup2", "rw");
  auto mounts = parse_cgroup_mounts(text);
  REQUIRE(mounts.size() == 1);
  CHECK(mounts[0].mount_point == "/sys/fs/cgroup");
}
