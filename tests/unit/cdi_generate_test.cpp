// `graft cdi generate` on the fake 2-GPU host with the shipped NVIDIA
// policy: what a site writes to /etc/cdi. The spec's contents are tested
// purely in cdi_spec_test.cpp; here the command, its formats and versions.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

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
