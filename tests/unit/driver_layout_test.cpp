// SPDX-License-Identifier: Apache-2.0
// Driver layouts beyond the ld.so.cache ([discovery] library_search and
// library_dirs, docs/policy.md): a fake host with the driver under
// /usr/local/nvidia (lib64/, lib/, bin/), listed in no cache, as CUDA-ready
// cloud images and GKE nodes have it. Discovery finds each library there
// with its soname and says where it came from; `graft inventory` shows it;
// `graft plan` mounts those files.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "fake_host.hpp"
#include "fixture_files.hpp"
#include "graft/base/ldcache.hpp"
#include "ldcache_file.hpp"
#include "inventory/inventory.hpp"
#include "run_command.hpp"
#include "site_policy.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"

using namespace graft;
using namespace graft::fixture;
using graft::testing::run_graft;
namespace fs = std::filesystem;

namespace {

constexpr const char* kLayoutDriverDir = "/usr/local/nvidia";
constexpr const char* kLayoutCudaFile = "libcuda.so.560.35.03";

FakeHost layout_usr_local_host() {
  FakeHostSpec spec = FakeHostSpec::with_gpus(2);
  spec.driver_dir = kLayoutDriverDir;
  return FakeHost::build(spec);
}

// The fixture's site policy with `discovery` as its [discovery] table.
std::string layout_policy_file(const FakeHost& host, const std::string& discovery) {
  return write_site_policy(host, "[discovery]\n" + discovery + "\n");
}

Policy layout_load(const std::string& path) {
  auto policy = load_policy(path, PolicySearch{{fixture::source_policy_dir()}});
  if (!policy) FAIL(policy.error().message);
  return *policy;
}

Inventory layout_discover(const FakeHost& host, const std::string& discovery) {
  auto inventory = discover_inventory(layout_load(layout_policy_file(host, discovery)));
  if (!inventory) FAIL(inventory.error().message);
  return *inventory;
}

bool layout_warned(const Inventory& inventory, const std::string& text) {
  for (const auto& warning : inventory.warnings)
    if (warning.find(text) != std::string::npos) return true;
  return false;
}

const Library* layout_native_library(const Inventory& inventory, const std::string& prefix) {
  auto found = inventory.libraries.find(prefix);
  if (found == inventory.libraries.end()) return nullptr;
  for (const auto& library : found->second)
    if (!library.lib32) return &library;
  return nullptr;
}

const std::string kLayoutLibDirs = "library_dirs = [\"/usr/local/nvidia/lib64\", \"/usr/local/nvidia/lib\"]\n";

}  // namespace

TEST_CASE("a library found in the ld.so.cache says it came from the cache", "[inventory][layout]") {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(1));
  if (!host.ldcache_created()) GRAFT_SKIP(host.ldcache_problem());
  auto inventory = layout_discover(host, "");
  const Library* cuda = layout_native_library(inventory, "libcuda.so");
  REQUIRE(cuda);
  CHECK(cuda->source.kind == LibrarySource::Kind::ldcache);
  CHECK(cuda->source.path == "/etc/ld.so.cache");
}

TEST_CASE("without library_dirs, a host whose cache does not list the driver has no driver library",
          "[inventory][layout]") {
  auto host = layout_usr_local_host();
  if (!host.ldcache_created()) GRAFT_SKIP(host.ldcache_problem());
  auto inventory = layout_discover(host, "");
  CHECK(layout_native_library(inventory, "libcuda.so") == nullptr);
  CHECK(layout_warned(inventory, "library libcuda.so not found"));
}

