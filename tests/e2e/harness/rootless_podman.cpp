// SPDX-License-Identifier: Apache-2.0
#include "rootless_podman.hpp"

#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "fixture_files.hpp"
#include "podman.hpp"
#include "runtime.hpp"

namespace graft::e2e {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSetpriv = "/usr/bin/setpriv";
constexpr std::uint64_t kRangeSize = 65536;

// A subordinate range of this process's own, far above the ranges useradd
// hands out (from 100000) and below the overflow of 32 bits.
std::uint64_t subordinate_base() {
  return 1'000'000'000 + (static_cast<std::uint64_t>(::getpid()) % 40000) * kRangeSize;
}

void run_or_throw(const std::vector<std::string>& argv) {
  auto result = testing::run_command(argv);
  if (result.exit_code != 0)
    throw std::runtime_error(argv[0] + " " + argv[1] + " failed (" + std::to_string(result.exit_code) +
                             "): " + result.err);
}

// Whether any process still runs as `uid` (podman's cleanup after --rm).
bool runs_as(uid_t uid) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator("/proc", error)) {
    struct stat st {};
    if (::stat(entry.path().c_str(), &st) == 0 && st.st_uid == uid &&
        entry.path().filename().string().find_first_not_of("0123456789") == std::string::npos)
      return true;
  }
  return false;
}

// A directory `uid` owns with `mode`.
void make_owned(const std::string& path, uid_t uid, gid_t gid, mode_t mode) {
  fs::create_directories(path);
  if (::chown(path.c_str(), uid, gid) != 0 || ::chmod(path.c_str(), mode) != 0)
    throw std::runtime_error("cannot give " + path + " to the rootless test user");
}

}  // namespace

std::string rootless_podman_skip_reason() {
  if (std::string why = skip_reason(Runtime::runc, CgroupMode::v1); !why.empty()) return why;
  if (podman_path().empty()) return "podman is not installed (tests/scripts/install-deps.sh --tests)";
  for (const char* tool : {"/usr/bin/newuidmap", "/usr/bin/newgidmap"})
    if (::access(tool, X_OK) != 0)
      return std::string(tool) +
             " is missing: rootless podman needs uidmap (tests/scripts/install-deps.sh --tests)";
  for (const char* tool : {kSetpriv, "/usr/sbin/useradd", "/usr/sbin/usermod", "/usr/sbin/userdel"})
    if (::access(tool, X_OK) != 0) return std::string(tool) + " is missing";
  std::ifstream max_namespaces("/proc/sys/user/max_user_namespaces");
  long max = 0;
  if (!(max_namespaces >> max) || max == 0) return "user namespaces are switched off here";
  return "";
}

RootlessPodman::RootlessPodman() : name_("graft-rl-" + std::to_string(::getpid())) {
  const std::string& dir = dir_.path();
  ::chmod(dir.c_str(), 0755);  // the user must reach its own directories below
  remove_user();               // one a killed run of a process with this pid left
  run_or_throw({"/usr/sbin/useradd", "--system", "--user-group", "--no-create-home", "--home-dir",
                dir + "/home", "--shell", "/usr/sbin/nologin", name_});
  std::uint64_t base = subordinate_base();
  std::string range = std::to_string(base) + "-" + std::to_string(base + kRangeSize - 1);
  run_or_throw({"/usr/sbin/usermod", "--add-subuids", range, "--add-subgids", range, name_});
  struct passwd* entry = ::getpwnam(name_.c_str());
  if (entry == nullptr) throw std::runtime_error("no passwd entry for " + name_);
  uid_ = entry->pw_uid;
  gid_ = entry->pw_gid;
  make_owned(dir + "/home", uid_, gid_, 0700);
  make_owned(owned_dir(), uid_, gid_, 0755);
  make_owned(dir + "/run", uid_, gid_, 0700);
  fixture::write_file(dir + "/containers.conf", "[engine]\nlock_type = \"file\"\n");
}

RootlessPodman::~RootlessPodman() {
  // The pause process podman left to hold the user namespace (its pid is
  // in --tmpdir), then whatever podman's cleanup still runs, a few seconds at most.
  std::ifstream pause(dir_.path() + "/run/tmp/pause.pid");
  if (pid_t pid = 0; uid_ != 0 && pause >> pid && pid > 1) ::kill(pid, SIGKILL);
  for (int tries = 0; uid_ != 0 && tries < 100 && runs_as(uid_); ++tries)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  remove_user();
}

void RootlessPodman::remove_user() noexcept {
  // userdel also removes the user's /etc/subuid and /etc/subgid ranges.
  if (::getpwnam(name_.c_str()) != nullptr) testing::run_command({"/usr/sbin/userdel", name_});
}

testing::CommandResult RootlessPodman::invoke(const std::vector<std::string>& args) {
  const std::string& dir = dir_.path();
  std::vector<std::string> argv{kSetpriv,
                                "--reuid=" + std::to_string(uid_),
                                "--regid=" + std::to_string(gid_),
                                "--clear-groups",
                                "/usr/bin/env",
                                "-i",
                                "HOME=" + dir + "/home",
                                "XDG_RUNTIME_DIR=" + dir + "/run",
                                "PATH=/usr/sbin:/usr/bin:/sbin:/bin",
                                "CONTAINERS_CONF=" + dir + "/containers.conf",
                                podman_path(),
                                "--root", dir + "/home/storage",
                                "--runroot", dir + "/run/runroot",
                                "--tmpdir", dir + "/run/tmp",
                                "--storage-driver", "vfs",
                                "--events-backend", "none",
                                "--runtime", runtime_path(Runtime::runc),
                                "--cgroup-manager", "cgroupfs"};
  argv.insert(argv.end(), args.begin(), args.end());
  return testing::run_command(argv);
}

testing::CommandResult RootlessPodman::import(const std::string& rootfs, const std::string& name) {
  std::string tarball = dir_.path() + "/image.tar";
  run_or_throw({"/bin/tar", "-C", rootfs, "-cf", tarball, "."});
  ::chmod(tarball.c_str(), 0644);
  return invoke({"import", tarball, name});
}

testing::CommandResult RootlessPodman::run(const std::vector<std::string>& extra_args,
                                           const std::string& image,
                                           const std::vector<std::string>& command) {
  std::vector<std::string> args{"run", "--rm", "--network", "none", "--ulimit", "nofile=1024:1024",
                                "--ulimit", "nproc=1024:1024"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  args.push_back(image);
  args.insert(args.end(), command.begin(), command.end());
  return invoke(args);
}

}  // namespace graft::e2e
