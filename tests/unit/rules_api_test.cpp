// SPDX-License-Identifier: Apache-2.0
// The rules Lua API: what each grant method records (with the file:line of
// the call), the read-only views, and how rules are registered and run.
#include <catch2/catch.hpp>

#include "rules_support.hpp"

using namespace graft;
using namespace graft::rules_test;

namespace {

// Evaluates one file holding `text`; returns the Intent (requires success).
Intent run_ok(const RuleDir& dir, const std::string& text, const Request& request = test_request()) {
  return evaluate_ok(dir, {{"api.lua", text}}, request);
}

Origin at(const RuleDir& dir, int line) { return Origin{dir.path() + "/api.lua", line, 0}; }

}  // namespace

TEST_CASE("grant:inject records the reason and the line that called it", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, "rule('r', function(req, host, grant)\n  grant:inject('asked')\nend)\n");
  CHECK(intent.inject);
  CHECK(intent.inject_reason.text == "asked");
  CHECK(intent.inject_reason.origin == at(dir, 2));
}

TEST_CASE("grant:skip makes the container a non-GPU container", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:inject('asked')
  grant:skip('void')
end))");
  CHECK_FALSE(intent.inject);
  CHECK(intent.inject_reason.text == "void");
  CHECK(intent.inject_reason.origin == at(dir, 3));
}

TEST_CASE("grant:add_device grants a whole GPU and implies inject", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:add_device(1, 'index 1')
  grant:add_device(1, 'again')
end))");
  CHECK(intent.inject);
  REQUIRE(intent.devices.size() == 1);
  CHECK(intent.devices[0].gpu == 1);
  CHECK_FALSE(intent.devices[0].partition.has_value());
  CHECK(intent.devices[0].reason.text == "index 1");
  CHECK(intent.devices[0].reason.origin == at(dir, 2));
}

TEST_CASE("grant:add_device of a GPU the host lacks is an error naming the rule and line", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"api.lua", "rule('r', function(req, host, grant)\n  grant:add_device(7, 'x')\nend)"}});
  CHECK(error_of(result) == "rule 'r' (" + dir.path() + "/api.lua:2): no GPU with index 7 (the host has 2)");
}

TEST_CASE("grant:add_partition grants one partition of a GPU", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, "rule('r', function(req, host, grant)\n  grant:add_partition(1, 1, 'mig')\nend)");
  REQUIRE(intent.devices.size() == 1);
  CHECK(intent.devices[0].gpu == 1);
  CHECK(intent.devices[0].partition == 1u);
  CHECK(intent.devices[0].reason.origin == at(dir, 2));
  auto unknown = evaluate_files(dir, {{"api.lua", "rule('r', function(req, host, grant)\n  grant:add_partition(0, 0, 'x')\nend)"}});
  CHECK(error_of(unknown) == "rule 'r' (" + dir.path() + "/api.lua:2): GPU 0 has no partition 0");
}

TEST_CASE("grant:remove_device drops a GPU with its partitions and records one denial", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:add_device(0, 'a')
  grant:add_partition(1, 0, 'b')
  grant:add_partition(1, 1, 'c')
  grant:remove_device(1, 'not here')
  grant:remove_device(1, 'twice')
end))");
  REQUIRE(intent.devices.size() == 1);
  CHECK(intent.devices[0].gpu == 0);
  REQUIRE(intent.denials.size() == 1);
  CHECK(intent.denials[0].what == "GPU 1");
  CHECK(intent.denials[0].reason.text == "not here");
  CHECK(intent.denials[0].reason.origin == at(dir, 5));
}

TEST_CASE("grant:restrict_devices keeps the listed GPUs and records denials for the rest", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:add_device(0, 'a')
  grant:add_partition(1, 0, 'b')
  grant:restrict_devices({"GPU-aaaaaaaa-0000-0000-0000-000000000001", "GPU-0badc0de-1111-2222-3333-444455556666", 9}, 'lease')
end))");
  REQUIRE(intent.devices.size() == 1);
  CHECK(intent.devices[0].gpu == 1);
  REQUIRE(intent.denials.size() == 1);
  CHECK(intent.denials[0].what == "GPU 0");
  CHECK(intent.denials[0].reason.text == "lease");
  CHECK(intent.denials[0].reason.origin == at(dir, 4));
}

