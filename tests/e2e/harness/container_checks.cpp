// SPDX-License-Identifier: Apache-2.0
#include "container_checks.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "device_access.hpp"
#include "gpu_host.hpp"

namespace graft::e2e {
namespace {

using nlohmann::json;

constexpr const char* kEROFS = "Read-only file system";

}  // namespace

std::set<std::string> targets_under(const json& plan, const std::vector<std::string>& kinds,
                                    const std::string& dir_prefix) {
  std::set<std::string> out;
  for (const auto& kind : kinds)
    for (const auto& target : planned_targets(plan, kind))
      if (target.starts_with(dir_prefix)) out.insert(target);
  return out;
}

void require_ran_cleanly(const ProbedContainer& container) {
  INFO(runtime_name(container.runtime) << ", " << mode_name(container.mode) << ", id " << container.id);
  INFO("runtime stderr: " << container.run.err);
  INFO("container output:\n" << container.run.out);
  REQUIRE(container.run.exit_code == 0);
  REQUIRE(container.report.finished());
  INFO("leaked mounts:\n" << fmt::format("{}", fmt::join(container.leaked_mounts, "\n")));
  CHECK(container.leaked_mounts.empty());
  CHECK(container.mount_count_change == 0);
}

void check_gpu1_devices(const ProbedContainer& container) {
  const auto& report = container.report;
  INFO("container output:\n" << container.run.out);
  CHECK(report.open_result("/dev/nvidia1") == kENXIO);
  CHECK(report.open_result("/dev/nvidiactl") == kENXIO);
  CHECK(report.open_result("/dev/nvidia-uvm") == kENXIO);
  CHECK(report.open_result("/dev/nvidia0") == kENOENT);
  CHECK(report.open_result("/dev/null") == "ok");
  auto made = report.find("mknod", "/dev/nvidia0");
  REQUIRE(made);
  CHECK(made->at(0) == "0");
  CHECK(report.open_result("made:/dev/nvidia0") == kEPERM);
  check_planned_node_numbers(container);
}

void check_planned_node_numbers(const ProbedContainer& container) {
  const auto& report = container.report;
  // stat prints the numbers in hex.
  for (const auto& action : container.plan.at("actions")) {
    if (action.at("kind") != "device_node") continue;
    std::string target = action.at("target");
    auto node = report.find("node", target);
    INFO(target);
    REQUIRE(node);
    CHECK(node->at(0) == "c");
    CHECK(node->at(1) == fmt::format("{:x}:{:x}", action.at("device").at("major").get<unsigned>(),
                                     action.at("device").at("minor").get<unsigned>()));
  }
}

void check_planned_libraries(const ProbedContainer& container) {
  CHECK(check_planned_library_files(container) > 5);
  check_ldcache_lists(container, "libcuda.so.1");
}

std::size_t check_planned_library_files(const ProbedContainer& container) {
  const auto& plan = container.plan;
  const auto& report = container.report;
  INFO("container output:\n" << container.run.out);
  std::set<std::string> mounted;
  for (const auto& action : plan.at("actions")) {
    if (action.at("kind") != "bind_mount" || action.at("plugin") != "libraries") continue;
    std::string target = action.at("target");
    mounted.insert(target);
    INFO(target);
    auto exists = report.find("exists", target);
    REQUIRE(exists);
    CHECK(exists->at(0) == "1");
    auto write = report.find("write", target);
    REQUIRE(write);
    CHECK(write->at(0) != "0");
    CHECK(write->at(1) == kEROFS);
  }
  std::map<std::string, std::string> links;  // target -> source, as planned
  for (const auto& action : plan.at("actions"))
    if (action.at("kind") == "symlink") links[action.at("target")] = action.at("source");
  CHECK(!links.empty());
  for (const auto& [target, source] : links) {
    INFO(target << " -> " << source);
    auto link = report.find("link", target);
    REQUIRE(link);
    CHECK(link->at(0) == source);
    // Follow the planned chain (libcuda.so -> libcuda.so.1 -> libcuda.so.560.35.03)
    // to the planned file; readlink -f inside must end at the same place.
    std::string end = target;
    for (int hops = 0; links.count(end) && hops < 8; ++hops)
      end = links.at(end).starts_with('/') ? links.at(end) : parent_dir(end) + "/" + links.at(end);
    CHECK(mounted.count(end) == 1);
    CHECK(link->at(1) == end);
    CHECK(link->at(2) == "1");
  }
  return mounted.size();
}

void check_ldcache_lists(const ProbedContainer& container, const std::string& soname) {
  const auto& report = container.report;
  INFO("container output:\n" << container.run.out);
  auto ldconfig = report.find("ldconfig", "rc");
  REQUIRE(ldconfig);
  CHECK(ldconfig->at(0) == "0");
  std::string lib_dir = container.plan.at("lib_dir");
  auto cache = report.subjects("ldcache");
  bool listed = std::any_of(cache.begin(), cache.end(), [&](const std::string& line) {
    return line.starts_with(soname + " ") && line.ends_with("=> " + lib_dir + "/" + soname);
  });
  INFO("ldconfig -p lines: " << fmt::format("{}", fmt::join(cache, " / ")));
  CHECK(listed);
}

void check_gpu1_procfs(const ProbedContainer& container) {
  const auto& report = container.report;
  INFO("container output:\n" << container.run.out);
  const auto& granted = container.plan.at("decisions").at("granted").at("devices");
  REQUIRE(granted.size() == 1);
  CHECK(granted[0].at("gpu") == 1);
  std::string bus_id = granted[0].at("bus_id");
  CHECK(bus_id == fixture::fake_gpu(1).bus_id);
  CHECK(report.subjects("gpu") == std::vector<std::string>{bus_id});
  CHECK(report.subjects("params") == std::vector<std::string>{"ModifyDeviceFiles: 0"});
}

void check_exactly_the_plan(const ProbedContainer& container) {
  check_exactly_the_planned_targets(container);
  check_applied_the_plan(container, audit_records(container.id, "applied"));
}

void check_applied_the_plan(const ProbedContainer& container, const std::vector<json>& applied) {
  const auto& plan = container.plan;
  REQUIRE(applied.size() == 1);
  CHECK(applied[0].at("actions") == plan.at("actions").size());
  CHECK(applied[0].at("applied") == plan.at("actions").size());
}

void check_planned_targets_exist(const ProbedContainer& container) {
  const auto& plan = container.plan;
  const auto& report = container.report;
  INFO("container output:\n" << container.run.out);
  REQUIRE(plan.at("inject") == true);
  for (const auto& action : plan.at("actions")) {
    std::string kind = action.at("kind"), target = action.at("target");
    INFO(kind << " " << target);
    if (kind == "device_node") {
      auto node = report.find("node", target);
      REQUIRE(node);
      CHECK(node->at(0) == "c");
    } else if (kind == "symlink") {
      auto link = report.find("link", target);
      REQUIRE(link);
      CHECK(link->at(0) == action.at("source"));
    } else if (kind == "bind_mount" || kind == "procfs_mask" || kind == "config_file") {
      auto exists = report.find("exists", target);
      REQUIRE(exists);
      CHECK(exists->at(0) == "1");
    }
  }
}

void check_exactly_the_planned_targets(const ProbedContainer& container) {
  const auto& plan = container.plan;
  const auto& report = container.report;
  INFO("container output:\n" << container.run.out);
  check_planned_targets_exist(container);
  // No NVIDIA node but the planned ones.
  auto listed = report.subjects("devls");
  CHECK(std::set<std::string>(listed.begin(), listed.end()) ==
        targets_under(plan, {"device_node"}, "/dev/nvidia"));
  // Nothing in the (empty in the image) library directory but the planned files and links.
  std::string lib_dir = plan.at("lib_dir");
  auto files = report.subjects("libls");
  CHECK(std::set<std::string>(files.begin(), files.end()) ==
        targets_under(plan, {"bind_mount", "symlink"}, lib_dir + "/"));
}

void check_given_nothing(const ProbedContainer& container) {
  INFO("container output:\n" << container.run.out << container.run.err);
  REQUIRE(container.run.exit_code == 0);
  REQUIRE(container.report.finished());
  CHECK(container.report.subjects("devls").empty());
  for (const char* kind : {"bind_mount", "procfs_mask", "config_file"}) {
    for (const auto& target : planned_targets(container.plan, kind)) {
      INFO(target);
      auto exists = container.report.find("exists", target);
      REQUIRE(exists);
      CHECK(exists->at(0) == "0");
    }
  }
  CHECK(container.report.subjects("ldcache").empty());
  CHECK(container.report.subjects("gpu").empty());
  CHECK(container.report.open_result("/dev/nvidia1") == "No such file or directory");
  CHECK(container.report.open_result("/dev/null") == "ok");
  CHECK(audit_records(container.id, "applied").empty());
  CHECK(audit_records(container.id, "refused").empty());
}

}  // namespace graft::e2e
