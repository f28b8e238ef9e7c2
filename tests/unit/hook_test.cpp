// SPDX-License-Identifier: Apache-2.0
// `graft hook` as a runtime calls it: the OCI state on stdin, one line and a
// non-zero exit for anything wrong, nothing touched for a container that asks
// for no GPU. The end-to-end tests (tests/e2e) run it under real runc.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "apply/apply_plan.hpp"
#include "request/oci_state.hpp"
#include "fake_host.hpp"
#include "hook_harness.hpp"
#include "run_command.hpp"
#include "site_policy.hpp"
#include "temp_dir.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::testing;
using graft::harness::hook;
using graft::harness::write_bundle;

namespace {

const char* kRuncState =
    R"({"ociVersion":"1.0.2-dev","id":"c1","status":"creating","pid":4242,)"
    R"("bundle":"/run/bundles/c1","annotations":{"org.example/team":"a"}})";

struct HookHost {
  fixture::FakeHost host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(2));
  std::string audit = host.path("/audit.jsonl");
  // No plugins at all: a hook that got as far as loading them fails.
  std::string policy = fixture::write_site_policy(
      host, "[plugins]\ndir = \"" + host.path("/no-plugins") + "\"\n[audit]\nlog = \"" + audit + "\"\n");
};

HookHost& hook_host() {
  static HookHost host;
  return host;
}

std::string state_for(const std::string& bundle) {
  return nlohmann::json({{"id", "c9"}, {"pid", ::getpid()}, {"bundle", bundle}}).dump();
}

}  // namespace

TEST_CASE("the OCI state gives id, pid, bundle and annotations", "[hook]") {
  auto state = parse_oci_state(kRuncState);
  REQUIRE(state.ok());
  CHECK(state->id == "c1");
  CHECK(state->pid == 4242);
  CHECK(state->bundle == "/run/bundles/c1");
  CHECK(state->annotations.at("org.example/team") == "a");
}

TEST_CASE("crun's state with status created reads the same", "[hook]") {
  auto state = parse_oci_state(R"({"id":"c1","status":"created","pid":7,"bundle":"/b"})");
  REQUIRE(state.ok());
  CHECK(state->pid == 7);
}

TEST_CASE("a state that is not a JSON object is refused", "[hook]") {
  CHECK(parse_oci_state("not json").error().message == "OCI state on stdin is not a JSON object");
  CHECK_FALSE(parse_oci_state("[1,2]").ok());
  CHECK_FALSE(parse_oci_state(R"({"id":"c1")").ok());  // truncated
}

TEST_CASE("a state without a usable pid is refused naming the container", "[hook]") {
  for (const char* pid : {"0", "-1", "\"12\"", "1e3", "99999999999"}) {
    auto state = parse_oci_state(std::string(R"({"id":"c1","bundle":"/b","pid":)") + pid + "}");
    REQUIRE_FALSE(state.ok());
    CHECK(state.error().message == "OCI state for c1: \"pid\" must be a positive process id");
  }
  CHECK_FALSE(parse_oci_state(R"({"id":"c1","bundle":"/b"})").ok());
}

TEST_CASE("a state without an id or with a relative bundle is refused", "[hook]") {
  CHECK(parse_oci_state(R"({"pid":1,"bundle":"/b"})").error().message == "OCI state: missing \"id\"");
  CHECK(parse_oci_state(R"({"id":"c1","pid":1,"bundle":"b"})").error().message ==
        "OCI state for c1: \"bundle\" must be an absolute path");
}

TEST_CASE("more than 1 MiB of state on stdin is refused without parsing it", "[hook]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/state";
  std::ofstream(path) << std::string(kMaxOciStateBytes + 1, ' ');
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  auto text = read_oci_state_text(fd);
  ::close(fd);
  REQUIRE_FALSE(text.ok());
  CHECK(text.error().message == "OCI state on stdin is larger than 1048576 bytes");
}

TEST_CASE("a hook for a container that asks for no GPU exits 0 and loads no plugin", "[hook]") {
  auto& host = hook_host();
  std::string bundle = write_bundle(host.host.path("/bundle-plain"), {R"("PATH=/bin")"});
  auto result = hook(host.policy, state_for(bundle));
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(result.err.empty());
}

TEST_CASE("a hook whose bundle has no config.json fails with one line naming the container", "[hook]") {
  auto& host = hook_host();
  auto result = hook(host.policy, state_for(host.host.path("/no-such-bundle")));
  CHECK(result.exit_code == 1);
  CHECK(result.err == "graft: container c9: " + host.host.path("/no-such-bundle") +
                          "/config.json: No such file or directory\n");
}

TEST_CASE("a hook that cannot load its plugins fails closed and logs the error", "[hook]") {
  auto& host = hook_host();
  if (!host.host.device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  std::filesystem::remove(host.audit);
  std::string bundle = write_bundle(host.host.path("/bundle-gpu"), {R"("NVIDIA_VISIBLE_DEVICES=0")"});
  auto result = hook(host.policy, state_for(bundle));
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: container c9: plugin directory ") &&
                             Catch::EndsWith("no-plugins: cannot be listed: No such file or directory\n"));
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  std::ifstream in(host.audit);
  std::string line;
  REQUIRE(std::getline(in, line));
  auto record = nlohmann::json::parse(line);
  CHECK(record["outcome"] == "error");
  CHECK(record["id"] == "c9");
}

TEST_CASE("a plan that sets an environment variable cannot be applied by a hook", "[hook]") {
  Plan plan;
  Action env{.kind = ActionKind::env, .plugin = kRuntimeConfigExecutor, .target = "SITE_TOKEN", .content = "x"};
  env.provenance.origin = Origin{"/etc/graft/site.lua", 12, 3};
  plan.actions.push_back(env);
  PluginSet none;
  auto status = check_plan_applicable(plan, none);
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message,
             Catch::StartsWith("plan sets environment variable SITE_TOKEN (site.lua:12)"));
}