TEST_CASE("grant:restrict_devices accepts indices and a list from policy.data", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:add_device(0, 'a')
  grant:add_device(1, 'b')
  grant:restrict_devices(policy.data.leases["team-b"], 'lease')
end))");
  REQUIRE(intent.devices.size() == 1);
  CHECK(intent.devices[0].gpu == 0);
  REQUIRE(intent.denials.size() == 1);
  CHECK(intent.denials[0].what == "GPU 1");
  auto bad = evaluate_files(dir, {{"api.lua", "rule('r', function(req, host, grant)\n  grant:restrict_devices({true}, 'x')\nend)"}});
  CHECK(error_of(bad) == "rule 'r' (" + dir.path() +
                             "/api.lua:2): restrict_devices: entry 1 is a boolean, expected a GPU index or UUID");
}

TEST_CASE("grant:restrict_devices refuses an entry that is neither a GPU index nor a UUID", "[rules]") {
  RuleDir dir;
  auto typo = evaluate_files(dir, {{"api.lua", "rule('r', function(req, host, grant)\n  grant:add_device(0, 'a')\n"
                                               "  grant:restrict_devices({'GPU-4f0e6c3a-5e2b'}, 'lease')\nend)"}});
  CHECK(error_of(typo) == "rule 'r' (" + dir.path() +
                              "/api.lua:3): restrict_devices: entry 1 ('GPU-4f0e6c3a-5e2b') is neither a GPU "
                              "index nor a UUID");
  auto negative = evaluate_files(dir, {{"api.lua", "rule('r', function(req, host, grant)\n"
                                                   "  grant:restrict_devices({0, -1}, 'lease')\nend)"}});
  CHECK_THAT(error_of(negative), Catch::Contains("entry 2 (-1) is not a GPU index"));
}

TEST_CASE("grant:restrict_devices that leaves an injecting container no GPU refuses it, naming the reason",
          "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:inject('asked')
  grant:add_device(0, 'a')
  grant:restrict_devices({"GPU-0badc0de-1111-2222-3333-444455556666"}, 'lease for team-a')
  grant:add_capability('compute', 'never reached')
end))");
  REQUIRE(intent.refusal);
  CHECK_THAT(intent.refusal->text, Catch::StartsWith("lease for team-a: none of the granted GPUs is in the list"));
  CHECK(intent.refusal->origin == at(dir, 4));
  CHECK(intent.capabilities.empty());
  REQUIRE(intent.denials.size() == 1);
  CHECK(intent.denials[0].what == "GPU 0");
}

TEST_CASE("grant:restrict_devices with allow_none may leave a container without GPUs", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:inject('asked')
  grant:add_device(0, 'a')
  grant:restrict_devices({}, 'no lease', {allow_none = true})
end))");
  CHECK_FALSE(intent.refusal);
  CHECK(intent.devices.empty());
  auto bad = evaluate_files(dir, {{"api.lua", "rule('r', function(req, host, grant)\n"
                                              "  grant:restrict_devices({}, 'x', {allownone = true})\nend)"}});
  CHECK_THAT(error_of(bad), Catch::Contains("unknown option 'allownone' (the only option is allow_none)"));
}

TEST_CASE("grant:remove_device of the last granted GPU refuses the container, as restrict_devices does",
          "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:add_device(0, 'a')
  grant:add_device(1, 'b')
  grant:remove_device(0, 'lease for team-a')
  grant:remove_device(1, 'lease for team-a')
  grant:add_capability('compute', 'never reached')
end))");
  REQUIRE(intent.refusal);
  CHECK(intent.refusal->text ==
        "lease for team-a: the last granted GPU was removed, so the container would start with no GPU");
  CHECK(intent.refusal->origin == at(dir, 5));
  CHECK(intent.capabilities.empty());
  CHECK(intent.denials.size() == 2);
}

TEST_CASE("grant:remove_device with allow_none may leave a container without GPUs", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:add_device(0, 'a')
  grant:remove_device(0, 'cpu only', {allow_none = true})
end))");
  CHECK_FALSE(intent.refusal);
  CHECK(intent.devices.empty());
  auto bad = evaluate_files(dir, {{"api.lua", "rule('r', function(req, host, grant)\n"
                                              "  grant:remove_device(0, 'x', {allownone = true})\nend)"}});
  CHECK_THAT(error_of(bad), Catch::Contains("remove_device: unknown option 'allownone'"));
}

TEST_CASE("a refusal for a GPU-less container does not tell the container how a rule would allow it",
          "[rules]") {
  RuleDir dir;
  for (const char* call : {"grant:restrict_devices({}, 'lease')", "grant:remove_device(0, 'lease')"}) {
    Intent intent = run_ok(dir, std::string("rule('r', function(req, host, grant)\n  grant:add_device(0, 'a')\n  ") +
                                    call + "\nend)");
    INFO(call);
    REQUIRE(intent.refusal);
    CHECK(intent.refusal->text.ends_with("so the container would start with no GPU"));
    CHECK_THAT(intent.refusal->text, !Catch::Contains("allow_none"));
  }
}

