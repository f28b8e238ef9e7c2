// Catch2's entry point, shared by the unit tests (graft_tests) and the
// end-to-end tests (graft_e2e_tests), and the listener that turns a case's
// recorded skip (skip.hpp) into the line ctest reports as "Skipped".
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <iostream>

#include "skip.hpp"

namespace graft::test {
namespace {

std::string& skip_reason() {
  static std::string reason;
  return reason;
}

// Prints the marker only for a case that skipped and did not fail: a
// failure before the skip must stay a failure.
struct SkipListener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;

  void testCaseStarting(const Catch::TestCaseInfo& info) override {
    TestEventListenerBase::testCaseStarting(info);
    skip_reason().clear();
  }

  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    if (!skip_reason().empty() && stats.totals.assertions.failed == 0)
      std::cout << kSkippedMarker << skip_reason() << std::endl;
    TestEventListenerBase::testCaseEnded(stats);
  }
};

CATCH_REGISTER_LISTENER(SkipListener)

}  // namespace

void note_skip(const std::string& why) {
  if (skip_reason().empty()) skip_reason() = why;
  WARN("cannot run here: " << why);
}

}  // namespace graft::test
