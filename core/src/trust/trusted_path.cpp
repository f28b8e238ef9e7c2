// SPDX-License-Identifier: Apache-2.0
// check_trusted_path (graft/engine/trusted_path.hpp): open_trusted_file's
// walk and checks, the fd then closed.
#include "graft/engine/trusted_path.hpp"

#include "trust/trusted_file.hpp"

namespace graft {

Status check_trusted_path(const std::string& path) {
  auto file = open_trusted_file(path);
  if (!file) return file.error();
  return ok_status();
}

}  // namespace graft
