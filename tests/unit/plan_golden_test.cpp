// SPDX-License-Identifier: Apache-2.0
// Whole-pipeline golden tests: a generated fake host, the shipped policy, a
// request, and the plan that comes out. Each case names one behaviour of the
// plan an auditor (or the hook) would rely on.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "plan_support.hpp"
#include "render/render.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

const std::string lib_dir = fixture::FakeHost::lib_dir();

const PlannedHost& eight_gpu_host() {
  static PlannedHost host = PlannedHost::make(8);
  return host;
}

}  // namespace

TEST_CASE("one GPU with compute and utility lists every library, binary, node, IPC path and procfs step",
          "[plan]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "1"},
                         {"NVIDIA_DRIVER_CAPABILITIES", "compute,utility"}});
  REQUIRE(plan.inject);
  for (auto file : {"libcuda.so.560.35.03", "libnvidia-ml.so.560.35.03",
                    "libnvidia-ptxjitcompiler.so.560.35.03", "libnvidia-nvvm.so.560.35.03",
                    "libnvidia-cfg.so.560.35.03", "nvidia-smi", "nvidia-cuda-mps-control",
                    "gsp_ga10x.bin"})
    CHECK(mounts_file(plan, file));
  CHECK(has_target(plan, ActionKind::symlink, lib_dir + "/libcuda.so.1"));
  CHECK(has_target(plan, ActionKind::symlink, lib_dir + "/libcuda.so"));
  for (auto node : {"/dev/nvidiactl", "/dev/nvidia1", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"})
    CHECK(has_target(plan, ActionKind::device_node, node));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/nvidia0"));
  CHECK(has_target(plan, ActionKind::cgroup_allow, "c 195:1"));
  CHECK(has_target(plan, ActionKind::bind_mount, "/run/nvidia-persistenced/socket"));
  CHECK(has_target(plan, ActionKind::bind_mount, "/tmp/nvidia-mps"));
  CHECK(has_target(plan, ActionKind::procfs_mask, "/proc/driver/nvidia"));
  CHECK(has_target(plan, ActionKind::bind_mount, "/proc/driver/nvidia/gpus/0000:3b:00.0"));
  CHECK(has_target(plan, ActionKind::ldcache_update, "/etc/ld.so.cache"));
}

TEST_CASE("every action names its plugin and carries a reason and an origin", "[plan]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "all"}});
  for (const auto& action : plan.actions) {
    INFO(to_string(action.kind) << " " << action.target);
    CHECK_FALSE(action.plugin.empty());
    CHECK_FALSE(action.provenance.reason.empty());
    CHECK_FALSE(action.provenance.capability.empty());
  }
  const Action* gpu = find_action(plan, ActionKind::device_node, "/dev/nvidia3");
  REQUIRE(gpu);
  CHECK(gpu->provenance.origin.brief().starts_with("visible_devices.lua:"));
  const Action* ctl = find_action(plan, ActionKind::device_node, "/dev/nvidiactl");
  REQUIRE(ctl);
  CHECK(ctl->provenance.origin.brief().starts_with("nvidia.toml:"));
}

TEST_CASE("the same request always yields the same plan", "[plan]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  Env env{{"NVIDIA_VISIBLE_DEVICES", "3,1"}, {"NVIDIA_DRIVER_CAPABILITIES", "all"}};
  CHECK(targets(host.plan(env), ActionKind::bind_mount) ==
        targets(host.plan(env), ActionKind::bind_mount));
  CHECK(targets(host.plan(env), ActionKind::device_node) ==
        targets(host.plan(env), ActionKind::device_node));
}

TEST_CASE("utility alone brings no UVM node and no compute libraries", "[plan]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "utility"}});
  CHECK(mounts_file(plan, "libnvidia-ml.so.560.35.03"));
  CHECK_FALSE(mounts_file(plan, "libcuda.so.560.35.03"));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/nvidia-uvm"));
  CHECK_FALSE(has_target(plan, ActionKind::symlink, lib_dir + "/libcuda.so"));
  CHECK(has_target(plan, ActionKind::device_node, "/dev/nvidiactl"));
}

TEST_CASE("none brings the driver but no GPU node", "[plan]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "none"}});
  REQUIRE(plan.inject);
  CHECK(mounts_file(plan, "libcuda.so.560.35.03"));
  CHECK(has_target(plan, ActionKind::device_node, "/dev/nvidiactl"));
  for (unsigned minor = 0; minor < 8; ++minor)
    CHECK_FALSE(has_target(plan, ActionKind::device_node, "/dev/nvidia" + std::to_string(minor)));
  for (const auto& target : targets(plan, ActionKind::bind_mount))
    CHECK(target.find("/proc/driver/nvidia/gpus/") == std::string::npos);
}

TEST_CASE("void or an unset variable yields an empty plan", "[plan]") {
  const auto& host = eight_gpu_host();
  for (Env env : {Env{{"NVIDIA_VISIBLE_DEVICES", "void"}}, Env{}}) {
    Plan plan = host.plan(env);
    CHECK_FALSE(plan.inject);
    CHECK(plan.actions.empty());
  }
}

TEST_CASE("video pulls compute libraries and UVM but not the MPS binaries", "[plan]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "video"}});
  CHECK(mounts_file(plan, "libnvcuvid.so.560.35.03"));
  CHECK(mounts_file(plan, "libcuda.so.560.35.03"));
  CHECK(has_target(plan, ActionKind::device_node, "/dev/nvidia-uvm"));
  CHECK_FALSE(mounts_file(plan, "nvidia-cuda-mps-control"));
  CHECK(has_target(plan, ActionKind::symlink, lib_dir + "/libnvidia-opticalflow.so"));
  const Action* cuda = find_action(plan, ActionKind::bind_mount, lib_dir + "/libcuda.so.560.35.03");
  REQUIRE(cuda);
  CHECK(cuda->provenance.capability == "video");
  CHECK(cuda->provenance.reason == "via compute.libraries");
}

TEST_CASE("display adds the modeset node and graphics libraries", "[plan]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "display"}});
  CHECK(has_target(plan, ActionKind::device_node, "/dev/nvidia-modeset"));
  CHECK(mounts_file(plan, "libnvidia-glcore.so.560.35.03"));
  CHECK_FALSE(mounts_file(plan, "libcuda.so.560.35.03"));
}

TEST_CASE("graphics brings config files and the GLX indirect link", "[plan]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "graphics"}});
  CHECK(has_target(plan, ActionKind::bind_mount, "/usr/share/glvnd/egl_vendor.d/10_nvidia.json"));
  CHECK(has_target(plan, ActionKind::bind_mount, "/etc/vulkan/icd.d/nvidia_icd.json"));
  const Action* link = find_action(plan, ActionKind::symlink, lib_dir + "/libGLX_indirect.so.0");
  REQUIRE(link);
  CHECK(link->source == "libGLX_nvidia.so.560.35.03");
}

TEST_CASE("compute and video together mount each library once", "[plan]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"},
                         {"NVIDIA_DRIVER_CAPABILITIES", "compute,video"}});
  auto mounts = targets(plan, ActionKind::bind_mount);
  CHECK((std::count(mounts.begin(), mounts.end(), lib_dir + "/libcuda.so.560.35.03") == 1));
  auto nodes = targets(plan, ActionKind::device_node);
  CHECK((std::count(nodes.begin(), nodes.end(), "/dev/nvidia-uvm") == 1));
}

