// SPDX-License-Identifier: Apache-2.0
// The real `graft hook` on a policy naming a host path outside the policy
// boundary, one case per way issue 42 found: a GPU container is refused
// before anything is applied, with one line naming the path and the policy
// line that named it; a benign change plans as before.
#include <unistd.h>

#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "fake_host.hpp"
#include "hook_harness.hpp"
#include "site_policy.hpp"
#include "skip.hpp"

using namespace graft;

namespace {

// `graft hook` for a container asking for GPU 0 under the site policy
// `toml` (no plugins: a hook that got past planning fails on loading them).
testing::CommandResult hook_with(const std::string& toml) {
  fixture::FakeHost host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(1));
  std::string policy = fixture::write_site_policy(host, "[plugins]\ndir = \"" + host.path("/no-plugins") + "\"\n" + toml);
  std::string bundle = harness::write_bundle(host.path("/bundle"), {R"("NVIDIA_VISIBLE_DEVICES=0")"});
  std::string state = nlohmann::json({{"id", "c42"}, {"pid", ::getpid()}, {"bundle", bundle}}).dump();
  return harness::hook(policy, state);
}

void check_refused(const testing::CommandResult& result, const std::string& needle) {
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(harness::line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: container c42: ") && Catch::Contains("/etc/graft/graft.toml:") &&
                             Catch::Contains(needle) && Catch::Contains("outside the policy boundary"));
}

}  // namespace

TEST_CASE("graft hook refuses a GPU container whose policy binds the host's /etc", "[boundary][hook]") {
  check_refused(hook_with("[capability.x]\nalways = true\nipc = [\"/etc\"]\n"), "capability.x.ipc: /etc is");
}

TEST_CASE("graft hook refuses a GPU container whose policy hands out containerd's socket", "[boundary][hook]") {
  check_refused(hook_with("[capability.x]\nalways = true\nipc = [\"/run/containerd/containerd.sock\"]\n"),
                "/run/containerd/containerd.sock is");
}

TEST_CASE("graft hook refuses a GPU container whose policy names the host disk as a device", "[boundary][hook]") {
  check_refused(hook_with("[device.disk]\npath = \"/dev/vda\"\n[capability.x]\nalways = true\n"
                                  "devices = [\"disk\"]\n"),
                "device.disk.path: /dev/vda is");
}

TEST_CASE("graft hook refuses a GPU container whose policy binds /etc/shadow", "[boundary][hook]") {
  check_refused(hook_with("[capability.compute]\nconfig_files = [\"/etc/shadow\"]\n"), "/etc/shadow is");
}

TEST_CASE("graft hook refuses a GPU container whose policy writes claims into sudoers.d", "[boundary][hook]") {
  check_refused(hook_with("[exclusive]\ngpus = true\nstate_dir = \"/etc/sudoers.d\"\n"),
                "exclusive.state_dir: /etc/sudoers.d is");
}

TEST_CASE("graft hook takes a benign change past planning, to its plugins", "[boundary][hook]") {
  auto result = hook_with("[requests]\nunprivileged = [\"env\"]\n");
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("no-plugins") && !Catch::Contains("policy boundary"));
}
