// SPDX-License-Identifier: Apache-2.0
// How `graft apply --pid N --id ID` knows N is container ID's
// (core/src/apply/cgroup_match.hpp): some cgroup path component of N names ID
// in one of the forms the runtimes write, and in no other. A process whose
// cgroup merely holds the id between two separators (another container's
// longer name, a login session, LXC's monitor) is not the container's.
#include <catch2/catch.hpp>

#include "apply/cgroup_match.hpp"

using namespace graft;

TEST_CASE("A cgroup path component equal to the id names the container (runc and crun with cgroupfs)",
          "[apply][cgroup-match]") {
  CHECK(cgroup_names_container("0::/graft-apply-1234\n", "graft-apply-1234"));
}

TEST_CASE("A cgroup path component equal to the id names the container in any cgroup v1 hierarchy",
          "[apply][cgroup-match]") {
  CHECK(cgroup_names_container("12:devices:/docker/9e8d\n11:memory:/docker/9e8d\n", "9e8d"));
  CHECK(cgroup_names_container("0::/k8s.io/ab12\n", "ab12"));
}

TEST_CASE("runc's systemd scope runc-<id>.scope names the container", "[apply][cgroup-match]") {
  CHECK(cgroup_names_container("0::/system.slice/runc-c1a2.scope\n", "c1a2"));
}

TEST_CASE("crun's systemd scope crun-<id>.scope names the container", "[apply][cgroup-match]") {
  CHECK(cgroup_names_container("0::/machine.slice/crun-c1a2.scope/container\n", "c1a2"));
}

TEST_CASE("Docker's systemd scope docker-<id>.scope names the container", "[apply][cgroup-match]") {
  CHECK(cgroup_names_container("0::/system.slice/docker-9e8d.scope\n", "9e8d"));
}

TEST_CASE("containerd's systemd scope cri-containerd-<id>.scope names the container",
          "[apply][cgroup-match]") {
  CHECK(cgroup_names_container(
      "0::/kubepods.slice/kubepods-pod1.slice/cri-containerd-ab12.scope\n", "ab12"));
}

TEST_CASE("CRI-O's systemd scope crio-<id>.scope names the container", "[apply][cgroup-match]") {
  CHECK(cgroup_names_container("0::/kubepods.slice/kubepods-pod1.slice/crio-ab12.scope\n", "ab12"));
}

TEST_CASE("CRI-O's cgroupfs cgroup crio-<id> names the container", "[apply][cgroup-match]") {
  CHECK(cgroup_names_container("0::/kubepods/pod1/crio-ab12\n", "ab12"));
}

TEST_CASE("podman's systemd scope libpod-<id>.scope names the container", "[apply][cgroup-match]") {
  CHECK(cgroup_names_container("0::/machine.slice/libpod-3f2a9c.scope/container\n", "3f2a9c"));
}

TEST_CASE("podman's cgroupfs cgroup libpod-<id> names the container", "[apply][cgroup-match]") {
  CHECK(cgroup_names_container("4:memory:/libpod_parent/libpod-3f2a9c\n0::/libpod_parent/libpod-3f2a9c\n",
                               "3f2a9c"));
}

TEST_CASE("podman's split cgroup libpod-payload-<id> names the container", "[apply][cgroup-match]") {
  CHECK(cgroup_names_container("0::/system.slice/web.service/libpod-payload-3f2a9c\n", "3f2a9c"));
}

TEST_CASE("LXC's lxc.payload.<id> names the container", "[apply][cgroup-match]") {
  CHECK(cgroup_names_container("0::/lxc.payload.web1\n", "web1"));
}

TEST_CASE("Another container whose name starts with the id does not name the container",
          "[apply][cgroup-match]") {
  CHECK_FALSE(cgroup_names_container("0::/lxc.payload.web1-old\n", "web1"));
}

TEST_CASE("A login session whose number is the id does not name the container", "[apply][cgroup-match]") {
  CHECK_FALSE(cgroup_names_container("0::/user.slice/user-0.slice/session-3.scope\n", "3"));
}

TEST_CASE("A user's slice whose uid is the id does not name the container", "[apply][cgroup-match]") {
  CHECK_FALSE(cgroup_names_container("0::/user.slice/user-1000.slice/user@1000.service\n", "1000"));
}

TEST_CASE("LXC's monitor process lxc.monitor.<id> is not the container", "[apply][cgroup-match]") {
  CHECK_FALSE(cgroup_names_container("0::/lxc.monitor.web1\n", "web1"));
}

TEST_CASE("podman's conmon scope libpod-conmon-<id>.scope is not the container", "[apply][cgroup-match]") {
  CHECK_FALSE(cgroup_names_container("0::/machine.slice/libpod-conmon-3f2a9c.scope\n", "3f2a9c"));
}

TEST_CASE("A scope whose prefix no runtime writes does not name the container", "[apply][cgroup-match]") {
  CHECK_FALSE(cgroup_names_container("0::/system.slice/app-ab12.scope\n", "ab12"));
}

TEST_CASE("A runtime's scope without its .scope suffix does not name the container",
          "[apply][cgroup-match]") {
  CHECK_FALSE(cgroup_names_container("0::/system.slice/docker-9e8d\n", "9e8d"));
}

TEST_CASE("A service named after the id does not name the container", "[apply][cgroup-match]") {
  CHECK_FALSE(cgroup_names_container("0::/system.slice/web1.service\n", "web1"));
}

TEST_CASE("A runtime's scope for a longer id does not name the container", "[apply][cgroup-match]") {
  CHECK_FALSE(cgroup_names_container("0::/system.slice/runc-abcd.scope\n", "abc"));
}

TEST_CASE("A cgroup v1 controller's name is no cgroup path component", "[apply][cgroup-match]") {
  CHECK_FALSE(cgroup_names_container("5:devices:/\n", "devices"));
}

TEST_CASE("The root cgroup names no container", "[apply][cgroup-match]") {
  CHECK_FALSE(cgroup_names_container("0::/\n", "c1"));
}

TEST_CASE("An empty id names no container", "[apply][cgroup-match]") {
  CHECK_FALSE(cgroup_names_container("0::/c1\n", ""));
}