TEST_CASE("grant:restrict_devices on a container granted no GPU refuses nothing", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:inject('asked')
  grant:restrict_devices({}, 'lease')
end))");
  CHECK_FALSE(intent.refusal);
}

TEST_CASE("grant:add_capability records a capability once, with the first reason", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:add_capability('compute', 'default')
  grant:add_capability('compute', 'again')
end))");
  REQUIRE(intent.capabilities.size() == 1);
  CHECK(intent.capabilities[0].name == "compute");
  CHECK(intent.capabilities[0].reason.text == "default");
  CHECK(intent.capabilities[0].reason.origin == at(dir, 2));
}

TEST_CASE("a misspelt capability name is an error suggesting the defined one", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"api.lua", "rule('r', function(req, host, grant)\n  grant:add_capability('compue', 'x')\nend)"}});
  CHECK(error_of(result) == "rule 'r' (" + dir.path() +
                                "/api.lua:2): unknown capability 'compue' (not defined by the policy); did you mean 'compute'?");
}

TEST_CASE("a grant method called with a dot instead of a colon says so", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"api.lua", "rule('r', function(req, host, grant)\n  grant.deny('no')\nend)"}});
  CHECK(error_of(result) == "rule 'r' (" + dir.path() +
                                "/api.lua:2): deny: call it with a colon, grant:deny(...), not grant.deny(...) (the "
                                "first argument was a string, not the grant)");
}

TEST_CASE("a misspelt grant method is an error naming the closest method", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"api.lua", "rule('r', function(req, host, grant)\n  grant:add_capabilty('compute', 'x')\nend)"}});
  CHECK(error_of(result) == "rule 'r' (" + dir.path() +
                                "/api.lua:2): grant has no method 'add_capabilty'; did you mean 'add_capability'?");
}

TEST_CASE("an unknown capability name is an error", "[rules]") {
  RuleDir dir;
  for (const char* method : {"add_capability", "drop_capability"}) {
    CAPTURE(method);
    auto result = evaluate_files(
        dir, {{"api.lua", std::string("rule('r', function(req, host, grant)\n  grant:") + method + "('bogus', 'x')\nend)"}});
    CHECK(error_of(result) ==
          "rule 'r' (" + dir.path() + "/api.lua:2): unknown capability 'bogus' (not defined by the policy)");
  }
}

TEST_CASE("grant:drop_capability removes a granted capability and records a denial", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:add_capability('compute', 'default')
  grant:add_capability('display', 'default')
  grant:drop_capability('display', 'unprivileged')
  grant:drop_capability('graphics', 'never granted')
end))");
  REQUIRE(intent.capabilities.size() == 1);
  CHECK(intent.capabilities[0].name == "compute");
  REQUIRE(intent.denials.size() == 1);
  CHECK(intent.denials[0].what == "capability display");
  CHECK(intent.denials[0].reason.text == "unprivileged");
  CHECK(intent.denials[0].reason.origin == at(dir, 4));
}

TEST_CASE("grant:add_extra and grant:drop_extra manage named extras", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:add_extra('mig-config', 'asked')
  grant:add_extra('mig-monitor', 'asked')
  grant:drop_extra('mig-config', 'not allowed')
end))");
  REQUIRE(intent.extras.size() == 1);
  CHECK(intent.extras[0].name == "mig-monitor");
  CHECK(intent.extras[0].reason.origin == at(dir, 3));
  REQUIRE(intent.denials.size() == 1);
  CHECK(intent.denials[0].what == "extra mig-config");
  auto unknown = evaluate_files(dir, {{"api.lua", "rule('r', function(req, host, grant)\n  grant:add_extra('fabric', 'x')\nend)"}});
  CHECK(error_of(unknown) == "rule 'r' (" + dir.path() + "/api.lua:2): unknown extra 'fabric' (not defined by the policy)");
}

