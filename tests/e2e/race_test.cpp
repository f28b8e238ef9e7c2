// SPDX-License-Identifier: Apache-2.0
// Hostile images: the race behind CVE-2024-0132 and
// its bypass CVE-2025-23359. The image owns its rootfs and can change it
// while graft works: here it flips each directory graft mounts into or under
// with a symlink to the host sentinel, atomically and as fast as it can, for
// the whole time graft's prestart hook runs (harness/race_swapper.hpp), with the
// symlink in two forms (absolute, and a ../ chain). Every run is a real
// `runc run` (cgroup v1); harness/race_run.hpp lists what is asserted after each.
//
// Each target and form prints one line for the figures table in
// docs/security.md, "race-outcome|<target>|<form>|runs=N|injected=I|
// refused=R|escapes=E|swaps=S|lib64=B" (E: runs where anything reached
// outside the root; B: injections into /usr/lib64 because graft's layout
// check found neither the multiarch directory nor /etc/debian_version while
// /usr or /etc was swapped, counted within
// I), then one
// "race-refusal|<target>|<form>|count|line" per distinct refusal line.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <iostream>
#include <map>
#include <regex>
#include <string>

#include "harness/hostile_image.hpp"
#include "harness/probed_container.hpp"
#include "harness/race_run.hpp"

using namespace graft::e2e;

namespace {

// Runs per target and symlink form: 10 targets x 2 forms x 10 = 200 starts,
// 20 per TEST_CASE. The race cases run in the Release build only
// (tests/e2e/CMakeLists.txt): under the sanitizers graft starts about five
// times slower, which narrows the window rather than widening it.
constexpr int kRunsPerForm = 10;

const RaceTarget kFirmware{"/lib/firmware/nvidia/560.35.03", "/firmware",
                           {"/lib/firmware/nvidia/560.35.03/gsp_ga10x.bin"}};

struct RaceTally {
  int runs = 0;
  int injected = 0;
  int lib64 = 0;             // of those: libraries in /usr/lib64 (the layout check saw no multiarch directory)
  int refused = 0;
  int escapes = 0;
  long swaps = 0;
  std::map<std::string, int> refusals;  // graft's line, id and plugin directory left out
};

// "graft: container ID: plugin DIR/libX.so: MESSAGE" -> "libX.so: MESSAGE",
// with each run's own bundle directory shown as <rootfs>.
std::string without_id(const std::string& line) {
  static const std::regex bundle("/tmp/graft-e2e-bundle-[^/]*/rootfs");
  auto plugin = line.find("plugin /");
  if (plugin == std::string::npos) return line;
  auto slash = line.rfind('/', line.find(".so", plugin));
  std::string message = slash == std::string::npos ? line : line.substr(slash + 1);
  return std::regex_replace(message, bundle, "<rootfs>");
}

RaceTally race_one_form(const RaceTarget& target, LinkForm form) {
  RaceTally tally;
  for (int run = 0; run < kRunsPerForm; ++run) {
    INFO(target.path << " flipped with a " << link_form_name(form) << " symlink, run " << run + 1);
    RaceRun result = run_raced_container(target, form);
    ++tally.runs;
    if (result.outcome == "refused") {
      ++tally.refused;
      ++tally.refusals[without_id(result.message)];
    } else {
      ++tally.injected;
      if (result.library_dir == "/usr/lib64") ++tally.lib64;
    }
    if (!result.escapes.empty()) ++tally.escapes;
    tally.swaps += result.tally.swaps;
  }
  const std::string name = target.path + "|" + link_form_name(form);
  std::cout << "race-outcome|" << name << "|runs=" << tally.runs << "|injected=" << tally.injected
            << "|refused=" << tally.refused << "|escapes=" << tally.escapes << "|swaps=" << tally.swaps
            << "|lib64=" << tally.lib64 << "\n";
  for (const auto& [message, count] : tally.refusals)
    std::cout << "race-refusal|" << name << "|" << count << "|" << message << "\n";
  return tally;
}

// Both forms: no run reached outside the root, and the swapper flipped
// while graft ran. Where graft resolves the raced directory for many actions
// (the library directories), some run must also have hit the swapped state
// and been refused; elsewhere the window is narrow enough that 20 runs may
// all miss it, so the tallies only print (tests/unit/libraries_race_test.cpp
// asserts the hits over thousands of rounds).
enum class Hits { expected, printed };

void race(const RaceTarget& target, Hits hits = Hits::printed) {
  int refused = 0;
  for (LinkForm form : {LinkForm::absolute, LinkForm::relative_chain}) {
    RaceTally tally = race_one_form(target, form);
    CHECK(tally.escapes == 0);
    CHECK(tally.swaps > 0);
    refused += tally.refused;
  }
  if (hits == Hits::expected) CHECK(refused > 0);
}

}  // namespace