TEST_CASE("a stray library from another driver version is never selected", "[plan]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}});
  for (const auto& action : plan.actions)
    CHECK(action.source.find("470.1.2") == std::string::npos);
}

TEST_CASE("compat32 adds the 32-bit copies into the 32-bit library directory", "[plan]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  if (!host.host.lib32_created()) {
    GRAFT_SKIP("this build has no 32-bit fake libraries");
  }
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"},
                         {"NVIDIA_DRIVER_CAPABILITIES", "compute,compat32"}});
  CHECK(has_target(plan, ActionKind::bind_mount, plan.lib32_dir + "/libcuda.so.560.35.03"));
  CHECK(has_target(plan, ActionKind::symlink, plan.lib32_dir + "/libcuda.so.1"));
  Plan without = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "compute"}});
  CHECK_FALSE(has_target(without, ActionKind::bind_mount, without.lib32_dir + "/libcuda.so.560.35.03"));
}

TEST_CASE("the ld cache refresh expects each injected library under its soname", "[plan]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"},
                         {"NVIDIA_DRIVER_CAPABILITIES", "compute,utility"}});
  const Action* refresh = find_action(plan, ActionKind::ldcache_update, "/etc/ld.so.cache");
  REQUIRE(refresh);
  CHECK_THAT(refresh->content, Catch::Contains(lib_dir + "/libcuda.so.1\n") &&
                                   Catch::Contains(lib_dir + "/libnvidia-ml.so.1\n") &&
                                   !Catch::Contains(lib_dir + "/libcuda.so\n"));
  std::istringstream lines(refresh->content);
  for (std::string line; std::getline(lines, line);) {
    INFO(line);  // a soname link, or the library itself when its file name is its soname
    CHECK((has_target(plan, ActionKind::symlink, line) ||
           has_target(plan, ActionKind::bind_mount, line)));
  }
}

