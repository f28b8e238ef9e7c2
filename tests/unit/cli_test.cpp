// SPDX-License-Identifier: Apache-2.0
// The `graft` command line as runtimes, admins and auditors use it: exit
// codes, one-line errors, JSON that matches the published schema, the audit log.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "hook_harness.hpp"
#include "fake_host.hpp"
#include "graft/build_config.hpp"
#include "run_command.hpp"
#include "site_policy.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::testing;
using graft::harness::line_count;

namespace {

struct CliHost {
  fixture::FakeHost host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(8));
  std::string audit = host.path("/audit.jsonl");
  std::string policy = fixture::write_site_policy(
      host, "[audit]\nlog = \"" + audit + "\"\n");
};

CliHost& cli_host() {
  static CliHost host;
  return host;
}


std::string write_bundle(const std::string& dir, bool debian_like, const std::string& env) {
  std::filesystem::create_directories(dir + "/rootfs/etc");
  if (debian_like) std::ofstream(dir + "/rootfs/etc/debian_version") << "12.7\n";
  std::ofstream(dir + "/config.json")
      << R"({"ociVersion":"1.0.2","root":{"path":"rootfs"},"process":{"env":[)" << env
      << R"(],"capabilities":{"bounding":["CAP_CHOWN"]}}})";
  return dir;
}

}  // namespace

TEST_CASE("graft version prints the version and exits 0", "[cli]") {
  auto result = run_graft({"version"});
  CHECK(result.exit_code == 0);
  CHECK(result.out.starts_with("graft "));
}

TEST_CASE("graft --version prints one line, the first line of graft version", "[cli]") {
  auto flag = run_graft({"--version"});
  CHECK(flag.exit_code == 0);
  CHECK(flag.out.starts_with("graft "));
  CHECK(line_count(flag.out) == 1);
  CHECK(run_graft({"version"}).out.starts_with(flag.out));
}

TEST_CASE("global options work after the subcommand as well as before it", "[cli]") {
  const std::string policy = cli_host().policy;
  auto before = run_graft({"--policy", policy, "--log-level", "error", "plan", "--env",
                           "NVIDIA_VISIBLE_DEVICES=1"});
  auto after = run_graft({"plan", "--policy", policy, "--env", "NVIDIA_VISIBLE_DEVICES=1",
                          "--log-level", "error"});
  INFO(after.err);
  REQUIRE(before.exit_code == 0);
  CHECK(after.exit_code == 0);
  CHECK(after.out == before.out);
}

TEST_CASE("a global option after a nested subcommand still applies", "[cli]") {
  auto result = run_graft({"policy", "check", "--policy", "/nonexistent/graft.toml"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("/nonexistent/graft.toml"));
}

TEST_CASE("every command's --help carries an example", "[cli]") {
  for (std::vector<std::string> command :
       {std::vector<std::string>{}, {"plan"}, {"inventory"}, {"policy"}, {"policy", "check"},
        {"hook"}, {"apply"}, {"verify"}, {"runtime"}, {"runtime", "configure"}, {"version"}}) {
    command.push_back("--help");
    auto result = run_graft(command);
    INFO("graft " << command.front());
    CHECK(result.exit_code == 0);
    CHECK_THAT(result.out, Catch::Contains("Example"));
  }
}

TEST_CASE("graft --help lists every command though a given command builds only its own options",
          "[cli]") {
  auto result = run_graft({"--help"});
  REQUIRE(result.exit_code == 0);
  for (const char* command : {"plan", "inventory", "policy", "hook", "apply", "verify", "cdi-hook", "cdi",
                              "log", "runtime", "completion", "version"})
    CHECK_THAT(result.out, Catch::Contains(std::string("  ") + command + " "));
  auto hook = run_graft({"--log-level", "error", "hook", "--help"});
  CHECK(hook.exit_code == 0);
  CHECK_THAT(hook.out, Catch::Contains("OCI hook"));
  CHECK_THAT(run_graft({"hok"}).err, Catch::Contains("did you mean 'hook'"));
}

TEST_CASE("graft's --help names documentation by its installed path, never a source-tree docs/ path",
          "[cli]") {
  for (std::vector<std::string> command :
       {std::vector<std::string>{"cdi"}, {"cdi-hook"}, {"hook"}, {"log"}, {"policy"}, {"policy", "test"},
        {"policy", "import"}}) {
    command.push_back("--help");
    auto result = run_graft(command);
    INFO("graft " << command.front() << " " << command[1]);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.out, Catch::Contains(std::string(build::doc_dir) + "/"));
    CHECK_THAT(result.out, !Catch::Contains("docs/"));
  }
}

