// SPDX-License-Identifier: Apache-2.0
// Request: what graft reads from an OCI bundle, and what it refuses to read.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "paths/paths.hpp"
#include "renames_elsewhere.hpp"
#include "request/request.hpp"
#include "temp_dir.hpp"

using namespace graft;

namespace {

struct Bundle {
  fixture::TempDir dir{"graft-bundle-"};

  Result<Request> read(const std::string& config, int pid = 42) {
    std::ofstream(dir.path() + "/config.json") << config;
    return request_from_bundle(dir.path(), "3f2a", pid);
  }
};

}  // namespace

TEST_CASE("a bundle request carries env, annotations, mounts, cgroups path and ids", "[request]") {
  Bundle bundle;
  auto request = bundle.read(R"({
    "root": {"path": "rootfs", "readonly": true},
    "process": {"env": ["A=1", "NVIDIA_VISIBLE_DEVICES=0", "A=2", "EMPTY=", "BROKEN"]},
    "annotations": {"example.com/tenant": "team-a"},
    "mounts": [{"destination": "/var/run/x/0", "source": "/dev/null", "type": "bind",
                "options": ["bind", "ro"]}],
    "linux": {"cgroupsPath": "/pods/3f2a"}})");
  REQUIRE(request);
  CHECK(request->container_id == "3f2a");
  CHECK(request->pid == 42);
  CHECK(request->env.at("A") == "2");  // later duplicates win, as runc applies them
  CHECK(request->env.at("EMPTY").empty());
  CHECK_FALSE(request->env.count("BROKEN"));
  CHECK(request->annotations.at("example.com/tenant") == "team-a");
  REQUIRE(request->mounts.size() == 1);
  CHECK(request->mounts[0].source == "/dev/null");
  CHECK(request->mounts[0].options == std::vector<std::string>{"bind", "ro"});
  CHECK(request->cgroups_path == "/pods/3f2a");
  CHECK(request->rootfs == bundle.dir.path() + "/rootfs");
  CHECK(request->rootfs_readonly);
}

TEST_CASE("CAP_SYS_ADMIN in the bounding set makes a container privileged", "[request]") {
  Bundle bundle;
  auto privileged = bundle.read(
      R"({"root":{"path":"r"},"process":{"capabilities":{"bounding":["CAP_SYS_ADMIN"]}}})");
  auto effective_only = bundle.read(
      R"({"root":{"path":"r"},"process":{"capabilities":{"effective":["CAP_SYS_ADMIN"]}}})");
  auto legacy_list = bundle.read(R"({"root":{"path":"r"},"process":{"capabilities":["CAP_SYS_ADMIN"]}})");
  REQUIRE(privileged);
  CHECK(privileged->privileged);
  CHECK_FALSE(effective_only->privileged);
  CHECK(legacy_list->privileged);
}

TEST_CASE("an absolute root path is used as is", "[request]") {
  Bundle bundle;
  auto request = bundle.read(R"({"root":{"path":"/srv/rootfs/"}})");
  REQUIRE(request);
  CHECK(request->rootfs == "/srv/rootfs");
}

TEST_CASE("a rootfs with /etc/debian_version and no multiarch directory still gets the multiarch directory",
          "[request]") {
  Bundle bundle;
  std::filesystem::create_directories(bundle.dir.path() + "/rootfs/etc");
  auto before = bundle.read(R"({"root":{"path":"rootfs"}})");
  std::ofstream(bundle.dir.path() + "/rootfs/etc/debian_version") << "12\n";
  auto after = bundle.read(R"({"root":{"path":"rootfs"}})");
  CHECK(before->layout.lib_dir.path == "/usr/lib64");
  CHECK(after->layout.lib_dir.path.ends_with("-linux-gnu"));
}

TEST_CASE("an image symlink cannot make the layout check look at the host", "[request]") {
  Bundle bundle;
  std::filesystem::create_directories(bundle.dir.path() + "/rootfs");
  // On the host /etc and /usr/lib exist (with or without debian_version, a
  // multiarch directory, an ld.so.conf); inside the root the links resolve
  // to the rootfs's own, which do not exist.
  std::filesystem::create_directory_symlink("/etc", bundle.dir.path() + "/rootfs/etc");
  std::filesystem::create_directory_symlink("/usr", bundle.dir.path() + "/rootfs/usr");
  std::filesystem::create_directory_symlink("/lib", bundle.dir.path() + "/rootfs/lib");
  auto request = bundle.read(R"({"root":{"path":"rootfs"}})");
  REQUIRE(request);
  CHECK(request->layout.lib_dir.path == "/usr/lib64");
}

TEST_CASE("renames elsewhere on the host never make the layout check miss /etc/debian_version",
          "[request][race]") {
  // openat2(RESOLVE_IN_ROOT) answers EAGAIN when any rename on the host
  // races one of its ".." steps. Here /etc is reached through "usr/../real-etc"
  // while a thread renames a file in another directory without pause.
  fixture::TempDir root("graft-layout-root-");
  std::filesystem::create_directories(root.path() + "/usr");
  std::filesystem::create_directories(root.path() + "/real-etc");
  std::ofstream(root.path() + "/real-etc/debian_version") << "12\n";
  std::filesystem::create_directory_symlink("usr/../real-etc", root.path() + "/etc");
  int missed = 0;
  {
    test::RenamesElsewhere renames;
    for (int i = 0; i < 20000; ++i)
      missed += exists_in_root(root.path(), "/etc/debian_version") ? 0 : 1;
  }
  CHECK(missed == 0);
}

