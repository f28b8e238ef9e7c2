// SPDX-License-Identifier: Apache-2.0
// Policy test case files (docs/policy-test.md): TOML or Lua, every key
// checked like the policy loader's, with file:line and a "did you mean".
#include <catch2/catch.hpp>

#include "policy_cases/case_file.hpp"
#include "rules_support.hpp"

using namespace graft;

namespace {

std::string case_error(const Result<PolicyCase>& result) { return result ? "" : result.error().message; }

const char* kFullCase = R"(
name = "team-a lease"
[request]
env = ["GPUS=all", "EXTRA=a=b"]
annotations = { "example.com/tenant" = "team-a" }
privileged = true
mounts = [{ source = "/dev/null", destination = "/var/run/devices/0" }]
[host]
gpus = 4
mig = [1, 3]
partitions = 3
driver_version = "550.54.15"
missing = ["/dev/gpu-uvm"]
[expect]
injected = true
devices = [0, "1:2"]
capabilities = ["compute"]
denied = [{ what = "GPU 2", reason = "lease" }]
refused = false
actions_present = [{ kind = "bind_mount", target = "/usr/bin/smi" }]
actions_absent = [{ target = "/dev/gpu3" }]
)";

}  // namespace

TEST_CASE("a case file's request, host and expectation are read as written", "[policy-test]") {
  auto read = parse_case_toml(kFullCase, "/cases/lease.toml");
  INFO(case_error(read));
  REQUIRE(read.ok());
  CHECK(read->name == "team-a lease");
  CHECK(read->request.env == std::map<std::string, std::string>{{"GPUS", "all"}, {"EXTRA", "a=b"}});
  CHECK(read->request.annotations.at("example.com/tenant") == "team-a");
  CHECK(read->request.privileged);
  REQUIRE(read->request.mounts.size() == 1);
  CHECK(read->request.mounts[0].destination == "/var/run/devices/0");
  REQUIRE(read->host.gpus.size() == 4);
  CHECK(read->host.gpus[0].partitions == 0);
  CHECK(read->host.gpus[1].partitions == 3);
  CHECK(read->host.gpus[3].partitions == 3);
  CHECK(read->host.driver_version == "550.54.15");
  CHECK(read->host.missing.count("/dev/gpu-uvm") == 1);
  CHECK(read->expect.injected == true);
  CHECK(read->expect.devices == std::vector<std::string>{"0", "1:2"});
  REQUIRE(read->expect.denied.has_value());
  CHECK(read->expect.denied->at(0).reason.source == "lease");
  CHECK_FALSE(read->expect.refused);
  CHECK(read->expect.actions_present.at(0).kind == "bind_mount");
  CHECK(read->expect.actions_absent.at(0).kind.empty());
}

TEST_CASE("a case without a name or host is named after its file and runs on two GPUs without MIG",
          "[policy-test]") {
  auto read = parse_case_toml("[request]\nenv = { GPUS = \"0\" }\n", "/cases/gpu-zero.toml");
  REQUIRE(read.ok());
  CHECK(read->name == "gpu-zero");
  CHECK(read->request.container_id == "gpu-zero");
  REQUIRE(read->host.gpus.size() == 2);
  CHECK(read->host.gpus[1].partitions == 0);
  CHECK_FALSE(read->expect.devices.has_value());
  CHECK_FALSE(read->expect.refused);
}

TEST_CASE("an unknown key in a case is an error at its line that suggests the right key", "[policy-test]") {
  auto read = parse_case_toml("[request]\nenv = {}\n\n[expect]\ndevics = [0]\n", "/cases/typo.toml");
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().message == "/cases/typo.toml:5:1: expect.devics: unknown key; did you mean 'devices'?");
}

TEST_CASE("every unknown key in a case is reported, in each section, not only the first", "[policy-test]") {
  auto read = parse_case_toml("nmae = 'x'\n[request]\nenvv = {}\n[host]\ngpu_count = 2\n"
                              "[expect]\ndevics = [0]\ncapabilites = []\n",
                              "/cases/typos.toml");
  REQUIRE_FALSE(read.ok());
  const std::string& message = read.error().message;
  for (const char* key : {"nmae", "request.envv", "host.gpu_count", "expect.devics", "expect.capabilites"}) {
    INFO(key);
    CHECK_THAT(message, Catch::Contains(std::string(key) + ": unknown key"));
  }
  CHECK_THAT(message, Catch::Contains("/cases/typos.toml:8:1: expect.capabilites: unknown key; did you mean "
                                      "'capabilities'?"));
}

TEST_CASE("an expected device must be a GPU index or GPU:PARTITION", "[policy-test]") {
  auto read = parse_case_toml("[expect]\ndevices = [\"GPU-1\"]\n", "/cases/bad.toml");
  REQUIRE_FALSE(read.ok());
  CHECK_THAT(case_error(read), Catch::StartsWith("/cases/bad.toml:2:12: expect.devices[0]: 'GPU-1'"));
}

