// SPDX-License-Identifier: Apache-2.0
// The graft binary under coreutils timeout(1), for tests of graft's own
// deadline: should that deadline ever fail to fire, the test fails with exit
// 137 (SIGKILL) after a minute instead of hanging the whole suite.
#pragma once

#include <string>
#include <vector>

namespace graft::testing {

inline std::vector<std::string> bounded_graft(const std::vector<std::string>& args) {
  std::vector<std::string> argv{"/usr/bin/timeout", "--signal=KILL", "60", GRAFT_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

}  // namespace graft::testing
