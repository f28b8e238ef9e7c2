// SPDX-License-Identifier: Apache-2.0
// Builds the hook's Request: the OCI state on stdin names the bundle, the
// container's id and pid, and may carry annotations of its own.
#include "request/oci_state.hpp"
#include "request/request.hpp"

namespace graft {

void add_state_annotations(Request& request, const std::map<std::string, std::string>& annotations) {
  for (const auto& [key, value] : annotations) request.annotations.emplace(key, value);
}

Result<Request> request_from_state(const OciState& state) {
  auto request = request_from_bundle(state.bundle, state.id, state.pid);
  if (!request) return request.error();
  add_state_annotations(*request, state.annotations);
  return request;
}

}  // namespace graft