TEST_CASE("an invalid pattern is an error when the case is read, not a failing case", "[policy-test]") {
  auto read = parse_case_toml("[expect]\nrefused = \"lease (for\"\n", "/cases/bad.toml");
  REQUIRE_FALSE(read.ok());
  CHECK_THAT(case_error(read),
             Catch::Contains("/cases/bad.toml:2:11: expect.refused: invalid regular expression"));
}

TEST_CASE("a host is described either by gpus and mig or by [[host.gpu]], not both", "[policy-test]") {
  auto both = parse_case_toml("[host]\ngpus = 2\ngpu = [{ uuid = \"GPU-1\" }]\n", "/cases/host.toml");
  CHECK_THAT(case_error(both), Catch::Contains("use one or the other"));
  auto listed = parse_case_toml("[[host.gpu]]\nuuid = \"GPU-1\"\npartitions = 2\n", "/cases/host.toml");
  REQUIRE(listed.ok());
  REQUIRE(listed->host.gpus.size() == 1);
  CHECK(listed->host.gpus[0].uuid == "GPU-1");
  CHECK(listed->host.gpus[0].partitions == 2);
}

TEST_CASE("mig naming a GPU the host does not have is an error", "[policy-test]") {
  auto read = parse_case_toml("[host]\ngpus = 2\nmig = [2]\n", "/cases/host.toml");
  CHECK_THAT(case_error(read), Catch::Contains("mig names GPU 2, but the host has 2 GPUs"));
}

TEST_CASE("a Lua case returns the same table a TOML case holds", "[policy-test]") {
  rules_test::RuleDir dir;
  std::string file = dir.write("lease.lua", R"LUA(
local wanted = {}
for i = 0, 2 do wanted[#wanted + 1] = i end
return {
  request = { env = { GPUS = "all" }, privileged = true },
  host = { gpus = 3 },
  expect = { devices = wanted, denied = {}, refused = "no (lease|grant)" },
})LUA");
  auto read = read_case_file(file);
  INFO(case_error(read));
  REQUIRE(read.ok());
  CHECK(read->name == "lease");
  CHECK(read->request.env.at("GPUS") == "all");
  CHECK(read->host.gpus.size() == 3);
  CHECK(read->expect.devices == std::vector<std::string>{"0", "1", "2"});
  REQUIRE(read->expect.denied.has_value());
  CHECK(read->expect.denied->empty());
  CHECK(read->expect.refusal->source == "no (lease|grant)");
}

TEST_CASE("a Lua case runs without io or os, and its unknown keys are errors too", "[policy-test]") {
  rules_test::RuleDir dir;
  auto io = read_case_file(dir.write("io.lua", "return { request = { env = io.open('/etc/passwd') } }"));
  CHECK_THAT(case_error(io), Catch::Contains("io.lua:1: attempt to index a nil value (global 'io')"));
  auto typo = read_case_file(dir.write("typo.lua", "return { expect = { refuse = 'x' } }"));
  CHECK_THAT(case_error(typo), Catch::Contains("expect.refuse: unknown key; did you mean 'refused'?"));
  auto function = read_case_file(dir.write("fn.lua", "return { name = string.len }"));
  CHECK_THAT(case_error(function), Catch::Contains("name: a function cannot be part of a case"));
}

TEST_CASE("case files are a directory's *.toml and *.lua files in name order, and files named as given",
          "[policy-test]") {
  rules_test::RuleDir dir;
  dir.write("b.toml", "");
  dir.write("a.lua", "return {}");
  dir.write("notes.md", "");
  std::filesystem::create_directory(dir.path() + "/nested");
  dir.write("nested/c.toml", "");
  auto found = find_case_files({dir.path(), dir.path() + "/notes.md"});
  REQUIRE(found.ok());
  CHECK(*found ==
        std::vector<std::string>{dir.path() + "/a.lua", dir.path() + "/b.toml", dir.path() + "/notes.md"});
  auto missing = find_case_files({dir.path() + "/none"});
  CHECK_FALSE(missing.ok());
  std::filesystem::create_directory(dir.path() + "/empty");
  auto empty = find_case_files({dir.path() + "/empty"});
  CHECK_THAT((empty ? "" : empty.error().message), Catch::StartsWith("no case files (*.toml, *.lua) in "));
}

TEST_CASE("a host named sample is the one graft policy check runs its samples on", "[policy-test]") {
  auto sample = parse_case_toml("[host]\nname = \"sample\"\ndriver_version = \"2.0\"\n", "/cases/host.toml");
  REQUIRE(sample.ok());
  REQUIRE(sample->host.gpus.size() == 2);
  CHECK(sample->host.gpus[0].partitions == 0);
  CHECK(sample->host.gpus[1].partitions == 2);
  CHECK(sample->host.driver_version == "2.0");
  auto typo = parse_case_toml("[host]\nname = \"sampel\"\n", "/cases/host.toml");
  CHECK_THAT(case_error(typo), Catch::Equals("/cases/host.toml:2:8: host.name: 'sampel': a built-in host is "
                                             "'uniform' or 'sample'; did you mean 'sample'?"));
  auto sized = parse_case_toml("[host]\nname = \"sample\"\ngpus = 4\n", "/cases/host.toml");
  CHECK_THAT(case_error(sized), Catch::Contains("the sample host has its own GPUs"));
}
