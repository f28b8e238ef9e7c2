// SPDX-License-Identifier: Apache-2.0
// Rule phases: rules run phase by phase (request, restrict, derive, check),
// in registration order within a phase, so the order of the policy's files
// cannot switch a site rule off, and what derives from the grant sees it final.
#include <catch2/catch.hpp>

#include "rules_support.hpp"

using namespace graft;
using namespace graft::rules_test;

namespace {

// A stand-in for a vendor's reading of the request: both GPUs, graphics.
const char* kVendorRequest = R"(
rule("vendor", "request", function(req, host, grant)
  grant:inject("asked")
  for _, gpu in ipairs(host.gpus) do grant:add_device(gpu.index, "all") end
  grant:add_capability("graphics", "asked")
end)
)";

// A stand-in for a derived file: written only while graphics is granted.
const char* kVendorDerive = R"(
rule("profile", "derive", function(req, host, grant)
  for _, name in ipairs(grant:capabilities()) do
    if name == "graphics" then return grant:write_file("/etc/profile.conf", "mask", "graphics") end
  end
end)
)";

const char* kSiteLease = R"(
rule("lease", function(req, host, grant)
  if not grant:injecting() then return end
  grant:restrict_devices({1}, "lease")
  grant:drop_capability("graphics", "no graphics here")
end)
)";

}  // namespace

TEST_CASE("a site rule loaded before the vendor's rules still restricts what they grant", "[rules][phases]") {
  RuleDir dir;
  Intent intent = evaluate_ok(dir, {{"site.lua", kSiteLease}, {"vendor.lua", kVendorRequest}});
  REQUIRE(intent.devices.size() == 1);
  CHECK(intent.devices[0].gpu == 1);
  CHECK(intent.capabilities.empty());
}

TEST_CASE("a derive rule sees the grant after every restriction, whatever the file order", "[rules][phases]") {
  RuleDir dir;
  Intent derived_first = evaluate_ok(dir, {{"derive.lua", kVendorDerive}, {"vendor.lua", kVendorRequest},
                                      {"site.lua", kSiteLease}});
  CHECK(derived_first.files.empty());
  Intent unrestricted = evaluate_ok(dir, {{"derive.lua", kVendorDerive}, {"vendor.lua", kVendorRequest}});
  REQUIRE(unrestricted.files.size() == 1);
  CHECK(unrestricted.files[0].path == "/etc/profile.conf");
}

TEST_CASE("a rule without a phase is a restrict rule, and rules of one phase run in registration order",
          "[rules][phases]") {
  RuleDir dir;
  Intent intent = evaluate_ok(dir, {{"a.lua", "rule('late', 'check', function(req, host, grant) grant:note('check') end)\n"
                                         "rule('site', function(req, host, grant) grant:note('restrict') end)\n"
                                         "rule('second', 'restrict', function(req, host, grant) grant:note('restrict 2') end)\n"
                                         "rule('first', 'request', function(req, host, grant) grant:note('request') end)\n"}});
  CHECK(intent.request_notes == std::vector<std::string>{"request", "restrict", "restrict 2", "check"});
}

TEST_CASE("a derive or check rule that changes the grant is an error naming the method and phase",
          "[rules][phases]") {
  RuleDir dir;
  for (const char* phase : {"derive", "check"}) {
    CAPTURE(phase);
    auto result = evaluate_files(dir, {{"late.lua", std::string("rule('late', '") + phase +
                                                        "', function(req, host, grant)\n  grant:add_capability('compute', 'x')\nend)\n"}});
    CHECK(error_of(result) == "rule 'late' (" + dir.path() + "/late.lua:2): add_capability: a '" + phase +
                                  "' rule cannot change what is granted (it runs once the grant is final); use a "
                                  "request or restrict rule");
  }
}

TEST_CASE("a check rule may still refuse the container", "[rules][phases]") {
  RuleDir dir;
  Intent intent = evaluate_ok(dir, {{"vendor.lua", kVendorRequest},
                               {"check.lua", "rule('cuda', 'check', function(req, host, grant) grant:deny('too old') end)\n"}});
  REQUIRE(intent.refusal);
  CHECK(intent.refusal->text == "too old");
}

TEST_CASE("a misspelt phase is an error suggesting the phase meant", "[rules][phases]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"a.lua", "rule('r', 'restirct', function() end)\n"}});
  CHECK_THAT(error_of(result), Catch::Contains("rule phase 'restirct' is not one of request, restrict, derive, "
                                               "check; did you mean 'restrict'?"));
}
