// SPDX-License-Identifier: Apache-2.0
// `graft policy check` checks the host the policy will run on: every [host]
// root is a directory and holds what discovery reads there (docs/policy.md,
// "Checking a policy"); `--offline` checks the policy alone and says so.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "fake_host.hpp"
#include "run_command.hpp"
#include "site_policy.hpp"
#include "skip.hpp"

namespace policy_check_host_test {

using namespace graft;
using namespace graft::testing;

const fixture::FakeHost& host() {
  static const fixture::FakeHost fake = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(1));
  return fake;
}

// What stops the fake host standing in for a driver host here.
std::string fake_host_problem(const fixture::FakeHost& fake) {
  if (!fake.ldcache_created()) return fake.ldcache_problem();
  return fake.device_nodes_problem();
}

// The plugins this build made: the check loads each one, as the hook would,
// and an installed tree's plugin directory is not this build's.
std::string built_plugins() { return fmt::format("[plugins]\ndir = \"{}\"\n", GRAFT_BUILD_PLUGIN_DIR); }

// A site policy named `name` beside the fake host's, with every root at the
// fake host unless `roots` (TOML lines, e.g. `driver_root = "..."`) sets it,
// and `extra` (whole tables) before [host].
std::string write_policy(const fixture::FakeHost& fake, const std::string& name, const std::string& roots,
                         const std::string& extra = "") {
  std::string path = fake.path("/etc/graft/" + name + ".toml");
  std::filesystem::create_directories(fake.path("/etc/graft"));
  std::string host_block = roots;
  for (const char* key : {"driver_root", "dev_root", "proc_root", "sys_root", "run_root"})
    if (roots.find(key) == std::string::npos) host_block += fmt::format("{} = \"{}\"\n", key, fake.root());
  // Last, so the lines the cases name keep their numbers.
  std::string plugins = extra.find("[plugins]") == std::string::npos ? "\n" + built_plugins() : "";
  std::ofstream(path) << fmt::format("include = [\"{}/nvidia/nvidia.toml\"]\n{}\n[host]\n{}{}",
                                     fixture::source_policy_dir(), extra, host_block, plugins);
  return path;
}

