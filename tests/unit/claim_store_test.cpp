// SPDX-License-Identifier: Apache-2.0
// [exclusive] gpus on disk (core/src/claims/claim_store.hpp): claims made
// all or none under one lock, a live holder of another container refusing,
// a stale claim replaced, and a state directory others could write refused.
// Liveness is given by each case, so no process has to be started.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "claims/claim_store.hpp"
#include "fixture_files.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using namespace graft;

namespace {

const ClaimKey kGpu0{"gpu-A", "gpu-A", false, "GPU 0 (A)"};
const ClaimKey kGpu1{"gpu-B", "gpu-B", false, "GPU 1 (B)"};
const ClaimKey kGpu0Part1{"gpu-A.p1", "gpu-A", true, "GPU 0 (A) partition 1"};
const ClaimKey kGpu0Part2{"gpu-A.p2", "gpu-A", true, "GPU 0 (A) partition 2"};

const Holder kFirst{"first", 100, 5000};
const Holder kSecond{"second", 200, 6000};

bool everyone_alive(const Holder&) { return true; }
bool nobody_alive(const Holder&) { return false; }

std::optional<ClaimConflict> claim(const std::string& dir, std::vector<ClaimKey> keys, const Holder& me,
                                   const HolderAlive& alive = everyone_alive) {
  auto result = claim_devices(dir, keys, me, alive);
  INFO((result ? std::string() : result.error().message));
  REQUIRE(result);
  return *result;
}

}  // namespace

TEST_CASE("a free GPU is claimed, and its claim file names the holder", "[claims]") {
  fixture::TempDir dir("graft-claims-");
  std::string state = dir.path() + "/run/graft/claims";
  CHECK_FALSE(claim(state, {kGpu0}, kFirst));
  CHECK(fixture::read_file(state + "/gpu-A") == claim_text(kFirst));
  CHECK((fs::status(state).permissions() & fs::perms::all) == fs::perms::owner_all);
}

TEST_CASE("a GPU a live container holds is refused to another, naming the holder", "[claims]") {
  fixture::TempDir dir("graft-claims-");
  REQUIRE_FALSE(claim(dir.path(), {kGpu0}, kFirst));
  auto conflict = claim(dir.path(), {kGpu0}, kSecond);
  REQUIRE(conflict);
  CHECK(conflict->wanted == kGpu0);
  CHECK(conflict->holder == kFirst);
  CHECK(fixture::read_file(dir.path() + "/gpu-A") == claim_text(kFirst));
}

TEST_CASE("a claim whose holder is gone is stale and taken over", "[claims]") {
  fixture::TempDir dir("graft-claims-");
  REQUIRE_FALSE(claim(dir.path(), {kGpu0}, kFirst));
  CHECK_FALSE(claim(dir.path(), {kGpu0}, kSecond, nobody_alive));
  CHECK(fixture::read_file(dir.path() + "/gpu-A") == claim_text(kSecond));
}

TEST_CASE("a container's own claim is renewed, not refused", "[claims]") {
  fixture::TempDir dir("graft-claims-");
  REQUIRE_FALSE(claim(dir.path(), {kGpu0}, kFirst));
  Holder again{"first", 101, 5001};
  CHECK_FALSE(claim(dir.path(), {kGpu0}, again));
  CHECK(fixture::read_file(dir.path() + "/gpu-A") == claim_text(again));
}

TEST_CASE("when one GPU of a request is held, none of the others is claimed", "[claims]") {
  fixture::TempDir dir("graft-claims-");
  REQUIRE_FALSE(claim(dir.path(), {kGpu1}, kFirst));
  auto conflict = claim(dir.path(), {kGpu0, kGpu1}, kSecond);
  REQUIRE(conflict);
  CHECK(conflict->wanted == kGpu1);
  CHECK_FALSE(fs::exists(dir.path() + "/gpu-A"));
}

TEST_CASE("partitions of one GPU go to different containers, but not the whole GPU beside them", "[claims]") {
  fixture::TempDir dir("graft-claims-");
  REQUIRE_FALSE(claim(dir.path(), {kGpu0Part1}, kFirst));
  CHECK_FALSE(claim(dir.path(), {kGpu0Part2}, kSecond));
  Holder third{"third", 300, 7000};
  auto conflict = claim(dir.path(), {kGpu0}, third);
  REQUIRE(conflict);
  CHECK(conflict->wanted == kGpu0);
  // Either partition's holder stands in the way; the directory's order picks one.
  CHECK((conflict->holder == kFirst || conflict->holder == kSecond));
}

TEST_CASE("a file in the state directory that is not a claim counts as stale", "[claims]") {
  fixture::TempDir dir("graft-claims-");
  fixture::write_file(dir.path() + "/gpu-A", "garbage\n");
  CHECK_FALSE(claim(dir.path(), {kGpu0}, kSecond));
  CHECK(fixture::read_file(dir.path() + "/gpu-A") == claim_text(kSecond));
}

TEST_CASE("a claim that is a symlink is never followed, and is replaced", "[claims]") {
  fixture::TempDir dir("graft-claims-");
  fixture::TempDir elsewhere("graft-claims-target-");
  std::string target = elsewhere.path() + "/victim";
  fixture::write_file(target, claim_text(kFirst));
  fs::create_symlink(target, dir.path() + "/gpu-A");
  CHECK_FALSE(claim(dir.path(), {kGpu0}, kSecond));
  CHECK(fixture::read_file(target) == claim_text(kFirst));
  CHECK_FALSE(fs::is_symlink(dir.path() + "/gpu-A"));
}

TEST_CASE("a state directory others can write is refused, since they could forge claims", "[claims]") {
  fixture::TempDir dir("graft-claims-");
  REQUIRE(::chmod(dir.path().c_str(), 0777) == 0);
  auto result = claim_devices(dir.path(), {kGpu0}, kFirst, everyone_alive);
  REQUIRE_FALSE(result);
  CHECK(result.error().message.find("is not graft's own") != std::string::npos);
}

TEST_CASE("a running process's start time proves it alive, another start time does not", "[claims]") {
  auto start = process_start_time(::getpid());
  REQUIRE(start);
  CHECK(holder_alive(Holder{"me", ::getpid(), *start}));
  CHECK_FALSE(holder_alive(Holder{"me", ::getpid(), *start + 1}));
  CHECK_FALSE(process_start_time(0));
}
