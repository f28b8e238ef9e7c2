// SPDX-License-Identifier: Apache-2.0
// `graft cdi-hook` as a runtime calls it from a CDI spec: the OCI state on
// stdin, the actions on its command line, applied by the real plugins into a
// stand-in container (hook_harness.hpp) with the same in-root lookups as
// `graft hook`. A hostile rootfs (a library directory or a link's own path
// that is a symlink to the host) never leads it out of the root.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "hook_harness.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using namespace graft;
using namespace graft::harness;

namespace {

constexpr const char* kLibDir = "/usr/lib/x86_64-linux-gnu";

testing::CommandResult cdi_hook(const std::string& policy, const std::string& state,
                                const std::vector<std::string>& options,
                                const std::string& stage = "createRuntime") {
  std::vector<std::string> argv = {GRAFT_BINARY, "--policy", policy, "cdi-hook", stage};
  argv.insert(argv.end(), options.begin(), options.end());
  return testing::run_command(argv, state);
}

struct CdiHookSite {
  PluginDir plugins;
  std::string audit = host().path("/cdi-hook-audit.jsonl");
  std::string policy = write_policy("cdi-hook", plugins.path(), "", audit);
};

CdiHookSite& site() {
  static CdiHookSite shared;
  return shared;
}

// A bundle asking for nothing (cdi-hook reads no request) with a rootfs
// holding the library directory; `name` keeps bundles apart.
std::string bundle_with_lib_dir(const std::string& name) {
  std::string bundle = host().path("/cdi-hook-bundles/" + name);
  fs::remove_all(bundle);
  write_bundle(bundle, {R"("PATH=/bin")"});
  fs::create_directories(bundle + "/rootfs" + kLibDir);
  return bundle;
}

// A directory outside every root, standing for the host's own files.
std::string host_sentinel(const std::string& name) {
  std::string dir = host().path("/cdi-hook-sentinel/" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir + "/libcuda.so.1") << "host file\n";
  return dir;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::string link_option() { return std::string(kLibDir) + "/libcuda.so.1::libcuda.so.560.35.03"; }

}  // namespace

TEST_CASE("cdi-hook createContainer is refused with one line naming prestart and createRuntime",
          "[cdi-hook][hostile]") {
  std::string bundle = bundle_with_lib_dir("create-container");
  auto result = cdi_hook(site().policy, state_json("c9", ::getpid(), bundle), {"--link", link_option()},
                         "createContainer");
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: cdi-hook createContainer is refused: that hook runs "
                                           "inside the container's namespaces"));
  CHECK_FALSE(fs::is_symlink(bundle + "/rootfs" + kLibDir + "/libcuda.so.1"));
}

TEST_CASE("cdi-hook makes the links its options name inside the container's root and records it",
          "[cdi-hook]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("cdi-hook needs root to enter a mount namespace");
  }
  Container container;
  std::string bundle = bundle_with_lib_dir("plain");
  fs::remove(site().audit);
  auto result = cdi_hook(site().policy, state_json("cdi1", container.pid(), bundle), {"--link", link_option()});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  std::string link = bundle + "/rootfs" + kLibDir + "/libcuda.so.1";
  REQUIRE(fs::is_symlink(link));
  CHECK(fs::read_symlink(link) == "libcuda.so.560.35.03");
  auto record = nlohmann::json::parse(read_text(site().audit));
  CHECK(record["id"] == "cdi1");
  CHECK(record["outcome"] == "applied");
  CHECK(record["applied"] == 1);
}

TEST_CASE("the same cdi-hook run twice, as when a GPU device and a capability device both carry a set, ends as one run",
          "[cdi-hook]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("cdi-hook needs root to enter a mount namespace");
  }
  Container container;
  std::string bundle = bundle_with_lib_dir("twice");
  std::vector<std::string> options = {"--link", link_option(), "--ldcache-dir", kLibDir};
  for (int run = 1; run <= 2; ++run) {
    INFO("run " << run);
    auto result = cdi_hook(site().policy, state_json("cdi2", container.pid(), bundle), options);
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
  }
  std::string link = bundle + "/rootfs" + kLibDir + "/libcuda.so.1";
  REQUIRE(fs::is_symlink(link));
  CHECK(fs::read_symlink(link) == "libcuda.so.560.35.03");
  CHECK(fs::is_regular_file(bundle + "/rootfs/etc/ld.so.cache"));
  std::vector<std::string> left;  // no temporary entry from either run
  for (const auto& entry : fs::directory_iterator(bundle + "/rootfs" + kLibDir))
    left.push_back(entry.path().filename().string());
  CHECK(left == std::vector<std::string>{"libcuda.so.1"});
}

