// SPDX-License-Identifier: Apache-2.0
// Catch2's entry point, shared by the unit tests (graft_tests) and the
// end-to-end tests (graft_e2e_tests), and the listener that turns a case's
// recorded skip (skip.hpp) into the line ctest reports as "Skipped", or,
// for a run of many cases, into the exit code --skipped-exit-code names.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <iostream>

#include "skip.hpp"

namespace graft::test {
namespace {

std::string& skip_reason() {
  static std::string reason;
  return reason;
}

int skipped_cases = 0;

// Prints the marker only for a case that skipped and did not fail: a
// failure before the skip must stay a failure.
struct SkipListener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;

  void testCaseStarting(const Catch::TestCaseInfo& info) override {
    TestEventListenerBase::testCaseStarting(info);
    skip_reason().clear();
  }

  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    if (!skip_reason().empty() && stats.totals.assertions.failed == 0) {
      std::cout << kSkippedMarker << skip_reason() << std::endl;
      ++skipped_cases;
    }
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

// A run of many cases (the sanitizer tree runs each test file as one) cannot
// use the marker: ctest's SKIP_REGULAR_EXPRESSION would report the whole run
// skipped even when a case beside the skipped one failed. With
// --skipped-exit-code N, a run in which no case failed and one skipped
// exits N (ctest's SKIP_RETURN_CODE); a run with a failure never exits N.
int main(int argc, char* argv[]) {
  Catch::Session session;
  int skipped_exit_code = 0;
  session.cli(session.cli() |
              Catch::clara::Opt(skipped_exit_code, "code")["--skipped-exit-code"](
                  "exit with this code when no case failed and a case skipped"));
  const int failed = session.run(argc, argv);
  if (skipped_exit_code == 0) return failed;
  if (failed == skipped_exit_code) return skipped_exit_code == 1 ? 2 : 1;
  if (failed != 0) return failed;
  return graft::test::skipped_cases > 0 ? skipped_exit_code : 0;
}
