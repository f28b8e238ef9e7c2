// SPDX-License-Identifier: Apache-2.0
// Times as `graft log` reads and prints them: the audit record's `time` is
// Unix seconds; an admin writes RFC 3339 ("2026-11-24T05:00:00Z") or a span
// back from now ("30m", "1h30m", "2d"), and reads RFC 3339 in UTC.
#pragma once

#include <string>
#include <string_view>

#include "graft/base/error.hpp"

namespace graft {

// Unix seconds for `text`: an RFC 3339 date-time (fraction and offset
// optional only in that "Z", "z" or "+HH:MM"/"-HH:MM" ends it), or a span of
// NUMBER UNIT pairs (s, m, h, d) counted back from `now`.
Result<double> parse_time_bound(std::string_view text, double now);

// "2026-11-24T05:19:22.123Z": `seconds` in UTC, to the millisecond.
std::string rfc3339_utc(double seconds);

}  // namespace graft
