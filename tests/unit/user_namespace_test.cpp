// SPDX-License-Identifier: Apache-2.0
// What an owner uid seen inside a user namespace can mean
// (core/src/trust/user_namespace.hpp), as pure functions of the uid map's
// text: host root and any user the map leaves out show as the overflow uid;
// only an owner that may be host root is ever trusted besides root and us.
#include <catch2/catch.hpp>

#include "trust/user_namespace.hpp"

using namespace graft;

namespace {

// The namespace seen through `map` (uid_map text), graft running as `euid`.
UserNamespaceView view_of(const std::string& map, uid_t euid = 0) {
  auto parsed = parse_id_map(map);
  REQUIRE(parsed.ok());
  return UserNamespaceView{*parsed, 65534, euid};
}

// As /proc/self/uid_map shows rootless podman's default map for uid 1000.
const std::string kRootless = "         0       1000          1\n         1     100000      65536\n";
const std::string kInitial = "         0          0 4294967295\n";

}  // namespace

TEST_CASE("The uid map's text is read as its ranges, the kernel's padding allowed", "[userns]") {
  auto map = parse_id_map(kRootless);
  REQUIRE(map.ok());
  REQUIRE(map->ranges.size() == 2);
  CHECK(map->ranges[1].inside == 1);
  CHECK(map->ranges[1].outside == 100000);
  CHECK(map->ranges[1].count == 65536);
  CHECK_FALSE(map->is_initial());
  CHECK(parse_id_map(kInitial)->is_initial());
}

TEST_CASE("A uid map line that is not three numbers is an error naming the line", "[userns]") {
  CHECK(parse_id_map("0 0 1\n0 x 1\n").error().message ==
        "uid_map line 2: not three numbers \"inside outside count\"");
  CHECK_FALSE(parse_id_map("0 0\n").ok());
  CHECK_FALSE(parse_id_map("0 0 0\n").ok());
}

TEST_CASE("An empty uid map maps nothing and is not the initial namespace's", "[userns]") {
  auto map = parse_id_map("");
  REQUIRE(map.ok());
  CHECK_FALSE(map->is_initial());
  CHECK_FALSE(map->maps_inside(0));
}

TEST_CASE("In the initial namespace only root and graft's own uid are trusted owners, 65534 "
          "included among the others",
          "[userns]") {
  auto view = view_of(kInitial, 1000);
  CHECK(classify_owner(0, view) == OwnerKind::root);
  CHECK(classify_owner(1000, view) == OwnerKind::us);
  CHECK(classify_owner(65534, view) == OwnerKind::someone_else);
  CHECK(classify_owner(4242, view) == OwnerKind::someone_else);
}

TEST_CASE("Where the overflow uid is not mapped, an owner shown as it may be host root", "[userns]") {
  auto view = view_of("0 1000 1\n");
  CHECK(classify_owner(65534, view) == OwnerKind::unmapped);
  CHECK(classify_owner(0, view) == OwnerKind::root);
}

TEST_CASE("Where rootless podman's map also maps the overflow uid, an owner shown as it must be "
          "settled by asking whether it is mapped",
          "[userns]") {
  auto view = view_of(kRootless);
  CHECK(classify_owner(65534, view) == OwnerKind::overflow);
  CHECK(settle_overflow(false, view) == OwnerKind::unmapped);
  CHECK(settle_overflow(true, view) == OwnerKind::someone_else);
}

TEST_CASE("A mapped owner other than the namespace's root and graft's uid is someone else", "[userns]") {
  auto view = view_of(kRootless);
  CHECK(classify_owner(6, view) == OwnerKind::someone_else);
  CHECK(classify_owner(65536, view) == OwnerKind::someone_else);
}

TEST_CASE("Where host root is mapped, an unmapped owner is certainly not root and is someone else",
          "[userns]") {
  auto view = view_of("0 0 1\n");
  CHECK(classify_owner(65534, view) == OwnerKind::someone_else);
  auto mapped_elsewhere = view_of("0 1000 1\n1 100000 65536\n70000 0 1\n");
  CHECK(settle_overflow(false, mapped_elsewhere) == OwnerKind::someone_else);
}

TEST_CASE("A uid the map does not cover and that is not the overflow uid is never trusted", "[userns]") {
  auto view = view_of("0 1000 1\n");
  CHECK(classify_owner(70000, view) == OwnerKind::someone_else);
}

TEST_CASE("A graft whose own uid the namespace does not map trusts no owner shown as the overflow "
          "uid: it may itself be host root, and that owner anyone",
          "[userns]") {
  CHECK(classify_owner(65534, view_of("", 65534)) == OwnerKind::someone_else);
  CHECK(classify_owner(65534, view_of("0 1000 1\n", 65534)) == OwnerKind::someone_else);
}