std::string empty_dir(const fixture::FakeHost& fake, const std::string& name) {
  std::string dir = fake.path("/" + name);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST_CASE("the shipped policy passes graft policy check against the fake host", "[policy-check]") {
  GRAFT_SKIP_IF(fake_host_problem(host()));
  auto result = run_graft({"--policy", fixture::write_site_policy(host(), built_plugins()), "policy", "check"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("host     driver_root " + host().root()));
  CHECK_THAT(result.out, !Catch::Contains("error "));
  // Of the default binary_dirs only /usr/bin is there, as on many driver roots.
  CHECK_THAT(result.out, !Catch::Contains("warning "));
  CHECK_THAT(result.out, Catch::Contains("\nok: "));
}

TEST_CASE("graft policy check fails on a root that is a file, not a directory", "[policy-check]") {
  // Made here: each case may run in a process of its own, on a fresh host.
  std::string file = host().path("/etc/not-a-root");
  std::ofstream(file) << "a file\n";
  std::string policy = write_policy(host(), "file-root", "run_root = \"" + file + "\"\n");
  auto result = run_graft({"--policy", policy, "policy", "check"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("host.run_root (" + policy + ":4:"));
  CHECK_THAT(result.err, Catch::Contains(file + ": not a directory"));
}

TEST_CASE("graft policy check on a mistyped driver_root fails naming the key, its file:line and the path",
          "[policy-check]") {
  std::string typo = host().path("/drivr");
  std::string policy = write_policy(host(), "typo", "driver_root = \"" + typo + "\"\n");
  auto result = run_graft({"--policy", policy, "policy", "check"});
  CHECK(result.exit_code == 1);
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  // Line 4: the include, an empty line, [host], then driver_root.
  CHECK_THAT(result.err, Catch::Contains("host.driver_root (" + policy + ":4:"));
  CHECK_THAT(result.err, Catch::Contains(typo + ": not found"));
  CHECK_THAT(result.out, Catch::Contains("error    host.driver_root"));
  CHECK_THAT(result.out, !Catch::Contains("\nok: "));
}

TEST_CASE("graft policy check fails when proc_root holds no driver procfs, naming the version file",
          "[policy-check]") {
  GRAFT_SKIP_IF(fake_host_problem(host()));
  std::string proc = empty_dir(host(), "empty-proc");
  std::string policy = write_policy(host(), "no-procfs", "proc_root = \"" + proc + "\"\n");
  auto result = run_graft({"--policy", policy, "policy", "check"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("vendor.nvidia.version_file ("));
  CHECK_THAT(result.err, Catch::Contains("under host.proc_root (" + policy + ":"));
  CHECK_THAT(result.err, Catch::Contains(proc + "/proc/driver/nvidia/version: not found"));
}

TEST_CASE("graft policy check --offline passes a policy whose roots are missing and says the host was not checked",
          "[policy-check]") {
  std::string policy = write_policy(host(), "offline", "driver_root = \"" + host().path("/drivr") + "\"\n");
  auto result = run_graft({"--policy", policy, "policy", "check", "--offline"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("host     not checked (--offline)"));
  CHECK_THAT(result.out, Catch::Contains("\nok: "));
}

TEST_CASE("graft policy check fails when the driver root has no ld.so.cache, unless library_search is dirs-only",
          "[policy-check]") {
  std::string root = empty_dir(host(), "no-cache");
  std::filesystem::create_directories(root + "/opt/driver/lib64");
  std::string policy = write_policy(host(), "no-cache", "driver_root = \"" + root + "\"\n");
  auto cache = run_graft({"--policy", policy, "policy", "check"});
  CHECK(cache.exit_code == 1);
  CHECK_THAT(cache.err, Catch::Contains("discovery.ldcache (default) under host.driver_root (" + policy + ":"));
  CHECK_THAT(cache.err, Catch::Contains(root + "/etc/ld.so.cache: not found"));
  std::string dirs_only = write_policy(host(), "dirs-only", "driver_root = \"" + root + "\"\n",
                                       "[discovery]\nlibrary_search = \"dirs-only\"\n"
                                       "library_dirs = [\"/opt/driver/lib64\"]\n");
  auto dirs = run_graft({"--policy", dirs_only, "policy", "check"});
  CHECK_THAT(dirs.err + dirs.out, !Catch::Contains("discovery.ldcache"));
  CHECK_THAT(dirs.err + dirs.out, !Catch::Contains("discovery.library_dirs"));
}

TEST_CASE("graft policy check fails when no dirs-only library directory is under the driver root",
          "[policy-check]") {
  std::string policy = write_policy(host(), "no-lib-dirs", "",
                                    "[discovery]\nlibrary_search = \"dirs-only\"\n"
                                    "library_dirs = [\"/opt/drivr/lib64\"]\n");
  auto result = run_graft({"--policy", policy, "policy", "check"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("discovery.library_dirs (" + policy + ":4:"));
  CHECK_THAT(result.err, Catch::Contains(host().path("/opt/drivr/lib64") + ": not found"));
}

TEST_CASE("graft policy check fails when dev_root lacks a required device node", "[policy-check]") {
  GRAFT_SKIP_IF(fake_host_problem(host()));
  std::string dev = empty_dir(host(), "empty-dev");
  std::string policy = write_policy(host(), "no-nodes", "dev_root = \"" + dev + "\"\n");
  auto result = run_graft({"--policy", policy, "policy", "check"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("device.nvidiactl (" + fixture::source_policy_dir() + "/nvidia/nvidia.toml:"));
  CHECK_THAT(result.err, Catch::Contains("under host.dev_root (" + policy + ":"));
  CHECK_THAT(result.err, Catch::Contains(dev + "/dev/nvidiactl: not found"));
}

TEST_CASE("a binary directory the policy lists and the driver root lacks is a warning of graft policy check",
          "[policy-check]") {
  GRAFT_SKIP_IF(fake_host_problem(host()));
  std::string policy = write_policy(host(), "binary-dirs", "",
                                    "[discovery]\nbinary_dirs = [\"/usr/bin\", \"/opt/drivr/bin\"]\n");
  auto result = run_graft({"--policy", policy, "policy", "check"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("warning  discovery.binary_dirs (" + policy + ":3:"));
  CHECK_THAT(result.out, Catch::Contains(host().path("/opt/drivr/bin") + ": not found"));
  CHECK_THAT(result.out, Catch::Contains("host     driver_root " + host().root()));
  CHECK_THAT(result.out, Catch::Contains(": 0 errors, 1 warning\n"));
}

TEST_CASE("a missing firmware directory is a warning of graft policy check, not an error", "[policy-check]") {
  auto spec = fixture::FakeHostSpec::with_gpus(1);
  spec.with_firmware = false;
  auto bare = fixture::FakeHost::build(spec);
  GRAFT_SKIP_IF(fake_host_problem(bare));
  auto result = run_graft({"--policy", fixture::write_site_policy(bare, built_plugins()), "policy", "check"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("warning  discovery.firmware_dir (default) under host.driver_root ("));
  CHECK_THAT(result.out, Catch::Contains(bare.path("/lib/firmware") + ": not found"));
  CHECK_THAT(result.out, Catch::Contains("\nok: "));
}

TEST_CASE("graft policy check fails on an [audit] log whose directory is missing", "[policy-check]") {
  std::string log = host().path("/no-such-log-dir/audit.jsonl");
  std::string policy = write_policy(host(), "audit-dir", "", "[audit]\nlog = \"" + log + "\"\n");
  auto result = run_graft({"--policy", policy, "policy", "check"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  // The key names the file:line that set it.
  CHECK_THAT(result.out, Catch::Contains("error    audit.log (" + policy + ":") &&
                             Catch::Contains("): " + log + ": its directory " + host().path("/no-such-log-dir") +
                                             ": not found"));
  auto offline = run_graft({"--policy", policy, "policy", "check", "--offline"});
  CHECK(offline.exit_code == 0);  // host-dependent: not checked offline
  CHECK_THAT(offline.out, Catch::Contains("needs    not checked (--offline)"));
}

TEST_CASE("graft policy check fails on an [exclusive] claims directory another user could write", "[policy-check][claims]") {
  std::string dir = empty_dir(host(), "open-claims");
  REQUIRE(::chmod(dir.c_str(), 0777) == 0);
  std::string policy =
      write_policy(host(), "open-claims", "", "[exclusive]\ngpus = true\nstate_dir = \"" + dir + "\"\n");
  auto result = run_graft({"--policy", policy, "policy", "check"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.out, Catch::Contains("error    exclusive.state_dir (" + policy + ":") &&
                             Catch::Contains("): " + dir + ": not graft's own (owner " + std::to_string(::geteuid()) +
                                             ", mode 777)"));
  REQUIRE(::chmod(dir.c_str(), 0700) == 0);
  auto fixed = run_graft({"--policy", policy, "policy", "check"});
  CHECK(fixed.exit_code == 0);
  CHECK_THAT(fixed.out, Catch::Contains("claims directory " + dir + " is graft's own"));
}

TEST_CASE("graft policy check fails on a plugin directory that does not hold the plugins", "[policy-check]") {
  std::string policy = write_policy(host(), "no-plugins", "",
                                    "[plugins]\ndir = \"" + empty_dir(host(), "empty-plugins") + "\"\n"
                                    "enable = [\"devices\"]\n");
  auto result = run_graft({"--policy", policy, "policy", "check"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.out, Catch::Contains("error    plugins: ") && Catch::Contains("libdevices.so"));
}

TEST_CASE("graft policy check fails on a [runtime] path that is not an executable file", "[policy-check]") {
  std::string runtime = host().path("/no-such-runtime");
  std::string policy = write_policy(host(), "no-runtime", "", "[runtime]\npath = \"" + runtime + "\"\n");
  auto result = run_graft({"--policy", policy, "policy", "check"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.out, Catch::Contains("error    runtime.path (" + policy + ":") &&
                             Catch::Contains("): " + runtime + ": not found"));
}

}  // namespace policy_check_host_test
