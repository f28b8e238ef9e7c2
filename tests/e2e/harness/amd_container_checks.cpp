// SPDX-License-Identifier: Apache-2.0
#include "amd_container_checks.hpp"

#include <catch2/catch.hpp>

#include <set>

#include "amd_host.hpp"
#include "container_checks.hpp"
#include "device_access.hpp"
#include "fake_libraries.hpp"
#include "gpu_host.hpp"

namespace graft::e2e {

void check_opens_past_the_cgroup(const ProbedContainer& container, const std::string& path, unsigned major) {
  std::string opened = container.report.open_result(path);
  INFO(path << ": " << opened);
  if (!host_has_char_driver(major)) {
    CHECK(opened == kENXIO);
    return;
  }
  CHECK(opened != kEPERM);
  CHECK(opened != kENOENT);
  CHECK(opened != "not probed");
}

void check_amd_gpu1_planned(const ProbedContainer& container) {
  const auto& granted = container.plan.at("decisions").at("granted").at("devices");
  REQUIRE(granted.size() == 1);
  CHECK(granted[0].at("gpu") == 1);
  CHECK(granted[0].at("bus_id") == fixture::fake_amd_gpu(1).bus_id);
}

void check_amd_gpu1_devices(const ProbedContainer& container) {
  const auto& report = container.report;
  INFO("container output:\n" << container.run.out);
  check_opens_past_the_cgroup(container, "/dev/kfd", amd_host().host.spec().kfd_major);
  check_opens_past_the_cgroup(container, "/dev/dri/renderD129", fixture::kFakeDrmMajor);
  CHECK(report.open_result("/dev/dri/renderD128") == kENOENT);
  CHECK(report.open_result("/dev/dri/card0") == kENOENT);
  CHECK(report.open_result("/dev/dri/card1") == kENOENT);
  CHECK(report.open_result("/dev/null") == "ok");
  auto made = report.find("mknod", "/dev/dri/renderD128");
  REQUIRE(made);
  CHECK(made->at(0) == "0");
  CHECK(report.open_result("made:/dev/dri/renderD128") == kEPERM);
  check_planned_node_numbers(container);
}

void check_exactly_the_planned_amd_targets(const ProbedContainer& container) {
  check_planned_targets_exist(container);
  const auto& report = container.report;
  auto listed = report.subjects("devls");
  auto planned = planned_targets(container.plan, "device_node");
  CHECK(std::set<std::string>(listed.begin(), listed.end()) == std::set<std::string>(planned.begin(), planned.end()));
  CHECK(std::set<std::string>(planned.begin(), planned.end()) ==
        std::set<std::string>{"/dev/kfd", "/dev/dri/renderD129"});
  CHECK(report.subjects("libls").empty());
}

void check_kfd_alone(const ProbedContainer& container) {
  require_ran_cleanly(container);
  INFO("container output:\n" << container.run.out);
  check_planned_targets_exist(container);
  CHECK(planned_targets(container.plan, "device_node") == std::vector<std::string>{"/dev/kfd"});
  CHECK(container.report.subjects("devls") == std::vector<std::string>{"/dev/kfd"});
  check_opens_past_the_cgroup(container, "/dev/kfd", amd_host().host.spec().kfd_major);
  CHECK(container.report.open_result("/dev/dri/renderD128") == kENOENT);
  CHECK(container.report.open_result("/dev/dri/renderD129") == kENOENT);
  check_applied_the_plan(container, amd_audit_records(container.id, "applied"));
}

void check_given_no_amd_gpu(const ProbedContainer& container) {
  INFO("container output:\n" << container.run.out << container.run.err);
  REQUIRE(container.run.exit_code == 0);
  REQUIRE(container.report.finished());
  CHECK(container.plan.at("inject") == false);
  CHECK(container.report.subjects("devls").empty());
  CHECK(container.report.open_result("/dev/kfd") == kENOENT);
  CHECK(container.report.open_result("/dev/dri/renderD129") == kENOENT);
  CHECK(container.report.open_result("/dev/null") == "ok");
  CHECK(amd_audit_records(container.id, "applied").empty());
}

void check_host_rocm_libraries(const ProbedContainer& container) {
  INFO("container output:\n" << container.run.out);
  CHECK(check_planned_library_files(container) == fixture::fake_rocm_libraries().size());
  for (const auto& lib : fixture::fake_rocm_libraries()) check_ldcache_lists(container, std::string(lib.soname));
  // The image's library directory holds nothing else: no NVIDIA file came.
  auto files = container.report.subjects("libls");
  CHECK(std::set<std::string>(files.begin(), files.end()) ==
        targets_under(container.plan, {"bind_mount", "symlink"}, container.plan.at("lib_dir").get<std::string>() + "/"));
}

}  // namespace graft::e2e
