// SPDX-License-Identifier: Apache-2.0
// The audit log: one JSON line per evaluated container (id, request, the
// decisions with their origins, action count, phase durations, graft's peak
// memory), appended with a single write so concurrent hooks never interleave
// partial lines.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "graft/base/error.hpp"
#include "apply/apply_plan.hpp"
#include "evaluation/container_outcome.hpp"
#include "evaluation/container_plan.hpp"

namespace graft {

// Each record's "schema": docs/audit-log.md says what each field means and
// when this number changes; docs/audit-record.schema.json checks a record.
inline constexpr int audit_schema_version = 1;

struct AuditRecord {
  const Request& request;
  const ContainerPlan* evaluation;  // null when evaluation failed
  ContainerOutcome outcome;      // never untouched: that has no record
  std::string error;             // the one-line error, if any
  const std::vector<std::string>& env_patterns;  // Policy::audit_env
  const ApplyReport* applied = nullptr;  // set by hook/apply once the plan was carried out
};

Status append_audit_record(const std::string& path, const AuditRecord& record);

// The log opened for appending; -1 when `path` is empty (no log). The hook
// and `graft apply` open it before entering the container's mount namespace,
// where the host's path may not exist or may name another file. The caller
// closes the fd.
Result<int> open_audit_log(const std::string& path);

// Appends to a log opened by open_audit_log (nothing when fd is -1); `path`
// is for messages only.
Status append_audit_record(int fd, const std::string& path, const AuditRecord& record);

// The record as the JSON object a line holds (late_error_record.hpp builds on it).
nlohmann::json audit_record_json(const AuditRecord& record);

}  // namespace graft
