// SPDX-License-Identifier: Apache-2.0
// `graft log` on audit logs that `graft plan --record` wrote on a fake host
// (docs/audit-log.md#graft-log): filters, formats, and lines that are no record.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "fake_host.hpp"
#include "run_command.hpp"
#include "site_policy.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

// Three records in the policy's audit log: c1 planned (GPU 2), c2 refused
// (GPU 99), c3 planned (GPU 1).
struct LoggedHost {
  fixture::FakeHost host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(4));
  std::string audit = host.path("/log-audit.jsonl");
  std::string policy = fixture::write_site_policy(host, "[audit]\nlog = \"" + audit + "\"\n");

  LoggedHost() {
    for (auto [id, devices] : {std::pair{"c1", "2"}, {"c2", "99"}, {"train-3", "1"}})
      run_graft({"--policy", policy, "plan", "--record", "--id", id, "--env",
                 std::string("NVIDIA_VISIBLE_DEVICES=") + devices});
  }
};

LoggedHost& logged_host() {
  static LoggedHost host;
  return host;
}

std::vector<std::string> log_output_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("graft log reads the policy's audit log and prints one text line per record", "[log][cli]") {
  auto& host = logged_host();
  if (!host.host.device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  auto result = run_graft({"--policy", host.policy, "log"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  auto lines = log_output_lines(result.out);
  REQUIRE(lines.size() == 3);
  CHECK_THAT(lines[0], Catch::Matches(R"(20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z c1 planned devices=2 capabilities=\S+)"));
  CHECK_THAT(lines[1], Catch::Contains(" c2 refused ") && Catch::Contains("refused: ") &&
                           Catch::Contains("rule nvidia-visible-devices"));
  CHECK(result.err.empty());
}

TEST_CASE("graft log --outcome and --container keep only the matching records", "[log][cli]") {
  auto& host = logged_host();
  if (!host.host.device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  auto refused = run_graft({"log", host.audit, "--outcome", "refused"});
  REQUIRE(log_output_lines(refused.out).size() == 1);
  CHECK_THAT(refused.out, Catch::Contains(" c2 refused "));
  auto train = run_graft({"log", host.audit, "--container", "train-*", "--outcome", "planned"});
  REQUIRE(log_output_lines(train.out).size() == 1);
  CHECK_THAT(train.out, Catch::Contains(" train-3 planned devices=1 "));
}

TEST_CASE("graft log --rule keeps the records with a decision by that rule", "[log][cli]") {
  auto& host = logged_host();
  if (!host.host.device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  CHECK(log_output_lines(run_graft({"log", host.audit, "--rule", "nvidia-visible-*"}).out).size() == 3);
  auto none = run_graft({"log", host.audit, "--rule", "tenant-gpu-lease"});
  CHECK(none.exit_code == 0);
  CHECK(none.out.empty());
}

TEST_CASE("graft log --since and --until bound the records by time", "[log][cli]") {
  auto& host = logged_host();
  if (!host.host.device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  CHECK(log_output_lines(run_graft({"log", host.audit, "--since", "1h"}).out).size() == 3);
  CHECK(run_graft({"log", host.audit, "--until", "1h"}).out.empty());
  CHECK(run_graft({"log", host.audit, "--since", "2100-01-01T00:00:00Z"}).out.empty());
}

TEST_CASE("graft log --format json prints the records themselves, one per line", "[log][cli]") {
  auto& host = logged_host();
  if (!host.host.device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  auto result = run_graft({"log", host.audit, "--format", "json", "--container", "c1"});
  auto lines = log_output_lines(result.out);
  REQUIRE(lines.size() == 1);
  auto record = nlohmann::json::parse(lines[0]);
  CHECK(record["schema"] == 1);
  CHECK(record["id"] == "c1");
  CHECK(record["decisions"]["granted"]["devices"][0]["rule"] == "nvidia-visible-devices");
}

TEST_CASE("graft log skips lines that are no record, naming each line, and counts them at the end", "[log][cli]") {
  auto& host = logged_host();
  std::string log = host.host.path("/log-torn.jsonl");
  std::ofstream(log) << R"({"schema":1,"time":1795497600,"id":"ok1","outcome":"applied"})" << "\n"
                     << R"({"schema":1,"time":1795497601,"id":"torn","outc)" << "\n"
                     << "\n"
                     << R"(["not","an","object"])" << "\n"
                     << R"({"schema":1,"time":1795497602,"id":"ok2","outcome":"error","error":"boom"})" << "\n";
  auto result = run_graft({"log", log});
  CHECK(result.exit_code == 0);
  CHECK(log_output_lines(result.out) == std::vector<std::string>{"2026-11-24T05:20:00.000Z ok1 applied",
                                                          "2026-11-24T05:20:02.000Z ok2 error error: boom"});
  CHECK(log_output_lines(result.err) == std::vector<std::string>{"graft: " + log + ":2: skipped: not JSON",
                                                          "graft: " + log + ":4: skipped: not a JSON object",
                                                          "graft: " + log + ": 2 lines skipped (not a record)"});
}

TEST_CASE("graft log with a time that is neither RFC 3339 nor a span is a usage error", "[log][cli]") {
  auto result = run_graft({"log", "/nonexistent.jsonl", "--since", "yesterday"});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::StartsWith("graft: --since: 'yesterday' is not a time"));
}

TEST_CASE("graft log without a file, under a policy that names no audit log, says to name one", "[log][cli]") {
  auto& host = logged_host();
  std::string policy = host.host.path("/no-audit.toml");
  std::ofstream(policy) << "include = [\"" << fixture::source_policy_dir() << "/nvidia/nvidia.toml\"]\n";
  auto result = run_graft({"--policy", policy, "log"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("sets no [audit] log: name the log file"));
}

TEST_CASE("graft log --rule that matches no rule of the log says so and names the rules it has", "[log][cli]") {
  auto& host = logged_host();
  if (!host.host.device_nodes_created()) {
    GRAFT_SKIP("device nodes need root");
  }
  auto typo = run_graft({"log", host.audit, "--rule", "nvidia-visibel-devices"});
  CHECK(typo.exit_code == 0);
  CHECK(typo.out.empty());
  CHECK_THAT(typo.err, Catch::StartsWith("graft: --rule 'nvidia-visibel-devices' matches no rule in " + host.audit +
                                         "; did you mean 'nvidia-visible-devices'? (its rules: "));
  auto matched = run_graft({"log", host.audit, "--rule", "nvidia-*", "--container", "nothing-*"});
  CHECK(matched.err.empty());
}

TEST_CASE("graft log --outcome with a value it does not know is a graft: usage error with a did you mean",
          "[log][cli]") {
  auto result = run_graft({"log", "/nonexistent.jsonl", "--outcome", "refuse"});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::StartsWith("graft: --outcome: 'refuse' is not one of planned, applied, refused, "
                                           "error; did you mean 'refused'?"));
}

TEST_CASE("graft log on a file it cannot open says why, in the system's words", "[log][cli]") {
  auto result = run_graft({"log", "/nonexistent-dir/audit.jsonl"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("audit log /nonexistent-dir/audit.jsonl: cannot open it: No such file or "
                                         "directory"));
}

TEST_CASE("graft plan --record under a policy without an [audit] log says that nothing is written", "[log][cli]") {
  auto& host = logged_host();
  std::string policy = fixture::write_site_policy(host.host, "");
  auto result = run_graft({"--policy", policy, "plan", "--record", "--env", "NVIDIA_VISIBLE_DEVICES=none"});
  INFO(result.err);
  CHECK_THAT(result.err, Catch::Contains("graft: --record: " + policy + " sets no [audit] log, so nothing is written"));
}

TEST_CASE("graft log --help's example names a rule that a shipped policy defines", "[log][cli]") {
  auto help = run_graft({"log", "--help"});
  auto at = help.out.find("--rule ", help.out.find("Examples:"));
  REQUIRE(at != std::string::npos);
  std::string rule = help.out.substr(at + 7, help.out.find(' ', at + 7) - at - 7);
  bool defined = false;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(fixture::source_policy_dir())) {
    if (entry.path().extension() != ".lua") continue;
    std::ifstream in(entry.path());
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    defined |= text.find("rule(\"" + rule + "\"") != std::string::npos;
  }
  INFO(rule);
  CHECK(defined);
}