TEST_CASE("an unknown option is a usage error with exit code 2", "[cli]") {
  CHECK(run_graft({"plan", "--no-such-flag"}).exit_code == 2);
}

TEST_CASE("a missing policy file is one line on stderr and exit code 1", "[cli]") {
  auto result = run_graft({"--policy", "/nonexistent/graft.toml", "plan", "--env", "A=B"});
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::Contains("/nonexistent/graft.toml"));
}

TEST_CASE("a refused container prints the plan, one error line, and exits 3", "[cli]") {
  auto& host = cli_host();
  auto result = run_graft({"--policy", host.policy, "plan", "--env", "NVIDIA_VISIBLE_DEVICES=99"});
  CHECK(result.exit_code == 3);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::Contains("refused") && Catch::Contains("99"));
  CHECK_THAT(result.out, Catch::Contains("REFUSED"));
}

TEST_CASE("the JSON plan validates against docs/plan-schema.json", "[cli]") {
  auto& host = cli_host();
  if (!host.host.device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  for (std::string devices : {"1", "all", "none", "void", "0:0"}) {
    auto result = run_graft({"--policy", host.policy, "plan", "--format", "json", "--env",
                             "NVIDIA_VISIBLE_DEVICES=" + devices, "--env",
                             "NVIDIA_DRIVER_CAPABILITIES=all"});
    INFO(devices << ": " << result.err);
    CHECK((result.exit_code == 0 || result.exit_code == 3));
    std::string file = host.host.path("/plan-" + std::to_string(std::hash<std::string>{}(devices)) + ".json");
    std::ofstream(file) << result.out;
    auto check = check_plan_schema(file);
    INFO(check.err);
    CHECK(check.exit_code == 0);
  }
}

std::vector<nlohmann::json> audit_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

TEST_CASE("an unknown command is a usage error naming it and the closest command", "[cli]") {
  auto typo = run_graft({"--policy", "/etc/graft/graft.toml", "plna"});
  CHECK(typo.exit_code == 2);
  CHECK(line_count(typo.err) == 1);
  CHECK_THAT(typo.err, Catch::StartsWith("graft: unknown command 'plna'; did you mean 'plan'?"));
  auto unrelated = run_graft({"test"});
  CHECK(unrelated.exit_code == 2);
  CHECK_THAT(unrelated.err, Catch::StartsWith("graft: unknown command 'test' (commands: plan,"));
  auto nested = run_graft({"policy", "chek"});
  CHECK(nested.exit_code == 2);
  CHECK_THAT(nested.err, Catch::StartsWith("graft: unknown command 'policy chek'; did you mean 'check'?"));
}

TEST_CASE("a dry-run graft plan leaves the audit log alone", "[cli]") {
  auto& host = cli_host();
  std::filesystem::remove(host.audit);
  run_graft({"--policy", host.policy, "plan", "--id", "c0", "--env", "NVIDIA_VISIBLE_DEVICES=2"});
  run_graft({"--policy", host.policy, "plan", "--id", "c0", "--env", "NVIDIA_VISIBLE_DEVICES=99"});
  CHECK_FALSE(std::filesystem::exists(host.audit));
}

TEST_CASE("graft plan --record logs an evaluation that fails as an error record", "[cli]") {
  auto& host = cli_host();
  std::string rule = host.host.path("/failing-rule.lua");
  std::ofstream(rule) << "rule('broken', function(req, host, grant) local x = policy.data.gpu_limit.max end)\n";
  std::string audit = host.host.path("/failing-audit.jsonl");
  std::filesystem::remove(audit);
  std::string policy = host.host.path("/failing-rule.toml");
  std::ofstream(policy) << "include = [\"" << fixture::source_policy_dir() << "/nvidia/nvidia.toml\"]\n"
                        << "rules = [\"" << rule << "\"]\n[audit]\nlog = \"" << audit << "\"\n[host]\n";
  for (const char* root : {"driver_root", "dev_root", "proc_root", "sys_root", "run_root"})
    std::ofstream(policy, std::ios::app) << root << " = \"" << host.host.root() << "\"\n";
  auto result = run_graft({"--policy", policy, "plan", "--record", "--id", "c3", "--env", "NVIDIA_VISIBLE_DEVICES=0"});
  CHECK(result.exit_code == 1);
  auto lines = audit_lines(audit);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0]["id"] == "c3");
  CHECK(lines[0]["outcome"] == "error");
  CHECK_THAT(lines[0]["error"].get<std::string>(), Catch::Contains("failing-rule.lua:1"));
}

