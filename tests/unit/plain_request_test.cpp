// SPDX-License-Identifier: Apache-2.0
// Deciding without the rules whether a container asks for anything
// (engine/plain_request.hpp): only what a channel the policy trusts for the
// container reads counts; the env channel reads the variables the policy
// declares in [audit] env, or every variable when it declares none.
#include <catch2/catch.hpp>

#include "engine/plain_request.hpp"
#include "rules/evaluate_rules.hpp"

using namespace graft;

namespace {

Policy channel_policy() {
  Policy policy;
  policy.trusted_privileged = {"env", "annotations", "volume-mounts"};
  policy.trusted_unprivileged = {"env", "annotations"};
  policy.audit_env = {"VENDOR_*", "CUDA_VERSION"};
  return policy;
}

}  // namespace

TEST_CASE("a container with only undeclared env asks for nothing", "[plain-request]") {
  Request request;
  request.env = {{"PATH", "/bin"}, {"HOME", "/root"}};
  request.mounts = {RequestMount{"/proc", "proc", "proc", {}}};  // volume mounts are not trusted unprivileged
  CHECK(request_channel_items(request, channel_policy()).empty());
}

TEST_CASE("a declared request variable, an annotation or a trusted mount is a request", "[plain-request]") {
  Request request;
  request.env = {{"PATH", "/bin"}, {"VENDOR_DEVICES", "all"}};
  request.annotations = {{"example.com/tenant", "a"}};
  CHECK(request_channel_items(request, channel_policy()) ==
        std::vector<std::string>{"env VENDOR_DEVICES", "annotation example.com/tenant"});
  Request privileged;
  privileged.privileged = true;
  privileged.mounts = {RequestMount{"/dev/x", "/dev/null", "bind", {}}};
  CHECK(request_channel_items(privileged, channel_policy()) == std::vector<std::string>{"mount /dev/x"});
}

TEST_CASE("with no request variables declared, every variable under a trusted env channel is a request",
          "[plain-request]") {
  Policy policy = channel_policy();
  policy.audit_env.clear();
  Request request;
  request.env = {{"PATH", "/bin"}};
  CHECK(request_channel_items(request, policy) == std::vector<std::string>{"env PATH"});
  policy.trusted_unprivileged = {"annotations"};  // env not trusted: not read as a request
  CHECK(request_channel_items(request, policy).empty());
}

TEST_CASE("a container is let through only when the evaluation failed on the rules' load", "[plain-request]") {
  Policy policy = channel_policy();
  policy.rules = {SourcedString{"/nonexistent/graft-plain-request.lua", {}}};
  Request request;
  request.container_id = "c1";
  auto load = registered_rules(policy);
  REQUIRE_FALSE(load);
  auto warning = pass_through_without_rules(policy, request, load.error().context("container c1"));
  REQUIRE(warning);
  CHECK_THAT(*warning, Catch::StartsWith("container c1: let through untouched") &&
                           Catch::Contains("graft-plain-request.lua"));
  CHECK_FALSE(pass_through_without_rules(policy, request, Error{"container c1: no driver found"}));
  request.env = {{"VENDOR_DEVICES", "0"}};
  CHECK_FALSE(pass_through_without_rules(policy, request, load.error().context("container c1")));
}

TEST_CASE("An evaluation error that only ends with the rules' load failure is not let through",
          "[plain-request]") {
  Policy policy = channel_policy();
  policy.rules = {SourcedString{"/nonexistent/graft-plain-request.lua", {}}};
  Request request;
  request.container_id = "c1";
  auto load = registered_rules(policy);
  REQUIRE_FALSE(load);
  // The same words, but not the load failing: a rule or a stage quoting it.
  Error quoted{"container c1: rule 'x' (a.lua:3): " + load.error().message};
  CHECK_FALSE(pass_through_without_rules(policy, request, quoted));
}
