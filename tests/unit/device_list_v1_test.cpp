// SPDX-License-Identifier: Apache-2.0
// What a cgroup v1 devices.list says is allowed (plugins/cgroup/device_list_v1.hpp),
// read as the kernel's devices controller decides: one line must cover the
// type, both numbers and every access letter asked together.
#include <catch2/catch.hpp>

#include <linux/bpf.h>

#include "device_list_v1.hpp"

using namespace graft;
using namespace graft::cgroup;

namespace {

std::vector<ListedException> listed(std::string_view text) {
  auto list = parse_device_list(text);
  INFO((list ? std::string() : list.error().message));
  REQUIRE(list.ok());
  return *list;
}

DeviceQuestion list_question(char type, std::uint32_t major, std::uint32_t minor, std::uint32_t access) {
  return {.type_bit = type == 'c' ? std::uint32_t{BPF_DEVCG_DEV_CHAR} : std::uint32_t{BPF_DEVCG_DEV_BLOCK},
          .access_bits = access,
          .major = major,
          .minor = minor};
}

constexpr std::uint32_t kListRead = BPF_DEVCG_ACC_READ, kListWrite = BPF_DEVCG_ACC_WRITE,
                        kListMknod = BPF_DEVCG_ACC_MKNOD;

}  // namespace

TEST_CASE("a devices.list of 'a *:* rwm' allows every device", "[verify][cgroup]") {
  auto list = listed("a *:* rwm\n");
  CHECK(list_allows(list, list_question('c', 195, 1, kListRead | kListWrite | kListMknod)));
  CHECK(list_allows(list, list_question('b', 8, 0, kListRead)));
}

TEST_CASE("a devices.list line allows its device for the letters it lists", "[verify][cgroup]") {
  auto list = listed("c 1:3 rwm\nc 195:1 rw\nc 195:* m\nb 8:0 r\n");
  CHECK(list_allows(list, list_question('c', 195, 1, kListRead | kListWrite)));
  CHECK(list_allows(list, list_question('c', 195, 7, kListMknod)));
  CHECK_FALSE(list_allows(list, list_question('c', 195, 7, kListRead)));
  CHECK_FALSE(list_allows(list, list_question('c', 195, 2, kListRead)));
  CHECK_FALSE(list_allows(list, list_question('b', 195, 1, kListRead)));
  CHECK(list_allows(list, list_question('b', 8, 0, kListRead)));
  CHECK_FALSE(list_allows(list, list_question('b', 8, 0, kListWrite)));
}

TEST_CASE("access split over two devices.list lines is not granted together", "[verify][cgroup]") {
  // c 195:1 r and c 195:* w: each letter alone, but no one line covers rw.
  auto list = listed("c 195:1 r\nc 195:* w\n");
  CHECK(list_allows(list, list_question('c', 195, 1, kListRead)));
  CHECK(list_allows(list, list_question('c', 195, 1, kListWrite)));
  CHECK_FALSE(list_allows(list, list_question('c', 195, 1, kListRead | kListWrite)));
}

TEST_CASE("an empty devices.list allows nothing", "[verify][cgroup]") {
  CHECK_FALSE(list_allows(listed(""), list_question('c', 1, 3, kListRead)));
}

TEST_CASE("a devices.list line graft cannot read is an error naming it", "[verify][cgroup]") {
  for (std::string_view bad : {"x 1:3 rwm\n", "c 1:3\n", "c 1-3 rw\n", "c 1:3 rwx\n", "c :3 r\n"}) {
    auto list = parse_device_list(bad);
    INFO(bad);
    REQUIRE_FALSE(list.ok());
    CHECK_THAT(list.error().message, Catch::StartsWith("devices.list line 1: cannot read"));
  }
}
