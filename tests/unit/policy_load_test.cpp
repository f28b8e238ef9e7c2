// SPDX-License-Identifier: Apache-2.0
// load_policy on well-formed policies: include and drop-in resolution, merge
// order and merge rules, defaults, origins, and the shipped NVIDIA policy.
// Policy files are written into a fresh temp dir by each test.
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "policy/policy.hpp"
#include "policy/version_regex.hpp"
#include "policy_support.hpp"

using namespace graft;
using namespace graft::policy_test;

namespace {

Policy load_ok(const std::string& path, const PolicySearch& search = {}) {
  auto loaded = load_policy(path, search);
  if (!loaded) FAIL(loaded.error().message);
  return std::move(loaded).value();
}

std::vector<std::string> values(const std::vector<SourcedString>& list) {
  std::vector<std::string> out;
  for (const auto& item : list) out.push_back(item.value);
  return out;
}

const std::string kSourcePolicies = GRAFT_SOURCE_DIR "/policies";
const std::string kNvidiaToml = kSourcePolicies + "/nvidia/nvidia.toml";

// 1-based line of the first line of `file` that equals `text`.
int line_of(const std::string& file, const std::string& text) {
  std::ifstream in(file);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line == text) return number;
  }
  return 0;
}

}  // namespace

TEST_CASE("a shipped policy is included by name from the first policy dir that has it", "[policy]") {
  PolicyFiles files;
  files.write("second/vendor/vendor.toml", "[host]\ndev_root = \"/second\"\n");
  files.write("third/vendor/vendor.toml", "[host]\ndev_root = \"/third\"\n");
  auto site = files.write("site.toml", "include = [\"vendor\"]\n");
  auto policy = load_ok(site, {{files.path("first"), files.path("second"), files.path("third")}});
  CHECK(policy.host.dev_root == "/second");
  CHECK(policy.files == std::vector<std::string>{files.path("second/vendor/vendor.toml"), site});
}

TEST_CASE("an include given as a path is relative to the including file", "[policy]") {
  PolicyFiles files;
  files.write("etc/common/gpu.toml", "[host]\nproc_root = \"/p\"\n");
  auto site = files.write("etc/site.toml", "include = [\"common/gpu.toml\"]\n");
  CHECK(load_ok(site).host.proc_root == "/p");
}

TEST_CASE("an including file overrides the scalars of what it includes", "[policy]") {
  PolicyFiles files;
  files.write("base.toml", "[host]\ndev_root = \"/base\"\nsys_root = \"/base-sys\"\n");
  auto site = files.write("site.toml", "include = [\"base.toml\"]\n[host]\ndev_root = \"/site\"\n");
  auto policy = load_ok(site);
  CHECK(policy.host.dev_root == "/site");
  CHECK(policy.host.sys_root == "/base-sys");
}

TEST_CASE("drop-ins load in lexical order after their file and override it", "[policy]") {
  PolicyFiles files;
  auto site = files.write("site.toml", "drop_ins = [\"site.d\"]\n[audit]\nlog = \"/site.log\"\n");
  auto second = files.write("site.d/20-second.toml", "[audit]\nlog = \"/second.log\"\n");
  auto first = files.write("site.d/10-first.toml", "[audit]\nlog = \"/first.log\"\n[host]\nrun_root = \"/r\"\n");
  files.write("site.d/30-ignored.conf", "not toml at all [");
  auto policy = load_ok(site);
  CHECK(policy.audit_log == "/second.log");
  CHECK(policy.host.run_root == "/r");
  CHECK(policy.files == std::vector<std::string>{site, first, second});
}

TEST_CASE("a missing drop-in directory loads as empty", "[policy]") {
  PolicyFiles files;
  auto site = files.write("site.toml", "drop_ins = [\"nowhere.d\"]\n");
  CHECK(load_ok(site).files == std::vector<std::string>{site});
}

TEST_CASE("the policy names every drop-in directory it looked in, a missing one too, with its entry", "[policy]") {
  PolicyFiles files;
  auto site = files.write("etc/site.toml", "drop_ins = [\"site.d\", \"/nowhere.d\"]\n");
  files.write("etc/site.d/10-rack.toml", "drop_ins = [\"rack.d\"]\n");
  auto policy = load_ok(site);
  REQUIRE(values(policy.drop_ins) ==
          std::vector<std::string>{files.path("etc/site.d"), files.path("etc/site.d/rack.d"), "/nowhere.d"});
  CHECK(policy.drop_ins[1].origin.file == files.path("etc/site.d/10-rack.toml"));
}

