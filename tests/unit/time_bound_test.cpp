// SPDX-License-Identifier: Apache-2.0
// The times `graft log --since/--until` accept and the time its text lines
// show (docs/audit-log.md#graft-log).
#include <catch2/catch.hpp>

#include "audit/time_bound.hpp"

using namespace graft;

namespace {
constexpr double kTimeBoundNow = 1795497600.0;  // 2026-11-24T05:20:00Z
}

TEST_CASE("an RFC 3339 time in UTC reads as its Unix seconds", "[log]") {
  auto time = parse_time_bound("2026-11-24T05:20:00Z", kTimeBoundNow);
  REQUIRE(time);
  CHECK(*time == 1795497600.0);
}

TEST_CASE("an RFC 3339 offset is east of UTC and is taken off", "[log]") {
  auto time = parse_time_bound("2026-11-24T07:20:00+02:00", kTimeBoundNow);
  REQUIRE(time);
  CHECK(*time == 1795497600.0);
  CHECK(*parse_time_bound("2026-11-24T00:20:00-05:00", kTimeBoundNow) == 1795497600.0);
}

TEST_CASE("an RFC 3339 fraction of a second is kept", "[log]") {
  auto time = parse_time_bound("2026-11-24T05:20:00.25Z", kTimeBoundNow);
  REQUIRE(time);
  CHECK(*time == Approx(1795497600.25));
}

TEST_CASE("a span counts back from now in seconds, minutes, hours and days, summed", "[log]") {
  CHECK(*parse_time_bound("90s", kTimeBoundNow) == kTimeBoundNow - 90);
  CHECK(*parse_time_bound("30m", kTimeBoundNow) == kTimeBoundNow - 1800);
  CHECK(*parse_time_bound("1h30m", kTimeBoundNow) == kTimeBoundNow - 5400);
  CHECK(*parse_time_bound("2d", kTimeBoundNow) == kTimeBoundNow - 172800);
}

TEST_CASE("a time that is neither RFC 3339 nor a span is an error quoting it and the forms", "[log]") {
  for (const char* text : {"", "yesterday", "1h30", "5w", "2026-11-24", "2026-11-24T05:20:00", "2026-13-01T00:00:00Z",
                           "2026-11-24T05:20:00Zjunk"}) {
    auto time = parse_time_bound(text, kTimeBoundNow);
    INFO(text);
    REQUIRE_FALSE(time);
    CHECK_THAT(time.error().message, Catch::Contains(std::string("'") + text + "'") && Catch::Contains("RFC 3339"));
  }
}

TEST_CASE("a time is shown in RFC 3339 UTC to the millisecond", "[log]") {
  CHECK(rfc3339_utc(1795497600.0) == "2026-11-24T05:20:00.000Z");
  CHECK(rfc3339_utc(1795497600.1234) == "2026-11-24T05:20:00.123Z");
  CHECK(rfc3339_utc(1795497600.9999) == "2026-11-24T05:20:01.000Z");
}
