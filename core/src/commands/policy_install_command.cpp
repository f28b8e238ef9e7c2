// SPDX-License-Identifier: Apache-2.0
// `graft policy install NEW`: NEW is copied beside the live site policy (the
// --policy path) under a temporary name, loaded and checked there as
// `graft policy check --strict` checks (against the host unless --offline),
// so its relative includes, rules and drop-ins resolve as they will once it
// is in place; then renamed over the live policy (rename(2): a hook starting
// meanwhile reads the old policy or the new one, never half). The new file
// is graft's own output, root's and 0644 whatever the live one was (a live
// file planted 0666 by another user must not pass that on to the policy
// every hook then trusts); a symlink at the live path is refused, not
// followed. A check that fails leaves the live policy as it was, byte for
// byte, and the temporary file removed.
#include <cstdio>

#include "commands/command_steps.hpp"
#include "graft/base/bounded_read.hpp"
#include "graft/base/staged_file.hpp"
#include "policy_check/check_policy.hpp"

namespace graft::commands {
namespace {

constexpr std::size_t kMaxPolicyBytes = 4u << 20;

std::string directory_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// The check's warnings and errors: what an admin must see when NEW is refused.
void print_problems(const std::vector<CheckFinding>& findings) {
  for (const CheckFinding& finding : findings)
    if (finding.kind.severity != Severity::info) std::printf("%s\n", finding_line(finding).c_str());
  std::fflush(stdout);
}

}  // namespace

Result<int> run_policy_install(const GlobalOptions& global, const PolicyInstallOptions& options) {
  const std::string& live = global.policy_path;
  auto text = read_file(options.file, kMaxPolicyBytes);
  if (!text) return text.error();
  auto staged = StagedFile::create(live, *text);
  if (!staged) return staged.error();
  GlobalOptions at_destination = global;
  at_destination.policy_path = directory_of(live) + "/" + staged->temporary_name();
  auto policy = load_site_policy(at_destination);
  if (!policy) return policy.error().context(options.file + " (checked as " + live + ")");
  auto findings = check_policy(*policy, CheckOptions{.offline = options.offline});
  if (auto verdict = check_verdict(findings, true); !verdict) {
    print_problems(findings);
    return verdict.error().context(options.file + " not installed, " + live + " unchanged");
  }
  if (auto committed = staged->commit(); !committed) return committed.error();
  std::printf("installed %s as %s: %zu rule files, %zu samples, checked strictly%s\n", options.file.c_str(),
              live.c_str(), policy->rules.size(), policy->samples.size(),
              options.offline ? " (--offline: not against this host)" : " against this host");
  return exit_ok;
}

}  // namespace graft::commands
