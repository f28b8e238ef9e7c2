// SPDX-License-Identifier: Apache-2.0
// Cases the suite never runs by themselves (hidden, "[.]"): the test of how
// a run that skipped ends (tests/scripts/skip-exit-code-test.sh) runs them to
// see the marker and the exit codes of catch_main.cpp at work.
#include <catch2/catch.hpp>

#include "skip.hpp"

TEST_CASE("a case that cannot run here", "[.][skip-probe]") {
  GRAFT_SKIP("this probe always skips");
}

TEST_CASE("a case that fails", "[.][fail-probe]") {
  FAIL("this probe always fails");
}

TEST_CASE("a case that passes", "[.][pass-probe]") {
  SUCCEED("this probe always passes");
}
