// SPDX-License-Identifier: Apache-2.0
// Nothing graft gives a container may reach back to the host:
// the in-container ldconfig and device nodes the image plants. An image
// puts a character device behind a library-named symlink, and another
// device named like a library, in the directory ldconfig scans; inotifywait
// on the host watches the bundle and must see neither node opened, while it
// does see the run open the image's other files. Skips without inotifywait.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "harness/container_checks.hpp"
#include "harness/hostile_image.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"

extern char** environ;

using namespace graft::e2e;

namespace {

constexpr const char* kInotifywait = "/usr/bin/inotifywait";

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// `inotifywait -r -m -e open` on a tree, its events in a file, stopped on
// destruction.
class OpenWatch {
 public:
  OpenWatch(const std::string& tree, const std::string& log) : log_(log) {
    const std::string command = std::string("exec ") + kInotifywait +
                                " -r -m -e open --format '%w%f' '" + tree + "' > '" + log +
                                "' 2> '" + log + ".err'";
    const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
    REQUIRE(::posix_spawn(&pid_, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv),
                          environ) == 0);
    for (int i = 0; i < 500 && read_all(log + ".err").find("Watches established") ==
                                   std::string::npos;
         ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE_THAT(read_all(log + ".err"), Catch::Contains("Watches established"));
  }
  ~OpenWatch() { stop(); }
  // The opened paths, one a line, once the watch is stopped.
  std::string stop() {
    if (pid_ > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the last events
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
    return read_all(log_);
  }

 private:
  std::string log_;
  pid_t pid_ = -1;
};

}  // namespace

TEST_CASE("a device node the image plants behind a library name in a library directory is never "
          "opened by the in-container ldconfig",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  if (::access(kInotifywait, X_OK) != 0) {
    GRAFT_SKIP(kInotifywait << " is missing (install inotify-tools)");
  }
  // The watch starts once the bundle is complete: every directory exists,
  // so `inotifywait -r` has them all before the runtime starts (a watch that
  // had to follow new directories missed whole subtrees under load).
  graft::fixture::TempDir logs("graft-e2e-ldwatch-log-");
  BundleSpec spec = gpu1_compute_utility();
  const std::string lib_dir = "/usr/lib/x86_64-linux-gnu";
  spec.planted = {{"/planted/watchdog", PlantedKind::char_device, ""},
                  {lib_dir + "/libevil.so.1", PlantedKind::symlink, "/planted/watchdog"},
                  {lib_dir + "/libplanted.so.2", PlantedKind::char_device, ""}};
  std::optional<OpenWatch> watch;
  spec.on_built = [&](const std::string& bundle) { watch.emplace(bundle, logs.path() + "/opens"); };

  auto result = run_hostile(spec, "ldconfig", /*full_probe=*/false);
  REQUIRE(watch.has_value());
  const std::string opens = watch->stop();
  record("image devices", lib_dir + "/libevil.so.1", "symlink to a planted device node", result);
  INFO("container output:\n" << result.container.run.out << "\nopened:\n" << opens);
  // The watch works: the run opened the image's files (the shell's script,
  // the libraries ldconfig reads).
  CHECK_THAT(opens, Catch::Contains("/rootfs/"));
  CHECK_THAT(opens, !Catch::Contains("/rootfs/planted/watchdog"));
  CHECK_THAT(opens, !Catch::Contains("/rootfs" + lib_dir + "/libplanted.so.2"));
  // The planted names are only image files: the container starts and gets
  // its cache.
  REQUIRE(result.outcome == "injected");
  CHECK(result.container.report.find("cache", "/etc/ld.so.cache")->at(0) == "1");
}

TEST_CASE("a device node the image puts at /etc/ld.so.cache is never opened by the cache writer, and is "
          "replaced by a cache",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  if (::access(kInotifywait, X_OK) != 0) {
    GRAFT_SKIP(kInotifywait << " is missing (install inotify-tools)");
  }
  // A real image would name a device whose open has effects (c 10:130, the
  // watchdog, reboots the node); the test's node is c 1:3. The watch is on
  // the node itself, so the new cache renamed over its name is not counted;
  // the test opens the node once itself to show the watch sees an open.
  graft::fixture::TempDir logs("graft-e2e-ldwatch-log-");
  BundleSpec spec = gpu1_compute_utility();
  spec.planted = {{"/etc/ld.so.cache", PlantedKind::char_device, ""}};
  std::optional<OpenWatch> watch;
  spec.on_built = [&](const std::string& bundle) {
    const std::string node = bundle + "/rootfs/etc/ld.so.cache";
    watch.emplace(node, logs.path() + "/opens");
    int fd = ::open(node.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    ::close(fd);
  };

  auto result = run_hostile(spec, "ld.so.cache", /*full_probe=*/false);
  REQUIRE(watch.has_value());
  const std::string opens = watch->stop();
  record("image devices", "/etc/ld.so.cache", "device node", result);
  INFO("container output:\n" << result.container.run.out << "\nopened:\n" << opens);
  CHECK(std::count(opens.begin(), opens.end(), '\n') == 1);  // the test's own open only
  REQUIRE(result.outcome == "injected");
  CHECK(result.container.report.find("cache", "/etc/ld.so.cache")->at(0) == "1");
}
