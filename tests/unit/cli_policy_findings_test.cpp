// SPDX-License-Identifier: Apache-2.0
// `graft policy check` and `graft policy show KEY` through the graft binary:
// the override warning, the undeclared [data] read, and one key's origin.
#include <string>

#include <catch2/catch.hpp>

#include "policy_support.hpp"
#include "run_command.hpp"

namespace cli_policy_findings_test {

using namespace graft::testing;
using graft::policy_test::PolicyFiles;

const std::string kPolicyDir = GRAFT_SOURCE_DIR "/policies";

CommandResult graft_with(const std::string& policy, std::vector<std::string> args) {
  std::vector<std::string> argv{"--policy", policy, "--policy-dir", kPolicyDir};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_graft(argv);
}

TEST_CASE("graft policy check warns of a drop-in that overrides the site file's [requests]", "[cli][layers]") {
  PolicyFiles files;
  auto site = files.write("graft.toml", "include = [\"nvidia\"]\ndrop_ins = [\"graft.d\"]\n"
                                        "[requests]\nunprivileged = [\"annotations\"]\n");
  auto drop_in = files.write("graft.d/50-open.toml", "[requests]\nunprivileged = [\"env\"]\n");
  auto result = graft_with(site, {"policy", "check", "--offline"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("warning  requests.unprivileged = [\"env\"] at " + drop_in +
                                         ":2:16 overrides [\"annotations\"] from " + site + ":4:16"));
}

TEST_CASE("graft policy check fails on a rule reading a data key the schema does not declare", "[cli][data-schema]") {
  PolicyFiles files;
  auto rule = files.write("cap.lua", "rule('cap', function(req, host, grant)\n"
                                     "  if policy.data.max_gpu then grant:note('cap') end\nend)\n");
  auto site = files.write("graft.toml", "include = [\"nvidia\"]\nrules = [\"cap.lua\"]\n[data]\nmax_gpus = 2\n");
  auto result = graft_with(site, {"policy", "check", "--offline"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.out, Catch::Contains("error    rule 'cap' (" + rule +
                                         ":2) reads data.max_gpu, which [data_schema] does not declare"));
}

TEST_CASE("graft policy show KEY prints the key's origin and what it overrode", "[cli][origins]") {
  PolicyFiles files;
  auto site = files.write("graft.toml", "include = [\"nvidia\"]\n[requests]\nunprivileged = [\"annotations\"]\n");
  auto result = graft_with(site, {"policy", "show", "requests.unprivileged"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("requests.unprivileged = [\"annotations\"]\n  set at " + site +
                                           ":3:16\n  overrode [\"env\", \"annotations\"] from " + kPolicyDir +
                                           "/nvidia/nvidia.toml:36:16\n"));
  auto unknown = graft_with(site, {"policy", "show", "requests.unpriviliged"});
  CHECK(unknown.exit_code == 1);
  CHECK_THAT(unknown.err, Catch::Contains("did you mean 'requests.unprivileged'?"));
}

}  // namespace cli_policy_findings_test
