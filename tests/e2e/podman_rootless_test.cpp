// SPDX-License-Identifier: Apache-2.0
// Rootless podman with graft's CDI spec, as NVIDIA tells workstation and HPC
// users to run GPU containers: a test user with subordinate ids runs
// `podman --runtime runc run --device KIND=1` (the GPU alone, which carries
// the policy's default capabilities) from a spec `graft cdi generate` wrote to
// /etc/cdi. graft's hook then runs as root of that user's namespace, where
// host root shows as the overflow uid, and must still trust the policy and
// plugins host root installed (docs/security.md, "Trusted files in a user
// namespace"). Rootless runc makes no device node and sets no device
// cgroup: it binds the host's node from its container path, so the fake
// host's nodes are put at /dev/nvidia* in a /dev of the test's own
// (harness/private_dev.hpp). Inside: GPU 1's node opens as far as the absent
// driver allows (ENXIO), another GPU's node is simply not there, and the
// library, its link and the ld cache entry the hook makes are in place, as
// is its procfs mask.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fixture_files.hpp"
#include "harness/gpu_host.hpp"
#include "harness/oci_bundle.hpp"
#include "harness/private_dev.hpp"
#include "harness/private_namespace.hpp"
#include "harness/rootless_podman.hpp"
#include "run_command.hpp"
#include "skip.hpp"

