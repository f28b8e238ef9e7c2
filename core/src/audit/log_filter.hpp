// SPDX-License-Identifier: Apache-2.0
// Which audit records `graft log` shows: a pure predicate over one record
// (docs/audit-log.md), so the command only reads lines and prints.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace graft {

struct LogFilter {
  std::string container;              // fnmatch glob on `id`; empty: any
  std::vector<std::string> outcomes;  // any of these; empty: any
  std::string rule;                   // fnmatch glob on a decision's `rule`; empty: any
  std::optional<double> since;        // Unix seconds, inclusive
  std::optional<double> until;        // Unix seconds, inclusive
};

// True when `record` passes every part of `filter`. A record is an object
// with `id`, `outcome` and `time` (log_record.hpp); other fields may be
// missing or of another type, which matches no rule.
bool record_matches(const LogFilter& filter, const nlohmann::json& record);

// Whether `text` matches the filter's glob `pattern` (fnmatch, no flags).
bool log_glob_matches(const std::string& pattern, const std::string& text);

// The rules named by the record's decisions (granted, denied, refusal), each once.
std::vector<std::string> decision_rules(const nlohmann::json& record);

}  // namespace graft
