// SPDX-License-Identifier: Apache-2.0
// `graft cdi generate` on the fake 2-GPU host with the shipped NVIDIA
// policy: what a site writes to /etc/cdi. The spec's contents are tested
// purely in cdi_spec_test.cpp; here the command, its formats and versions.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "foreign_file.hpp"
#include "hook_harness.hpp"
#include "run_command.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"

using namespace graft;
using namespace graft::harness;
using nlohmann::json;

namespace {

const std::string& nvidia_policy() {
  static std::string policy = write_policy("cdi-generate", "");
  return policy;
}

testing::CommandResult generate(const std::vector<std::string>& options) {
  std::vector<std::string> args = {"--policy", nvidia_policy(), "cdi", "generate"};
  args.insert(args.end(), options.begin(), options.end());
  return testing::run_graft(args);
}

const json& device_named(const json& spec, const std::string& name) {
  for (const auto& device : spec["devices"])
    if (device["name"] == name) return device;
  FAIL("no CDI device " << name);
  return spec;
}

bool mounts_ending(const json& device, const std::string& suffix) {
  const auto& mounts = device["containerEdits"].value("mounts", json::array());
  return std::any_of(mounts.begin(), mounts.end(), [&](const json& mount) {
    return mount["containerPath"].get<std::string>().ends_with(suffix);
  });
}

std::vector<std::string> device_names(const json& spec) {
  std::vector<std::string> names;
  for (const auto& device : spec["devices"]) names.push_back(device["name"]);
  return names;
}

}  // namespace

TEST_CASE("cdi generate writes a spec of kind nvidia.com/gpu at cdiVersion 0.5.0, what Debian 12's podman accepts",
          "[cdi][cli]") {
  auto result = generate({});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  json spec = json::parse(result.out);
  CHECK(spec["kind"] == "nvidia.com/gpu");
  CHECK(spec["cdiVersion"] == "0.5.0");
  CHECK(result.out.find("annotations") == std::string::npos);
  auto names = device_names(spec);
  for (const char* name : {"0", "1", "all", "capability-compute", "capability-utility"}) {
    INFO(name);
    CHECK(std::count(names.begin(), names.end(), name) == 1);
  }
}

// Docker 29.2 and later map `--gpus device=N`, `device=UUID` and `all` to
// the CDI devices nvidia.com/gpu=N, =UUID and =all (docs/runtimes.md).
TEST_CASE("cdi generate names the devices Docker's --gpus asks for: nvidia.com/gpu=<index>, =<UUID> and =all, "
          "a GPU's UUID device giving the nodes its index device gives",
          "[cdi][cli]") {
  auto result = generate({});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  json spec = json::parse(result.out);
  CHECK(spec["kind"] == "nvidia.com/gpu");
  auto nodes_of = [&](const std::string& name) {
    std::vector<std::string> paths;
    for (const auto& device : spec["devices"])
      if (device["name"] == name)
        for (const auto& node : device["containerEdits"].value("deviceNodes", json::array()))
          paths.push_back(node["path"]);
    return paths;
  };
  CHECK_FALSE(nodes_of("all").empty());
  for (unsigned gpu = 0; gpu < host().spec().gpus.size(); ++gpu) {
    std::string uuid = fixture::fake_gpu(gpu).uuid;
    INFO("GPU " << gpu << " " << uuid);
    CHECK_FALSE(nodes_of(std::to_string(gpu)).empty());
    CHECK(nodes_of(uuid) == nodes_of(std::to_string(gpu)));
  }
}

TEST_CASE("cdi generate --kind names another kind", "[cdi][cli]") {
  auto result = generate({"--kind", "example.com/accel"});
  REQUIRE(result.exit_code == 0);
  CHECK(json::parse(result.out)["kind"] == "example.com/accel");
}

TEST_CASE("cdi generate --cdi-version below what the spec needs is one line naming the field", "[cdi][cli]") {
  auto result = generate({"--cdi-version", "0.4.0"});
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: cdiVersion 0.4.0 does not support ") &&
                             Catch::Contains("(needs 0.5.0 or later)"));
  CHECK(result.out.empty());
}

TEST_CASE("cdi generate --cdi-version that was never released is refused", "[cdi][cli]") {
  auto result = generate({"--cdi-version", "0.9.0"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("--cdi-version"));
}

TEST_CASE("cdi generate --output writes the file whole and leaves nothing beside it", "[cdi][cli]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  auto result = generate({"--output", path});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.empty());
  std::ifstream in(path);
  CHECK(json::parse(in)["kind"] == "nvidia.com/gpu");
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), {}) == 1);
}

TEST_CASE("cdi generate --output says in one line what it wrote: the file, its device count, kind and cdiVersion",
          "[cdi][cli]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  auto result = generate({"--output", path});
  REQUIRE(result.exit_code == 0);
  std::ifstream in(path);
  json spec = json::parse(in);
  CHECK(result.err == "graft: wrote " + path + ": " + std::to_string(spec["devices"].size()) +
                          " devices of kind nvidia.com/gpu, cdiVersion " + spec["cdiVersion"].get<std::string>() +
                          "\n");
}

