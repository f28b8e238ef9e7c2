// SPDX-License-Identifier: Apache-2.0
#include "load_checks.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "container_checks.hpp"
#include "fake_host.hpp"
#include "gpu_host.hpp"

namespace graft::e2e {
namespace {

using nlohmann::json;

const std::regex kAnyGpuNode("/dev/nvidia[0-9]+");

std::string describe(const LoadedContainer& container) {
  const auto& request = container.request;
  return fmt::format("{} (GPU {} by {}, capabilities {})", container.probed.id, request.gpu,
                     request.by_uuid ? "UUID" : "index", request.capabilities);
}

std::string own_device_value(const LoadRequest& request) {
  return request.by_uuid ? fixture::fake_gpu(request.gpu).uuid : std::to_string(request.gpu);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The GPUs a record's decisions granted, by number.
std::vector<unsigned> granted_gpus(const json& decisions) {
  std::vector<unsigned> out;
  for (const auto& device : decisions.at("granted").at("devices")) out.push_back(device.at("gpu"));
  return out;
}

}  // namespace

const std::string& load_host_root() {
  const auto& root = gpu_host().host.root();
  INFO("the fake host was built before the private /tmp: run the load cases in a process of their own");
  REQUIRE(::access(root.c_str(), F_OK) == 0);
  return root;
}

void check_started_and_gone(const LoadedContainer& container) {
  INFO(describe(container));
  INFO("runtime stderr: " << container.probed.run.err);
  INFO("failure: " << container.failure);
  REQUIRE(container.failure.empty());
  REQUIRE(container.probed.run.exit_code == 0);
  INFO("runc state left: " << fmt::format("{}", fmt::join(container.runtime_state_left, " ")));
  CHECK(container.runtime_state_left.empty());
}

void check_own_plan(const LoadedContainer& container) {
  const auto& probed = container.probed;
  const auto& plan = probed.plan;
  INFO(describe(container));
  INFO("container output:\n" << probed.run.out);
  REQUIRE(probed.report.finished());
  check_exactly_the_plan(probed);
  const unsigned gpu = container.request.gpu;
  CHECK(granted_gpus(plan.at("decisions")) == std::vector<unsigned>{gpu});
  std::set<std::string> gpu_nodes;
  for (const auto& target : planned_targets(plan, "device_node"))
    if (std::regex_match(target, kAnyGpuNode)) gpu_nodes.insert(target);
  const std::string own_node = "/dev/nvidia" + std::to_string(gpu);
  CHECK(gpu_nodes == std::set<std::string>{own_node});
  CHECK(probed.report.open_result(own_node) == "No such device or address");  // ENXIO: no driver
  CHECK(probed.report.subjects("gpu") == std::vector<std::string>{fixture::fake_gpu(gpu).bus_id});
  for (const auto& action : plan.at("actions")) {
    if (action.at("kind") != "bind_mount" || action.at("plugin") != "libraries") continue;
    std::string target = action.at("target");
    INFO(target);
    auto write = probed.report.find("write", target);
    REQUIRE(write);
    CHECK(write->at(1) == "Read-only file system");
  }
  // libcuda comes with compute (and all), never with utility alone.
  auto libcuda = probed.report.find("exists", plan.value("lib_dir", "") + "/libcuda.so.1");
  REQUIRE(libcuda);
  CHECK(libcuda->at(0) == (container.request.capabilities == "utility" ? "0" : "1"));
}

void check_own_listing(const LoadedContainer& container) {
  INFO(describe(container));
  INFO("container output:\n" << container.probed.run.out);
  std::set<std::string> gpu_nodes, bus_ids;
  std::set<std::string> all_bus_ids;
  for (unsigned i = 0; i < kFakeGpus; ++i) all_bus_ids.insert(fixture::fake_gpu(i).bus_id);
  for (const auto& line : lines_of(container.probed.run.out)) {
    if (std::regex_match("/dev/" + line, kAnyGpuNode)) gpu_nodes.insert(line);
    if (all_bus_ids.count(line)) bus_ids.insert(line);
  }
  CHECK(gpu_nodes == std::set<std::string>{"nvidia" + std::to_string(container.request.gpu)});
  CHECK(bus_ids == std::set<std::string>{fixture::fake_gpu(container.request.gpu).bus_id});
}

std::vector<long> check_audit_lines(const AuditLines& lines, std::size_t expected_lines,
                                    const std::vector<LoadedContainer>& batch) {
  INFO("torn lines: " << fmt::format("{}", fmt::join(lines.torn, "\n")));
  CHECK(lines.torn.empty());
  CHECK(lines.lines == expected_lines);
  std::vector<long> max_rss;
  for (const auto& container : batch) {
    INFO(describe(container));
    auto records = records_of(lines, container.probed.id);
    REQUIRE(records.size() == 1);
    const auto& record = records[0];
    CHECK(record.at("outcome") == "applied");
    CHECK(granted_gpus(record.at("decisions")) == std::vector<unsigned>{container.request.gpu});
    CHECK(record.at("request").at("env").value("NVIDIA_VISIBLE_DEVICES", "") ==
          own_device_value(container.request));
    CHECK(record.at("request").at("env").value("NVIDIA_DRIVER_CAPABILITIES", "") ==
          container.request.capabilities);
    CHECK(record.at("applied") == record.at("actions"));
    REQUIRE(record.contains("max_rss_kb"));
    max_rss.push_back(record.at("max_rss_kb").get<long>());
  }
  return max_rss;
}

void check_host_unchanged(const HostChanges& changes) {
  INFO(changes.describe());
  CHECK(changes.none());
  auto cgroups = cgroups_named(load_id_prefix());
  INFO("cgroups left: " << fmt::format("{}", fmt::join(cgroups, " ")));
  CHECK(cgroups.empty());
}

std::string load_outcome_line(std::size_t containers, std::size_t rounds, const AuditLines& audit,
                              const HostChanges& changes, long max_rss_first, long max_rss_last) {
  return fmt::format(
      "load-outcome|containers={}|rounds={}|cycles={}|audit_lines={}|torn={}|leaked_mounts={}"
      "|leftover_files={}|fd_growth={}|max_rss_kb_first={}|max_rss_kb_last={}",
      containers, rounds, containers * rounds, audit.lines, audit.torn.size(), changes.mounts.size(),
      changes.temp_entries.size() + changes.host_files.size(), changes.fd_growth, max_rss_first,
      max_rss_last);
}

}  // namespace graft::e2e
