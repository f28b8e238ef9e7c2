// SPDX-License-Identifier: Apache-2.0
// [exclusive] gpus, the pure part (core/src/claims/claim.hpp): a claim
// file's text, the start time that proves its holder alive, the file each
// grant claims, and which claims stand in each other's way.
#include <catch2/catch.hpp>

#include "claims/claim.hpp"

using namespace graft;

namespace {

Inventory two_gpus() {
  Inventory inventory;
  inventory.gpus.push_back(Gpu{.index = 0, .minor = 0, .uuid = "GPU-aaaa", .bus_id = "0000:19:00.0"});
  inventory.gpus.push_back(Gpu{.index = 1, .minor = 1, .uuid = "", .bus_id = "0000:3b:00.0"});
  return inventory;
}

}  // namespace

TEST_CASE("a claim's text names the container, its init's pid and start time, and reads back", "[claims]") {
  Holder holder{"c1", 4242, 1607081};
  CHECK(claim_text(holder) == "container c1\npid 4242\nstart 1607081\n");
  auto read = parse_claim(claim_text(holder));
  REQUIRE(read);
  CHECK(*read == holder);
}

TEST_CASE("a claim without a container, a positive pid or a start time is not a claim", "[claims]") {
  CHECK(parse_claim("pid 1\nstart 2\n").error().message == "no 'container' line");
  CHECK(parse_claim("container c\npid 0\nstart 2\n").error().message == "no positive 'pid' line");
  CHECK(parse_claim("container c\npid 12x\nstart 2\n").error().message == "no positive 'pid' line");
  CHECK(parse_claim("container c\npid 3\n").error().message == "no 'start' line");
}

TEST_CASE("the start time is field 22 of the stat line, counted from the last ')'", "[claims]") {
  std::string tail = " R 23842 23842 11796 0 -1 4194304 131 0 0 0 0 0 0 0 20 0 1 0 1607081 3133440 414";
  CHECK(*stat_start_time("23971 (cat)" + tail) == 1607081);
  // A command name may hold spaces and ')': the fields still count right.
  CHECK(*stat_start_time("23971 (a) b (c)" + tail) == 1607081);
  CHECK(stat_start_time("23971 (cat) R 1 2").error().message == "fewer than 22 fields");
  CHECK(stat_start_time("23971 cat").error().message == "no ')' after the command name");
}

TEST_CASE("a GPU is claimed by its UUID, else its bus id, and a partition beside its GPU", "[claims]") {
  std::vector<DeviceGrant> grants{{.gpu = 0}, {.gpu = 1}, {.gpu = 0, .partition = 2}};
  auto keys = claim_keys(grants, two_gpus());
  REQUIRE(keys.size() == 3);
  CHECK(keys[0] == ClaimKey{"gpu-GPU-aaaa", "gpu-GPU-aaaa", false, "GPU 0 (GPU-aaaa)"});
  CHECK(keys[1] == ClaimKey{"gpu-0000_3b_00.0", "gpu-0000_3b_00.0", false, "GPU 1 (0000:3b:00.0)"});
  CHECK(keys[2] == ClaimKey{"gpu-GPU-aaaa.p2", "gpu-GPU-aaaa", true, "GPU 0 (GPU-aaaa) partition 2"});
}

TEST_CASE("a claim file name holds only letters, digits, dots, dashes and underscores", "[claims]") {
  Inventory inventory;
  inventory.gpus.push_back(Gpu{.index = 0, .uuid = "../../etc/x y"});
  auto keys = claim_keys({{.gpu = 0}}, inventory);
  REQUIRE(keys.size() == 1);
  CHECK(keys[0].file == "gpu-.._.._etc_x_y");
}

TEST_CASE("a whole GPU conflicts with its partitions, two partitions of one GPU do not", "[claims]") {
  ClaimKey whole{"gpu-A", "gpu-A", false, "GPU 0"};
  ClaimKey part1{"gpu-A.p1", "gpu-A", true, "GPU 0 partition 1"};
  CHECK(claims_conflict(whole, "gpu-A"));
  CHECK(claims_conflict(whole, "gpu-A.p1"));
  CHECK(claims_conflict(part1, "gpu-A"));
  CHECK(claims_conflict(part1, "gpu-A.p1"));
  CHECK_FALSE(claims_conflict(part1, "gpu-A.p2"));
  CHECK_FALSE(claims_conflict(whole, "gpu-AB"));
  CHECK_FALSE(claims_conflict(whole, "gpu-AB.p1"));
}