// Issue 42: the spec took the owner and mode of what lay at --output, so a
// 0666 file another user planted there left a spec they could rewrite, and
// a spec names the hooks a runtime runs as root.
TEST_CASE("cdi generate --output over a world-writable file another user planted leaves root's 0644 spec",
          "[cdi][cli]") {
  if (::geteuid() != 0) GRAFT_SKIP("needs root to plant a file owned by another user");
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  test::plant_foreign_file(path, "{}");
  auto result = generate({"--output", path});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  test::check_root_0644(path);
  std::ifstream in(path);
  CHECK(json::parse(in)["kind"] == "nvidia.com/gpu");
}

TEST_CASE("cdi generate --output refuses a symlink there with one line, and the file it leads to stays as it was",
          "[cdi][cli]") {
  fixture::TempDir dir, elsewhere;
  std::string target = elsewhere.path() + "/other.json", path = dir.path() + "/graft.json";
  test::plant_link(path, target, "{}");
  auto result = generate({"--output", path});
  CHECK(result.exit_code == 1);
  CHECK(result.err == "graft: " + test::symlink_refusal(path) + "\n");
  test::check_link_untouched(path, target, "{}");
}

TEST_CASE("cdi generate to stdout writes the spec alone, nothing on stderr", "[cdi][cli]") {
  auto result = generate({});
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.empty());
}

TEST_CASE("cdi generate --format yaml reads back, with a YAML parser, as the JSON document", "[cdi][cli]") {
  auto probe = testing::run_command({"/usr/bin/python3", "-c", "import yaml"});
  if (probe.exit_code != 0) {
    GRAFT_SKIP("python3 with the yaml module (Debian python3-yaml) is not installed");
  }
  fixture::TempDir dir;
  std::string yaml_path = dir.path() + "/graft.yaml";
  REQUIRE(generate({"--format", "yaml", "--output", yaml_path}).exit_code == 0);
  auto as_json = generate({});
  REQUIRE(as_json.exit_code == 0);
  auto converted = testing::run_command(
      {"/usr/bin/python3", "-c", "import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
       yaml_path});
  INFO(converted.err);
  REQUIRE(converted.exit_code == 0);
  CHECK(json::parse(converted.out) == json::parse(as_json.out));
}

TEST_CASE("cdi validate accepts the YAML cdi generate writes, and judges a YAML spec as its JSON", "[cdi][cli]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.yaml";
  REQUIRE(generate({"--format", "yaml", "--output", path}).exit_code == 0);
  auto valid = testing::run_graft({"cdi", "validate", path});
  INFO(valid.err);
  CHECK(valid.exit_code == 0);
  CHECK(valid.out == path + ": valid CDI spec\n");
  std::ofstream(path, std::ios::trunc) << "cdiVersion: \"0.5.0\"\nkind: nvidia.com/gpu\ndevices:\n"
                                          "  - name: \"0\"\n    containerEdits:\n      env: [A=1]\n    extra: 1\n";
  auto broken = testing::run_graft({"cdi", "validate", path});
  CHECK(broken.exit_code == 1);
  CHECK(broken.err == "graft: " + path + ": $.devices[0].extra: unknown field\n");
}

TEST_CASE("cdi validate says where a file that is neither JSON nor YAML stops parsing", "[cdi][cli]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.yaml";
  std::ofstream(path) << "kind: [unclosed\n";
  auto result = testing::run_graft({"cdi", "validate", path});
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: " + path + ": neither JSON nor YAML: line "));
}

TEST_CASE("cdi validate accepts what cdi generate writes, and names each problem of a broken spec on its own line",
          "[cdi][cli]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  REQUIRE(generate({"--output", path}).exit_code == 0);
  auto valid = testing::run_graft({"cdi", "validate", path});
  INFO(valid.err);
  CHECK(valid.exit_code == 0);
  CHECK(valid.out == path + ": valid CDI spec\n");
  std::ofstream(path, std::ios::trunc) << R"({"cdiVersion":"0.4.0","kind":"nvidia.com/gpu","devices":[{"name":"0","containerEdits":{"env":["A=1"]},"extra":1}]})";
  auto broken = testing::run_graft({"cdi", "validate", path});
  CHECK(broken.exit_code == 1);
  CHECK(broken.err == "graft: " + path + ": $.devices[0].extra: unknown field\ngraft: " + path +
                          ": $.devices[0].name: a device name starting with a digit needs cdiVersion 0.5.0 or later "
                          "(declared 0.4.0)\n");
}

namespace {

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// A device node whose host path is its path leaves hostPath out.
void drop_default_host_paths(json& edits) {
  if (!edits.contains("deviceNodes")) return;
  for (auto& node : edits["deviceNodes"])
    if (node.contains("hostPath") && node["hostPath"] == node["path"]) node.erase("hostPath");
}

// The fake host as a node agent's pod sees a node: graft and the site policy
// (roots left at "/") installed under it.
struct MountedHost {
  std::string root = host().root();
  std::string graft = "/opt/graft-mounted/bin/graft";
  std::string policy = "/etc/graft-mounted/graft.toml";

