// SPDX-License-Identifier: Apache-2.0
// Logging set-up for a front end: every log line goes to stderr as
// "PROGRAM: LEVEL: message", so a runtime's log shows which binary spoke.
#pragma once

#include <string>

namespace graft {

// `level`: trace, debug, info, warn, error, critical or off.
void setup_logging(const std::string& program, const std::string& level);

}  // namespace graft
