// SPDX-License-Identifier: Apache-2.0
// The audit record a deadline's signal handler writes (graft/engine/deadline.hpp):
// the "error" record the command would have written itself, prepared while
// it runs, with the error text and the time left as holes the handler fills
// without allocating. So a container whose hook overran still has its one
// audit line.
#pragma once

#include "audit/audit_log.hpp"
#include "graft/engine/deadline.hpp"

namespace graft {

// `record` with outcome "error" (its own outcome and error are ignored).
LateRecord late_error_record(const AuditRecord& record);

}  // namespace graft