TEST_CASE("graft plan --record appends one intact JSON line per evaluation to the audit log", "[cli]") {
  auto& host = cli_host();
  if (!host.host.device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  std::filesystem::remove(host.audit);
  run_graft({"--policy", host.policy, "plan", "--record", "--id", "c1", "--env", "NVIDIA_VISIBLE_DEVICES=2"});
  run_graft({"--policy", host.policy, "plan", "--record", "--id", "c2", "--env", "NVIDIA_VISIBLE_DEVICES=x"});
  auto lines = audit_lines(host.audit);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0]["id"] == "c1");
  CHECK(lines[0]["outcome"] == "planned");
  CHECK(lines[0]["actions"].get<int>() > 10);
  CHECK(lines[0]["duration_ms"]["total"].get<double>() > 0);
  CHECK(lines[0]["max_rss_kb"].get<long>() > 0);
  CHECK(lines[1]["max_rss_kb"].get<long>() > 0);
  CHECK(lines[0]["decisions"]["granted"]["devices"][0]["gpu"] == 2);
  CHECK(lines[1]["outcome"] == "refused");
}

TEST_CASE("a bundle with a non-Debian rootfs gets libraries in /usr/lib64", "[cli]") {
  auto& host = cli_host();
  if (!host.host.device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  std::string env = R"("NVIDIA_VISIBLE_DEVICES=0")";
  auto debian = run_graft({"--policy", host.policy, "plan", "--format", "json", "--bundle",
                           write_bundle(host.host.path("/bundle-debian"), true, env)});
  auto other = run_graft({"--policy", host.policy, "plan", "--format", "json", "--bundle",
                          write_bundle(host.host.path("/bundle-other"), false, env)});
  REQUIRE(debian.exit_code == 0);
  REQUIRE(other.exit_code == 0);
  CHECK(nlohmann::json::parse(debian.out)["lib_dir"] == fixture::FakeHost::lib_dir());
  CHECK(nlohmann::json::parse(other.out)["lib_dir"] == "/usr/lib64");
}

TEST_CASE("graft inventory lists the GPUs in minor order", "[cli]") {
  auto& host = cli_host();
  auto result = run_graft({"--policy", host.policy, "inventory", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  auto inventory = nlohmann::json::parse(result.out);
  CHECK(inventory["driver_version"] == "560.35.03");
  REQUIRE(inventory["gpus"].size() == 8);
  CHECK(inventory["gpus"][3]["minor"] == 3);
}

TEST_CASE("graft policy check names the file and line of a broken rule", "[cli]") {
  auto& host = cli_host();
  std::string rule = host.host.path("/broken.lua");
  std::ofstream(rule) << "rule('x', function(req, host, grant)\n  if then end\nend)\n";
  std::string policy = fixture::write_site_policy(host.host, "rules = [\"" + rule + "\"]\n");
  auto result = run_graft({"--policy", policy, "policy", "check"});
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::Contains("broken.lua:2"));
}