TEST_CASE("a later file's array replaces the earlier array", "[policy]") {
  PolicyFiles files;
  files.write("vendor.toml",
              "[capability.compute]\nlibraries = [\"liba.so\", \"libb.so\"]\n"
              "[requests]\nunprivileged = [\"env\", \"annotations\"]\n");
  auto site = files.write("site.toml",
                          "include = [\"vendor.toml\"]\n"
                          "[capability.compute]\nlibraries = [\"libc.so\"]\n"
                          "[requests]\nunprivileged = [\"volume-mounts\"]\n");
  auto policy = load_ok(site);
  CHECK(values(policy.capabilities.at("compute").libraries) == std::vector<std::string>{"libc.so"});
  CHECK(policy.trusted_unprivileged == std::set<std::string>{"volume-mounts"});
}

TEST_CASE("capability sets merge key by key and keep their first origin", "[policy]") {
  PolicyFiles files;
  auto vendor = files.write("vendor.toml",
                            "[capability.compute]\nlibraries = [\"libcuda.so\"]\n"
                            "binaries = [\"mps\"]\n");
  auto site = files.write("site.toml", "include = [\"vendor.toml\"]\ndrop_ins = [\"d\"]\n");
  files.write("d/compute.toml", "[capability.compute]\nbinaries = []\n");
  auto policy = load_ok(site);
  const auto& compute = policy.capabilities.at("compute");
  CHECK(values(compute.libraries) == std::vector<std::string>{"libcuda.so"});
  CHECK(compute.binaries.empty());
  CHECK(compute.origin == Origin{vendor, 1, 1});
}

TEST_CASE("rules accumulate vendor first, without duplicates, as absolute paths", "[policy]") {
  PolicyFiles files;
  files.write("vendor/vendor/vendor.toml", "rules = [\"a.lua\", \"b.lua\"]\n");
  auto site = files.write("etc/site.toml",
                          "include = [\"vendor\"]\nrules = [\"rules/site.lua\", \"../vendor/vendor/a.lua\"]\n"
                          "drop_ins = [\"d\"]\n");
  files.write("etc/d/x.toml", "rules = [\"late.lua\"]\n");
  auto policy = load_ok(site, {{files.path("vendor")}});
  CHECK(values(policy.rules) == std::vector<std::string>{
                                    files.path("vendor/vendor/a.lua"), files.path("vendor/vendor/b.lua"),
                                    files.path("etc/rules/site.lua"), files.path("etc/d/late.lua")});
}

TEST_CASE("rule modules accumulate as absolute paths, each declared once", "[policy]") {
  PolicyFiles files;
  files.write("vendor/vendor/vendor.toml", "rule_modules = [\"text.lua\"]\n");
  auto site = files.write("etc/site.toml",
                          "include = [\"vendor\"]\n"
                          "rule_modules = [\"lib/site_helpers.lua\", \"../vendor/vendor/text.lua\"]\n");
  auto policy = load_ok(site, {{files.path("vendor")}});
  CHECK(values(policy.rule_modules) == std::vector<std::string>{
                                           files.path("vendor/vendor/text.lua"),
                                           files.path("etc/lib/site_helpers.lua")});
  CHECK(rule_module_name(policy.rule_modules[1].value) == "site_helpers");
}

TEST_CASE("host roots default to / and relative roots resolve against the file", "[policy]") {
  PolicyFiles files;
  auto site = files.write("site.toml", "[host]\ndriver_root = \"driver\"\n");
  auto policy = load_ok(site);
  CHECK(policy.host.driver_root == files.path("driver"));
  CHECK(policy.host.dev_root == "/");
  CHECK(policy.host.proc_root == "/");
  CHECK(policy.host.sys_root == "/");
  CHECK(policy.host.run_root == "/");
}

TEST_CASE("a file reached twice without a loop is merged once", "[policy]") {
  PolicyFiles files;
  auto common = files.write("common.toml", "[host]\ndev_root = \"/common\"\n");
  auto a = files.write("a.toml", "include = [\"common.toml\"]\n[host]\ndev_root = \"/a\"\n");
  auto b = files.write("b.toml", "include = [\"common.toml\"]\n");
  auto site = files.write("site.toml", "include = [\"a.toml\", \"b.toml\"]\n");
  auto policy = load_ok(site);
  CHECK(policy.host.dev_root == "/a");
  CHECK(policy.files == std::vector<std::string>{common, a, b, site});
}

TEST_CASE("data tables merge recursively and arrays in them replace", "[policy]") {
  PolicyFiles files;
  files.write("vendor.toml", "[data]\nlist = [1, 2]\n[data.table]\nkeep = \"v\"\nchange = 1\n");
  auto site = files.write("site.toml",
                          "include = [\"vendor.toml\"]\n[data]\nlist = [3]\n[data.table]\nchange = 2.5\n");
  auto data = load_ok(site).data;
  CHECK(data["list"] == nlohmann::json::array({3}));
  CHECK(data["table"]["keep"] == "v");
  CHECK(data["table"]["change"] == 2.5);
}

