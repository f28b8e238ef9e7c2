// The audit log: one JSON line per evaluated container (id, request, the
// decisions with their origins, action count, phase durations), appended
// with a single write so concurrent hooks never interleave partial lines.
#pragma once

#include <string>

#include "base/error.hpp"
#include "apply/apply_plan.hpp"
#include "engine/evaluate.hpp"

namespace graft {

struct AuditRecord {
  const Request& request;
  const Evaluation* evaluation;  // null when evaluation failed
  std::string outcome;           // "planned", "applied", "refused", "error"
  std::string error;             // the one-line error, if any
  const std::vector<std::string>& env_patterns;  // Policy::audit_env
  const ApplyReport* applied = nullptr;  // set by hook/apply once the plan was carried out
};

Status append_audit_record(const std::string& path, const AuditRecord& record);

}  // namespace graft