  MountedHost() {
    std::filesystem::create_directories(root + "/opt/graft-mounted/bin");
    std::filesystem::copy_file(GRAFT_BINARY, root + graft, std::filesystem::copy_options::overwrite_existing);
    std::filesystem::create_directories(root + "/etc/graft-mounted");
    std::ofstream(root + policy) << "include = [\"" << fixture::source_policy_dir() << "/nvidia/nvidia.toml\"]\n";
  }

  testing::CommandResult generate(const std::string& policy_path, const std::string& host_root) const {
    return testing::run_command(
        {root + graft, "--policy", policy_path, "--policy-dir", fixture::source_policy_dir(), "cdi", "generate",
         "--host-root", host_root});
  }
};

}  // namespace

TEST_CASE("cdi generate --host-root reads a mounted host and writes the spec that host would write for itself",
          "[cdi][cli][host-root]") {
  MountedHost mounted;
  auto seen = mounted.generate(mounted.root + mounted.policy, mounted.root);
  INFO(seen.err);
  REQUIRE(seen.exit_code == 0);
  CHECK(seen.out.find(mounted.root) == std::string::npos);

  // What generate says when the policy's own roots point at the fake host,
  // with the fake host's directory taken out of every path.
  auto direct = generate({});
  REQUIRE(direct.exit_code == 0);
  std::string expected = direct.out;
  replace_all(expected, GRAFT_BINARY, mounted.graft);
  replace_all(expected, nvidia_policy(), mounted.policy);
  replace_all(expected, mounted.root, "");
  json want = json::parse(expected), got = json::parse(seen.out);
  drop_default_host_paths(want["containerEdits"]);
  for (auto& device : want["devices"]) drop_default_host_paths(device["containerEdits"]);
  CHECK(got == want);
}

TEST_CASE("cdi generate --host-root refuses a policy the host cannot read at any path", "[cdi][cli][host-root]") {
  MountedHost mounted;
  fixture::TempDir elsewhere;
  std::filesystem::copy_file(mounted.root + mounted.policy, elsewhere.path() + "/graft.toml");
  auto result = mounted.generate(elsewhere.path() + "/graft.toml", mounted.root);
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::Contains("the CDI hooks read the policy on the host") &&
                             Catch::Contains("is not under the host root"));
  CHECK(result.out.empty());
}

TEST_CASE("cdi generate --host-root refuses to name a graft the host does not have", "[cdi][cli][host-root]") {
  MountedHost mounted;
  auto result = testing::run_graft({"--policy", mounted.root + mounted.policy, "cdi", "generate", "--host-root",
                                    mounted.root});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("run the host's own graft") && Catch::Contains(GRAFT_BINARY));
}

TEST_CASE("cdi generate gives each GPU device the policy's default capabilities: GPU 1 alone brings libcuda and nvidia-smi",
          "[cdi][cli][gpu-capabilities]") {
  auto result = generate({});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  json spec = json::parse(result.out);
  for (const char* name : {"1", "all"}) {
    INFO(name);
    CHECK(mounts_ending(device_named(spec, name), "/nvidia-smi"));
    CHECK(mounts_ending(device_named(spec, name), "/libcuda.so." + std::string(fixture::fake_driver_version())));
  }
}

TEST_CASE("cdi generate --gpu-capabilities none gives GPU devices the GPU alone, and keeps the capability devices",
          "[cdi][cli][gpu-capabilities]") {
  auto result = generate({"--gpu-capabilities", "none"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  json spec = json::parse(result.out);
  CHECK_FALSE(device_named(spec, "1")["containerEdits"].contains("mounts"));
  CHECK(mounts_ending(device_named(spec, "capability-utility"), "/nvidia-smi"));
  CHECK(mounts_ending(device_named(spec, "capability-compute"), "/libcuda.so." + std::string(fixture::fake_driver_version())));
}

TEST_CASE("cdi generate --gpu-capabilities names sets, and a set the policy lacks is one line naming it",
          "[cdi][cli][gpu-capabilities]") {
  auto utility = generate({"--gpu-capabilities", "utility"});
  INFO(utility.err);
  REQUIRE(utility.exit_code == 0);
  json spec = json::parse(utility.out);
  CHECK(mounts_ending(device_named(spec, "1"), "/nvidia-smi"));
  CHECK_FALSE(mounts_ending(device_named(spec, "1"), "/libcuda.so." + std::string(fixture::fake_driver_version())));
  auto unknown = generate({"--gpu-capabilities", "compute,cmpute"});
  CHECK(unknown.exit_code == 1);
  CHECK(line_count(unknown.err) == 1);
  CHECK_THAT(unknown.err, Catch::Contains("'cmpute'"));
}