TEST_CASE("a race that flips the library directory with a symlink to the host never mounts or writes outside the root",
          "[e2e][hostile][race][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  race({"/usr/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", {}}, Hits::expected);
}

TEST_CASE("a race that flips /usr/lib, the library directory's parent, with a symlink to the host never mounts or writes outside the root",
          "[e2e][hostile][race][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  race({"/usr/lib", "/usr/lib", {}}, Hits::expected);
}

TEST_CASE("a race that flips /usr, above the library directory and /usr/bin, with a symlink to the host never mounts or writes outside the root",
          "[e2e][hostile][race][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  race({"/usr", "/usr", {"/usr/bin/nvidia-smi"}}, Hits::expected);
}

TEST_CASE("a race that flips /usr/bin with a symlink to the host never mounts outside the root",
          "[e2e][hostile][race][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  race({"/usr/bin", "/bin", {"/usr/bin/nvidia-smi"}});
}

TEST_CASE("a race that flips the firmware directory with a symlink to the host never mounts outside the root",
          "[e2e][hostile][race][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  race(kFirmware);
}

TEST_CASE("a race that flips /lib/firmware, above the firmware directory, with a symlink to the host never mounts outside the root",
          "[e2e][hostile][race][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  race({"/lib/firmware", "/lib", {"/lib/firmware/nvidia/560.35.03/gsp_ga10x.bin"}});
}

TEST_CASE("a race that flips /run/nvidia-persistenced with a symlink to the host never mounts outside the root",
          "[e2e][hostile][race][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  race({"/run/nvidia-persistenced", "/run/nvidia-persistenced", {"/run/nvidia-persistenced/socket"}});
}

TEST_CASE("a race that flips /run/nvidia-fabricmanager with a symlink to the host never mounts outside the root",
          "[e2e][hostile][race][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  race({"/run/nvidia-fabricmanager", "/run/nvidia-persistenced", {"/run/nvidia-fabricmanager/socket"}});
}

TEST_CASE("a race that flips /etc, where ldconfig writes the cache, with a symlink to the host never leads the ldconfig run outside the root",
          "[e2e][hostile][race][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  race({"/etc", "/etc", {}});
}

TEST_CASE("a race that flips /etc/ld.so.conf.d with a symlink to the host never leads the ldconfig run outside the root",
          "[e2e][hostile][race][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  // ldconfig only reads it, chrooted into the root, and no graft action
  // resolves it: nothing here can refuse.
  race({"/etc/ld.so.conf.d", "/etc/ld.so.conf.d", {}});
}

// Controls: the escape checks are not vacuous. Each hook escapes on purpose
// right after graft, in a way that only one of the checks can see.
TEST_CASE("the race harness reports a mount made outside the rootfs in the container's namespace",
          "[e2e][race][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  const std::string file = sentinel().file();
  RaceRun result = start_raced_container(
      kFirmware, LinkForm::absolute,
      "/usr/bin/nsenter -t \"$pid\" -m /bin/mount --bind '" + file + "' '" + file + "'");
  INFO("escapes:\n" << fmt::format("{}", fmt::join(result.escapes, "\n")));
  REQUIRE(result.escapes.size() == 1);
  CHECK_THAT(result.escapes[0], Catch::StartsWith("container mount outside the rootfs: ") &&
                                    Catch::Contains(" " + file + " "));
}

TEST_CASE("the race harness reports a file written into the host sentinel", "[e2e][race][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  RaceRun result = start_raced_container(kFirmware, LinkForm::absolute,
                                         "echo escaped > '" + sentinel().path() + "/escaped'");
  INFO("escapes:\n" << fmt::format("{}", fmt::join(result.escapes, "\n")));
  // The new file, and its directory's mtime; nothing the other checks see.
  REQUIRE_FALSE(result.escapes.empty());
  for (const auto& escape : result.escapes) CHECK_THAT(escape, Catch::StartsWith("host sentinel: "));
  CHECK_THAT(fmt::format("{}", fmt::join(result.escapes, "\n")),
             Catch::Contains("host sentinel: new entry escaped: "));
}
