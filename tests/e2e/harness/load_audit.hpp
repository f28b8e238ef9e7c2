// SPDX-License-Identifier: Apache-2.0
// The audit log of the load tests, read back line by line. The hooks log to
// gpu_host()'s log and `graft plan` (which the check scripts are made from)
// logs nothing, so in a process of its own the file holds exactly one line
// per hook run: any other count, or a line that is not one whole JSON
// object, is a finding.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace graft::e2e {

struct LoadPolicies {
  std::string hook;       // plugins from the build tree, audit log below
  std::string plan;       // the same host and plugins, no audit log
  std::string audit_log;  // gpu_host().audit_log, created empty
};

// Written once per process on gpu_host(), under its etc/graft.
const LoadPolicies& load_policies();

struct AuditLines {
  std::vector<nlohmann::json> records;  // each line that is a JSON object
  std::vector<std::string> torn;        // each line that is not, and a last line without its newline
  std::size_t lines = 0;
};

AuditLines read_audit_lines(const std::string& path);

// The records of container `id` in `lines`.
std::vector<nlohmann::json> records_of(const AuditLines& lines, const std::string& id);

// The most "applied" hooks that were running at one moment, each taken to
// run from its record's time less its phases' duration_ms to that time.
std::size_t most_hooks_at_once(const AuditLines& lines);

}  // namespace graft::e2e
