// SPDX-License-Identifier: Apache-2.0
// `graft verify` on the command line, without a real container: how it is
// called (usage errors exit 2), and how it asks the OCI runtime for a
// container's state (a stand-in runtime script here): the arguments it
// passes, the runtime's own refusal, a stopped container, and a container
// that asks for no GPU. The checks against real containers are in
// tests/e2e/verify_command_test.cpp.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "fake_host.hpp"
#include "hook_harness.hpp"
#include "run_command.hpp"
#include "site_policy.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

struct VerifyHost {
  fixture::FakeHost host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(1));
  std::string policy = fixture::write_site_policy(host);
};

VerifyHost& verify_host() {
  static VerifyHost host;
  return host;
}

// A stand-in OCI runtime: records its arguments, prints `out` and `err`,
// exits `code`.
std::string fake_runtime(const std::string& name, const std::string& out, const std::string& err,
                         int code) {
  const std::string dir = verify_host().host.path("/runtimes");
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream(path) << "#!/bin/sh\necho \"$@\" > " << path << ".args\nprintf '%s' '" << out
                      << "'\nprintf '%s\\n' '" << err << "' >&2\nexit " << code << "\n";
  REQUIRE(::chmod(path.c_str(), 0755) == 0);
  return path;
}

std::string state_json(const std::string& id, int pid, const std::string& status,
                       const std::string& bundle) {
  return nlohmann::json{{"ociVersion", "1.0.2"}, {"id", id}, {"pid", pid}, {"status", status},
                        {"bundle", bundle}}
      .dump();
}

// A bundle whose container asks for no GPU.
std::string plain_bundle() {
  const std::string dir = verify_host().host.path("/plain-bundle");
  std::filesystem::create_directories(dir + "/rootfs/etc");
  std::ofstream(dir + "/config.json")
      << R"({"ociVersion":"1.0.2","root":{"path":"rootfs"},"process":{"env":["PATH=/bin"]}})";
  return dir;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("graft verify without a container id or --pid is a usage error", "[cli][verify]") {
  auto result = run_graft({"--policy", verify_host().policy, "verify"});
  CHECK(result.exit_code == 2);
  CHECK(harness::line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::Contains("give the container's ID"));
}

TEST_CASE("graft verify's request options need --pid, and the runtime options exclude it",
          "[cli][verify]") {
  CHECK(run_graft({"verify", "c1", "--bundle", "/b"}).exit_code == 2);
  CHECK(run_graft({"verify", "c1", "--env", "A=B"}).exit_code == 2);
  CHECK(run_graft({"verify", "c1", "--pid", "1", "--runtime", "/bin/true"}).exit_code == 2);
  CHECK(run_graft({"verify", "c1", "--format", "yaml"}).exit_code == 2);
}

TEST_CASE("graft verify --help carries examples and the exit codes", "[cli][verify]") {
  auto result = run_graft({"verify", "--help"});
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("Example") && Catch::Contains("1 drift"));
}

TEST_CASE("graft verify ID passes the runtime its root and the id, and reports its refusal in one line",
          "[cli][verify]") {
  const std::string runtime = fake_runtime("refusing", "", "container does not exist", 1);
  auto result = run_graft({"--policy", verify_host().policy, "verify", "c1", "--runtime", runtime,
                           "--runtime-root", "/run/engine/runc"});
  CHECK(result.exit_code == 1);
  CHECK(harness::line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: container c1: " + runtime +
                                           " --root /run/engine/runc state c1: exit 1: "
                                           "container does not exist"));
  CHECK(read_text(runtime + ".args") == "--root /run/engine/runc state c1\n");
}

TEST_CASE("graft verify names a stopped container instead of verifying it", "[cli][verify]") {
  const std::string runtime =
      fake_runtime("stopped", state_json("c2", 0, "stopped", plain_bundle()), "", 0);
  auto result = run_graft({"--policy", verify_host().policy, "verify", "c2", "--runtime", runtime});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("the container is stopped, not running: nothing to verify"));
  CHECK(read_text(runtime + ".args") == "state c2\n");
}

TEST_CASE("graft verify refuses a state the runtime gives for another container", "[cli][verify]") {
  const std::string runtime =
      fake_runtime("other", state_json("c9", ::getpid(), "running", plain_bundle()), "", 0);
  auto result = run_graft({"--policy", verify_host().policy, "verify", "c3", "--runtime", runtime});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("the runtime answered for container 'c9'"));
}

TEST_CASE("graft verify of a container that asks for no GPU finds nothing to compare and exits 0",
          "[cli][verify]") {
  const std::string runtime =
      fake_runtime("running", state_json("c4", ::getpid(), "running", plain_bundle()), "", 0);
  auto text = run_graft({"--policy", verify_host().policy, "verify", "c4", "--runtime", runtime});
  INFO(text.err);
  CHECK(text.exit_code == 0);
  CHECK(text.out == "container c4 (pid " + std::to_string(::getpid()) +
                        "): no drift, 0 actions as planned\n");
  auto json = run_graft({"--policy", verify_host().policy, "verify", "c4", "--runtime", runtime,
                         "--format", "json"});
  CHECK(json.exit_code == 0);
  const std::string file = verify_host().host.path("/verify.json");
  std::ofstream(file) << json.out;
  auto schema = check_json_schema(file, "verify-schema.json");
  INFO(schema.err);
  CHECK(schema.exit_code == 0);
  auto document = nlohmann::json::parse(json.out);
  CHECK(document["schema"] == "graft.verify/v1");
  CHECK(document["drifted"] == false);
  CHECK(document["drifts"].empty());
}

TEST_CASE("graft verify looks a runtime's bare name up only in the system directories",
          "[cli][verify]") {
  auto result = run_graft({"--policy", verify_host().policy, "verify", "c5", "--runtime",
                           "graft-no-such-runtime"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("runtime 'graft-no-such-runtime' is not in /usr/local/sbin"));
}
