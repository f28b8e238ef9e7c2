// SPDX-License-Identifier: Apache-2.0
// `graft verify` on real runc containers that graft's prestart hook gave GPU
// 1: right after the start nothing has drifted (exit 0); then the host takes
// things away as a cgroup manager, an operator or the image would, and each
// loss is one line naming the action's target and origin (exit 1), in text
// and in the JSON docs/verify-schema.json describes. cgroup v1: a rule
// written to devices.deny, a library bind unmounted inside the container
// (nsenter), an ld.so.cache entry rewritten. cgroup v2 (runc in a private
// namespace, tests/e2e/harness/runtime.hpp): a device program attached beside
// graft's that denies, as a cgroup manager re-applying its own record does.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <fstream>

#include "cgroup_support.hpp"
#include "graft/base/ldcache.hpp"
#include "graft/base/ldcache_write.hpp"
#include "harness/gpu_host.hpp"
#include "harness/private_namespace.hpp"
#include "harness/probed_container.hpp"
#include "ldcache_file.hpp"

using namespace graft::e2e;

namespace {

constexpr const char* kVerifyUnshare = "/usr/bin/unshare";
constexpr const char* kVerifyNsenter = "/usr/bin/nsenter";

// A GPU 1 container started with graft's hook, left running (sleep).
struct RunningGpuContainer {
  std::string id;
  OciBundle bundle;
  nlohmann::json plan;
  Container container;
  int pid = 0;

  RunningGpuContainer(CgroupMode mode, const std::string& tag)
      : id(unique_container_id(tag)), bundle(spec_for(id)), container(Runtime::runc, mode, id) {
    plan = plan_with_probe(bundle, gpu_host().policy, id);
    auto started = container.run_detached(bundle.path());
    INFO("runc run -d: " << started.err);
    REQUIRE(started.exit_code == 0);
    pid = container.pid();
    REQUIRE(pid > 0);
  }

  static BundleSpec spec_for(const std::string& id) {
    BundleSpec spec = gpu1_compute_utility();
    spec.args = {"/bin/sleep", "120"};
    spec.hook_policy = gpu_host().policy;
    spec.cgroups_path = "/" + id;
    return spec;
  }

  // `graft verify ID` asking this container's runc for its state; in v2 mode
  // from a namespace that sees the unified hierarchy, as runc does.
  graft::testing::CommandResult verify(const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> argv;
    if (container.mode() == CgroupMode::v2)
      argv = {kVerifyUnshare, "--mount", "/bin/sh", "-c",
              "mount --make-rprivate / && mount -t cgroup2 none /sys/fs/cgroup && exec \"$0\" \"$@\""};
    argv.insert(argv.end(), {GRAFT_BINARY, "--policy", gpu_host().policy, "verify", id, "--runtime",
                             runtime_path(Runtime::runc), "--runtime-root", container.state_dir()});
    argv.insert(argv.end(), extra.begin(), extra.end());
    return graft::testing::run_command(argv);
  }

  // The plan's actions of `kind` by `plugin` ("" for any).
  std::vector<nlohmann::json> actions(const std::string& kind, const std::string& plugin = "") const {
    std::vector<nlohmann::json> found;
    for (const auto& action : plan["actions"])
      if (action["kind"] == kind && (plugin.empty() || action["plugin"] == plugin)) found.push_back(action);
    return found;
  }
};

std::string first_line_with(const std::string& text, const std::string& needle) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.find(needle) != std::string::npos) return line;
  return "";
}

// Replaces libcuda.so.1's path in the cache the hook wrote into the root.
void point_libcuda_elsewhere(const OciBundle& bundle) {
  const std::string cache = bundle.rootfs() + "/etc/ld.so.cache";
  auto entries = graft::read_ldcache_file(cache);
  REQUIRE(entries.ok());
  bool changed = false;
  for (auto& entry : *entries)
    if (entry.key == "libcuda.so.1") entry.value = "/opt/old-driver/libcuda.so.1", changed = true;
  REQUIRE(changed);
  std::ofstream(cache, std::ios::binary | std::ios::trunc) << graft::render_ldcache(*entries, "test");
}

// A program beside graft's on the container's cgroup2 directory that
// denies every device (BPF_F_ALLOW_MULTI: every program must allow).
void deny_all_devices_v2(const std::string& id) {
  PrivateNamespace ns;
  graft::fixture::TempDir mount_dir("graft-e2e-cgroup2-");
  check_call(::mount("cgroup2", mount_dir.path().c_str(), "cgroup2", 0, nullptr), "mount cgroup2");
  using namespace graft::cgroup_test;
  int deny = load_device_program({insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
                                  insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)});
  REQUIRE(deny >= 0);
  attach_multi(mount_dir.path() + "/" + id, deny);
  ::close(deny);
  ::umount2(mount_dir.path().c_str(), MNT_DETACH);
}

nlohmann::json verify_json(const RunningGpuContainer& running) {
  auto result = running.verify({"--format", "json"});
  INFO(result.err);
  CHECK(result.exit_code == 1);
  auto document = nlohmann::json::parse(result.out, nullptr, false);
  REQUIRE(document.is_object());
  graft::fixture::TempDir dir("graft-e2e-verify-");
  const std::string file = dir.path() + "/verify.json";
  std::ofstream(file) << result.out;
  auto schema = graft::testing::check_json_schema(file, "verify-schema.json");
  INFO(schema.err);
  CHECK(schema.exit_code == 0);
  return document;
}

