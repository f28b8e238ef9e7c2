// SPDX-License-Identifier: Apache-2.0
// Inventory: discovery on a generated fake host, driven by the shipped policy.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "fake_host.hpp"
#include "inventory/inventory.hpp"
#include "site_policy.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::fixture;

namespace {

Policy policy_for(const FakeHost& host) {
  auto policy = load_policy(write_site_policy(host), PolicySearch{{fixture::source_policy_dir()}});
  if (!policy) FAIL(policy.error().message);
  return *policy;
}

bool warned(const Inventory& inventory, const std::string& text) {
  for (const auto& warning : inventory.warnings)
    if (warning.find(text) != std::string::npos) return true;
  return false;
}


// Replaces the fake host's partition minors table with `text`.
void write_mig_minors(const FakeHost& host, const std::string& text) {
  std::string minors_file = host.path("/proc/driver/nvidia-caps/mig-minors");
  namespace fs = std::filesystem;
  fs::permissions(minors_file, fs::perms::owner_write, fs::perm_options::add);
  std::ofstream(minors_file, std::ios::trunc) << text;
}

}  // namespace

TEST_CASE("discovery reads the driver version and GPUs in minor order", "[inventory]") {
  FakeHostSpec spec;
  for (unsigned minor : {5u, 0u, 2u}) spec.gpus.push_back(fake_gpu(minor));
  auto host = FakeHost::build(spec);
  auto inventory = discover_inventory(policy_for(host));
  REQUIRE(inventory);
  CHECK(inventory->driver_version == "560.35.03");
  REQUIRE(inventory->gpus.size() == 3);
  CHECK(inventory->gpus[0].minor == 0);
  CHECK(inventory->gpus[1].minor == 2);
  CHECK(inventory->gpus[2].minor == 5);
  CHECK(inventory->gpus[2].index == 2);
  CHECK(inventory->gpus[1].uuid == fake_gpu(2).uuid);
  CHECK(inventory->gpus[1].bus_id == fake_gpu(2).bus_id);
  CHECK_FALSE(inventory->gpus[0].model.empty());
}

TEST_CASE("discovery finds partitions with their capability minors", "[inventory]") {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(2, /*mig=*/true));
  auto inventory = discover_inventory(policy_for(host));
  REQUIRE(inventory);
  const auto& partitions = inventory->gpus.at(1).partitions;
  REQUIRE(partitions.size() == 3);
  CHECK(partitions[2].gi == 2);
  CHECK(partitions[2].ci == 1);
  CHECK(partitions[2].gi_minor == mig_gi_minor(1, 2));
  CHECK(partitions[2].ci_minor == mig_ci_minor(1, 2, 1));
  CHECK(inventory->partition_caps.find("config") == kMigConfigMinor);
}

TEST_CASE("discovery keeps the partition capabilities of the host's GPUs and those naming no GPU",
          "[inventory]") {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(2, /*mig=*/true));  // minors 0 and 1
  auto inventory = discover_inventory(policy_for(host));
  REQUIRE(inventory);
  const auto& caps = inventory->partition_caps;
  CHECK(caps.find("config") == kMigConfigMinor);
  CHECK(caps.contains("monitor"));
  CHECK(caps.find("gpu1/gi14/ci7/access") == mig_ci_minor(1, 14, 7));
  CHECK(caps.find("gpu0/gi0/access") == mig_gi_minor(0, 0));
  CHECK_FALSE(caps.contains("gpu2/gi0/access"));   // the driver lists 32 GPUs' caps
  CHECK_FALSE(caps.contains("gpu10/gi0/access"));  // not taken for gpu1's
  CHECK_FALSE(caps.contains("gpu31/gi14/ci7/access"));
}

TEST_CASE("a partition capability the driver lists twice keeps its first minor, in any order of names",
          "[inventory]") {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(1, /*mig=*/true));  // minor 0
  write_mig_minors(host, "gpu0/gi2/access 30\ngpu0/gi10/access 110\nmonitor 2\n"
                         "gpu0/gi1/access 20\ngpu0/gi10/access 999\nconfig 1\n"
                         "gpu0/gi2/access 31\n");
  auto inventory = discover_inventory(policy_for(host));
  REQUIRE(inventory);
  std::vector<std::pair<std::string, unsigned>> caps(inventory->partition_caps.begin(),
                                                     inventory->partition_caps.end());
  CHECK(caps == std::vector<std::pair<std::string, unsigned>>{{"config", 1},
                                                              {"gpu0/gi1/access", 20},
                                                              {"gpu0/gi10/access", 110},
                                                              {"gpu0/gi2/access", 30},
                                                              {"monitor", 2}});
}

