// SPDX-License-Identifier: Apache-2.0
#include "audit/late_error_record.hpp"

#include <nlohmann/json.hpp>

namespace graft {

LateRecord late_error_record(const AuditRecord& record) {
  AuditRecord as_error{record.request, record.evaluation, ContainerOutcome::error, "", record.env_patterns,
                       record.applied};
  nlohmann::json line = audit_record_json(as_error);
  line.erase("time");
  line.erase("error");
  std::string rest = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // The holes lead the object, where no other member's text can get in the
  // way; readers of JSON do not care about member order.
  std::string tail = rest.size() > 2 ? "," + rest.substr(1) : "}";
  return {R"({"error":")", R"(","time":)", tail + "\n"};
}

}  // namespace graft
