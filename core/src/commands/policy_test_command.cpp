// SPDX-License-Identifier: Apache-2.0
// `graft policy test`: the case files under the given paths run against the
// site policy (policy_cases/suite.hpp); a report per case, a summary, rule
// coverage, and optionally a JUnit file. Exit 1 when a case fails.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "commands/command_steps.hpp"
#include "policy_cases/case_file.hpp"
#include "policy_cases/junit.hpp"
#include "policy_cases/suite.hpp"

namespace graft::commands {
namespace {

Status write_junit(const std::string& path, const SuiteResult& result, const std::string& policy_path) {
  std::ofstream out(path, std::ios::trunc);
  out << render_junit(result, "graft policy test " + policy_path);
  out.close();
  if (!out) return make_error("cannot write the JUnit file {}", path);
  return ok_status();
}

}  // namespace

Result<int> run_policy_test(const GlobalOptions& global, const PolicyTestOptions& options) {
  std::vector<std::string> paths = options.paths;
  if (paths.empty())
    paths.push_back((std::filesystem::path(global.policy_path).parent_path() / "tests").string());
  auto files = find_case_files(paths);
  if (!files) {
    std::fprintf(stderr, "graft: %s\n", one_line(files.error().message).c_str());
    return exit_usage;
  }
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  SuiteResult result = run_suite(*files, *policy);
  if (!options.junit.empty())
    if (auto status = write_junit(options.junit, result, global.policy_path); !status) return status.error();
  if (options.format == "json")
    std::printf("%s\n", render_suite_json(result).dump(2).c_str());
  else
    std::fputs(render_suite_text(result).c_str(), stdout);
  return result.passed() ? exit_ok : exit_error;
}

}  // namespace graft::commands
