// SPDX-License-Identifier: Apache-2.0
// The unified diff `graft runtime configure --dry-run` prints: diff -u's
// headers and hunks, /dev/null for a file created or removed.
#include <catch2/catch.hpp>

#include "runtime_config/unified_diff.hpp"

using graft::runtime_config::unified_diff;

TEST_CASE("dry-run diff: one changed region is one hunk with three lines of context", "[runtime-configure]") {
  std::string before = "a\nb\nc\nd\ne\nf\ng\n";
  std::string after = "a\nb\nc\nd\nD2\ne\nf\ng\n";
  CHECK(unified_diff("/etc/x.conf", before, after) ==
        "--- /etc/x.conf\n+++ /etc/x.conf\n@@ -2,6 +2,7 @@\n b\n c\n d\n+D2\n e\n f\n g\n");
}

TEST_CASE("dry-run diff: changes far apart are separate hunks", "[runtime-configure]") {
  std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
  std::string after = "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n";
  CHECK(unified_diff("f", before, after) ==
        "--- f\n+++ f\n@@ -1,3 +1,4 @@\n+0\n 1\n 2\n 3\n@@ -10,3 +11,4 @@\n 10\n 11\n 12\n+13\n");
}

TEST_CASE("dry-run diff: a new file is diffed from /dev/null, a removed one to it", "[runtime-configure]") {
  CHECK(unified_diff("/etc/n", std::nullopt, std::string("x\ny\n")) ==
        "--- /dev/null\n+++ /etc/n\n@@ -0,0 +1,2 @@\n+x\n+y\n");
  CHECK(unified_diff("/etc/n", std::string("x\n"), std::nullopt) == "--- /etc/n\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n");
}

TEST_CASE("dry-run diff: the same text has no diff", "[runtime-configure]") {
  CHECK(unified_diff("f", std::string("a\n"), std::string("a\n")).empty());
  CHECK(unified_diff("f", std::nullopt, std::nullopt).empty());
}

TEST_CASE("dry-run diff: a last line without a newline is marked as diff -u marks it", "[runtime-configure]") {
  CHECK(unified_diff("f", std::string("a"), std::string("a\n")) ==
        "--- f\n+++ f\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+a\n");
}
