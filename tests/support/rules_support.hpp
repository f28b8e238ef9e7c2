// SPDX-License-Identifier: Apache-2.0
// Shared setup for the [rules] tests: a temporary directory for rule files
// and small Request / Inventory / Policy values built in code.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "rules/evaluate_rules.hpp"

namespace graft::rules_test {

class RuleDir {
 public:
  RuleDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "graft-rules-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~RuleDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  RuleDir(const RuleDir&) = delete;
  RuleDir& operator=(const RuleDir&) = delete;

  // Writes a rule file and returns its absolute path.
  std::string write(const std::string& name, const std::string& text) const {
    std::string file = path_ + "/" + name;
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline Policy test_policy(const std::vector<std::string>& rule_files) {
  Policy policy;
  for (const char* name : {"compute", "utility", "video", "display", "graphics"})
    policy.capabilities[name] = CapabilitySet{.name = name};
  for (const char* name : {"mig-config", "mig-monitor"}) policy.extras[name] = Extra{.name = name};
  // One device class of each kind, for grant:add_node.
  policy.devices["ctl"] = DeviceClass{.name = "ctl", .path = "/dev/ctl"};
  policy.devices["fs"] = DeviceClass{.name = "fs", .path = "/dev/fs*"};
  policy.devices["gpu"] = DeviceClass{.name = "gpu", .path = "/dev/gpu{minor}", .per = DeviceClass::Per::gpu};
  policy.devices["chan"] = DeviceClass{.name = "chan", .path = "/dev/chan{minor}", .per = DeviceClass::Per::minor};
  policy.devices["dri"] = DeviceClass{.name = "dri", .path = "/dev/dri/{name}", .per = DeviceClass::Per::gpu_sysfs,
                                      .sys_path = "/sys/bus/pci/devices/{bus_id}/drm/card*"};
  policy.default_capabilities = {SourcedString{"compute", {}}, SourcedString{"utility", {}}};
  policy.trusted_privileged = {"env", "volume-mounts", "annotations"};
  policy.trusted_unprivileged = {"volume-mounts"};
  for (const auto& file : rule_files) policy.rules.push_back(SourcedString{file, {}});
  policy.limits.rule_instructions = 1'000'000;
  policy.limits.rule_memory_bytes = 16u << 20;
  policy.data = nlohmann::json::parse(R"({
    "leases": {"team-a": ["GPU-aaaaaaaa-0000-0000-0000-000000000001"], "team-b": [0],
               "team-c": ["GPU-aaaaaaaa-0000-0000-0000-00000000000f"], "team-d": ["GPU-aaaaaaaa-0000"]},
    "mig_admin_namespaces": ["gpu-admin"],
    "site": {"name": "lab", "racks": [3, 5, 8], "weight": 1.5, "enabled": true}
  })");
  return policy;
}

// Two GPUs; the second has two partitions.
inline Inventory test_inventory() {
  Inventory inventory;
  inventory.driver_version = "560.35.03";
  Gpu first{.index = 0, .minor = 0, .uuid = "GPU-aaaaaaaa-0000-0000-0000-000000000000",
            .bus_id = "0000:19:00.0", .model = "Test GPU", .proc_dir = "", .partitions = {}};
  Gpu second{.index = 1, .minor = 1, .uuid = "GPU-aaaaaaaa-0000-0000-0000-000000000001",
             .bus_id = "0000:3b:00.0", .model = "Test GPU", .proc_dir = "", .partitions = {}};
  second.partitions.push_back(Partition{.index = 0, .gi = 1, .ci = 0});
  second.partitions.push_back(Partition{.index = 1, .gi = 2, .ci = 0});
  inventory.gpus = {first, second};
  inventory.partition_caps = {{"config", 1}, {"monitor", 2}};
  inventory.char_majors = {{"gpu", 195}};
  inventory.class_minors = {{"chan", {0, 2}}};
  return inventory;
}

inline Request test_request(bool privileged = false) {
  Request request;
  request.container_id = "3f2a";
  request.bundle = "/run/bundles/3f2a";
  request.rootfs = "/run/bundles/3f2a/rootfs";
  request.privileged = privileged;
  request.env = {{"PATH", "/usr/bin"}, {"GPUS", "all"}};
  request.annotations = {{"example.com/tenant", "team-a"}};
  request.mounts.push_back(RequestMount{"/data", "/srv/data", "bind", {"rbind", "ro"}});
  return request;
}

// Evaluates the given rule files (name -> text, loaded in order).
// The text of a rule file holding one rule named `name` with `body`.
inline std::string one_rule(const std::string& name, const std::string& body) {
  return "rule('" + name + "', function(req, host, grant)\n" + body + "\nend)\n";
}

inline Result<Intent> evaluate_files(const RuleDir& dir,
                                     const std::vector<std::pair<std::string, std::string>>& files,
                                     const Request& request = test_request()) {
  std::vector<std::string> paths;
  for (const auto& [name, text] : files) paths.push_back(dir.write(name, text));
  return evaluate_rules(request, test_inventory(), test_policy(paths));
}

inline std::string error_of(const Result<Intent>& result) {
  return result.ok() ? std::string("(no error)") : result.error().message;
}

// evaluate_files when it must succeed: its error is shown if it does not.
inline Intent evaluate_ok(const RuleDir& dir,
                          const std::vector<std::pair<std::string, std::string>>& files,
                          const Request& request = test_request()) {
  auto result = evaluate_files(dir, files, request);
  INFO(error_of(result));
  REQUIRE(result.ok());
  return std::move(result).value();
}

}  // namespace graft::rules_test
