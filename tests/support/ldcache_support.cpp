// SPDX-License-Identifier: Apache-2.0
// Out-of-line skip reasons for ldcache_support.hpp.
#include "ldcache_support.hpp"

#include <fmt/format.h>

namespace graft::ldcache_test {

// Why this machine cannot run these tests, or "".
std::string cannot_run() {
  if (::geteuid() != 0) return "needs root (chroot, a mount namespace, capabilities to drop)";
  return {};
}

// Why the host's ldconfig cannot serve, or "".
std::string no_static_ldconfig() {
  if (!cannot_run().empty()) return cannot_run();
  if (::access(kHostLdconfig, X_OK) != 0) return fmt::format("{} is missing", kHostLdconfig);
  return {};
}

std::string no_probes() {
  if (!cannot_run().empty()) return cannot_run();
#if defined(__x86_64__)
  return {};
#else
  return "the probe executables are x86-64 machine code";
#endif
}

}  // namespace graft::ldcache_test
