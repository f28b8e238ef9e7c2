// SPDX-License-Identifier: Apache-2.0
// A test case that cannot run here (not root, no runc, no 32-bit libraries)
// reports a skip, never a pass. GRAFT_SKIP records why and leaves the case;
// when the case ends without a failure, the listener in catch_main.cpp
// prints "graft-test skipped: <why>", which ctest's SKIP_REGULAR_EXPRESSION
// (tests/CMakeLists.txt, tests/e2e/CMakeLists.txt) reports as "Skipped".
// A case that failed before it skipped still fails.
#pragma once

#include <sstream>
#include <string>

namespace graft::test {

// The line ctest looks for; printed once per skipped case, at its end.
inline constexpr const char* kSkippedMarker = "graft-test skipped: ";

// Records that the running case cannot run here, and why. For helpers that
// decide for their caller (they return "", false or nullptr after it).
void note_skip(const std::string& why);

}  // namespace graft::test

// In a TEST_CASE: record the skip and return from the case.
#define GRAFT_SKIP(why)                              \
  do {                                               \
    std::ostringstream graft_skip_why_;              \
    graft_skip_why_ << why;                          \
    ::graft::test::note_skip(graft_skip_why_.str()); \
    return;                                          \
  } while (false)

// In a TEST_CASE: skip unless `reason_expr` (why it cannot run) is empty.
#define GRAFT_SKIP_IF(reason_expr)                          \
  do {                                                      \
    if (std::string graft_skip_reason_ = (reason_expr);     \
        !graft_skip_reason_.empty())                        \
      GRAFT_SKIP(graft_skip_reason_);                       \
  } while (false)
