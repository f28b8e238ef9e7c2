// SPDX-License-Identifier: Apache-2.0
// Builds an audit Request from command-line flags, for `graft plan` without a bundle.
#include "paths/paths.hpp"
#include "request/request.hpp"

namespace graft {
namespace {

Status split_pairs(const std::vector<std::string>& pairs, const char* flag,
                   std::map<std::string, std::string>& out) {
  for (const auto& pair : pairs) {
    auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0)
      return make_error("{} '{}': expected KEY=VALUE", flag, pair);
    out[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  return ok_status();
}

}  // namespace

Result<Request> request_from_flags(const std::vector<std::string>& env,
                                   const std::vector<std::string>& annotations, bool privileged,
                                   const std::string& rootfs) {
  Request request;
  request.container_id = "audit";
  request.privileged = privileged;
  if (auto status = split_pairs(env, "--env", request.env); !status) return status.error();
  if (auto status = split_pairs(annotations, "--annotation", request.annotations); !status)
    return status.error();
  if (!rootfs.empty()) {
    request.rootfs = normalize_path(rootfs);
    request.layout = read_image_layout(request.rootfs);
  }
  return request;
}

}  // namespace graft
