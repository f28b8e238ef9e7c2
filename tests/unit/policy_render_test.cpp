// SPDX-License-Identifier: Apache-2.0
// `graft policy show`'s renderers over a Policy built in code: JSON with
// origins, capability sets with what their pulls bring, rules in run order,
// and TOML that toml++ parses back to the same values.
#include <catch2/catch.hpp>

#include <sstream>

#include <toml++/toml.h>

#include "render/policy_render.hpp"

using namespace graft;

namespace {

Origin at(int line) { return Origin{"/etc/graft/site.toml", line, 1}; }

Policy built_policy() {
  Policy policy;
  policy.files = {"/usr/share/graft/policies/acme/acme.toml", "/etc/graft/site.toml"};
  policy.drop_ins = {{"/etc/graft/site.d", at(2)}};
  CapabilitySet utility{.name = "utility", .origin = at(10)};
  utility.libraries = {{"libgpu-ml.so", at(11)}};
  CapabilitySet compute{.name = "compute", .origin = at(20)};
  compute.libraries = {{"libgpu.so", at(21)}};
  compute.pulls = {{"utility.libraries", at(22)}};
  compute.symlinks = {SymlinkSpec{"libgpu.so", "libgpu.so.1", at(23)}};
  policy.capabilities = {{"utility", utility}, {"compute", compute}};
  policy.devices["ctl"] = DeviceClass{.name = "ctl", .path = "/dev/gpuctl", .per = DeviceClass::Per::fixed,
                                      .major_name = "", .required = true, .origin = at(30)};
  policy.default_capabilities = {{"compute", at(5)}};
  policy.rules = {{"/etc/graft/site.lua", at(3)}};
  policy.plugin_config["devices"] = {{"mode", "strict"}};
  policy.data = {{"tenants", {{"team a", {{"gpus", {4, 5}}}}}}, {"weight", 1.5}};
  return policy;
}

std::vector<RuleActivity> built_rules() {
  RuleActivity site{"site-limit", Origin{"/etc/graft/site.lua", 4, 0}};
  site.phase = rules::RulePhase::restrict;
  RuleActivity vendor{"vendor-request", Origin{"/usr/share/graft/policies/acme/request.lua", 9, 0}};
  vendor.phase = rules::RulePhase::request;
  return {site, vendor};
}

toml::table parsed(const std::string& text) {
  try {
    return toml::parse(text);
  } catch (const toml::parse_error& e) {
    std::ostringstream where;
    where << e;
    FAIL("the TOML does not parse: " << where.str() << "\n" << text);
  }
  return {};
}

}  // namespace

TEST_CASE("policy show JSON lists the files in merge order", "[policy-show]") {
  auto json = render_policy_json(built_policy(), built_rules());
  CHECK(json["schema"] == policy_show_schema_id);
  CHECK(json["files"] == nlohmann::json{"/usr/share/graft/policies/acme/acme.toml", "/etc/graft/site.toml"});
}

TEST_CASE("policy show JSON lists the drop-in directories looked in, each with the entry that named it", "[policy-show]") {
  auto drop_ins = render_policy_json(built_policy(), built_rules())["drop_ins"];
  REQUIRE(drop_ins.size() == 1);
  CHECK(drop_ins[0]["value"] == "/etc/graft/site.d");
  CHECK(drop_ins[0]["origin"] == "/etc/graft/site.toml:2:1");
}

TEST_CASE("policy show JSON gives a capability set its own items and what its pulls bring", "[policy-show]") {
  auto compute = render_policy_json(built_policy(), built_rules())["capability"]["compute"];
  REQUIRE(compute["libraries"].size() == 2);
  CHECK(compute["libraries"][0]["value"] == "libgpu.so");
  CHECK(compute["libraries"][0]["origin"] == "/etc/graft/site.toml:21:1");
  CHECK_FALSE(compute["libraries"][0].contains("via"));
  CHECK(compute["libraries"][1]["value"] == "libgpu-ml.so");
  CHECK(compute["libraries"][1]["origin"] == "/etc/graft/site.toml:11:1");
  CHECK(compute["libraries"][1]["via"] == "utility.libraries");
  CHECK(compute["symlinks"][0]["target"] == "libgpu.so.1");
  CHECK(compute["pulls"][0]["value"] == "utility.libraries");
}

