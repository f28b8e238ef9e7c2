// SPDX-License-Identifier: Apache-2.0
// CDI versions: which cdiVersion introduced which spec feature, and the
// lowest version a set of features needs.
#include <catch2/catch.hpp>

#include <vector>

#include "cdi_format/cdi_version.hpp"

using namespace graft;
using namespace graft::cdi;

TEST_CASE("every released CDI version from 0.1.0 to 1.1.0 parses and prints back, and none after", "[cdi]") {
  // SPEC.md "Released versions" at 1.1.0.
  for (const char* text :
       {"0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0", "0.6.0", "0.7.0", "0.8.0", "1.0.0", "1.1.0"}) {
    auto version = parse_version(text);
    REQUIRE(version.ok());
    CHECK(to_string(*version) == text);
  }
  auto next = parse_version("1.2.0");
  REQUIRE_FALSE(next.ok());
  CHECK(next.error().message == "cdiVersion '1.2.0' is not a released CDI spec version (0.1.0 to 1.1.0)");
}

TEST_CASE("a released CDI version parses, with or without a leading v", "[cdi]") {
  auto plain = parse_version("0.5.0");
  REQUIRE(plain.ok());
  CHECK(*plain == Version{0, 5, 0});
  auto prefixed = parse_version("v1.1.0");
  REQUIRE(prefixed.ok());
  CHECK(*prefixed == Version{1, 1, 0});
}

TEST_CASE("a CDI version that was never released is refused", "[cdi]") {
  auto version = parse_version("0.9.0");
  REQUIRE_FALSE(version.ok());
  CHECK_THAT(version.error().message, Catch::Contains("not a released CDI spec version"));
}

TEST_CASE("a CDI version that is not MAJOR.MINOR.PATCH is refused", "[cdi]") {
  CHECK_FALSE(parse_version("0.5").ok());
  CHECK_FALSE(parse_version("0.5.0-rc1").ok());
  CHECK_FALSE(parse_version("").ok());
}

TEST_CASE("a spec that uses no gated feature needs the earliest tagged version 0.3.0", "[cdi]") {
  CHECK(minimum_version({}) == Version{0, 3, 0});
  std::vector<Feature> baseline{Feature::container_env, Feature::device_hooks, Feature::hook_env};
  CHECK(minimum_version(baseline) == Version{0, 3, 0});
}

TEST_CASE("the minimum CDI version is the latest introduction among the features", "[cdi]") {
  CHECK(minimum_version(std::vector{Feature::mount_type}) == Version{0, 4, 0});
  CHECK(minimum_version(std::vector{Feature::device_node_host_path, Feature::mount_type}) ==
        Version{0, 5, 0});
  CHECK(minimum_version(std::vector{Feature::annotations}) == Version{0, 6, 0});
  CHECK(minimum_version(std::vector{Feature::dotted_class_name}) == Version{0, 6, 0});
  CHECK(minimum_version(std::vector{Feature::additional_gids, Feature::annotations}) ==
        Version{0, 7, 0});
  CHECK(minimum_version(std::vector{Feature::net_devices}) == Version{1, 1, 0});
}

TEST_CASE("CDI 0.5.0 supports host paths and leading-digit names but not annotations", "[cdi]") {
  Version v050{0, 5, 0};
  CHECK(supports(v050, Feature::device_node_host_path));
  CHECK(supports(v050, Feature::device_name_leading_digit));
  CHECK_FALSE(supports(v050, Feature::annotations));
  CHECK_FALSE(supports(v050, Feature::dotted_class_name));
}

TEST_CASE("checking a version against features names the first unsupported one", "[cdi]") {
  std::vector<Feature> features{Feature::hook_env, Feature::annotations, Feature::net_devices};
  auto status = check_supports(Version{0, 5, 0}, features);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().message == "cdiVersion 0.5.0 does not support annotations (needs 0.6.0 or later)");
  CHECK(check_supports(Version{1, 1, 0}, features).ok());
}
