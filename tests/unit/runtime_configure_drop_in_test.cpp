// SPDX-License-Identifier: Apache-2.0
// `graft runtime configure --runtime crio|podman`: a drop-in file graft
// owns, marked by its first line; a file of that name the admin wrote is
// neither replaced nor removed.
#include <catch2/catch.hpp>

#include "runtime_config/crio_config.hpp"
#include "runtime_config/owned_file.hpp"
#include "runtime_config/podman_config.hpp"

using graft::runtime_config::crio_drop_in;
using graft::runtime_config::kWrittenByGraft;
using graft::runtime_config::owned_file_configured;
using graft::runtime_config::owned_file_removed;
using graft::runtime_config::podman_drop_in;
using graft::runtime_config::RuntimeEntry;
using graft::runtime_config::toml_string;

namespace {

RuntimeEntry drop_in_entry() {
  RuntimeEntry entry;
  entry.binary = "/usr/bin/graft-runtime";
  return entry;
}

}  // namespace

TEST_CASE("crio: the drop-in names graft's runtime handler with its path, type and root", "[runtime-configure]") {
  auto written = owned_file_configured(std::nullopt, crio_drop_in(drop_in_entry()));
  REQUIRE(written);
  CHECK(*written == std::string(kWrittenByGraft) +
                        "\n[crio.runtime.runtimes.graft]\n"
                        "runtime_path = \"/usr/bin/graft-runtime\"\n"
                        "runtime_type = \"oci\"\n"
                        "runtime_root = \"/run/graft-runtime\"\n");
}

TEST_CASE("podman: the drop-in names graft's runtime under engine.runtimes", "[runtime-configure]") {
  auto written = owned_file_configured(std::nullopt, podman_drop_in(drop_in_entry()));
  REQUIRE(written);
  CHECK(*written == std::string(kWrittenByGraft) + "\n[engine.runtimes]\ngraft = [\"/usr/bin/graft-runtime\"]\n");
}

TEST_CASE("drop-in: a second run writes the same text, so nothing changes", "[runtime-configure]") {
  auto once = owned_file_configured(std::nullopt, crio_drop_in(drop_in_entry()));
  REQUIRE(once);
  auto twice = owned_file_configured(*once, crio_drop_in(drop_in_entry()));
  REQUIRE(twice);
  CHECK(*twice == *once);
}

TEST_CASE("drop-in: a file of that name the admin wrote is left alone by configure and --remove",
          "[runtime-configure]") {
  std::string admins = "[crio.runtime.runtimes.graft]\nruntime_path = \"/opt/wrapper\"\n";
  auto configured = owned_file_configured(admins, crio_drop_in(drop_in_entry()));
  REQUIRE_FALSE(configured);
  CHECK_THAT(configured.error().message, Catch::Contains("not written by graft"));
  auto removed = owned_file_removed(admins);
  REQUIRE_FALSE(removed);
  CHECK_THAT(removed.error().message, Catch::Contains("not written by graft"));
}

TEST_CASE("drop-in: --remove deletes graft's file", "[runtime-configure]") {
  auto written = owned_file_configured(std::nullopt, podman_drop_in(drop_in_entry()));
  REQUIRE(written);
  auto removed = owned_file_removed(*written);
  REQUIRE(removed);
  CHECK_FALSE(*removed);
}

TEST_CASE("drop-in: a runtime path with quotes or backslashes is a valid TOML string", "[runtime-configure]") {
  CHECK(toml_string("/opt/a \"b\"\\c") == "\"/opt/a \\\"b\\\"\\\\c\"");
  CHECK(toml_string("/opt/\n") == "\"/opt/\\u000A\"");
}