TEST_CASE("libraries the cache does not list are found in library_dirs, with their sonames and where they came from",
          "[inventory][layout]") {
  auto host = layout_usr_local_host();
  if (!host.ldcache_created()) GRAFT_SKIP(host.ldcache_problem());
  auto inventory = layout_discover(host, kLayoutLibDirs);
  const Library* cuda = layout_native_library(inventory, "libcuda.so");
  REQUIRE(cuda);
  CHECK(cuda->soname == "libcuda.so.1");
  CHECK(cuda->host_path == host.path(std::string(kLayoutDriverDir) + "/lib64/" + kLayoutCudaFile));
  CHECK(cuda->source.kind == LibrarySource::Kind::dir);
  CHECK(cuda->source.path == "/usr/local/nvidia/lib64");
  const Library* ml = layout_native_library(inventory, "libnvidia-ml.so");
  REQUIRE(ml);
  CHECK(ml->soname == "libnvidia-ml.so.1");
  CHECK_FALSE(layout_warned(inventory, "library libcuda.so not found"));
}

TEST_CASE("32-bit libraries in a library dir are found by their ELF class, as compat32 copies",
          "[inventory][layout]") {
  auto host = layout_usr_local_host();
  if (!host.lib32_created()) GRAFT_SKIP("this build cannot make the 32-bit fake libraries");
  auto inventory = layout_discover(host, "library_search = \"dirs-only\"\n" + kLayoutLibDirs);
  const auto& cuda = inventory.libraries.at("libcuda.so");
  REQUIRE(cuda.size() == 2);
  CHECK(cuda[1].lib32);
  CHECK(cuda[1].soname == "libcuda.so.1");
  CHECK(cuda[1].host_path == host.path(std::string(kLayoutDriverDir) + "/lib/" + kLayoutCudaFile));
  CHECK(cuda[1].source.path == "/usr/local/nvidia/lib");
}

TEST_CASE("dirs-only finds the libraries without opening the ld.so.cache", "[inventory][layout]") {
  auto host = layout_usr_local_host();
  fs::remove(host.path("/etc/ld.so.cache"));
  auto with_cache = discover_inventory(layout_load(layout_policy_file(host, kLayoutLibDirs)));
  REQUIRE_FALSE(with_cache);
  CHECK_THAT(with_cache.error().message, Catch::Contains("ld.so.cache"));
  auto inventory = layout_discover(host, "library_search = \"dirs-only\"\n" + kLayoutLibDirs);
  const Library* cuda = layout_native_library(inventory, "libcuda.so");
  REQUIRE(cuda);
  CHECK(cuda->source.kind == LibrarySource::Kind::dir);
}

TEST_CASE("a library the cache also lists under its linker name is known by its DT_SONAME", "[inventory][layout]") {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(1));
  if (!host.ldcache_created()) GRAFT_SKIP(host.ldcache_problem());
  // The fixture leaves libcuda.so -> libcuda.so.1 as NVIDIA's installer does,
  // so its cache has both keys, the linker name after the soname.
  auto cache = read_ldcache_file(host.path("/etc/ld.so.cache"));
  REQUIRE(cache);
  CHECK(std::any_of(cache->begin(), cache->end(), [](const auto& entry) { return entry.key == "libcuda.so"; }));
  auto inventory = layout_discover(host, "");
  const Library* cuda = layout_native_library(inventory, "libcuda.so");
  REQUIRE(cuda);
  CHECK(cuda->soname == "libcuda.so.1");
  const Library* ml = layout_native_library(inventory, "libnvidia-ml.so");
  REQUIRE(ml);
  CHECK(ml->soname == "libnvidia-ml.so.1");
}

TEST_CASE("a library the cache lists only under its linker name is known by its file's DT_SONAME",
          "[inventory][layout]") {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(1));
  if (!host.ldcache_created()) GRAFT_SKIP(host.ldcache_problem());
  if (::geteuid() != 0) GRAFT_SKIP("ldconfig -r chroots: needs root");
  // libcuda.so leads to the file itself, and no libcuda.so.1 link is left
  // for ldconfig (-X: it makes no links) to list.
  const std::string dir = host.path(FakeHost::lib_dir());
  fs::remove(dir + "/libcuda.so.1");
  fs::remove(dir + "/libcuda.so");
  fs::create_symlink(kLayoutCudaFile, dir + "/libcuda.so");
  REQUIRE(std::system(("ldconfig -X -r " + host.root()).c_str()) == 0);
  auto inventory = layout_discover(host, "");
  const Library* cuda = layout_native_library(inventory, "libcuda.so");
  REQUIRE(cuda);
  CHECK(cuda->soname == "libcuda.so.1");
  CHECK(cuda->host_path == host.path(FakeHost::lib_dir() + "/" + kLayoutCudaFile));
}