TEST_CASE("limits accept a size with a unit or a byte count", "[policy]") {
  PolicyFiles files;
  auto with_unit = files.write("unit.toml", "[limits]\nrule_memory = \"64MiB\"\nrule_instructions = 500\n");
  auto bytes = files.write("bytes.toml", "[limits]\nrule_memory = 4096\n");
  auto policy = load_ok(with_unit);
  CHECK(policy.limits.rule_memory_bytes == 64u << 20);
  CHECK(policy.limits.rule_instructions == 500);
  CHECK(load_ok(bytes).limits.rule_memory_bytes == 4096);
}

TEST_CASE("the deadline is 30 s unless limits.deadline_ms says otherwise", "[policy]") {
  PolicyFiles files;
  CHECK(load_ok(files.write("default.toml", "")).limits.deadline_ms == 30'000);
  CHECK(load_ok(files.write("short.toml", "[limits]\ndeadline_ms = 300\n")).limits.deadline_ms == 300);
}

TEST_CASE("a site's deadline replaces the one of the policy it includes", "[policy]") {
  PolicyFiles files;
  files.write("vendor.toml", "[limits]\ndeadline_ms = 5000\n");
  auto site = files.write("site.toml", "include = [\"vendor.toml\"]\n[limits]\ndeadline_ms = 750\n");
  CHECK(load_ok(site).limits.deadline_ms == 750);
}

TEST_CASE("CDI GPU devices carry the default capabilities unless [cdi] gpu_capabilities names sets, or none",
          "[policy][cdi]") {
  PolicyFiles files;
  files.write("vendor.toml", "[capability.compute]\n[capability.video]\n[cdi]\ngpu_capabilities = [\"video\"]\n");
  CHECK(load_ok(files.write("empty.toml", "")).cdi.gpu_capabilities.defaults);
  auto named = load_ok(files.path("vendor.toml")).cdi.gpu_capabilities;
  CHECK_FALSE(named.defaults);
  CHECK(values(named.sets) == std::vector<std::string>{"video"});
  auto none = load_ok(files.write("least.toml", "include = [\"vendor.toml\"]\n[cdi]\ngpu_capabilities = []\n"));
  CHECK_FALSE(none.cdi.gpu_capabilities.defaults);
  CHECK(none.cdi.gpu_capabilities.sets.empty());
  auto back = load_ok(files.write("back.toml", "include = [\"vendor.toml\"]\n[cdi]\ngpu_capabilities = \"default\"\n"));
  CHECK(back.cdi.gpu_capabilities.defaults);
}

TEST_CASE("strings and table entries carry the file, line and column of their node", "[policy]") {
  PolicyFiles files;
  auto site = files.write("site.toml",
                          "[defaults]\ncapabilities = [\"c\"]\n"
                          "[capability.c]\nlibraries = [\"x.so\",  \"y.so\"]\n"
                          "symlinks = { \"a.so\" = \"a.so.1\" }\n");
  auto policy = load_ok(site);
  CHECK(policy.default_capabilities[0].origin == Origin{site, 2, 17});
  const auto& set = policy.capabilities.at("c");
  CHECK(set.origin == Origin{site, 3, 1});
  CHECK(set.libraries[1].origin == Origin{site, 4, 23});
  CHECK(set.symlinks[0].origin == Origin{site, 5, 23});
}

TEST_CASE("the shipped nvidia policy loads and validates", "[policy]") {
  auto policy = load_ok(kNvidiaToml);
  CHECK(policy.files == std::vector<std::string>{kNvidiaToml});
  CHECK(values(policy.default_capabilities) == std::vector<std::string>{"compute", "utility"});
  CHECK(policy.cdi.gpu_capabilities.defaults);
  for (const auto* name : {"base", "compute", "utility", "video", "graphics", "display", "ngx", "compat32"}) {
    CHECK(policy.capabilities.contains(name));
  }
  CHECK(policy.capabilities.at("base").always);
  CHECK(policy.capabilities.at("compat32").lib32);
  CHECK(policy.capabilities.at("compute").symlinks[0].link == "libcuda.so");
  CHECK(values(policy.capabilities.at("video").pulls) ==
        std::vector<std::string>{"compute.libraries", "compute.devices", "compute.ipc"});
  CHECK(policy.devices.at("gpu").per == DeviceClass::Per::gpu);
  CHECK(policy.devices.at("partition-cap").major_name == "nvidia-caps");
  CHECK(policy.extras.at("mig-config").all_partition_caps);
  CHECK(policy.vendors.at("nvidia").discovery.gpu_fields.at("bus_id") == "Bus Location");
  CHECK(policy.procfs.rewrites.size() == 1);
  CHECK(policy.trusted_unprivileged.contains("env"));
  CHECK_FALSE(policy.trusted_unprivileged.contains("volume-mounts"));
  CHECK(policy.data["cuda_by_driver_branch"]["560"] == "12.6");
  for (const auto& rule : policy.rules) CHECK(rule.value.starts_with(kSourcePolicies + "/nvidia/"));
}

TEST_CASE("each shipped capability set's origin is its table header in nvidia.toml", "[policy]") {
  auto policy = load_ok(kNvidiaToml);
  for (const auto& [name, set] : policy.capabilities) {
    INFO(name);
    CHECK(set.origin.file == kNvidiaToml);
    CHECK(set.origin.line == line_of(kNvidiaToml, "[capability." + name + "]"));
    CHECK(set.origin.line > 0);
  }
}

TEST_CASE("the shipped version pattern reads proprietary and open module versions", "[policy]") {
  Policy policy = load_ok(kNvidiaToml);
  const GpuDiscovery& nvidia = policy.vendors.at("nvidia").discovery;
  REQUIRE(nvidia.version_regex);
  const auto& pattern = nvidia.version_regex->pattern;
  std::smatch match;
  std::string proprietary =
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  560.35.03  Fri Aug 16 21:39:15 UTC 2024\n";
  REQUIRE(std::regex_search(proprietary, match, pattern));
  CHECK(match[1] == "560.35.03");
  std::string open =
      "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build  "
      "(dvs-builder@U16-I3-B03-4-3)  Thu Jan 23 23:03:41 UTC 2025\n";
  REQUIRE(std::regex_search(open, match, pattern));
  CHECK(match[1] == "570.86.15");
}

TEST_CASE("the example site policy loads on top of the shipped policy", "[policy]") {
  PolicyFiles files;
  std::ifstream in(kSourcePolicies + "/graft.toml.in");
  std::stringstream text;
  text << in.rdbuf();
  std::string configured = std::regex_replace(text.str(), std::regex("@GRAFT_[A-Z_]+@"), files.path("x"));
  auto site = files.write("graft.toml", configured);
  auto policy = load_ok(site, {{kSourcePolicies}});
  CHECK(policy.files.front() == kNvidiaToml);
  CHECK(policy.capabilities.contains("compute"));
}

TEST_CASE("plugin config tables reach each plugin as JSON and merge across files", "[policy]") {
  PolicyFiles files;
  files.write("base.toml", "[plugins.config.cgroup]\ncgroup_root = \"/a\"\nstrict = true\n");
  auto site = files.write("site.toml",
                          "include = [\"base.toml\"]\n[plugins.config.cgroup]\ncgroup_root = \"/b\"\n"
                          "[plugins.config.ldcache]\nldconfig = \"/sbin/ldconfig\"\n");
  auto policy = load_ok(site, {});
  CHECK(policy.plugin_config.at("cgroup") ==
        nlohmann::json({{"cgroup_root", "/b"}, {"strict", true}}));
  CHECK(policy.plugin_config.at("ldcache")["ldconfig"] == "/sbin/ldconfig");
}

TEST_CASE("the library search is the cache, then no directory, unless the policy says otherwise", "[policy]") {
  auto shipped = load_ok(kNvidiaToml);
  CHECK(shipped.discovery.library_search == Discovery::LibrarySearch::cache_then_dirs);
  CHECK(shipped.discovery.library_dirs.empty());
  PolicyFiles files;
  auto site = files.write("site.toml", "include = [\"" + kNvidiaToml + "\"]\n[discovery]\n"
                          "library_search = \"dirs-only\"\nlibrary_dirs = [\"/opt/driver/lib64\"]\n");
  auto policy = load_ok(site);
  CHECK(policy.discovery.library_search == Discovery::LibrarySearch::dirs_only);
  CHECK(policy.discovery.library_dirs == std::vector<std::string>{"/opt/driver/lib64"});
}

TEST_CASE("the GKE and /usr/local/nvidia example policies load on top of the shipped policy", "[policy]") {
  auto gke = load_ok(kSourcePolicies + "/examples/gke.toml", PolicySearch{{kSourcePolicies}});
  CHECK(gke.discovery.library_search == Discovery::LibrarySearch::dirs_only);
  CHECK(gke.discovery.library_dirs == std::vector<std::string>{"/home/kubernetes/bin/nvidia/lib64"});
  CHECK(gke.discovery.binary_dirs.front() == "/home/kubernetes/bin/nvidia/bin");
  auto local = load_ok(kSourcePolicies + "/examples/usr-local-nvidia.toml", PolicySearch{{kSourcePolicies}});
  CHECK(local.discovery.library_search == Discovery::LibrarySearch::cache_then_dirs);
  CHECK(local.discovery.library_dirs.front() == "/usr/local/nvidia/lib64");
  CHECK(local.discovery.binary_dirs.front() == "/usr/local/nvidia/bin");
}