TEST_CASE("a site rule file included before the vendor policy still restricts the vendor's grants",
          "[plan][phases]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  std::string root = host.host.root();
  std::ofstream(root + "/lease.lua") << "rule('lease', function(req, host, grant)\n"
                                        "  grant:restrict_devices({4, 5, 6, 7}, 'lease for team-a')\nend)\n";
  std::ofstream(root + "/site-rules.toml") << "rules = [\"" << root << "/lease.lua\"]\n";
  std::string policy_path = root + "/site-first.toml";
  std::ofstream(policy_path) << "include = [\"" << root << "/site-rules.toml\", \"" << fixture::source_policy_dir()
                             << "/nvidia/nvidia.toml\"]\n[host]\ndriver_root = \"" << root << "\"\ndev_root = \""
                             << root << "\"\nproc_root = \"" << root << "\"\nsys_root = \"" << root
                             << "\"\nrun_root = \"" << root << "\"\n";
  auto policy = load_policy(policy_path, PolicySearch{{fixture::source_policy_dir()}});
  REQUIRE(policy);
  auto request = request_from_flags({"NVIDIA_VISIBLE_DEVICES=all"}, {}, false, "");
  REQUIRE(request);
  auto evaluation = plan_container(*request, *policy);
  REQUIRE(evaluation);
  std::vector<unsigned> granted;
  for (const auto& device : evaluation->plan.devices) granted.push_back(device.index);
  CHECK(granted == std::vector<unsigned>{4, 5, 6, 7});
}

TEST_CASE("a site rule that drops graphics also drops the EGL profile derived from it", "[plan][phases]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  std::string rule = host.host.root() + "/no-graphics.lua";
  std::ofstream(rule) << "rule('no-graphics', function(req, host, grant)\n"
                         "  grant:drop_capability('graphics', 'no graphics here')\nend)\n";
  Policy policy = host.policy;
  policy.rules.push_back(SourcedString{rule, {}});
  auto request = request_from_flags({"NVIDIA_VISIBLE_DEVICES=1", "NVIDIA_DRIVER_CAPABILITIES=graphics,compute"},
                                    {}, false, "");
  REQUIRE(request);
  auto evaluation = plan_container(*request, policy);
  REQUIRE(evaluation);
  CHECK(targets(evaluation->plan, ActionKind::config_file).empty());
  Plan unrestricted = host.plan({{"NVIDIA_VISIBLE_DEVICES", "1"}, {"NVIDIA_DRIVER_CAPABILITIES", "graphics,compute"}});
  CHECK_FALSE(targets(unrestricted, ActionKind::config_file).empty());
}

TEST_CASE("a refused request produces no actions", "[plan]") {
  const auto& host = eight_gpu_host();
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "42"}});
  CHECK_FALSE(plan.inject);
  REQUIRE(plan.intent.refusal);
  CHECK(plan.actions.empty());
}

TEST_CASE("graphics writes a driver profile naming only the granted GPUs", "[plan]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "1,3"}, {"NVIDIA_DRIVER_CAPABILITIES", "graphics"}});
  const Action* profile = find_action(
      plan, ActionKind::config_file, "/etc/nvidia/nvidia-application-profiles-rc.d/10-container.conf");
  REQUIRE(profile);
  CHECK_THAT(profile->content, Catch::Contains("\"EGLVisibleDGPUDevices\",0xa]"));
  // A plain file in the root (docs/mount-plugins.md), not a mount: no "ro" to promise.
  CHECK(profile->options.empty());
  CHECK(profile->provenance.origin.brief().starts_with("graphics.lua:"));
  Plan compute = host.plan({{"NVIDIA_VISIBLE_DEVICES", "1"}, {"NVIDIA_DRIVER_CAPABILITIES", "compute"}});
  CHECK(targets(compute, ActionKind::config_file).empty());
}

TEST_CASE("the text plan of a video container heads its [video] group by name, each pulled line saying via what",
          "[plan][plan_text]") {
  const auto& host = eight_gpu_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "video"}});
  std::string text = render_plan_text(plan);
  INFO(text);
  CHECK_THAT(text, Catch::Contains("\n[video]\n"));
  std::istringstream in(text.substr(text.find("\n[video]\n") + 9));
  for (std::string line; std::getline(in, line) && !line.empty();) {
    INFO(line);
    bool own = line.find("libnvcuvid") != std::string::npos || line.find("libnvidia-encode") != std::string::npos;
    bool pulled = line.find("libcuda.so") != std::string::npos;
    if (own) CHECK_THAT(line, !Catch::Contains("via compute"));
    if (pulled) CHECK_THAT(line, Catch::Contains("via compute.libraries"));
  }
}
