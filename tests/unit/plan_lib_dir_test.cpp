// SPDX-License-Identifier: Apache-2.0
// `graft plan` names the library directory an image gets and why, in text
// and JSON, with --rootfs (the image decides: image_layout.cpp) and without
// (the multiarch directory is assumed, and the plan says the image decides).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "fake_host.hpp"
#include "fixture_files.hpp"
#include "run_command.hpp"
#include "site_policy.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

struct LibDirHost {
  fixture::FakeHost host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(1));
  std::string policy = fixture::write_site_policy(host, "");
};

LibDirHost& lib_dir_host() {
  static LibDirHost host;
  return host;
}

// A busybox-like rootfs: /etc, and the multiarch directory when asked.
std::string lib_dir_rootfs(const std::string& name, bool multiarch_dir) {
  std::string root = lib_dir_host().host.path("/" + name);
  fixture::make_dirs(root + "/etc");
  if (multiarch_dir) fixture::make_dirs(root + fixture::FakeHost::lib_dir());
  return root;
}

CommandResult plan_for_rootfs(const std::string& rootfs, const std::string& format) {
  std::vector<std::string> args{"--policy", lib_dir_host().policy, "plan", "--format", format,
                                "--env", "NVIDIA_VISIBLE_DEVICES=0"};
  if (!rootfs.empty()) args.insert(args.end(), {"--rootfs", rootfs});
  return run_graft(args);
}

}  // namespace

TEST_CASE("graft plan --rootfs names the image's multiarch directory and why", "[cli][lib_dir]") {
  if (!lib_dir_host().host.device_nodes_created()) GRAFT_SKIP("device nodes need root");
  auto result = plan_for_rootfs(lib_dir_rootfs("busybox-multiarch", true), "text");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("library dir " + fixture::FakeHost::lib_dir() +
                                         ": the image's multiarch directory\n"));
}

TEST_CASE("graft plan --rootfs says /usr/lib64 was chosen because the image has no multiarch directory",
          "[cli][lib_dir]") {
  if (!lib_dir_host().host.device_nodes_created()) GRAFT_SKIP("device nodes need root");
  auto result = plan_for_rootfs(lib_dir_rootfs("busybox-bare", false), "text");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("library dir /usr/lib64: no multiarch directory in the image"));
}

TEST_CASE("graft plan without a rootfs says the image decides and which directory it assumed",
          "[cli][lib_dir]") {
  if (!lib_dir_host().host.device_nodes_created()) GRAFT_SKIP("device nodes need root");
  auto result = plan_for_rootfs("", "text");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out,
             Catch::Contains("library dir " + fixture::FakeHost::lib_dir() +
                             ": no rootfs given: assumed the multiarch directory; the image decides"));
}

TEST_CASE("graft plan --rootfs naming no directory says the rootfs cannot be opened, not that the image "
          "lacks a multiarch directory",
          "[cli][lib_dir]") {
  if (!lib_dir_host().host.device_nodes_created()) GRAFT_SKIP("device nodes need root");
  std::string missing = lib_dir_host().host.path("/no-such-rootfs");
  auto result = plan_for_rootfs(missing, "text");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("library dir /usr/lib64: the rootfs " + missing +
                                         " cannot be opened (No such file or directory)"));
}

TEST_CASE("the JSON plan carries the library directory's reason beside the directory", "[cli][lib_dir]") {
  if (!lib_dir_host().host.device_nodes_created()) GRAFT_SKIP("device nodes need root");
  auto result = plan_for_rootfs(lib_dir_rootfs("busybox-json", false), "json");
  REQUIRE(result.exit_code == 0);
  auto plan = nlohmann::json::parse(result.out);
  CHECK(plan["lib_dir"] == "/usr/lib64");
  CHECK(plan.value("lib_dir_reason", "").starts_with("no multiarch directory in the image"));
  CHECK(plan.value("lib32_dir_reason", "") == "no 32-bit multiarch directory in the image");
  std::string file = lib_dir_host().host.path("/plan-lib-dir.json");
  fixture::write_file(file, result.out);
  auto check = check_plan_schema(file);
  INFO(check.err);
  CHECK(check.exit_code == 0);
}
