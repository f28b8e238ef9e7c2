// SPDX-License-Identifier: Apache-2.0
#include "request/oci_state.hpp"

#include <nlohmann/json.hpp>

#include "graft/base/bounded_read.hpp"

namespace graft {

Result<std::string> read_oci_state_text(int fd) {
  return read_bounded(fd, kMaxOciStateBytes, "OCI state on stdin");
}

Result<OciState> parse_oci_state(std::string_view text) {
  using json = nlohmann::json;
  json state = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (state.is_discarded() || !state.is_object())
    return make_error("OCI state on stdin is not a JSON object");
  OciState parsed;
  auto id = state.find("id");
  if (id == state.end() || !id->is_string() || id->get_ref<const std::string&>().empty())
    return make_error("OCI state: missing \"id\"");
  parsed.id = id->get<std::string>();
  auto pid = state.find("pid");
  if (pid == state.end() || !pid->is_number_integer() || pid->get<std::int64_t>() <= 0 ||
      pid->get<std::int64_t>() > 0x3fffffff)
    return make_error("OCI state for {}: \"pid\" must be a positive process id", parsed.id);
  parsed.pid = static_cast<int>(pid->get<std::int64_t>());
  auto bundle = state.find("bundle");
  if (bundle == state.end() || !bundle->is_string() ||
      !bundle->get_ref<const std::string&>().starts_with('/'))
    return make_error("OCI state for {}: \"bundle\" must be an absolute path", parsed.id);
  parsed.bundle = bundle->get<std::string>();
  if (auto status = state.find("status"); status != state.end() && status->is_string())
    parsed.status = status->get<std::string>();
  if (auto notes = state.find("annotations"); notes != state.end() && notes->is_object())
    for (const auto& [key, value] : notes->items())
      if (value.is_string()) parsed.annotations[key] = value.get<std::string>();
  return parsed;
}

}  // namespace graft
