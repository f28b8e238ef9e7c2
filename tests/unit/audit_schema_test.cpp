// SPDX-License-Identifier: Apache-2.0
// Real audit records validate against the published JSON Schema
// (docs/audit-record.schema.json, docs/audit-log.md), checked with a real
// validator (python3-jsonschema), and the schema can reject a record.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "hook_harness.hpp"
#include "run_command.hpp"
#include "site_policy.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

// Why the validator cannot run here, or "".
std::string schema_validator_missing() {
  auto probe = run_command({"/usr/bin/python3", "-c", "import jsonschema"});
  return probe.exit_code == 0 ? "" : "python3-jsonschema is not installed (tests/scripts/install-deps.sh --tests)";
}

// Validates every line of `log` against the schema; exit 0 when all pass.
CommandResult validate_audit_lines(const std::string& log) {
  return run_command({"/usr/bin/python3", "-c",
                      "import json,sys,jsonschema\n"
                      "schema = json.load(open(sys.argv[2]))\n"
                      "jsonschema.Draft202012Validator.check_schema(schema)\n"
                      "lines = open(sys.argv[1]).read().splitlines()\n"
                      "assert lines, 'no records'\n"
                      "for line in lines: jsonschema.Draft202012Validator(schema).validate(json.loads(line))\n",
                      log, std::string(GRAFT_SOURCE_DIR) + "/docs/audit-record.schema.json"});
}

// A policy over the shared hook host with its audit log at `audit` (emptied);
// `top` holds top-level keys, which must come before the [audit] table.
std::string schema_test_policy(const std::string& name, const std::string& audit, const std::string& top = "") {
  std::filesystem::remove(audit);
  return harness::write_policy(name, "", top + "[audit]\nlog = \"" + audit + "\"\n");
}

std::vector<std::string> planned_env(const std::string& devices) {
  return {"--env", "NVIDIA_VISIBLE_DEVICES=" + devices, "--env", "NVIDIA_DRIVER_CAPABILITIES=all"};
}

CommandResult record_plan(const std::string& policy, const std::string& id, const std::string& devices) {
  std::vector<std::string> argv{"--policy", policy, "plan", "--record", "--id", id};
  for (const auto& arg : planned_env(devices)) argv.push_back(arg);
  return run_graft(argv);
}

}  // namespace

TEST_CASE("planned records from graft plan --record validate against the audit record schema", "[audit]") {
  GRAFT_SKIP_IF(schema_validator_missing());
  if (!harness::host().device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  std::string audit = harness::host().path("/schema-planned.jsonl");
  std::string policy = schema_test_policy("schema-planned", audit);
  for (std::string devices : {"0", "all", "none", "void"}) REQUIRE(record_plan(policy, "p-" + devices, devices).exit_code == 0);
  auto check = validate_audit_lines(audit);
  INFO(check.err);
  CHECK(check.exit_code == 0);
}

TEST_CASE("a refused record from graft plan --record validates against the audit record schema", "[audit]") {
  GRAFT_SKIP_IF(schema_validator_missing());
  if (!harness::host().device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  std::string audit = harness::host().path("/schema-refused.jsonl");
  std::string policy = schema_test_policy("schema-refused", audit);
  REQUIRE(record_plan(policy, "r1", "99").exit_code == 3);
  auto check = validate_audit_lines(audit);
  INFO(check.err);
  CHECK(check.exit_code == 0);
}

TEST_CASE("an error record from graft plan --record validates against the audit record schema", "[audit]") {
  GRAFT_SKIP_IF(schema_validator_missing());
  std::string rule = harness::host().path("/schema-broken-rule.lua");
  std::ofstream(rule) << "rule('broken', function(req, host, grant) local x = policy.data.gpu_limit.max end)\n";
  std::string audit = harness::host().path("/schema-error.jsonl");
  std::string policy = schema_test_policy("schema-error", audit, "rules = [\"" + rule + "\"]\n");
  REQUIRE(record_plan(policy, "e1", "0").exit_code == 1);
  auto check = validate_audit_lines(audit);
  INFO(check.err);
  CHECK(check.exit_code == 0);
}

TEST_CASE("the error record a passing deadline writes validates against the audit record schema", "[audit]") {
  GRAFT_SKIP_IF(schema_validator_missing());
  // A pattern that backtracks for minutes inside C, so the deadline's
  // handler writes the record (late_error_record.hpp), not the command.
  std::string rule = harness::host().path("/schema-late-rule.lua");
  std::ofstream(rule) << "rule('late', function(req, host, grant) local _ = ('a'):rep(40000):find('.-.-.-b') end)\n";
  std::string audit = harness::host().path("/schema-late.jsonl");
  std::string policy =
      schema_test_policy("schema-late", audit, "rules = [\"" + rule + "\"]\n[limits]\ndeadline_ms = 1500\n");
  auto result = record_plan(policy, "l1", "0");
  INFO(result.err);
  REQUIRE(result.exit_code == 1);
  REQUIRE_THAT(result.err, Catch::Contains("did not finish within 1500 ms"));
  auto check = validate_audit_lines(audit);
  INFO(check.err);
  CHECK(check.exit_code == 0);
}

TEST_CASE("an applied record from graft apply validates against the audit record schema", "[audit]") {
  GRAFT_SKIP_IF(schema_validator_missing());
  if (!harness::hook_can_run() || ::geteuid() != 0) {
    GRAFT_SKIP("needs root and device nodes");
  }
  harness::PluginDir plugins;
  harness::Container container;
  std::string bundle = harness::write_bundle(harness::host().path("/schema-applied"), {R"("NVIDIA_VISIBLE_DEVICES=1")"});
  std::string audit = harness::host().path("/schema-applied.jsonl");
  std::filesystem::remove(audit);
  std::string policy = harness::write_policy("schema-applied", plugins.path(), "", audit);
  auto result = run_graft({"--policy", policy, "apply", "--pid", std::to_string(container.pid()), "--rootfs",
                           bundle + "/rootfs", "--bundle", bundle, "--id", "a1", "--trust-pid"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  auto check = validate_audit_lines(audit);
  INFO(check.err);
  CHECK(check.exit_code == 0);
}

TEST_CASE("the audit record schema rejects a record missing a required field", "[audit]") {
  GRAFT_SKIP_IF(schema_validator_missing());
  nlohmann::json record = {{"schema", 1}, {"time", 1795497600.0}, {"id", "c1"}, {"outcome", "error"},
                           {"error", "boom"}, {"request", {{"bundle", ""}, {"privileged", false},
                                                           {"env", nlohmann::json::object()},
                                                           {"annotations", nlohmann::json::object()}}}};
  std::string whole = harness::host().path("/schema-whole.jsonl");
  std::ofstream(whole) << record.dump() << "\n";
  REQUIRE(validate_audit_lines(whole).exit_code == 0);  // the record is valid as it is
  for (const char* field : {"schema", "time", "id", "outcome", "request", "error"}) {
    nlohmann::json missing = record;
    missing.erase(field);
    std::string log = harness::host().path(std::string("/schema-missing-") + field + ".jsonl");
    std::ofstream(log) << missing.dump() << "\n";
    auto check = validate_audit_lines(log);
    INFO(field);
    CHECK(check.exit_code != 0);
    CHECK_THAT(check.err, Catch::Contains("ValidationError"));
  }
}