TEST_CASE("a GPU's partition capabilities are judged by its whole minor, even right after those of a GPU whose minor it extends",
          "[inventory]") {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(2, /*mig=*/true));  // minors 0 and 1
  write_mig_minors(host, "gpu1/gi0/access 10\ngpu10/gi0/access 100\ngpu1/gi1/access 11\n"
                         "gpu12/gi0/access 120\ngpu0/gi0/access 1\ngpu00/gi0/access 2\n"
                         "config 3\ngpu1/gi2/access 12\n");
  auto inventory = discover_inventory(policy_for(host));
  REQUIRE(inventory);
  std::vector<std::pair<std::string, unsigned>> caps(inventory->partition_caps.begin(),
                                                     inventory->partition_caps.end());
  // "gpu00" is minor 0 as the number reads; the driver never writes it so.
  CHECK(caps == std::vector<std::pair<std::string, unsigned>>{{"config", 3},
                                                              {"gpu0/gi0/access", 1},
                                                              {"gpu00/gi0/access", 2},
                                                              {"gpu1/gi0/access", 10},
                                                              {"gpu1/gi1/access", 11},
                                                              {"gpu1/gi2/access", 12}});
}

TEST_CASE("discovery reads character majors from /proc/devices", "[inventory]") {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(1));
  auto inventory = discover_inventory(policy_for(host));
  REQUIRE(inventory);
  CHECK(inventory->char_majors.at("nvidia-uvm") == host.spec().majors.uvm);
  CHECK(inventory->char_majors.at("nvidia-caps") == host.spec().majors.caps);
}

TEST_CASE("libraries are chosen from the cache by driver version, with their sonames", "[inventory]") {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(1));
  if (!host.ldcache_created()) {
    GRAFT_SKIP(host.ldcache_problem());
  }
  auto inventory = discover_inventory(policy_for(host));
  REQUIRE(inventory);
  const auto& cuda = inventory->libraries.at("libcuda.so");
  REQUIRE_FALSE(cuda.empty());
  CHECK(cuda[0].soname == "libcuda.so.1");
  CHECK(cuda[0].host_path == host.path(FakeHost::lib_dir() + "/libcuda.so.560.35.03"));
  CHECK_FALSE(cuda[0].lib32);
}

TEST_CASE("a host without a driver has no version and says so", "[inventory]") {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(1));
  std::filesystem::remove(host.path("/proc/driver/nvidia/version"));
  auto inventory = discover_inventory(policy_for(host));
  REQUIRE(inventory);
  CHECK(inventory->driver_version.empty());
  CHECK(warned(*inventory, "no driver loaded"));
}

TEST_CASE("missing optional files are warnings, not errors", "[inventory]") {
  FakeHostSpec spec = FakeHostSpec::with_gpus(1);
  spec.with_binaries = false;
  spec.with_ipc = false;
  auto host = FakeHost::build(spec);
  auto inventory = discover_inventory(policy_for(host));
  REQUIRE(inventory);
  CHECK(inventory->binaries.empty());
  CHECK(warned(*inventory, "binary nvidia-smi not found"));
  CHECK(warned(*inventory, "nvidia-persistenced/socket not found"));
}

TEST_CASE("a GPU record without a minor is an error naming the file", "[inventory]") {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(1));
  std::string record = host.path("/proc/driver/nvidia/gpus/" + fake_gpu(0).bus_id + "/information");
  std::ofstream(record) << "Model: \t\t Broken\nGPU UUID: \t GPU-x\n";
  auto inventory = discover_inventory(policy_for(host));
  REQUIRE_FALSE(inventory);
  CHECK_THAT(inventory.error().message, Catch::Contains(record) && Catch::Contains("minor"));
}