TEST_CASE("a library the cache lists with the driver's version is taken from the cache, not from a library dir",
          "[inventory][layout]") {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(1));
  if (!host.ldcache_created()) GRAFT_SKIP(host.ldcache_problem());
  copy_file(host.path(FakeHost::lib_dir() + "/" + kLayoutCudaFile), host.path(std::string("/opt/copy/") + kLayoutCudaFile));
  auto inventory = layout_discover(host, "library_dirs = [\"/opt/copy\"]\n");
  const Library* cuda = layout_native_library(inventory, "libcuda.so");
  REQUIRE(cuda);
  CHECK(cuda->host_path == host.path(FakeHost::lib_dir() + "/" + kLayoutCudaFile));
  CHECK(cuda->source.kind == LibrarySource::Kind::ldcache);
}

TEST_CASE("a file in a library dir that is not an ELF shared object is skipped with a warning naming it",
          "[inventory][layout]") {
  auto host = layout_usr_local_host();
  std::string fake = host.path("/usr/local/nvidia/lib64/libnvidia-ml.so.560.35.03");
  fs::remove(fake);
  write_file(fake, "not an ELF object\n");
  auto inventory = layout_discover(host, "library_search = \"dirs-only\"\n" + kLayoutLibDirs);
  CHECK(layout_native_library(inventory, "libnvidia-ml.so") == nullptr);
  CHECK(layout_warned(inventory, fake + ": not an ELF file"));
  CHECK(layout_native_library(inventory, "libcuda.so") != nullptr);
}

TEST_CASE("a library file of another driver version in a library dir is not taken", "[inventory][layout]") {
  auto host = layout_usr_local_host();
  std::string dir = host.path("/usr/local/nvidia/lib64/");
  fs::rename(dir + kLayoutCudaFile, dir + "libcuda.so.470.1.2");
  auto inventory = layout_discover(host, "library_search = \"dirs-only\"\n" + kLayoutLibDirs);
  CHECK(layout_native_library(inventory, "libcuda.so") == nullptr);
  CHECK(layout_warned(inventory, "library libcuda.so not found"));
}

TEST_CASE("a library dir that is a symlink out of the driver root is resolved inside it", "[inventory][layout]") {
  auto host = layout_usr_local_host();
  TempDir outside("graft-outside-");
  std::string lib64 = host.path("/usr/local/nvidia/lib64");
  fs::rename(lib64, outside.path() + "/lib64");
  fs::create_symlink(outside.path() + "/lib64", lib64);  // the host's path, absolute
  auto inventory = layout_discover(host, "library_search = \"dirs-only\"\nlibrary_dirs = [\"/usr/local/nvidia/lib64\"]\n");
  CHECK(layout_native_library(inventory, "libcuda.so") == nullptr);
  CHECK(layout_warned(inventory, "library dir " + lib64 + ": cannot open"));
}

TEST_CASE("a missing library dir is a warning, and the next dir is still searched", "[inventory][layout]") {
  auto host = layout_usr_local_host();
  auto inventory = layout_discover(
      host, "library_search = \"dirs-only\"\nlibrary_dirs = [\"/opt/none\", \"/usr/local/nvidia/lib64\"]\n");
  CHECK(layout_warned(inventory, "library dir " + host.path("/opt/none") + ": cannot open"));
  CHECK(layout_native_library(inventory, "libcuda.so") != nullptr);
}

