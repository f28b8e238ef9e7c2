// SPDX-License-Identifier: Apache-2.0
// The other requests a busybox container can make through its environment,
// each started once by runc (cgroup v1) with graft as its prestart hook.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>

#include "harness/container_checks.hpp"

using namespace graft::e2e;

namespace {

ProbedContainer started(BundleSpec spec) {
  auto container = run_probed_container(Runtime::runc, CgroupMode::v1, std::move(spec));
  require_ran_cleanly(container);
  return container;
}

bool any_contains(const std::vector<std::string>& lines, const std::string& text) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& line) { return line.find(text) != std::string::npos; });
}

std::string exists(const ProbedContainer& container, const std::string& path) {
  auto values = container.report.find("exists", path);
  return values ? values->at(0) : "not probed";
}

constexpr const char* kDebianCuda = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
constexpr const char* kLib64Cuda = "/usr/lib64/libcuda.so.1";

}  // namespace

TEST_CASE("NVIDIA_DRIVER_CAPABILITIES=utility alone brings neither /dev/nvidia-uvm nor libcuda",
          "[e2e][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec;
  spec.env = {"NVIDIA_VISIBLE_DEVICES=1", "NVIDIA_DRIVER_CAPABILITIES=utility"};
  auto container = started(spec);
  INFO("container output:\n" << container.run.out);
  check_exactly_the_plan(container);
  CHECK(container.report.open_result("/dev/nvidia-uvm") == "No such file or directory");
  CHECK(container.report.open_result("/dev/nvidia1") == "No such device or address");
  CHECK(exists(container, kDebianCuda) == "0");
  CHECK_FALSE(any_contains(container.report.subjects("ldcache"), "libcuda"));
  CHECK(any_contains(container.report.subjects("ldcache"), "libnvidia-ml.so.1"));
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES=none brings the driver (nvidiactl, utility libraries) but no GPU node",
          "[e2e][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec;
  spec.env = {"NVIDIA_VISIBLE_DEVICES=none"};  // capabilities default to compute,utility
  auto container = started(spec);
  INFO("container output:\n" << container.run.out);
  check_exactly_the_plan(container);
  CHECK(container.report.open_result("/dev/nvidiactl") == "No such device or address");
  for (const auto& node : container.report.subjects("devls"))
    CHECK_FALSE(std::regex_match(node, std::regex("/dev/nvidia[0-9]+")));
  CHECK(container.report.open_result("/dev/nvidia1") == "No such file or directory");
  CHECK(container.report.subjects("gpu").empty());
  CHECK(any_contains(container.report.subjects("ldcache"), "libnvidia-ml.so.1"));
}

TEST_CASE("a container without NVIDIA variables starts and gets nothing", "[e2e][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  auto container = started(BundleSpec{});
  INFO("container output:\n" << container.run.out);
  CHECK(container.plan.at("inject") == false);
  CHECK(container.plan.at("actions").empty());
  CHECK(container.report.subjects("devls").empty());
  CHECK(container.report.open_result("/dev/nvidiactl") == "No such file or directory");
  CHECK(exists(container, "/proc/driver/nvidia") == "0");
  CHECK(exists(container, kDebianCuda) == "0");
  CHECK(container.report.subjects("ldcache").empty());
  CHECK(container.report.open_result("/dev/null") == "ok");
}

TEST_CASE("an image without etc/debian_version gets the driver libraries in /usr/lib64",
          "[e2e][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = gpu1_compute_utility();
  spec.layout = ImageLayout::lib64;
  auto container = started(spec);
  INFO("container output:\n" << container.run.out);
  CHECK(container.plan.at("lib_dir") == "/usr/lib64");
  CHECK(exists(container, kLib64Cuda) == "1");
  CHECK(exists(container, kDebianCuda) == "0");
  check_planned_libraries(container);
}
