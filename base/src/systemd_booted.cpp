// SPDX-License-Identifier: Apache-2.0
// sd_booted(3) without libsystemd (systemd_booted.hpp).
#include "graft/base/systemd_booted.hpp"

#include <unistd.h>

namespace graft {

bool systemd_booted(const std::string& root) {
  const std::string base = root == "/" ? "" : root;
  return ::access((base + "/run/systemd/system").c_str(), F_OK) == 0;
}

}  // namespace graft