TEST_CASE("binaries beside the libraries are found through binary_dirs", "[inventory][layout]") {
  auto host = layout_usr_local_host();
  auto inventory = layout_discover(host, "library_search = \"dirs-only\"\n" + kLayoutLibDirs +
                                      "binary_dirs = [\"/usr/local/nvidia/bin\", \"/usr/bin\"]\n");
  REQUIRE(inventory.binaries.contains("nvidia-smi"));
  CHECK(inventory.binaries.at("nvidia-smi").host_path == host.path("/usr/local/nvidia/bin/nvidia-smi"));
  CHECK(inventory.binaries.at("nvidia-smi").container_path == "/usr/bin/nvidia-smi");
}

TEST_CASE("graft inventory says where each library came from, in text and JSON", "[inventory][layout][cli]") {
  auto host = layout_usr_local_host();
  std::string policy = layout_policy_file(host, "library_search = \"dirs-only\"\n" + kLayoutLibDirs);
  auto json = run_graft({"--policy", policy, "inventory", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  auto cuda = nlohmann::json::parse(json.out).at("libraries").at("libcuda.so").at(0);
  CHECK(cuda.at("source") == nlohmann::json{{"kind", "dir"}, {"path", "/usr/local/nvidia/lib64"}});
  auto text = run_graft({"--policy", policy, "inventory"});
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains(host.path(std::string(kLayoutDriverDir) + "/lib64/") + kLayoutCudaFile +
                                       "  from dir /usr/local/nvidia/lib64"));
}

TEST_CASE("graft plan mounts the libraries found in a library dir at the image's library directory",
          "[plan][layout][cli]") {
  auto host = layout_usr_local_host();
  std::string policy = layout_policy_file(host, "library_search = \"dirs-only\"\n" + kLayoutLibDirs);
  auto result = run_graft({"--policy", policy, "plan", "--format", "json", "--env", "NVIDIA_VISIBLE_DEVICES=0",
                           "--env", "NVIDIA_DRIVER_CAPABILITIES=compute,utility"});
  REQUIRE(result.exit_code == 0);
  auto plan = nlohmann::json::parse(result.out);
  std::string lib_dir = plan.at("lib_dir");
  bool mounted = false, linked = false;
  for (const auto& action : plan.at("actions")) {
    if (action.at("kind") == "bind_mount" && action.at("target") == lib_dir + "/" + kLayoutCudaFile) {
      mounted = true;
      CHECK(action.at("source") == host.path(std::string(kLayoutDriverDir) + "/lib64/") + kLayoutCudaFile);
    }
    if (action.at("kind") == "symlink" && action.at("target") == lib_dir + "/libcuda.so.1") linked = true;
  }
  CHECK(mounted);
  CHECK(linked);
}

TEST_CASE("graft cdi generate mounts the libraries found in a library dir", "[cdi][layout][cli]") {
  auto host = layout_usr_local_host();
  std::string policy = layout_policy_file(host, "library_search = \"dirs-only\"\n" + kLayoutLibDirs);
  auto result = run_graft({"--policy", policy, "cdi", "generate"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("\"" + host.path(std::string(kLayoutDriverDir) + "/lib64/") +
                                         kLayoutCudaFile + "\""));
}

TEST_CASE("a library dir's file for a name the cache already gave in both ABIs is not opened", "[inventory][layout]") {
  auto host = FakeHost::build(FakeHostSpec::with_gpus(1));
  if (!host.ldcache_created()) GRAFT_SKIP(host.ldcache_problem());
  if (!host.lib32_created()) GRAFT_SKIP("this build cannot make the 32-bit fake libraries");
  write_file(host.path(std::string("/opt/copy/") + kLayoutCudaFile), "not an ELF object\n");
  auto inventory = layout_discover(host, "library_dirs = [\"/opt/copy\"]\n");
  CHECK_FALSE(layout_warned(inventory, "/opt/copy/" + std::string(kLayoutCudaFile)));
  REQUIRE(layout_native_library(inventory, "libcuda.so"));
  CHECK(layout_native_library(inventory, "libcuda.so")->source.kind == LibrarySource::Kind::ldcache);
}