TEST_CASE("grant:set_env records a variable and a later call replaces it", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:set_env('GRAFT_SITE', 'lab', 'site')
  grant:set_env('GRAFT_SITE', 'prod', 'override')
end))");
  REQUIRE(intent.env.size() == 1);
  CHECK(intent.env[0].name == "GRAFT_SITE");
  CHECK(intent.env[0].value == "prod");
  CHECK(intent.env[0].reason.text == "override");
  CHECK(intent.env[0].reason.origin == at(dir, 3));
  auto bad = evaluate_files(dir, {{"api.lua", "rule('r', function(req, host, grant)\n  grant:set_env('A=B', 'x', 'y')\nend)"}});
  CHECK(error_of(bad) == "rule 'r' (" + dir.path() + "/api.lua:2): invalid environment variable name 'A=B'");
}

TEST_CASE("grant:write_file records a file and a later call for the same path replaces it", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:write_file('/etc/x.conf', 'one', 'first')
  grant:write_file('/etc/x.conf', 'two', 'second')
end))");
  REQUIRE(intent.files.size() == 1);
  CHECK(intent.files[0].path == "/etc/x.conf");
  CHECK(intent.files[0].content == "two");
  CHECK(intent.files[0].reason.origin == at(dir, 3));
}

TEST_CASE("grant:write_file refuses relative paths, '..' and oversized content", "[rules]") {
  RuleDir dir;
  for (std::string call : {"grant:write_file('etc/x', 'a', 'r')", "grant:write_file('/etc/../x', 'a', 'r')",
                           "grant:write_file('/etc/x', string.rep('a', 70000), 'r')"}) {
    auto result = evaluate_files(dir, {{"api.lua", "rule('r', function(req, host, grant)\n  " + call + "\nend)"}});
    INFO(call);
    CHECK_THAT(error_of(result), Catch::Contains("api.lua:2): write_file:"));
  }
}

TEST_CASE("grant:note appends to the request notes", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, "rule('r', function(req, host, grant)\n  grant:note('one')\n  grant:note('two')\nend)");
  CHECK(intent.request_notes == std::vector<std::string>{"one", "two"});
}

TEST_CASE("grant:deny stops later rules and yields a refusal with the rule's line", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('first', function(req, host, grant)
  grant:note('before')
  grant:deny('not on this node')
  grant:note('after')
end)
rule('second', function(req, host, grant)
  grant:note('second ran')
end))");
  REQUIRE(intent.refusal.has_value());
  CHECK(intent.refusal->text == "not on this node");
  CHECK(intent.refusal->origin == at(dir, 3));
  CHECK(intent.request_notes == std::vector<std::string>{"before"});
}

TEST_CASE("grant:deny inside pcall still refuses the container", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('first', function(req, host, grant)
  pcall(grant.deny, grant, 'no')
  grant:note('after')
end))");
  REQUIRE(intent.refusal.has_value());
  CHECK(intent.refusal->text == "no");
  CHECK(intent.request_notes.empty());
}

TEST_CASE("grant's read accessors reflect what earlier rules granted", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('grants', function(req, host, grant)
  grant:add_device(0, 'a')
  grant:add_partition(1, 1, 'b')
  grant:add_capability('utility', 'c')
  grant:add_extra('mig-monitor', 'd')
end)
rule('reads', function(req, host, grant)
  for _, d in ipairs(grant:devices()) do grant:note(d.gpu .. ':' .. tostring(d.partition)) end
  grant:note(table.concat(grant:capabilities(), ','))
  grant:note(table.concat(grant:extras(), ','))
  grant:note(tostring(grant:injecting()))
  grant:devices()[1].gpu = 1  -- a copy: changes nothing
end))");
  CHECK(intent.request_notes == std::vector<std::string>{"0:nil", "1:1", "utility", "mig-monitor", "true"});
  CHECK(intent.devices[0].gpu == 0);
}

TEST_CASE("req shows the request", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:note(req.id .. ' ' .. req.bundle .. ' ' .. req.rootfs .. ' ' .. tostring(req.privileged))
  grant:note(req.env.GPUS .. ' ' .. tostring(req.env.MISSING) .. ' ' .. req.annotations['example.com/tenant'])
  local m = req.mounts[1]
  grant:note(#req.mounts .. ' ' .. m.destination .. ' ' .. m.source .. ' ' .. m.type .. ' ' .. table.concat(m.options, ','))
  grant:note(tostring(req.trusted.env) .. ' ' .. tostring(req.trusted['volume-mounts']))
  local keys = {}
  for k, v in pairs(req.env) do keys[#keys + 1] = k .. '=' .. v end
  grant:note(table.concat(keys, ' '))
  grant:note(tostring(req.env == req.env))
end))");
  CHECK(intent.request_notes ==
        std::vector<std::string>{"3f2a /run/bundles/3f2a /run/bundles/3f2a/rootfs false", "all nil team-a",
                                 "1 /data /srv/data bind rbind,ro", "false true", "GPUS=all PATH=/usr/bin",
                                 "true"});
}

