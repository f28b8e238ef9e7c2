// SPDX-License-Identifier: Apache-2.0
// The [runtime] section: which runtime graft-runtime hands commands to, and
// how it edits a bundle. Defaults, values and the errors of a bad one.
#include <string>

#include <catch2/catch.hpp>

#include "policy/policy.hpp"
#include "policy_support.hpp"

using namespace graft;
using namespace graft::policy_test;

namespace {

Policy loaded_runtime_policy(const std::string& text) {
  PolicyFiles files;
  auto loaded = load_policy(files.write("graft.toml", text), {});
  INFO((loaded ? std::string() : loaded.error().message));
  REQUIRE(loaded);
  return std::move(loaded).value();
}

}  // namespace

TEST_CASE("without a [runtime] section graft-runtime uses runc from PATH in hook mode", "[policy][runtime]") {
  Policy policy = loaded_runtime_policy("");
  CHECK(policy.runtime.path == "runc");
  CHECK(policy.runtime.mode == RuntimeShim::Mode::hook);
}

TEST_CASE("[runtime] names another runtime by name or absolute path", "[policy][runtime]") {
  CHECK(loaded_runtime_policy("[runtime]\npath = \"crun\"\n").runtime.path == "crun");
  CHECK(loaded_runtime_policy("[runtime]\npath = \"/usr/bin/crun\"\nmode = \"hook\"\n").runtime.path ==
        "/usr/bin/crun");
}

TEST_CASE("a relative runtime path with a slash is an error", "[policy][runtime]") {
  CHECK(error_in_file("[runtime]\npath = \"bin/runc\"\n") ==
        "F:2:8: runtime.path: expected a runtime name looked up on PATH (\"runc\") or an absolute "
        "path, got 'bin/runc'");
  CHECK(error_in_file("[runtime]\npath = \"\"\n") ==
        "F:2:8: runtime.path: expected a runtime name looked up on PATH (\"runc\") or an absolute "
        "path, got ''");
}

TEST_CASE("an unknown runtime mode is an error suggesting the closest", "[policy][runtime]") {
  CHECK(error_in_file("[runtime]\nmode = \"hoook\"\n") ==
        "F:2:8: runtime.mode: unknown mode 'hoook' (hook or declarative); did you mean 'hook'?");
}

TEST_CASE("a misspelt [runtime] key suggests the right one", "[policy][runtime]") {
  CHECK(error_in_file("[runtime]\npaht = \"runc\"\n") ==
        "F:2:1: runtime.paht: unknown key; did you mean 'path'?");
}

TEST_CASE("[runtime] mode chooses hook or declarative", "[policy][runtime]") {
  CHECK(loaded_runtime_policy("[runtime]\nmode = \"declarative\"\n").runtime.mode ==
        RuntimeShim::Mode::declarative);
  CHECK(loaded_runtime_policy("[runtime]\nmode = \"hook\"\n").runtime.mode == RuntimeShim::Mode::hook);
}