bool has_drift(const nlohmann::json& document, const std::string& kind, const std::string& target) {
  for (const auto& drift : document["drifts"])
    if (drift["kind"] == kind && drift["target"] == target && drift["status"] == "drift" &&
        !drift["origin"].get<std::string>().empty())
      return true;
  return false;
}

}  // namespace

TEST_CASE("cgroup v1: graft verify finds a hooked container as planned, then each loss the host causes",
          "[e2e][runc][v1][verify]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  RunningGpuContainer running(CgroupMode::v1, "verify");
  auto clean = running.verify();
  INFO("graft verify: " << clean.out << clean.err);
  REQUIRE(clean.exit_code == 0);
  CHECK_THAT(clean.out, Catch::StartsWith("container " + running.id + " (pid " +
                                          std::to_string(running.pid) + "): no drift"));

  // The device rule, as a cgroup manager rewriting the rules from its own record.
  const std::string devices = graft::cgroup_test::devices_v1_mount();
  REQUIRE_FALSE(devices.empty());
  REQUIRE(graft::cgroup_test::write_text(devices + "/" + running.id + "/devices.deny", "c 195:1 rwm"));
  // libcuda's bind, unmounted inside the container.
  std::string library;
  for (const auto& bind : running.actions("bind_mount", "libraries"))
    if (bind["target"].get<std::string>().find("/libcuda.so.") != std::string::npos)
      library = bind["target"];
  REQUIRE_FALSE(library.empty());
  auto unmounted = graft::testing::run_command({kVerifyNsenter, "-t", std::to_string(running.pid), "-m",
                                                "/bin/busybox", "umount", library});
  INFO("nsenter umount: " << unmounted.err);
  REQUIRE(unmounted.exit_code == 0);
  // The ld cache entry, rewritten.
  point_libcuda_elsewhere(running.bundle);

  auto drifted = running.verify();
  INFO("graft verify: " << drifted.out << drifted.err);
  CHECK(drifted.exit_code == 1);
  CHECK(drifted.err.empty());
  CHECK_THAT(first_line_with(drifted.out, "cgroup_allow c 195:1:"),
             Catch::StartsWith("drift") && Catch::Contains("expected rw allowed, found nothing allowed"));
  CHECK_THAT(first_line_with(drifted.out, "bind_mount " + library + ":"),
             Catch::StartsWith("drift") && Catch::Contains("not the host's"));
  CHECK_THAT(first_line_with(drifted.out, "ldcache_update /etc/ld.so.cache:"),
             Catch::Contains("found libcuda.so.1 => /opt/old-driver/libcuda.so.1"));
  CHECK_THAT(drifted.out, Catch::Contains("3 drifted, 0 cannot be told"));

  auto document = verify_json(running);
  CHECK(document["id"] == running.id);
  CHECK(document["pid"] == running.pid);
  CHECK(document["drifted"] == true);
  CHECK(document["drifts"].size() == 3);
  CHECK(has_drift(document, "cgroup_allow", "c 195:1"));
  CHECK(has_drift(document, "bind_mount", library));
  CHECK(has_drift(document, "ldcache_update", "/etc/ld.so.cache"));
}

TEST_CASE("cgroup v1: graft verify --pid checks the process is the named container's, and by id too",
          "[e2e][runc][v1][verify]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  RunningGpuContainer running(CgroupMode::v1, "verify-pid");
  const std::string pid = std::to_string(running.pid);
  auto by_pid = graft::testing::run_graft({"--policy", gpu_host().policy, "verify", running.id, "--pid",
                                           pid, "--bundle", running.bundle.path()});
  INFO(by_pid.out << by_pid.err);
  CHECK(by_pid.exit_code == 0);
  CHECK_THAT(by_pid.out, Catch::Contains("no drift"));
  auto other = graft::testing::run_graft({"--policy", gpu_host().policy, "verify", "someone-else", "--pid",
                                          pid, "--bundle", running.bundle.path()});
  CHECK(other.exit_code == 1);
  CHECK_THAT(other.err, Catch::StartsWith("graft: container someone-else: "));
}

TEST_CASE("cgroup v2: graft verify reads the device programs, and reports the rules a denying program took away",
          "[e2e][runc][v2][verify]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v2);
  RunningGpuContainer running(CgroupMode::v2, "verify-v2");
  auto clean = running.verify();
  INFO("graft verify: " << clean.out << clean.err);
  REQUIRE(clean.exit_code == 0);
  CHECK_THAT(clean.out, Catch::Contains("no drift"));

  deny_all_devices_v2(running.id);
  auto drifted = running.verify();
  INFO("graft verify: " << drifted.out << drifted.err);
  CHECK(drifted.exit_code == 1);
  const auto rules = running.actions("cgroup_allow");
  REQUIRE_FALSE(rules.empty());
  for (const auto& rule : rules)
    CHECK_THAT(first_line_with(drifted.out, "cgroup_allow " + rule["target"].get<std::string>() + ":"),
               Catch::StartsWith("drift") && Catch::Contains("found nothing allowed"));
  auto document = verify_json(running);
  CHECK(document["drifts"].size() == rules.size());
  CHECK(has_drift(document, "cgroup_allow", "c 195:1"));
}
