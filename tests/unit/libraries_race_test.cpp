// SPDX-License-Identifier: Apache-2.0
// The check-then-mount race of CVE-2024-0132 and CVE-2025-23359 at the
// plugin level, many times faster than tests/e2e/race_test.cpp: the real
// libraries plugin binds libcuda and makes its soname link, again and again,
// into a root whose library directory a thread flips with a symlink to a
// directory outside the root (renameat2 RENAME_EXCHANGE, as fast as it can).
// Then the mount table of the test's private namespace holds every bind any
// round made, all inside the root, and the outside tree is byte-for-byte as
// it was.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "library_host.hpp"
#include "fake_host.hpp"
#include "fixture_files.hpp"
#include "mount_support.hpp"

using namespace graft;
using namespace graft::testing;
using graft::test::MountSandbox;

namespace {

constexpr int kRounds = 2000;
// Rounds go on past kRounds until one has met the symlink: with the ../
// chain a refusal is rare (0 to 22 in 2000 rounds here), and a run must have
// raced before it may pass.
constexpr int kMaxRounds = 10 * kRounds;

// Flips `parent`/`real` with `parent`/`link` until stop(), which puts the
// real directory back.
class Flipper {
 public:
  Flipper(const std::string& parent, std::string real, std::string link)
      : parent_fd_(::open(parent.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)),
        real_(std::move(real)),
        link_(std::move(link)) {
    REQUIRE(parent_fd_ >= 0);
    thread_ = std::thread([this] { run(); });
  }
  ~Flipper() {
    stop();
    ::close(parent_fd_);
  }
  Flipper(const Flipper&) = delete;
  Flipper& operator=(const Flipper&) = delete;

  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  long swaps() const { return swaps_; }
  bool failed() const { return failed_; }

 private:
  bool exchange() {
    if (::renameat2(parent_fd_, real_.c_str(), parent_fd_, link_.c_str(), RENAME_EXCHANGE) == 0) {
      ++swaps_;
      return true;
    }
    failed_ = true;
    return false;
  }
  void run() {
    while (!stop_ && exchange()) {
    }
    if (swaps_ % 2 != 0) exchange();
  }

  int parent_fd_;
  std::string real_;
  std::string link_;
  std::atomic<bool> stop_{false}, failed_{false};
  std::atomic<long> swaps_{0};
  std::thread thread_;
};

// This namespace's mounts: mount ID -> where it is attached (fields 1 and 5).
std::map<std::string, std::string> mounts() {
  std::ifstream in("/proc/self/mountinfo");
  std::map<std::string, std::string> out;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, parent, device, root, point;
    fields >> id >> parent >> device >> root >> point;
    out[id] = point;
  }
  return out;
}

// Every entry below `dir` with its bytes (or link value): the tree as data.
std::map<std::string, std::string> tree(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    std::string key = entry.path().string().substr(dir.size());
    if (entry.is_symlink()) out[key] = "-> " + std::filesystem::read_symlink(entry.path()).string();
    else if (entry.is_regular_file()) out[key] = test::read_all(entry.path().string());
    else out[key] = "dir";
  }
  return out;
}


Action soname_link() {
  return Action{.kind = ActionKind::symlink, .plugin = "libraries", .source = kCuda,
                .target = kLibDir + "/libcuda.so.1"};
}

// The symlink the image flips in: to the outside tree's library directory,
// absolute or as a ../ chain from inside the root.
std::string link_to(const std::string& outside_dir, bool chain) {
  if (!chain) return outside_dir;
  std::string up;
  for (int i = 0; i < 40; ++i) up += "../";
  return up + outside_dir.substr(1);
}

struct Rounds {
  int injected = 0;
  int refused = 0;
  std::set<std::string> refusals;
};

// graft never unmounts, so every bind any round made is still there (stacked
// on the one mountpoint): each must be inside the root.
void check_binds_inside(const std::map<std::string, std::string>& before,
                        const std::string& rootfs, const Rounds& rounds) {
  int added = 0;
  for (const auto& [id, point] : mounts()) {
    if (before.count(id)) continue;
    ++added;
    CHECK_THAT(point, Catch::StartsWith(rootfs + "/"));
  }
  CHECK(added >= rounds.injected);
  CHECK(added <= rounds.injected + rounds.refused);  // one bind a round at most
}

void race_rounds(bool chain) {
  auto spec = fixture::FakeHostSpec::with_gpus(1);
  spec.with_device_nodes = spec.with_binaries = spec.with_firmware = false;
  auto host = fixture::FakeHost::build(spec);
  fixture::TempDir outside("graft-race-outside-");
  fixture::write_file(outside.path() + kLibDir + "/" + kCuda, "outside the root: never bound over\n");
  fixture::write_file(outside.path() + kLibDir + "/libcuda.so.1", "outside the root: never replaced\n");
  const auto outside_before = tree(outside.path());

  MountSandbox sandbox;  // before any thread: it unshares the mount namespace
  fixture::make_dirs(sandbox.path(kLibDir));
  fixture::make_symlink(link_to(outside.path() + kLibDir, chain), sandbox.path("/usr/lib/.race"));
  const auto before = mounts();
  auto plugin = test::load_mechanism_plugin("libraries");

  Rounds rounds;
  Flipper flipper(sandbox.path("/usr/lib"), "x86_64-linux-gnu", ".race");
  int round = 0;
  for (; round < kMaxRounds && (round < kRounds || rounds.refused == 0); ++round) {
    auto applied = test::run_plugin(*plugin, {cuda_bind(host), soname_link()}, sandbox.target());
    if (applied.ok()) {
      ++rounds.injected;
    } else {
      ++rounds.refused;
      rounds.refusals.insert(applied.error().message);
    }
  }
  flipper.stop();
  REQUIRE_FALSE(flipper.failed());
  std::cout << "race-unit|" << (chain ? "../ chain" : "absolute") << "|rounds=" << round
            << "|injected=" << rounds.injected << "|refused=" << rounds.refused
            << "|swaps=" << flipper.swaps() << "\n";
  check_binds_inside(before, sandbox.rootfs(), rounds);
  CHECK(tree(outside.path()) == outside_before);
  // The flipper raced: some rounds met the symlink and were refused, naming
  // it. A ../ lookup that a rename kept disturbing (any rename on the host,
  // another test's flipper included) can still fail with EAGAIN after the
  // plugin's retries: a refusal too, naming the directory.
  CHECK(rounds.refused > 0);
  for (const auto& message : rounds.refusals) {
    std::cout << "race-unit-refusal|" << message << "\n";
    CHECK_THAT(message, Catch::Contains(kLibDir + " exists and is a symlink") ||
                            Catch::Contains("resolve in root " + kLibDir +
                                            ": Resource temporarily unavailable"));
  }
}

}  // namespace

TEST_CASE("A race that flips the library directory with an absolute symlink out of the root never gets the libraries plugin to bind or link outside it",
          "[plugins][mount][libraries][race]") {
  GRAFT_REQUIRE_MOUNTS();
  race_rounds(/*chain=*/false);
}

TEST_CASE("A race that flips the library directory with a ../ chain out of the root never gets the libraries plugin to bind or link outside it",
          "[plugins][mount][libraries][race]") {
  GRAFT_REQUIRE_MOUNTS();
  race_rounds(/*chain=*/true);
}
