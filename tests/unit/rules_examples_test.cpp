// SPDX-License-Identifier: Apache-2.0
// The example site rules in policies/examples behave as their headers say.
// A stand-in vendor rule runs first and grants what a GPU container asked for.
#include <catch2/catch.hpp>

#include "rules_support.hpp"

using namespace graft;
using namespace graft::rules_test;

namespace {

// Grants both GPUs, four capabilities, and the extras listed in env EXTRAS,
// unless env SKIP is set.
const char* kVendorStandIn = R"(
rule("vendor", function(req, host, grant)
  if req.env.SKIP then return grant:skip("not a GPU container") end
  for _, gpu in ipairs(host.gpus) do grant:add_device(gpu.index, "all") end
  for _, name in ipairs({"compute", "utility", "display", "graphics"}) do
    grant:add_capability(name, "asked")
  end
  for extra in (req.env.EXTRAS or ""):gmatch("[^,]+") do grant:add_extra(extra, "asked") end
end)
)";

std::string example(const char* name) { return std::string(GRAFT_SOURCE_DIR) + "/policies/examples/" + name; }

Result<Intent> evaluate_example(const char* name, const Request& request) {
  RuleDir dir;
  Policy policy = test_policy({dir.write("vendor.lua", kVendorStandIn), example(name)});
  return evaluate_rules(request, test_inventory(), policy);
}

std::vector<std::string> capability_names(const Intent& intent) {
  std::vector<std::string> names;
  for (const auto& c : intent.capabilities) names.push_back(c.name);
  return names;
}

std::vector<unsigned> gpu_indices(const Intent& intent) {
  std::vector<unsigned> gpus;
  for (const auto& d : intent.devices) gpus.push_back(d.gpu);
  return gpus;
}

Request with(Request request, const std::map<std::string, std::string>& env,
             const std::map<std::string, std::string>& annotations) {
  for (const auto& [k, v] : env) request.env[k] = v;
  request.annotations = annotations;
  return request;
}

}  // namespace

TEST_CASE("no-display-unprivileged drops display and graphics for unprivileged containers", "[rules]") {
  auto result = evaluate_example("no-display-unprivileged.lua", test_request(false));
  INFO(error_of(result));
  REQUIRE(result.ok());
  CHECK(capability_names(*result) == std::vector<std::string>{"compute", "utility"});
  REQUIRE(result->denials.size() == 2);
  CHECK(result->denials[0].what == "capability display");
  CHECK(result->denials[1].what == "capability graphics");
  CHECK(result->denials[0].reason.text == "unprivileged container");
  CHECK(result->denials[0].reason.origin.file == example("no-display-unprivileged.lua"));
}

TEST_CASE("no-display-unprivileged leaves privileged containers alone", "[rules]") {
  auto result = evaluate_example("no-display-unprivileged.lua", test_request(true));
  REQUIRE(result.ok());
  CHECK(capability_names(*result) == std::vector<std::string>{"compute", "utility", "display", "graphics"});
  CHECK(result->denials.empty());
}

TEST_CASE("tenant-gpu-lease restricts a tenant to its leased GPUs by UUID", "[rules]") {
  auto result = evaluate_example("tenant-gpu-lease.lua", with(test_request(), {}, {{"example.com/tenant", "team-a"}}));
  INFO(error_of(result));
  REQUIRE(result.ok());
  CHECK(gpu_indices(*result) == std::vector<unsigned>{1});
  REQUIRE(result->denials.size() == 1);
  CHECK(result->denials[0].what == "GPU 0");
  CHECK(result->denials[0].reason.text == "lease for team-a");
}

TEST_CASE("tenant-gpu-lease accepts leases written as GPU indices", "[rules]") {
  auto result = evaluate_example("tenant-gpu-lease.lua", with(test_request(), {}, {{"example.com/tenant", "team-b"}}));
  REQUIRE(result.ok());
  CHECK(gpu_indices(*result) == std::vector<unsigned>{0});
}