TEST_CASE("req.trusted follows the privileged channel set for privileged containers", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, "rule('r', function(req, host, grant)\n  grant:note(tostring(req.trusted.env))\nend)",
                         test_request(true));
  CHECK(intent.request_notes == std::vector<std::string>{"true"});
}

TEST_CASE("policy shows capability and extra names and the data table", "[rules]") {
  RuleDir dir;
  Intent intent = run_ok(dir, R"(rule('r', function(req, host, grant)
  grant:note(table.concat(policy.default_capabilities, ','))
  grant:note(table.concat(policy.capabilities, ','))
  grant:note(table.concat(policy.extras, ','))
  local site = policy.data.site
  grant:note(site.name .. ' ' .. #site.racks .. ' ' .. site.racks[3] .. ' ' .. site.weight .. ' ' .. tostring(site.enabled))
  local keys = {}
  for k in pairs(site) do keys[#keys + 1] = k end
  grant:note(table.concat(keys, ','))
  local sum = 0
  for _, r in ipairs(site.racks) do sum = sum + r end
  grant:note(tostring(sum) .. ' ' .. tostring(policy.data.nothing))
end))");
  CHECK(intent.request_notes ==
        std::vector<std::string>{"compute,utility", "compute,display,graphics,utility,video", "mig-config,mig-monitor",
                                 "lab 3 8 1.5 true", "enabled,name,racks,weight", "16 nil"});
}

TEST_CASE("rules run in file order, then in registration order", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"one.lua", "rule('b', function(r, h, g) g:note('b') end)\n"
                                                 "rule('a', function(r, h, g) g:note('a') end)\n"},
                                     {"two.lua", "rule('c', function(r, h, g) g:note('c') end)\n"}});
  REQUIRE(result.ok());
  CHECK(result->request_notes == std::vector<std::string>{"b", "a", "c"});
}

TEST_CASE("a rule name used twice is an error naming the first definition", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"api.lua", "rule('x', function() end)\nrule('x', function() end)\n"}});
  CHECK(error_of(result) == dir.path() + "/api.lua:2: rule 'x' is already defined at " + dir.path() + "/api.lua:1");
}

TEST_CASE("a repeated rule name caught with pcall leaves the rules registered before and after it", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"api.lua", "rule('x', function(r, h, g) g:note('first x') end)\n"
                                                 "local ok = pcall(rule, 'x', function(r, h, g) g:note('second x') end)\n"
                                                 "rule('y', function(r, h, g) g:note('y, ' .. tostring(ok)) end)\n"}});
  REQUIRE(result.ok());
  CHECK(result->request_notes == std::vector<std::string>{"first x", "y, false"});
}

TEST_CASE("three hundred rules in one file all run, in registration order", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"many.lua", R"(
    for i = 1, 300 do
      rule("r" .. i, function(r, h, g) if i % 100 == 0 then g:note("r" .. i) end end)
    end
  )"}});
  REQUIRE(result.ok());
  CHECK(result->request_notes == std::vector<std::string>{"r100", "r200", "r300"});
}

TEST_CASE("rule() called from inside a rule is an error", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"api.lua", "rule('x', function()\n  rule('y', function() end)\nend)\n"}});
  CHECK(error_of(result) == "rule 'x' (" + dir.path() + "/api.lua:2): rule() can only be called while rule files load");
}

TEST_CASE("a grant method without its reason is an error", "[rules]") {
  RuleDir dir;
  auto result = evaluate_files(dir, {{"api.lua", "rule('x', function(req, host, grant)\n  grant:inject()\nend)\n"}});
  CHECK(error_of(result) ==
        "rule 'x' (" + dir.path() + "/api.lua:2): bad argument #1 to 'inject' (string expected, got no value)");
}

TEST_CASE("an unreadable rule file is an error naming it", "[rules]") {
  Policy policy = test_policy({"/nonexistent/graft/rules.lua"});
  auto result = evaluate_rules(test_request(), test_inventory(), policy);
  CHECK(error_of(result) == "rule file: /nonexistent/graft/rules.lua: cannot read: No such file or directory");
}

TEST_CASE("no rules yield an empty intent", "[rules]") {
  auto result = evaluate_rules(test_request(), test_inventory(), test_policy({}));
  REQUIRE(result.ok());
  CHECK_FALSE(result->inject);
  CHECK(result->devices.empty());
}
