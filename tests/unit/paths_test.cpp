// SPDX-License-Identifier: Apache-2.0
// Path arithmetic (core/src/paths/paths.hpp): normalize_path and join_root,
// pure string work on the paths policies and inventories are made of.
#include <catch2/catch.hpp>

#include "paths/paths.hpp"

using graft::join_root;
using graft::normalize_path;

TEST_CASE("normalize_path gives an already normal path back as it is", "[paths]") {
  CHECK(normalize_path("/") == "/");
  CHECK(normalize_path("/usr/lib/x86_64-linux-gnu/libcuda.so.1") ==
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
  CHECK(normalize_path("/a/.hidden/b..c/...") == "/a/.hidden/b..c/...");
}

TEST_CASE("normalize_path collapses repeated slashes, '.' and a trailing slash", "[paths]") {
  CHECK(normalize_path("//usr///lib/") == "/usr/lib");
  CHECK(normalize_path("/usr/./lib/.") == "/usr/lib");
  CHECK(normalize_path("/.") == "/");
  CHECK(normalize_path("") == "/");
}

TEST_CASE("normalize_path resolves '..' lexically and never climbs above the root", "[paths]") {
  CHECK(normalize_path("/usr/lib/../bin") == "/usr/bin");
  CHECK(normalize_path("/..") == "/");
  CHECK(normalize_path("/../../etc/passwd") == "/etc/passwd");
  CHECK(normalize_path("/a/b/..") == "/a");
}

TEST_CASE("normalize_path makes a relative path absolute", "[paths]") {
  CHECK(normalize_path("usr/lib") == "/usr/lib");
  CHECK(normalize_path("./usr/../lib") == "/lib");
}

TEST_CASE("join_root puts a path under a root, normalising both, and root '/' leaves the path as it is",
          "[paths]") {
  CHECK(join_root("/run/driver", "/usr/lib") == "/run/driver/usr/lib");
  CHECK(join_root("/run/driver/", "usr//lib/") == "/run/driver/usr/lib");
  CHECK(join_root("/", "/usr/lib") == "/usr/lib");
  CHECK(join_root("", "/usr/./lib") == "/usr/lib");
}