TEST_CASE("tenant-gpu-lease refuses a tenant without a lease", "[rules]") {
  auto result = evaluate_example("tenant-gpu-lease.lua", with(test_request(), {}, {{"example.com/tenant", "team-z"}}));
  REQUIRE(result.ok());
  REQUIRE(result->refusal.has_value());
  CHECK(result->refusal->text == "tenant 'team-z' has no GPU lease (policy.data.leases)");
  CHECK(result->refusal->origin.file == example("tenant-gpu-lease.lua"));
}

TEST_CASE("tenant-gpu-lease refuses a tenant whose lease names none of this host's GPUs", "[rules]") {
  auto result = evaluate_example("tenant-gpu-lease.lua", with(test_request(), {}, {{"example.com/tenant", "team-c"}}));
  REQUIRE(result.ok());
  REQUIRE(result->refusal.has_value());
  CHECK_THAT(result->refusal->text, Catch::StartsWith("lease for team-c: none of the granted GPUs is in the list"));
  CHECK(result->devices.empty());
}

TEST_CASE("tenant-gpu-lease fails on a lease entry that is neither a GPU index nor a UUID", "[rules]") {
  auto result = evaluate_example("tenant-gpu-lease.lua", with(test_request(), {}, {{"example.com/tenant", "team-d"}}));
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(error_of(result), Catch::Contains("entry 1 ('GPU-aaaaaaaa-0000') is neither a GPU index nor a UUID"));
}

TEST_CASE("tenant-gpu-lease ignores containers without a tenant or without GPUs", "[rules]") {
  auto untagged = evaluate_example("tenant-gpu-lease.lua", with(test_request(), {}, {}));
  REQUIRE(untagged.ok());
  CHECK(gpu_indices(*untagged) == std::vector<unsigned>{0, 1});
  auto cpu_only = evaluate_example("tenant-gpu-lease.lua",
                                   with(test_request(), {{"SKIP", "1"}}, {{"example.com/tenant", "team-z"}}));
  REQUIRE(cpu_only.ok());
  CHECK_FALSE(cpu_only->refusal.has_value());
}

TEST_CASE("mig-config-namespace allows MIG management from an admin namespace", "[rules]") {
  auto result = evaluate_example("mig-config-namespace.lua",
                                 with(test_request(true), {{"EXTRAS", "mig-config,mig-monitor"}},
                                      {{"io.kubernetes.pod.namespace", "gpu-admin"}}));
  INFO(error_of(result));
  REQUIRE(result.ok());
  CHECK_FALSE(result->refusal.has_value());
  CHECK(result->extras.size() == 2);
}

TEST_CASE("mig-config-namespace refuses MIG management from any other namespace", "[rules]") {
  auto result = evaluate_example("mig-config-namespace.lua",
                                 with(test_request(true), {{"EXTRAS", "mig-config"}},
                                      {{"io.kubernetes.pod.namespace", "team-a"}}));
  REQUIRE(result.ok());
  REQUIRE(result->refusal.has_value());
  CHECK(result->refusal->text ==
        "mig-config is reserved for policy.data.mig_admin_namespaces, not namespace 'team-a'");
}

TEST_CASE("mig-config-namespace refuses MIG management outside any pod", "[rules]") {
  auto result = evaluate_example("mig-config-namespace.lua",
                                 with(test_request(true), {{"EXTRAS", "mig-monitor"}}, {}));
  REQUIRE(result.ok());
  REQUIRE(result->refusal.has_value());
  CHECK(result->refusal->text ==
        "mig-monitor is reserved for policy.data.mig_admin_namespaces, not a container outside any pod namespace");
}

TEST_CASE("mig-config-namespace leaves containers that did not ask alone", "[rules]") {
  auto result = evaluate_example("mig-config-namespace.lua",
                                 with(test_request(), {}, {{"io.kubernetes.pod.namespace", "team-a"}}));
  REQUIRE(result.ok());
  CHECK_FALSE(result->refusal.has_value());
  CHECK(gpu_indices(*result) == std::vector<unsigned>{0, 1});
}
