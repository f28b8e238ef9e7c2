// SPDX-License-Identifier: Apache-2.0
// CUDA forward compatibility end to end: a runc container whose image ships
// /usr/local/cuda/compat/libcuda.so.<version> (a copy of the fake driver's
// libcuda, renamed) and the libcuda.so.1 link beside it. With a version newer
// than the fake host's driver, the container's loader finds the image's
// libcuda.so.1 first (`ldconfig -p` lists the compat one before the injected
// one) and the ld.so.conf.d entry names the compat directory; with an older
// one, nothing changes. The image's files are never mounted.
#include <catch2/catch.hpp>

#include <sstream>

#include "fixture_files.hpp"
#include "harness/container_checks.hpp"
#include "harness/gpu_host.hpp"

using namespace graft::e2e;

namespace {

const char* const kCompatDir = "/usr/local/cuda/compat";

// The container's `ldconfig -p` lines for libcuda.so.1 and its ld.so.conf.d
// entry, one per line.
ProbedContainer run_with_compat(const std::string& version) {
  auto& host = gpu_host();
  std::string libcuda = graft::fixture::read_file(host.host.path(
      graft::fixture::FakeHost::lib_dir() + "/libcuda.so." + std::string(graft::fixture::fake_driver_version())));
  BundleSpec spec = gpu1_compute_utility();
  spec.args = {"/bin/sh", "-c",
               "echo \"conf|$(cat /etc/ld.so.conf.d/00-compat-graft.conf 2>&1)\"; "
               "ldconfig -p | grep 'libcuda.so.1 ' | while read -r line; do echo \"cache|$line\"; done; "
               "grep -c ' /usr/local/cuda' /proc/self/mountinfo | sed 's/^/mounts|/'"};
  spec.rootfs_files.push_back({std::string(kCompatDir) + "/libcuda.so." + version, libcuda});
  spec.planted.push_back({std::string(kCompatDir) + "/libcuda.so.1", PlantedKind::symlink,
                          "libcuda.so." + version});
  return run_probed_container(Runtime::runc, CgroupMode::v1, spec);
}

std::vector<std::string> lines_of(const std::string& out, const std::string& tag) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(tag + "|")) lines.push_back(line.substr(tag.size() + 1));
  return lines;
}

}  // namespace

TEST_CASE("an image's newer libcuda in /usr/local/cuda/compat is the one the container's loader finds first",
          "[e2e][runc][v1][forward-compat]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  auto container = run_with_compat("999.10.01");
  INFO("runtime stderr: " << container.run.err);
  INFO("container output:\n" << container.run.out);
  REQUIRE(container.run.exit_code == 0);
  CHECK(lines_of(container.run.out, "conf") == std::vector<std::string>{kCompatDir});
  auto cache = lines_of(container.run.out, "cache");
  REQUIRE(cache.size() >= 2);
  CHECK_THAT(cache.front(), Catch::EndsWith(std::string("=> ") + kCompatDir + "/libcuda.so.1"));
  CHECK(lines_of(container.run.out, "mounts") == std::vector<std::string>{"0"});
}

TEST_CASE("an image's libcuda older than the host driver leaves the container's loader on the injected one",
          "[e2e][runc][v1][forward-compat]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  auto container = run_with_compat("100.10.01");
  INFO("runtime stderr: " << container.run.err);
  INFO("container output:\n" << container.run.out);
  REQUIRE(container.run.exit_code == 0);
  auto conf = lines_of(container.run.out, "conf");
  REQUIRE(conf.size() == 1);
  CHECK_THAT(conf.front(), Catch::Contains("No such file"));
  auto cache = lines_of(container.run.out, "cache");
  REQUIRE_FALSE(cache.empty());
  CHECK_THAT(cache.front(), Catch::EndsWith(graft::fixture::FakeHost::lib_dir() + "/libcuda.so.1"));
}
