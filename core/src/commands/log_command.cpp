// SPDX-License-Identifier: Apache-2.0
// `graft log [FILE]`: the audit log (default: the policy's [audit] log),
// read line by line, filtered by container, outcome, rule and time
// (audit/log_filter.hpp), printed as one readable line per record or as the
// records themselves. A line that is no record is reported with its number
// and skipped, and a final note counts them: the log is evidence, and one
// torn or hand-edited line must not hide the rest.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>

#include "audit/log_filter.hpp"
#include "audit/log_record.hpp"
#include "audit/time_bound.hpp"
#include "commands/command_steps.hpp"
#include "graft/base/did_you_mean.hpp"

namespace graft::commands {
namespace {

Result<LogFilter> log_filter_of(const LogOptions& options) {
  double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  LogFilter filter{options.container, options.outcomes, options.rule, std::nullopt, std::nullopt};
  if (!options.since.empty()) {
    auto since = parse_time_bound(options.since, now);
    if (!since) return since.error().context("--since");
    filter.since = *since;
  }
  if (!options.until.empty()) {
    auto until = parse_time_bound(options.until, now);
    if (!until) return until.error().context("--until");
    filter.until = *until;
  }
  return filter;
}

Result<std::string> log_path(const GlobalOptions& global, const LogOptions& options) {
  if (!options.file.empty()) return options.file;
  auto policy = load_site_policy(global);
  if (!policy) return policy.error();
  if (policy->audit_log.empty())
    return make_error("{} sets no [audit] log: name the log file (graft log FILE)", global.policy_path);
  return policy->audit_log;
}

// A --rule glob no rule of the log matches is most likely a typo: say so,
// with the rules the log does name, rather than print nothing.
void report_unmatched_rule(const std::string& glob, const std::string& path, const std::set<std::string>& rules) {
  for (const auto& rule : rules)
    if (log_glob_matches(glob, rule)) return;
  std::vector<std::string_view> names(rules.begin(), rules.end());
  std::string seen;
  for (const auto& rule : rules) seen += (seen.empty() ? "" : ", ") + rule;
  std::fprintf(stderr, "graft: --rule '%s' matches no rule in %s%s (%s)\n", glob.c_str(), path.c_str(),
               did_you_mean(glob, names).c_str(),
               rules.empty() ? "its records name no rule" : ("its rules: " + seen).c_str());
}

}  // namespace

Result<int> run_log(const GlobalOptions& global, const LogOptions& options) {
  auto filter = log_filter_of(options);
  if (!filter) {
    std::fprintf(stderr, "graft: %s\n", one_line(filter.error().message).c_str());
    return exit_usage;
  }
  auto path = log_path(global, options);
  if (!path) return path.error();
  std::ifstream in(*path);
  if (!in) return make_sys_error(errno, "audit log {}: cannot open it", *path);
  std::size_t number = 0, skipped = 0;
  std::set<std::string> rules;  // named by any record, for a --rule that matches none
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty()) continue;
    auto record = parse_log_line(line);
    if (!record) {
      ++skipped;
      std::fprintf(stderr, "graft: %s:%zu: skipped: %s\n", path->c_str(), number, record.error().message.c_str());
      continue;
    }
    if (!options.rule.empty())
      for (auto& rule : decision_rules(*record)) rules.insert(std::move(rule));
    if (!record_matches(*filter, *record)) continue;
    if (options.format == "json")
      std::printf("%s\n", record->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    else
      std::printf("%s\n", log_line_text(*record).c_str());
  }
  if (in.bad()) return make_error("audit log {}: read failed after line {}", *path, number);
  if (!options.rule.empty()) report_unmatched_rule(options.rule, *path, rules);
  if (skipped > 0)
    std::fprintf(stderr, "graft: %s: %zu line%s skipped (not a record)\n", path->c_str(), skipped,
                 skipped == 1 ? "" : "s");
  return exit_ok;
}

}  // namespace graft::commands