namespace graft::e2e {
namespace {

constexpr const char* kRootlessImage = "localhost/graft-e2e-rootless";

// What the container reports, one fact a line.
constexpr const char* kRootlessCheckScript = R"sh(
cat /dev/nvidia1 2>&1
[ -e /dev/nvidia2 ] && echo "nvidia2: present" || echo "nvidia2: absent"
[ -e /dev/nvidia0 ] && echo "nvidia0: present" || echo "nvidia0: absent"
echo "libcuda.so.1 -> $(readlink /usr/lib/x86_64-linux-gnu/libcuda.so.1)"
ldconfig -p | grep -q 'libcuda.so.1 ' && echo "ld cache: libcuda.so.1"
set -- /proc/driver/nvidia/gpus/*
echo "procfs gpus: $#"
grep ModifyDeviceFiles /proc/driver/nvidia/params
true
)sh";

// A spec of this process's own in /etc/cdi for as long as this lives,
// readable by the rootless user.
class RootlessSpec {
 public:
  explicit RootlessSpec(const std::string& policy)
      : kind_("graft-e2e-rootless-" + std::to_string(::getpid()) + ".test/gpu"),
        path_("/etc/cdi/" + kind_.substr(0, kind_.find('/')) + ".json") {
    std::filesystem::create_directories("/etc/cdi");
    result_ = testing::run_graft({"--policy", policy, "cdi", "generate", "--kind", kind_, "--output", path_});
    ::chmod(path_.c_str(), 0644);
  }
  ~RootlessSpec() { std::filesystem::remove(path_); }
  RootlessSpec(const RootlessSpec&) = delete;
  RootlessSpec& operator=(const RootlessSpec&) = delete;

  const std::string& kind() const { return kind_; }
  const testing::CommandResult& result() const { return result_; }

 private:
  std::string kind_, path_;
  testing::CommandResult result_;
};

// The e2e host's policy (harness/gpu_host.hpp) with its audit log at `audit_log`,
// beside it.
std::string rootless_policy(const std::string& audit_log) {
  const GpuHost& host = gpu_host();
  std::string text = fixture::read_file(host.policy);
  std::size_t at = text.find(host.audit_log);
  REQUIRE(at != std::string::npos);
  text.replace(at, host.audit_log.size(), audit_log);
  std::string path = parent_dir(host.policy) + "/rootless-" + std::to_string(::getpid()) + ".toml";
  fixture::write_file(path, text);
  return path;
}

// The busybox image, with the check script, imported for the user.
void import_image(RootlessPodman& podman) {
  OciBundle bundle(BundleSpec{});
  bundle.write_in_rootfs("/graft-rootless-check.sh", kRootlessCheckScript, 0755);
  auto imported = podman.import(bundle.rootfs(), kRootlessImage);
  INFO(imported.err);
  REQUIRE(imported.exit_code == 0);
}

// The audit records in `log` for outcome `outcome`.
std::size_t rootless_records(const std::string& log, const std::string& outcome) {
  std::size_t count = 0;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);)
    if (line.find("\"outcome\":\"" + outcome + "\"") != std::string::npos) ++count;
  return count;
}

}  // namespace

TEST_CASE("Rootless podman runs GPU 1 alone from graft's CDI spec: graft's hook trusts the host's "
          "policy and plugins from inside the user namespace, GPU 1's node opens as far as the absent "
          "driver allows, another GPU's node is not there, the library is linked and in the ld cache, "
          "and /proc/driver/nvidia shows GPU 1 only",
          "[podman][cdi][rootless]") {
  GRAFT_SKIP_IF(rootless_podman_skip_reason());
  GRAFT_SKIP_IF(gpu_host().host.device_nodes_problem());
  PrivateNamespace namespace_of_test;
  PrivateDev dev(gpu_host().host.path("/dev"));
  RootlessPodman podman;
  std::string audit_log = podman.owned_dir() + "/audit.jsonl";
  RootlessSpec spec(rootless_policy(audit_log));
  INFO(spec.result().err);
  REQUIRE(spec.result().exit_code == 0);
  import_image(podman);
  auto run = podman.run({"--device", spec.kind() + "=1",
                         "--mount", "type=tmpfs,destination=/proc/driver,tmpfs-mode=755,tmpfs-size=1024k"},
                        kRootlessImage, {"/bin/sh", "/graft-rootless-check.sh"});
  INFO("podman: " << run.err << "\ncontainer: " << run.out);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::Contains("can't open '/dev/nvidia1': No such device or address"));
  CHECK_THAT(run.out, Catch::Contains("nvidia2: absent"));
  CHECK_THAT(run.out, Catch::Contains("nvidia0: absent"));
  CHECK_THAT(run.out, Catch::Contains("libcuda.so.1 -> libcuda.so."));
  CHECK_THAT(run.out, Catch::Contains("ld cache: libcuda.so.1"));
  // The procfs mask: GPU 1's directory only, and the driver may not make nodes.
  CHECK_THAT(run.out, Catch::Contains("procfs gpus: 1"));
  CHECK_THAT(run.out, Catch::Contains("ModifyDeviceFiles: 0"));
  // One record per hook: the spec-level one (procfs mask, GPU 1's procfs
  // directory) and GPU 1's (its default sets' links and ld cache).
  CHECK(rootless_records(audit_log, "applied") == 2);
  CHECK(rootless_records(audit_log, "error") == 0);
}

TEST_CASE("Under rootless podman, graft's hook that cannot write the policy's audit log fails with one line "
          "naming it, and the container does not start",
          "[podman][cdi][rootless]") {
  GRAFT_SKIP_IF(rootless_podman_skip_reason());
  GRAFT_SKIP_IF(gpu_host().host.device_nodes_problem());
  PrivateNamespace namespace_of_test;
  PrivateDev dev(gpu_host().host.path("/dev"));
  RootlessPodman podman;
  // The e2e host's own policy: its audit log belongs to root, whom the
  // user's hook cannot write as.
  RootlessSpec spec(gpu_host().policy);
  REQUIRE(spec.result().exit_code == 0);
  import_image(podman);
  auto run = podman.run({"--device", spec.kind() + "=1", "--device", spec.kind() + "=capability-compute",
                         "--mount", "type=tmpfs,destination=/proc/driver,tmpfs-mode=755,tmpfs-size=1024k"},
                        kRootlessImage, {"/bin/sh", "-c", "echo started"});
  INFO("podman: " << run.err);
  CHECK(run.exit_code != 0);
  CHECK_THAT(run.out, !Catch::Contains("started"));
  CHECK_THAT(run.err,
             Catch::Contains("audit.log " + gpu_host().audit_log + ": cannot open it to append: Permission denied"));
}

}  // namespace graft::e2e