TEST_CASE("policy show JSON lists the registered rules in run order with their phases", "[policy-show]") {
  auto rules = render_policy_json(built_policy(), built_rules())["registered_rules"];
  REQUIRE(rules.size() == 2);
  CHECK(rules[0]["name"] == "vendor-request");
  CHECK(rules[0]["phase"] == "request");
  CHECK(rules[1]["name"] == "site-limit");
  CHECK(rules[1]["origin"] == "/etc/graft/site.lua:4");
}

TEST_CASE("policy show JSON keeps [data] and device classes as the policy has them", "[policy-show]") {
  auto json = render_policy_json(built_policy(), built_rules());
  CHECK(json["data"]["tenants"]["team a"]["gpus"][1] == 5);
  CHECK(json["device"]["ctl"]["path"] == "/dev/gpuctl");
  CHECK(json["device"]["ctl"]["origin"] == "/etc/graft/site.toml:30:1");
  CHECK(json["defaults"]["capabilities"][0]["value"] == "compute");
}

TEST_CASE("policy show gives [cdi] gpu_capabilities as \"default\", or as the sets named with their origins",
          "[policy-show][cdi]") {
  Policy policy = built_policy();
  CHECK(render_policy_json(policy, built_rules())["cdi"]["gpu_capabilities"] == "default");
  policy.cdi.gpu_capabilities = {false, {{"utility", at(40)}}};
  auto named = render_policy_json(policy, built_rules())["cdi"]["gpu_capabilities"];
  REQUIRE(named.size() == 1);
  CHECK(named[0]["value"] == "utility");
  CHECK(named[0]["origin"] == "/etc/graft/site.toml:40:1");
  auto table = parsed(render_policy_toml(policy, built_rules()));
  CHECK(table["cdi"]["gpu_capabilities"][0].value_or(std::string()) == "utility");
  policy.cdi.gpu_capabilities = {false, {}};
  CHECK(render_policy_json(policy, built_rules())["cdi"]["gpu_capabilities"] == nlohmann::json::array());
}

TEST_CASE("policy show TOML parses back with the same values", "[policy-show]") {
  auto table = parsed(render_policy_toml(built_policy(), built_rules()));
  CHECK(table["files"][1].value_or(std::string()) == "/etc/graft/site.toml");
  CHECK(table["capability"]["compute"]["libraries"][1].value_or(std::string()) == "libgpu-ml.so");
  CHECK(table["capability"]["compute"]["symlinks"][0]["link"].value_or(std::string()) == "libgpu.so");
  CHECK(table["device"]["ctl"]["required"].value_or(false));
  CHECK(table["registered_rules"][0]["phase"].value_or(std::string()) == "request");
  CHECK(table["data"]["tenants"]["team a"]["gpus"][0].value_or(0) == 4);
  CHECK(table["data"]["weight"].value_or(0.0) == 1.5);
  CHECK(table["plugins"]["config"]["devices"]["mode"].value_or(std::string()) == "strict");
  CHECK(table["limits"]["deadline_ms"].value_or(0) == 30000);
}

TEST_CASE("policy show TOML writes each origin as a comment after its value", "[policy-show]") {
  std::string text = render_policy_toml(built_policy(), built_rules());
  INFO(text);
  CHECK_THAT(text, Catch::Contains("[capability.compute]  # /etc/graft/site.toml:20:1\n"));
  CHECK_THAT(text, Catch::Contains("  \"libgpu-ml.so\",  # /etc/graft/site.toml:11:1 (via utility.libraries)\n"));
  CHECK_THAT(text, Catch::Contains("  { name = \"vendor-request\", phase = \"request\" },  "
                                   "# /usr/share/graft/policies/acme/request.lua:9\n"));
}
