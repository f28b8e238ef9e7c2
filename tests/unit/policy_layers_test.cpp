// SPDX-License-Identifier: Apache-2.0
// Policy layers: a shipped (vendor) policy's files merge before the site's,
// whatever the include order, and a security-relevant key a later site file
// sets over an earlier site file's is reported (Policy::overrides).
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "policy/policy.hpp"
#include "policy_support.hpp"

using namespace graft;
using namespace graft::policy_test;

namespace policy_layers_test {

const std::string kSourcePolicies = GRAFT_SOURCE_DIR "/policies";

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

// The site file: hardening, then an include of a site file and of
// the shipped policy after it.
constexpr const char* kHardenedSite =
    "include = [\"inc/site-common.toml\", \"nvidia\"]\n"
    "[requests]\nunprivileged = [\"annotations\"]\n"
    "[defaults]\ncapabilities = [\"utility\"]\n";


TEST_CASE("a shipped policy included after a site file does not override the site's hardening", "[policy][layers]") {
  PolicyFiles files;
  files.write("inc/site-common.toml", "[audit]\nenv = [\"NVIDIA_*\"]\n");
  auto site = files.write("graft.toml", kHardenedSite);
  auto policy = load_ok(site, {{kSourcePolicies}});
  CHECK(policy.trusted_unprivileged == std::set<std::string>{"annotations"});
  CHECK(values(policy.default_capabilities) == std::vector<std::string>{"utility"});
  CHECK(policy.audit_env == std::vector<std::string>{"NVIDIA_*"});
  CHECK(policy.files.front() == kSourcePolicies + "/nvidia/nvidia.toml");
  CHECK(policy.files.back() == site);
  CHECK(policy.overrides.empty());
}

TEST_CASE("a shipped policy included by its path in a policy directory merges first too", "[policy][layers]") {
  PolicyFiles files;
  files.write("inc/site-common.toml", "[requests]\nunprivileged = [\"annotations\"]\n");
  auto site = files.write("graft.toml", "include = [\"inc/site-common.toml\", \"" + kSourcePolicies +
                                            "/nvidia/nvidia.toml\"]\n");
  auto policy = load_ok(site, {{kSourcePolicies}});
  CHECK(policy.trusted_unprivileged == std::set<std::string>{"annotations"});
}

TEST_CASE("the rules of a shipped policy run before a site file's included ahead of it", "[policy][layers]") {
  PolicyFiles files;
  files.write("vendor/vendor/vendor.toml", "rules = [\"vendor.lua\"]\n");
  files.write("common.toml", "rules = [\"common.lua\"]\n");
  auto site = files.write("site.toml", "include = [\"common.toml\", \"vendor\"]\nrules = [\"site.lua\"]\n");
  auto policy = load_ok(site, {{files.path("vendor")}});
  CHECK(values(policy.rules) == std::vector<std::string>{files.path("vendor/vendor/vendor.lua"),
                                                          files.path("common.lua"), files.path("site.lua")});
}

TEST_CASE("a site file's security-relevant key over an earlier site file's is reported with both origins",
          "[policy][layers]") {
  PolicyFiles files;
  auto common = files.write("common.toml", "[requests]\nunprivileged = [\"annotations\"]\n");
  auto site = files.write("site.toml", "include = [\"common.toml\"]\ndrop_ins = [\"site.d\"]\n");
  auto drop_in = files.write("site.d/50-open.toml", "[requests]\nunprivileged = [\"env\"]\n[host]\ndev_root = \"/d\"\n");
  auto policy = load_ok(site);
  CHECK(policy.trusted_unprivileged == std::set<std::string>{"env"});
  REQUIRE(policy.overrides.size() == 1);
  const SettingOverride& found = policy.overrides[0];
  CHECK(found.key == "requests.unprivileged");
  CHECK(found.setting.origin == Origin{drop_in, 2, 16});
  CHECK(found.setting.value == "[\"env\"]");
  CHECK(found.setting.replaced == Origin{common, 2, 16});
  CHECK(found.setting.replaced_value == "[\"annotations\"]");
}

TEST_CASE("a site file's value over a shipped policy's is no override finding", "[policy][layers]") {
  PolicyFiles files;
  files.write("vendor/vendor/vendor.toml", "[limits]\ndeadline_ms = 1000\n");
  auto site = files.write("site.toml", "include = [\"vendor\"]\n[limits]\ndeadline_ms = 2000\n");
  auto policy = load_ok(site, {{files.path("vendor")}});
  CHECK(policy.limits.deadline_ms == 2000);
  CHECK(policy.overrides.empty());
}

TEST_CASE("the shipped policy alone loads with no override findings", "[policy][layers]") {
  auto policy = load_ok(kSourcePolicies + "/nvidia/nvidia.toml");
  CHECK(policy.files == std::vector<std::string>{kSourcePolicies + "/nvidia/nvidia.toml"});
  CHECK(policy.trusted_unprivileged.contains("env"));
  CHECK(policy.overrides.empty());
}

}  // namespace policy_layers_test
