// SPDX-License-Identifier: Apache-2.0
#include "hostile_families.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "container_checks.hpp"
#include "gpu_host.hpp"
#include "site_policy.hpp"

namespace graft::e2e {
namespace {


Target same(const std::string& path, Shape shape) { return {path, path, shape}; }

// The nodes of GPU 1's partition 1:0 (GI 1, CI 0), as the driver numbers them.
std::string cap_node(unsigned minor) { return fmt::format("/dev/nvidia-caps/nvidia-cap{}", minor); }
const std::string kGiCap = cap_node(fixture::mig_gi_minor(1, 1));
const std::string kCiCap = cap_node(fixture::mig_ci_minor(1, 1, 0));

// GPU 1's devices as planned (numbers, ENXIO, GPU 0 denied), and in
// /dev/nvidia-caps exactly the partition's two cap nodes, each opening as
// far as the absent driver: the device cgroup allows them.
void check_cap_nodes(const ProbedContainer& container) {
  check_gpu1_devices(container);
  std::set<std::string> caps;
  for (const auto& entry : container.report.subjects("devls"))
    if (entry.starts_with("/dev/nvidia-caps/")) caps.insert(entry);
  CHECK(caps == std::set<std::string>{kGiCap, kCiCap});
  for (const auto& node : caps) {
    INFO(node);
    CHECK(container.report.open_result(node) == kENXIO);
  }
}

// The config-bound /dev/nvidia-caps is the host's directory, read-only.
void check_caps_directory(const ProbedContainer& container) {
  auto listed = container.report.subjects("devls");
  INFO("container output:\n" << container.run.out);
  CHECK(std::count(listed.begin(), listed.end(), kGiCap) == 1);
  auto exists = container.report.find("exists", "/dev/nvidia-caps");
  REQUIRE(exists);
  CHECK(exists->at(0) == "1");
  auto write = container.report.find("write", "/dev/nvidia-caps");
  REQUIRE(write);
  CHECK(write->at(1) == "Read-only file system");
}

const std::string kProfilesFile = "/etc/nvidia/nvidia-application-profiles-rc.d/10-container.conf";

// Whatever the image had at the application-profiles file, the container
// now holds graft's content there in a regular file, writable exactly when
// the plan did not say "ro" (a file in the root, not a mount).
void check_profiles_file(const ProbedContainer& container) {
  check_exactly_the_plan(container);
  const nlohmann::json* planned = nullptr;
  for (const auto& action : container.plan.at("actions"))
    if (action.at("kind") == "config_file" && action.at("target") == kProfilesFile) planned = &action;
  REQUIRE(planned != nullptr);
  const std::string content = planned->at("content");
  const auto& options = planned->at("options");
  const bool read_only = std::find(options.begin(), options.end(), "ro") != options.end();
  const auto& report = container.report;
  INFO("container output:\n" << container.run.out);
  REQUIRE(report.find("file", kProfilesFile));
  CHECK(report.find("file", kProfilesFile)->at(0) == fmt::format("regular file {}", content.size()));
  CHECK(report.find("text", kProfilesFile)->at(0) + "\n" == content);
  CHECK((report.find("filewrite", kProfilesFile)->at(0) == "0") == !read_only);
}

}  // namespace

Family library_dir_family() {
  Family family{"library dir",
                {same("/usr", Shape::directory), same("/usr/lib", Shape::directory),
                 same("/usr/lib/x86_64-linux-gnu", Shape::directory),
                 same("/usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03", Shape::file)}};
  family.check_injected = check_planned_libraries;
  return family;
}

Family soname_link_family() {
  Family family{"soname links",
                {same("/usr/lib/x86_64-linux-gnu/libcuda.so.1", Shape::file),
                 same("/usr/lib/x86_64-linux-gnu/libcuda.so", Shape::file)}};
  family.check_injected = check_planned_libraries;
  return family;
}

Family binaries_family() {
  return {"binaries", {same("/usr/bin", Shape::directory), same("/usr/bin/nvidia-smi", Shape::file)}};
}

// /dev itself is not planted: with /dev an absolute or ../ symlink, runc
// 1.1.5 creates its /dev/fd, /dev/stdin, ... links through it on the host
// before any hook runs (docs/security.md). /proc/driver/nvidia is not
// plantable: runc refuses any bind inside /proc, and procfs is the kernel's.
// runc's /dev tmpfs hides the image's /dev, so device families run without it.
Family devices_family() {
  Family family{"devices", {same("/dev/nvidia1", Shape::file), same("/dev/nvidiactl", Shape::file)}};
  family.spec.dev_tmpfs = false;
  return family;
}

Family firmware_family() {
  return {"firmware",
          {same("/lib", Shape::directory), same("/lib/firmware/nvidia/560.35.03", Shape::directory),
           same("/lib/firmware/nvidia/560.35.03/gsp_ga10x.bin", Shape::file)}};
}

Family ipc_family() {
  return {"ipc",
          {same("/run/nvidia-persistenced", Shape::directory),
           same("/run/nvidia-persistenced/socket", Shape::file), same("/tmp/nvidia-mps", Shape::directory)}};
}

Family ldcache_family() {
  return {"ldcache",
          {same("/etc", Shape::directory), same("/etc/ld.so.cache", Shape::file),
           same("/etc/ld.so.conf.d", Shape::directory)}};
}

// The 32-bit directory is the one graft picks for a Debian image; the image
// here has none, so graft makes it unless the image planted something there.
Family lib32_family() {
  Family family{"lib32",
                {same("/usr/lib/i386-linux-gnu", Shape::directory),
                 same("/usr/lib/i386-linux-gnu/libcuda.so.560.35.03", Shape::file),
                 same("/usr/lib/i386-linux-gnu/libcuda.so.1", Shape::file)}};
  family.spec.env = {"NVIDIA_VISIBLE_DEVICES=1", "NVIDIA_DRIVER_CAPABILITIES=compute,utility,compat32"};
  family.check_injected = check_planned_libraries;
  return family;
}

Family mig_node_family() {
  Family family{"mig", {same("/dev/nvidia-caps", Shape::directory), same(kGiCap, Shape::file)}};
  family.spec.env = {"NVIDIA_VISIBLE_DEVICES=1:0", "NVIDIA_DRIVER_CAPABILITIES=compute,utility"};
  family.spec.hook_policy = mig_host_policy();
  family.spec.dev_tmpfs = false;
  family.check_injected = check_cap_nodes;
  return family;
}

Family mig_config_family() {
  Family family{"mig config", {same("/dev/nvidia-caps", Shape::directory)}};
  family.spec.env = {"NVIDIA_VISIBLE_DEVICES=1", "NVIDIA_DRIVER_CAPABILITIES=compute,utility",
                     "NVIDIA_MIG_CONFIG_DEVICES=all"};
  family.spec.hook_policy = mig_host_policy();
  family.spec.dev_tmpfs = false;
  family.spec.privileged = true;
  family.check_injected = check_caps_directory;
  return family;
}

// The fake host ships the Vulkan ICD under /etc only (the runfile layout),
// so /usr/share/vulkan is not a target; the application-profiles file is
// one graft writes itself (graphics.lua), not a bind.
Family graphics_family() {
  Family family{"graphics",
                {same("/usr/share/glvnd/egl_vendor.d", Shape::directory),
                 same("/usr/share/glvnd/egl_vendor.d/10_nvidia.json", Shape::file),
                 same("/etc/vulkan", Shape::directory),
                 same("/etc/vulkan/icd.d/nvidia_icd.json", Shape::file),
                 same("/etc/nvidia/nvidia-application-profiles-rc.d", Shape::directory),
                 same(kProfilesFile, Shape::file)}};
  family.spec.env = {"NVIDIA_VISIBLE_DEVICES=1", "NVIDIA_DRIVER_CAPABILITIES=compute,utility,graphics"};
  family.how.inspected = {kProfilesFile};
  family.check_injected = check_profiles_file;
  return family;
}

std::string mig_cap_node() { return kGiCap; }

Family only_targets(Family family, const std::vector<std::string>& shown) {
  std::erase_if(family.targets, [&](const Target& target) {
    return std::find(shown.begin(), shown.end(), target.shown) == shown.end();
  });
  REQUIRE(family.targets.size() == shown.size());
  return family;
}

const std::string& mig_host_policy() {
  static const fixture::FakeHost host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(2, /*mig=*/true));
  static const std::string policy = fixture::write_site_policy(
      host, "[plugins]\ndir = \"" GRAFT_BUILD_PLUGIN_DIR "\"\n\n[audit]\nlog = \"" + gpu_host().audit_log + "\"\n");
  return policy;
}

}  // namespace graft::e2e
