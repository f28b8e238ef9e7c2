// SPDX-License-Identifier: Apache-2.0
// [vendor.NAME] and `vendor = "NAME"`: what loading a policy of several
// vendors checks, each a one-line error at the key that is wrong.
#include <string>

#include <catch2/catch.hpp>

#include "policy/policy.hpp"
#include "policy_support.hpp"

using namespace graft;
using namespace graft::policy_test;

TEST_CASE("vendors keep the order they were first defined in, and their keys merge one by one", "[policy][vendor]") {
  PolicyFiles files;
  files.write("b.toml", "[vendor.beta]\ngpu_glob = \"/proc/b/*\"\ncdi_kind = \"beta.example/gpu\"\n");
  files.write("a.toml", "[vendor.alpha]\ngpu_glob = \"/sys/a/*\"\n");
  auto site = files.write("site.toml",
                          "include = [\"b.toml\", \"a.toml\"]\n[vendor.beta]\nversion_file = \"/proc/b/version\"\n");
  auto policy = load_policy(site, PolicySearch{});
  REQUIRE(policy);
  CHECK(policy->vendor_order == std::vector<std::string>{"beta", "alpha"});
  const Vendor& beta = policy->vendors.at("beta");
  CHECK(beta.discovery.gpu_glob == "/proc/b/*");
  CHECK(beta.discovery.version_file == "/proc/b/version");
  CHECK(beta.cdi_kind == "beta.example/gpu");
}

TEST_CASE("the audit log records every vendor's audit_env, each pattern once", "[policy][vendor]") {
  PolicyFiles files;
  auto site = files.write("site.toml",
                          "[vendor.alpha]\naudit_env = [\"ALPHA_DEVICES\", \"SHARED_*\"]\n"
                          "[vendor.beta]\naudit_env = [\"BETA_DEVICES\", \"SHARED_*\"]\n");
  auto policy = load_policy(site, PolicySearch{});
  REQUIRE(policy);
  CHECK(policy->audit_env == std::vector<std::string>{"ALPHA_DEVICES", "SHARED_*", "BETA_DEVICES"});
}

TEST_CASE("a site's [audit] env replaces the vendors' audit_env", "[policy][vendor]") {
  PolicyFiles files;
  auto site = files.write("site.toml", "[audit]\nenv = [\"SITE_*\"]\n[vendor.alpha]\naudit_env = [\"ALPHA_DEVICES\"]\n");
  auto policy = load_policy(site, PolicySearch{});
  REQUIRE(policy);
  CHECK(policy->audit_env == std::vector<std::string>{"SITE_*"});
}

TEST_CASE("a set naming a vendor the policy lacks is an error suggesting the closest", "[policy][vendor]") {
  CHECK(error_in_file("[vendor.alpha]\n[capability.base]\nvendor = \"alpa\"\n") ==
        "F:3:10: capability.base.vendor: no [vendor.alpa] in this policy; did you mean 'alpha'?");
  CHECK(error_in_file("[vendor.alpha]\n[device.node]\npath = \"/dev/x\"\nvendor = \"beta\"\n") ==
        "F:4:10: device.node.vendor: no [vendor.beta] in this policy");
}

TEST_CASE("with vendors, a GPU key left in [discovery] is an error naming where it belongs", "[policy][vendor]") {
  CHECK(error_in_file("[vendor.alpha]\ngpu_glob = \"/sys/a/*\"\n[discovery]\npartition_uuid_file = \"\"\n") ==
        "F:4:23: discovery.partition_uuid_file: a GPU key, but this policy names its vendors: set it in "
        "[vendor.alpha]");
}

TEST_CASE("a host-wide discovery key beside vendors is fine", "[policy][vendor]") {
  PolicyFiles files;
  auto site = files.write("site.toml", "[vendor.alpha]\n[discovery]\nlibrary_dirs = [\"/opt/lib\"]\n");
  CHECK(load_policy(site, PolicySearch{}));
}

TEST_CASE("two per-GPU classes serving one vendor's GPUs are an error naming both", "[policy][vendor]") {
  CHECK(error_in_file("[vendor.alpha]\n[device.a]\npath = \"/dev/a{minor}\"\nper = \"gpu\"\nvendor = \"alpha\"\n"
                      "[device.b]\npath = \"/dev/b{minor}\"\nper = \"gpu\"\n") ==
        "F:6:1: device.b: a second per = \"gpu\" class for alpha GPUs (device.a is the first): give each its own "
        "vendor = \"NAME\"");
}

TEST_CASE("a vendor's name takes lower-case letters, digits and '-'", "[policy][vendor]") {
  CHECK(error_in_file("[vendor.Alpha]\n") ==
        "F:1:1: vendor.Alpha: a vendor name may only use lower-case letters, digits and '-'");
}

TEST_CASE("a vendor's cdi_kind is a vendor/class kind", "[policy][vendor]") {
  CHECK(error_in_file("[vendor.alpha]\ncdi_kind = \"gpu\"\n") ==
        "F:2:12: vendor.alpha.cdi_kind: expected a CDI kind \"vendor/class\", got 'gpu'");
}
