// SPDX-License-Identifier: Apache-2.0
// CDI names: the vendor, class and device name rules of the CDI spec, and
// parsing "vendor/class=name" into its parts.
#include <catch2/catch.hpp>

#include <string>

#include "cdi_format/cdi_names.hpp"

using namespace graft;
using namespace graft::cdi;

TEST_CASE("a domain-like vendor is a valid CDI vendor", "[cdi]") {
  CHECK(validate_vendor("example.com").ok());
  CHECK(validate_vendor("vendor-x_y.io").ok());
  CHECK(validate_vendor("a").ok());
}

TEST_CASE("an empty CDI vendor is refused as empty", "[cdi]") {
  auto status = validate_vendor("");
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().message == "CDI vendor is empty");
}

TEST_CASE("a CDI vendor must start with a letter", "[cdi]") {
  auto status = validate_vendor("1example.com");
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("must start with a letter"));
}

TEST_CASE("a CDI vendor must end with a letter or digit", "[cdi]") {
  auto status = validate_vendor("example.");
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("must end with a letter or digit"));
}

TEST_CASE("a CDI vendor with a character outside the rule names that character", "[cdi]") {
  auto status = validate_vendor("exa mple.com");
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("contains ' '"));
}

TEST_CASE("a CDI vendor longer than a DNS subdomain is refused", "[cdi]") {
  CHECK(validate_vendor(std::string(253, 'a')).ok());
  auto status = validate_vendor(std::string(254, 'a'));
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("more than 253"));
}

TEST_CASE("a CDI class allows letters, digits, underscores, dashes and dots", "[cdi]") {
  CHECK(validate_class("gpu").ok());
  CHECK(validate_class("foo-bar123.B_az").ok());
}

TEST_CASE("a CDI class must start with a letter, not a digit", "[cdi]") {
  auto status = validate_class("0gpu");
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("CDI class '0gpu' must start with a letter"));
}

TEST_CASE("a CDI class may not contain a slash", "[cdi]") {
  auto status = validate_class("foo/bar");
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("contains '/'"));
}

TEST_CASE("a CDI class is at most 63 characters", "[cdi]") {
  CHECK(validate_class(std::string(63, 'c')).ok());
  auto status = validate_class(std::string(64, 'c'));
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("more than 63"));
}

TEST_CASE("a CDI device name may start with a digit and contain colons", "[cdi]") {
  CHECK(validate_device_name("0").ok());
  CHECK(validate_device_name("GPU-3f2a:1.mig_2-g").ok());
}

TEST_CASE("a CDI device name must end with a letter or digit", "[cdi]") {
  auto status = validate_device_name("gpu0:");
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("CDI device name 'gpu0:' must end"));
}

TEST_CASE("a CDI device name may not contain '='", "[cdi]") {
  auto status = validate_device_name("a=b");
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("contains '='"));
}

TEST_CASE("an empty CDI device name is refused as empty", "[cdi]") {
  auto status = validate_device_name("");
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().message == "CDI device name is empty");
}

TEST_CASE("a CDI kind without '/' is refused naming the kind", "[cdi]") {
  auto kind = parse_kind("gpu");
  REQUIRE_FALSE(kind.ok());
  CHECK(kind.error().message == "CDI kind 'gpu' (vendor/class): 'gpu' has no '/'");
}

TEST_CASE("a CDI kind with a bad class names the kind and the class rule", "[cdi]") {
  auto kind = parse_kind("example.com/foo/bar");
  REQUIRE_FALSE(kind.ok());
  CHECK_THAT(kind.error().message, Catch::StartsWith("CDI kind 'example.com/foo/bar' (vendor/class): ") &&
                                       Catch::Contains("CDI class 'foo/bar' contains '/'"));
}

TEST_CASE("a device path is not a CDI kind: its vendor is empty", "[cdi]") {
  auto kind = parse_kind("/dev/foo");
  REQUIRE_FALSE(kind.ok());
  CHECK_THAT(kind.error().message, Catch::Contains("CDI vendor is empty"));
}

TEST_CASE("a CDI kind parses into vendor and class", "[cdi]") {
  auto kind = parse_kind("vendor.com/foo");
  REQUIRE(kind.ok());
  CHECK(kind->vendor == "vendor.com");
  CHECK(kind->klass == "foo");
  CHECK_FALSE(parse_kind("foo").ok());
  CHECK_FALSE(parse_kind("vendor.com/foo/").ok());
}

TEST_CASE("a dotted class and a leading-digit device are version-gated name features", "[cdi]") {
  CHECK(features_of(QualifiedName{"example.com", "gpu", "gpu0"}).empty());
  CHECK(features_of(QualifiedName{"example.com", "net.rdma", "0"}) ==
        std::vector<Feature>{Feature::dotted_class_name, Feature::device_name_leading_digit});
}