TEST_CASE("cdi-hook with a pid that shares graft's own mount namespace is refused, as graft hook refuses it",
          "[cdi-hook][hostile]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("cdi-hook needs root to enter a mount namespace");
  }
  std::string bundle = bundle_with_lib_dir("own-ns");
  auto result = cdi_hook(site().policy, state_json("c9", ::getpid(), bundle), {"--link", link_option()});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("shares graft's own mount namespace"));
  CHECK_FALSE(fs::exists(bundle + "/rootfs" + kLibDir + "/libcuda.so.1"));
}

TEST_CASE("a library directory that is an absolute symlink to the host never gets cdi-hook's link",
          "[cdi-hook][hostile]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("cdi-hook needs root to enter a mount namespace");
  }
  Container container;
  std::string bundle = bundle_with_lib_dir("lib-dir-to-host");
  std::string sentinel = host_sentinel("lib-dir");
  fs::remove(bundle + "/rootfs" + kLibDir);
  fs::create_directory_symlink(sentinel, bundle + "/rootfs" + kLibDir);
  auto result = cdi_hook(site().policy, state_json("c9", container.pid(), bundle), {"--link", link_option()});
  INFO(result.err);
  // Resolved inside the root, the symlink is no directory: refused in one line.
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::Contains("/usr/lib/x86_64-linux-gnu exists and is a symlink, expected a directory"));
  CHECK_FALSE(fs::is_symlink(sentinel + "/libcuda.so.1"));
  CHECK(read_text(sentinel + "/libcuda.so.1") == "host file\n");
}

TEST_CASE("a link's own path planted as an absolute symlink to a host file is replaced inside the root",
          "[cdi-hook][hostile]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("cdi-hook needs root to enter a mount namespace");
  }
  Container container;
  std::string bundle = bundle_with_lib_dir("link-to-host");
  std::string sentinel = host_sentinel("link");
  std::string link = bundle + "/rootfs" + kLibDir + "/libcuda.so.1";
  fs::create_symlink(sentinel + "/libcuda.so.1", link);
  auto result = cdi_hook(site().policy, state_json("c9", container.pid(), bundle), {"--link", link_option()});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(fs::read_symlink(link) == "libcuda.so.560.35.03");
  CHECK(read_text(sentinel + "/libcuda.so.1") == "host file\n");
}

TEST_CASE("a cdi-hook whose options are malformed fails in one line naming the option and changes nothing",
          "[cdi-hook][hostile]") {
  std::string bundle = bundle_with_lib_dir("malformed");
  auto result = cdi_hook(site().policy, state_json("c9", ::getpid(), bundle),
                         {"--link", "usr/lib/libcuda.so.1::libcuda.so.560.35.03"});
  CHECK(result.exit_code == 1);
  CHECK(result.err ==
        "graft: container c9: --link 'usr/lib/libcuda.so.1::libcuda.so.560.35.03': the container path "
        "must be absolute\n");
}

TEST_CASE("cdi-hook's ld cache refresh writes the cache inside the root, and an /etc that is a symlink to the host is refused",
          "[cdi-hook][hostile]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("cdi-hook needs root to enter a mount namespace");
  }
  Container container;
  std::string plain = bundle_with_lib_dir("ldcache");
  auto made = cdi_hook(site().policy, state_json("c9", container.pid(), plain), {"--ldcache-dir", kLibDir});
  INFO(made.err);
  CHECK(made.exit_code == 0);
  CHECK(fs::is_regular_file(plain + "/rootfs/etc/ld.so.cache"));

  std::string bundle = bundle_with_lib_dir("etc-to-host");
  std::string sentinel = host_sentinel("etc");
  fs::remove_all(bundle + "/rootfs/etc");
  fs::create_directory_symlink(sentinel, bundle + "/rootfs/etc");
  auto result = cdi_hook(site().policy, state_json("c9", container.pid(), bundle), {"--ldcache-dir", kLibDir});
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::Contains("exists but does not resolve inside the root"));
  CHECK_FALSE(fs::exists(sentinel + "/ld.so.cache"));
  CHECK(read_text(sentinel + "/libcuda.so.1") == "host file\n");
}
