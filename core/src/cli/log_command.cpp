// `graft log [FILE]`: the audit log (default: the policy's [audit] log),
// read line by line, filtered by container, outcome, rule and time
// (audit/log_filter.hpp), printed as one readable line per record or as the
// records themselves. A line that is no record is reported with its number
// and skipped, and a final note counts them: the log is evidence, and one
// torn or hand-edited line must not hide the rest.
#include <chrono>
#include <cstdio>
#include <fstream>

#include "audit/log_filter.hpp"
#include "audit/log_record.hpp"
#include "audit/time_bound.hpp"
#include "cli/commands.hpp"

namespace graft::cli {
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
  if (!in) return make_error("audit log {}: cannot open it", *path);
  std::size_t number = 0, skipped = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty()) continue;
    auto record = parse_log_line(line);
    if (!record) {
      ++skipped;
      std::fprintf(stderr, "graft: %s:%zu: skipped: %s\n", path->c_str(), number, record.error().message.c_str());
      continue;
    }
    if (!record_matches(*filter, *record)) continue;
    if (options.format == "json")
      std::printf("%s\n", record->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    else
      std::printf("%s\n", log_line_text(*record).c_str());
  }
  if (in.bad()) return make_error("audit log {}: read failed after line {}", *path, number);
  if (skipped > 0)
    std::fprintf(stderr, "graft: %s: %zu line%s skipped (not a record)\n", path->c_str(), skipped,
                 skipped == 1 ? "" : "s");
  return exit_ok;
}

}  // namespace graft::cli