TEST_CASE("malformed bundles are one clear error naming config.json", "[request]") {
  Bundle bundle;
  for (const char* config : {"not json", "[1,2]", R"({"process":{}})",
                             R"({"root":{"path":"r"},"process":{"env":"A=1"}})",
                             R"({"root":{"path":"r"},"process":{"env":[1]}})",
                             R"({"root":{"path":"r"},"annotations":{"a":1}})",
                             R"({"root":{"path":"r"},"mounts":{}})"}) {
    auto request = bundle.read(config);
    INFO(config);
    REQUIRE_FALSE(request);
    CHECK_THAT(request.error().message, Catch::Contains("config.json"));
    CHECK(request.error().message.find('\n') == std::string::npos);
  }
}

TEST_CASE("fields of the wrong type are ignored rather than trusted", "[request]") {
  Bundle bundle;
  auto request = bundle.read(
      R"({"root":{"path":"r","readonly":"yes"},"mounts":[{"destination":5}],"linux":{"cgroupsPath":1}})");
  REQUIRE(request);
  CHECK_FALSE(request->rootfs_readonly);
  CHECK(request->mounts.at(0).destination.empty());
  CHECK(request->cgroups_path.empty());
}

TEST_CASE("a missing bundle is an error naming the path", "[request]") {
  auto request = request_from_bundle("/nonexistent-bundle", "x", 1);
  REQUIRE_FALSE(request);
  CHECK_THAT(request.error().message, Catch::Contains("/nonexistent-bundle/config.json"));
}

TEST_CASE("flag requests need KEY=VALUE pairs", "[request]") {
  auto good = request_from_flags({"A=1", "B=x=y"}, {"k=v"}, true, "");
  REQUIRE(good);
  CHECK(good->env.at("B") == "x=y");
  CHECK(good->privileged);
  CHECK(good->container_id == "audit");
  auto bad = request_from_flags({"NOEQUALS"}, {}, false, "");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().message, Catch::Contains("--env 'NOEQUALS'"));
}

TEST_CASE("what graft reads of a config is the same whatever the sections it skips hold",
          "[request]") {
  // Unread keys hold look-alikes of read ones, at other depths, so a skip
  // that went wrong would show as an extra env entry, device or cgroup path.
  auto request = parse_bundle_config(R"({
    "ociVersion": "1.0.2",
    "hooks": {"prestart": [{"path": "/x", "env": ["HOOK=1"]}], "process": {"env": ["H=1"]}},
    "root": {"path": "rootfs"},
    "process": {"args": ["sh"], "user": {"uid": 0, "env": ["USER=1"]}, "env": ["A=1"],
                "rlimits": [{"type": "RLIMIT_NOFILE"}],
                "capabilities": {"bounding": ["CAP_SYS_ADMIN"]}},
    "annotations": {"linux": "kept", "process": "kept too"},
    "mounts": [{"destination": "/m", "source": "/s", "type": "bind", "options": ["ro"],
                "linux": {"cgroupsPath": "/mount"}}],
    "linux": {"seccomp": {"defaultAction": "SCMP_ACT_ERRNO", "cgroupsPath": "/seccomp",
                          "devices": [{"path": "/dev/seccomp"}],
                          "syscalls": [{"names": ["read", "write"], "action": "SCMP_ACT_ALLOW"}]},
              "resources": {"devices": [{"allow": false, "access": "rwm", "path": "/dev/res"}]},
              "cgroupsPath": "/pods/3f2a", "devices": [{"path": "/dev/nvidia0"}],
              "namespaces": [{"type": "mount"}]}})",
                                     "/bundle");
  REQUIRE(request);
  CHECK(request->env == std::map<std::string, std::string>{{"A", "1"}});
  CHECK(request->privileged);
  CHECK(request->annotations ==
        std::map<std::string, std::string>{{"linux", "kept"}, {"process", "kept too"}});
  REQUIRE(request->mounts.size() == 1);
  CHECK(request->mounts[0].options == std::vector<std::string>{"ro"});
  CHECK(request->cgroups_path == "/pods/3f2a");
  CHECK(request->device_paths == std::vector<std::string>{"/dev/nvidia0"});
}

TEST_CASE("a config that is not JSON in a section graft skips is still refused", "[request]") {
  auto request = parse_bundle_config(
      R"({"root": {"path": "rootfs"}, "linux": {"seccomp": {"names": ["read",]}}})", "/bundle");
  REQUIRE_FALSE(request);
  CHECK_THAT(request.error().message, Catch::Contains("not valid JSON"));
}

TEST_CASE("parsing a config.json's text touches no disk and leaves the image layout unknown",
          "[request]") {
  // The root does not exist: a parse that looked for /etc/debian_version
  // would still answer, so the check is that it did not claim to know.
  auto request = parse_bundle_config(R"({"root":{"path":"rootfs"}})", "/nonexistent/bundle");
  REQUIRE(request);
  CHECK(request->rootfs == "/nonexistent/bundle/rootfs");
  CHECK_FALSE(request->layout.known);
}
