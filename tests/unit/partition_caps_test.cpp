// SPDX-License-Identifier: Apache-2.0
// PartitionCaps (core/src/inventory/partition_caps.hpp): the partition
// capability minors, name -> minor, kept sorted by name in one buffer. It
// must answer as the std::map it replaced did, whatever order names come in.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "inventory/partition_caps.hpp"

using graft::PartitionCaps;

namespace {

std::vector<std::pair<std::string, unsigned>> entries(const PartitionCaps& caps) {
  return {caps.begin(), caps.end()};
}

}  // namespace

TEST_CASE("partition capabilities come back sorted by name whatever order they were added in",
          "[partition_caps]") {
  PartitionCaps caps;
  for (const char* name : {"gpu0/gi2/access", "gpu0/gi10/access", "monitor", "gpu0/gi1/access", "config"})
    caps.add(name, static_cast<unsigned>(caps.size()));
  CHECK(entries(caps) == std::vector<std::pair<std::string, unsigned>>{{"config", 4},
                                                                       {"gpu0/gi1/access", 3},
                                                                       {"gpu0/gi10/access", 1},
                                                                       {"gpu0/gi2/access", 0},
                                                                       {"monitor", 2}});
}

TEST_CASE("a partition capability added twice keeps its first minor, and set replaces it",
          "[partition_caps]") {
  PartitionCaps caps;
  caps.add("config", 1);
  caps.add("config", 7);
  CHECK(caps.find("config") == 1u);
  caps.set("config", 9);
  CHECK(caps.find("config") == 9u);
  CHECK(caps.size() == 1);
}

TEST_CASE("a partition capability is found by its exact name only", "[partition_caps]") {
  PartitionCaps caps{{"gpu1/gi1/access", 12}, {"gpu1/gi1/ci0/access", 13}};
  CHECK(caps.find("gpu1/gi1/access") == 12u);
  CHECK(caps.contains("gpu1/gi1/ci0/access"));
  CHECK_FALSE(caps.contains("gpu1/gi1"));
  CHECK_FALSE(caps.contains("gpu1/gi1/access/"));
  CHECK_FALSE(caps.contains(""));
  CHECK_FALSE(PartitionCaps().contains("config"));
}

TEST_CASE("after gives the partition capability that sorts next", "[partition_caps]") {
  PartitionCaps caps{{"b", 2}, {"a", 1}, {"c", 3}};
  CHECK((*caps.after("a")).first == "b");
  CHECK((*caps.after("bb")).first == "c");
  CHECK(caps.after("c") == caps.end());
}

TEST_CASE("partition capabilities answer as a std::map filled the same way, in any order of names",
          "[partition_caps]") {
  std::vector<std::string> names;
  for (int gpu = 0; gpu < 3; ++gpu)
    for (int gi = 0; gi < 15; ++gi) {
      std::string instance = "gpu" + std::to_string(gpu) + "/gi" + std::to_string(gi);
      names.push_back(instance + "/access");
      for (int ci = 0; ci < 8; ++ci) names.push_back(instance + "/ci" + std::to_string(ci) + "/access");
    }
  std::mt19937 random(14);
  for (int round = 0; round < 4; ++round) {
    std::vector<std::string> order = names;
    if (round == 1) std::shuffle(order.begin(), order.end(), random);
    if (round == 2) std::reverse(order.begin(), order.end());
    if (round == 3) order.insert(order.end(), names.begin(), names.begin() + 40);  // repeats
    PartitionCaps caps;
    std::map<std::string, unsigned> expected;
    for (unsigned minor = 0; minor < order.size(); ++minor) {
      caps.add(order[minor], minor);
      expected.emplace(order[minor], minor);
    }
    INFO("round " << round);
    CHECK(entries(caps) == std::vector<std::pair<std::string, unsigned>>(expected.begin(), expected.end()));
    for (const auto& [name, minor] : expected) CHECK(caps.find(name) == minor);
  }
}

TEST_CASE("a whole listing gives what adding its names one by one gives, a repeated name keeping its first minor",
          "[partition_caps]") {
  // A driver's order for 32 GPUs: gpu10 follows gpu9 and gi10 follows gi9,
  // so the listing is sorted runs that break where a number gains a digit.
  std::vector<std::string> names{"config", "monitor"};
  for (int gpu = 0; gpu < 32; ++gpu)
    for (int gi = 0; gi < 15; ++gi) {
      std::string instance = "gpu" + std::to_string(gpu) + "/gi" + std::to_string(gi);
      names.push_back(instance + "/access");
      for (int ci = 0; ci < 8; ++ci) names.push_back(instance + "/ci" + std::to_string(ci) + "/access");
    }
  std::mt19937 random(32);
  for (int round = 0; round < 4; ++round) {
    std::vector<std::string> order = names;
    if (round == 1) std::shuffle(order.begin(), order.end(), random);
    if (round == 2) std::reverse(order.begin(), order.end());
    if (round == 3) order.insert(order.begin() + 100, names.begin() + 500, names.begin() + 540);  // repeats
    std::vector<PartitionCaps::value_type> listing;
    PartitionCaps one_by_one;
    for (unsigned minor = 0; minor < order.size(); ++minor) {
      listing.emplace_back(order[minor], minor);
      one_by_one.add(order[minor], minor);
    }
    INFO("round " << round);
    auto whole = PartitionCaps::from_listing(listing);
    CHECK(entries(whole) == entries(one_by_one));
    CHECK(whole.find("gpu17/gi3/ci2/access") == one_by_one.find("gpu17/gi3/ci2/access"));
  }
  CHECK(entries(PartitionCaps::from_listing({})).empty());
}
