// SPDX-License-Identifier: Apache-2.0
// The OCI state a runtime writes to a hook's stdin. Only id, pid, bundle and
// annotations are reliable across runtimes (crun says "created" where runc
// says "creating"), so only those are read; everything else is config.json's.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "graft/base/error.hpp"

namespace graft {

struct OciState {
  std::string id;
  int pid = 0;
  std::string bundle;  // absolute
  std::string status;  // informational only
  std::map<std::string, std::string> annotations;
};

// The state is small; anything past this on stdin is refused, not parsed.
inline constexpr std::size_t kMaxOciStateBytes = 1u << 20;

// Reads all of `fd` up to kMaxOciStateBytes.
Result<std::string> read_oci_state_text(int fd);

// Parses and checks the state: id non-empty, pid > 0, bundle absolute.
Result<OciState> parse_oci_state(std::string_view text);

}  // namespace graft
