// SPDX-License-Identifier: Apache-2.0
// Where an installed graft looks for its policies and plugins: next to its
// own binary when that directory is there, else where it was configured.
#include <catch2/catch.hpp>

#include "graft/engine/install_dirs.hpp"

using graft::installed_dir;

namespace {

bool every_path_exists(const std::string&) { return true; }
bool no_path_exists(const std::string&) { return false; }

}  // namespace

TEST_CASE("an installed binary finds its directory relative to itself", "[install]") {
  CHECK(installed_dir("/opt/graft/bin", "../share/graft/policies", "/usr/local/share/graft/policies",
                      every_path_exists) == "/opt/graft/bin/../share/graft/policies");
}

TEST_CASE("a binary with nothing installed beside it uses the configured directory", "[install]") {
  CHECK(installed_dir("/src/build/core", "../share/graft/policies",
                      "/usr/local/share/graft/policies",
                      no_path_exists) == "/usr/local/share/graft/policies");
}

TEST_CASE("an unreadable executable path uses the configured directory", "[install]") {
  CHECK(installed_dir("", "../lib/graft/plugins", "/usr/lib/graft/plugins", every_path_exists) ==
        "/usr/lib/graft/plugins");
}
