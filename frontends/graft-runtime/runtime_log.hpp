// SPDX-License-Identifier: Apache-2.0
// graft-runtime's errors: one line "graft-runtime: ..." on stderr, and the
// same message appended to the file runc's --log names, in runc's format,
// because that file is where containerd and Docker look for why a runtime
// command failed.
#pragma once

#include <string>
#include <string_view>

#include "runtime_command_line.hpp"

namespace graft::runtime {

// One error entry as runc logs it: `json` gives
// {"level":"error","msg":MESSAGE,"time":TIME}, anything else logrus's text
// form, time="TIME" level=error msg="MESSAGE". Ends in a newline. Pure.
std::string runtime_log_line(std::string_view format, std::string_view message, std::string_view time);

// Now as RFC 3339 in UTC with nanoseconds, as logrus writes times.
std::string log_time_now();

// "graft-runtime: " + message on stderr, and in the --log file when the
// command line names one (a log that cannot be written is left alone: the
// stderr line still says what failed).
void report_runtime_error(const RuntimeCommandLine& line, std::string_view message);

}  // namespace graft::runtime
