// SPDX-License-Identifier: Apache-2.0
// Hostile images: what the image ships to be run or mounted
// by a privileged hook: its own ldconfig, CUDA compat libraries, and an
// environment aimed at dynamic helpers (CVE-2024-0136/0137, CVE-2024-0132's
// compat path, CVE-2025-23266). graft must run none of it and mount none of
// it; each case is one `runc run` (cgroup v1) through run_hostile.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "harness/container_checks.hpp"
#include "harness/hostile_image.hpp"
#include "temp_dir.hpp"

using namespace graft::e2e;

TEST_CASE("the image's own /sbin/ldconfig and /sbin/ldconfig.real never run: graft runs the host's, sealed",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  const std::string host_marker = sentinel().path() + "/ldconfig-ran";
  const std::string script = "#!/bin/sh\necho ran >> /image-ldconfig-ran\necho ran >> " + host_marker +
                             "\nexit 0\n";
  BundleSpec spec = gpu1_compute_utility();
  spec.planted = {{"/sbin/ldconfig", PlantedKind::file, script},
                  {"/sbin/ldconfig.real", PlantedKind::file, script},
                  {"/usr/sbin/ldconfig", PlantedKind::file, script},
                  {sentinel().path(), PlantedKind::directory, ""}};  // so a run inside would leave it
  auto result = run_hostile(spec, "ldconfig", /*full_probe=*/false,
                            {"/image-ldconfig-ran", host_marker});
  record("image tools", "/sbin/ldconfig, /sbin/ldconfig.real", "image ships its own", result);
  REQUIRE(result.outcome == "injected");
  const auto& report = result.container.report;
  INFO("container output:\n" << result.container.run.out);
  CHECK(report.find("marker", "/image-ldconfig-ran")->at(0) == "0");
  CHECK(report.find("marker", host_marker)->at(0) == "0");
  // The cache was written all the same, by the sealed host ldconfig.
  CHECK(report.find("cache", "/etc/ld.so.cache")->at(0) == "1");
}

TEST_CASE("CUDA compat libraries in the image (/usr/local/cuda/compat) are never mounted over the driver libraries",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = gpu1_compute_utility();
  for (const char* name : {"libcuda.so.1", "libcuda.so.999.99", "libnvidia-ml.so.1",
                           "libnvidia-ptxjitcompiler.so.999.99"})
    spec.planted.push_back({std::string("/usr/local/cuda/compat/") + name, PlantedKind::file,
                            "graft-e2e-compat: an image's forward-compat library\n"});
  spec.planted.push_back({"/usr/local/cuda-12.6/compat/libcuda.so.1", PlantedKind::symlink,
                          sentinel().file()});
  auto result = run_hostile(spec, "compat");
  record("image tools", "/usr/local/cuda/compat/lib*.so.*", "compat libs present", result);
  REQUIRE(result.outcome == "injected");
  const auto& report = result.container.report;
  INFO("container output:\n" << result.container.run.out);
  CHECK(report.find("compat", "/usr/lib/x86_64-linux-gnu/libcuda.so.1")->at(0) == "0");
  CHECK(report.find("compatmount", "any")->at(0) == "0");
  check_planned_libraries(result.container);
  check_exactly_the_plan(result.container);
}

TEST_CASE("an image environment with LD_PRELOAD, LD_AUDIT, LD_LIBRARY_PATH, GCONV_PATH and PATH pointing at image files is honoured by nothing graft runs (CVE-2025-23266)",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  const std::string marker = sentinel().path() + "/preload-ran";
  // Control: the object does write its marker when a dynamic program loads it.
  {
    graft::fixture::TempDir scratch("graft-e2e-preload-");
    const std::string control = scratch.path() + "/marker";
    auto ran = graft::testing::run_command({"/usr/bin/env", "LD_PRELOAD=" GRAFT_E2E_PRELOAD_MARKER,
                                            "GRAFT_E2E_MARKER=" + control, "/bin/true"});
    REQUIRE(ran.exit_code == 0);
    REQUIRE(std::filesystem::exists(control));
  }
  const std::string tool = "#!/bin/sh\necho ran >> /evil-tool-ran\necho ran >> " + marker + "\nexit 0\n";
  BundleSpec spec = gpu1_compute_utility();
  spec.env.insert(spec.env.end(), {"LD_PRELOAD=/evil/libpreload.so",
                                   "LD_AUDIT=/evil/libpreload.so",
                                   "LD_LIBRARY_PATH=/evil",
                                   "GCONV_PATH=/evil/gconv",
                                   "PATH=/evil:/bin:/sbin:/usr/bin",
                                   "GRAFT_E2E_MARKER=" + marker});
  spec.planted = {{"/evil/ldconfig", PlantedKind::file, tool},
                  {"/evil/ldconfig.real", PlantedKind::file, tool},
                  {"/evil/gconv/gconv-modules", PlantedKind::file, "module INTERNAL EVIL// evil 1\n"},
                  {sentinel().path(), PlantedKind::directory, ""}};
  // The object itself, in the image (rootfs_files may hold binary content).
  spec.rootfs_files.emplace_back("/evil/libpreload.so", [] {
    std::ifstream in(GRAFT_E2E_PRELOAD_MARKER, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }());
  auto result = run_hostile(spec, "LD_PRELOAD", /*full_probe=*/false, {"/evil-tool-ran", marker});
  record("environment", "process.env", "LD_PRELOAD, LD_AUDIT, LD_LIBRARY_PATH, GCONV_PATH, PATH", result);
  REQUIRE(result.outcome == "injected");
  const auto& report = result.container.report;
  INFO("container output:\n" << result.container.run.out);
  CHECK(report.find("marker", "/evil-tool-ran")->at(0) == "0");
  CHECK(report.find("marker", marker)->at(0) == "0");
  CHECK(report.find("cache", "/etc/ld.so.cache")->at(0) == "1");
}
