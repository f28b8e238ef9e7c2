// SPDX-License-Identifier: Apache-2.0
// Every key and table of a policy keeps the file:line:col it was set at and
// what it replaced (Policy::key_origins), and `graft policy show [KEY]`
// prints them.
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "policy/policy.hpp"
#include "policy_support.hpp"
#include "render/policy_key.hpp"
#include "render/policy_render.hpp"

using namespace graft;
using namespace graft::policy_test;

namespace policy_origins_test {

Policy load_ok(const std::string& path) {
  auto loaded = load_policy(path, {});
  if (!loaded) FAIL(loaded.error().message);
  return std::move(loaded).value();
}

struct TwoFiles {
  PolicyFiles files;
  std::string base = files.write("base.toml",
                                 "[requests]\nunprivileged = [\"env\", \"annotations\"]\n"
                                 "[data.tenants]\nteam-a = [0]\n");
  std::string site = files.write("site.toml",
                                 "include = [\"base.toml\"]\n"
                                 "[requests]\nunprivileged = [\"annotations\"]\n"
                                 "[data.tenants]\nteam-a = [1, 2]\n");
  Policy policy = load_ok(site);
};


TEST_CASE("a key keeps where it was set last, and the earlier file and value it replaced", "[policy][origins]") {
  TwoFiles two;
  const KeyOrigin& key = two.policy.key_origins.at("requests.unprivileged");
  CHECK(key.origin == Origin{two.site, 3, 16});
  CHECK(key.value == "[\"annotations\"]");
  CHECK(key.replaced == Origin{two.base, 2, 16});
  CHECK(key.replaced_value == "[\"env\", \"annotations\"]");
}

TEST_CASE("a table and a [data] entry keep their origins", "[policy][origins]") {
  TwoFiles two;
  const KeyOrigin& table = two.policy.key_origins.at("requests");
  CHECK(table.is_table());
  CHECK(table.origin.file == two.site);
  CHECK(table.replaced.file == two.base);
  const KeyOrigin& entry = two.policy.key_origins.at("data.tenants.team-a");
  CHECK(entry.origin == Origin{two.site, 5, 10});
  CHECK(entry.replaced_value == "[0]");
}

TEST_CASE("policy show TOML gives every key a comment with its origin and what it overrode", "[policy][origins]") {
  TwoFiles two;
  std::string text = render_policy_toml(two.policy, {});
  INFO(text);
  CHECK_THAT(text, Catch::Contains("[requests]  # " + two.site + ":2:1, merged over " + two.base + ":1:1\n"));
  CHECK_THAT(text, Catch::Contains("unprivileged = [\"annotations\"]  # " + two.site + ":3:16, over [\"env\", "
                                   "\"annotations\"] from " + two.base + ":2:16\n"));
  CHECK_THAT(text, Catch::Contains("team-a = [1, 2]  # " + two.site + ":5:10"));
}

TEST_CASE("policy show JSON lists every key's origin under \"origins\"", "[policy][origins]") {
  TwoFiles two;
  auto json = render_policy_json(two.policy, {});
  const auto& entry = json["origins"]["requests.unprivileged"];
  CHECK(entry["origin"] == two.site + ":3:16");
  CHECK(entry["overrode"]["origin"] == two.base + ":2:16");
  CHECK(entry["overrode"]["value"] == "[\"env\", \"annotations\"]");
}

TEST_CASE("policy show KEY prints the key's value, origin and what it overrode", "[policy][origins]") {
  TwoFiles two;
  auto text = render_policy_key_text(two.policy, {}, "requests.unprivileged");
  REQUIRE(text);
  CHECK(*text == "requests.unprivileged = [\"annotations\"]\n  set at " + two.site +
                     ":3:16\n  overrode [\"env\", \"annotations\"] from " + two.base + ":2:16\n");
  auto data = render_policy_key_text(two.policy, {}, "data.tenants.team-a");
  REQUIRE(data);
  CHECK_THAT(*data, Catch::StartsWith("data.tenants.team-a = [1, 2]\n  set at " + two.site + ":5:10\n"));
}

TEST_CASE("policy show KEY of a key no file sets says it is graft's default", "[policy][origins]") {
  TwoFiles two;
  auto text = render_policy_key_text(two.policy, {}, "limits.deadline_ms");
  REQUIRE(text);
  CHECK(*text == "limits.deadline_ms = 30000\n  not set by any policy file: graft's default\n");
}

TEST_CASE("policy show KEY of an unknown key is an error with a did-you-mean", "[policy][origins]") {
  TwoFiles two;
  auto text = render_policy_key_text(two.policy, {}, "requests.unpriviliged");
  REQUIRE_FALSE(text);
  CHECK(text.error().message ==
        "policy show: no key 'requests.unpriviliged' in the policy; did you mean 'requests.unprivileged'?");
}

TEST_CASE("policy show KEY in JSON gives the key's origin entry", "[policy][origins]") {
  TwoFiles two;
  auto text = render_policy_key_json(two.policy, {}, "requests");
  REQUIRE(text);
  auto json = nlohmann::json::parse(*text);
  CHECK(json["keys"]["requests"]["origin"] == two.site + ":2:1");
  CHECK(json["keys"]["requests.unprivileged"]["overrode"]["origin"] == two.base + ":2:16");
}

}  // namespace policy_origins_test
