// SPDX-License-Identifier: Apache-2.0
#include "load_host.hpp"

#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <fstream>

#include "host_mounts.hpp"
#include "site_policy.hpp"

namespace graft::e2e {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTempDirs[] = {"/tmp", "/run", "/dev/shm"};

// A checkout under /tmp (or /run) must stay visible under the fresh tmpfs:
// the test binary, the plugins, the fixture's libraries and the shipped
// policies live there. The top entry holding them is bound back in place.
struct KeptEntry {
  std::string path;  // e.g. "/tmp/checkout"; empty when nothing is kept
  int fd = -1;       // O_PATH to the original, opened before it is covered
};

KeptEntry open_kept_entry(const std::string& dir) {
  std::error_code ignored;
  for (const std::string& tree : {fs::canonical("/proc/self/exe", ignored).string(),
                                  fixture::source_policy_dir()}) {
    if (!tree.starts_with(dir + "/")) continue;
    std::string top = dir + "/" + tree.substr(dir.size() + 1, tree.find('/', dir.size() + 1) - dir.size() - 1);
    return {top, ::open(top.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)};
  }
  return {};
}

std::string restore_kept_entry(const KeptEntry& kept) {
  if (kept.path.empty()) return "";
  std::error_code error;
  fs::create_directory(kept.path, error);
  std::string from = "/proc/self/fd/" + std::to_string(kept.fd);
  bool bound = kept.fd >= 0 && ::mount(from.c_str(), kept.path.c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0;
  std::string why = bound ? "" : "bind " + kept.path + " back over the tmpfs: " + std::strerror(errno);
  if (kept.fd >= 0) ::close(kept.fd);
  return why;
}

// The copies of other processes' mounts below `dir` (another test's runtime
// state, say) would lie hidden under the fresh tmpfs, yet still leave this
// namespace's table when their owner removes the directory they sit on (the
// kernel detaches mounts on a removed directory in every namespace): a
// "removed" mount that is no one's leak. Detached first, they cannot change
// what the rounds compare. Those inside the kept entry stay.
void detach_mounts_below(const std::string& dir, const KeptEntry& kept) {
  for (const auto& point : mount_points_under(dir)) {
    bool inside_kept = !kept.path.empty() && at_or_under(point, kept.path);
    // Detaching one takes the mounts below it along; a later call for one of
    // those fails, harmlessly.
    if (point != dir && !inside_kept) (void)::umount2(point.c_str(), MNT_DETACH);
  }
}

std::string enter_once() {
  if (::geteuid() != 0) return "the load tests need root (uid " + std::to_string(::geteuid()) + ")";
  if (::unshare(CLONE_NEWNS) != 0) return std::string("unshare(CLONE_NEWNS): ") + std::strerror(errno);
  // rprivate first: nothing mounted here reaches the real host, nothing the
  // rest of the machine mounts arrives here.
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    return std::string("make / private: ") + std::strerror(errno);
  for (const char* dir : kTempDirs) {
    const char* mode = std::string_view(dir) == "/run" ? "mode=0755" : "mode=1777";
    auto kept = open_kept_entry(dir);
    detach_mounts_below(dir, kept);
    if (::mount("graft-load", dir, "tmpfs", MS_NOSUID | MS_NODEV, mode) != 0)
      return std::string("tmpfs on ") + dir + ": " + std::strerror(errno);
    if (auto why = restore_kept_entry(kept); !why.empty()) return why;
  }
  // TempDir honours TMPDIR; keep every temp dir of the test in the private /tmp.
  ::setenv("TMPDIR", "/tmp", 1);
  return "";
}

std::set<std::string> temp_entries() {
  std::set<std::string> out;
  std::error_code ignored;
  for (const char* dir : kTempDirs)
    for (const auto& entry : fs::directory_iterator(dir, ignored)) out.insert(entry.path().string());
  return out;
}

std::set<std::string> files_under(const std::string& root) {
  std::set<std::string> out;
  std::error_code ignored;
  for (auto it = fs::recursive_directory_iterator(root, ignored); it != fs::recursive_directory_iterator();
       it.increment(ignored))
    out.insert(it->path().string());
  return out;
}

std::size_t open_fd_count() {
  std::size_t count = 0;
  std::error_code ignored;
  for (auto it = fs::directory_iterator("/proc/self/fd", ignored); it != fs::directory_iterator();
       it.increment(ignored))
    ++count;
  return count;
}

template <typename Range>
std::vector<std::string> differences(const Range& before, const Range& after) {
  std::vector<std::string> out;
  for (const auto& item : after)
    if (std::find(before.begin(), before.end(), item) == before.end()) out.push_back("added " + item);
  for (const auto& item : before)
    if (std::find(after.begin(), after.end(), item) == after.end()) out.push_back("removed " + item);
  return out;
}

}  // namespace

std::string enter_private_host() {
  static const std::string why = enter_once();
  return why;
}

HostSnapshot snapshot_host(const std::string& fake_root) {
  return HostSnapshot{.mounts = mountinfo_lines(),
                      .temp_entries = temp_entries(),
                      .host_files = files_under(fake_root),
                      .open_fds = open_fd_count()};
}

HostChanges host_changes(const HostSnapshot& before, const HostSnapshot& after) {
  return HostChanges{.mounts = differences(before.mounts, after.mounts),
                     .temp_entries = differences(before.temp_entries, after.temp_entries),
                     .host_files = differences(before.host_files, after.host_files),
                     .fd_growth = static_cast<long>(after.open_fds) - static_cast<long>(before.open_fds)};
}

std::string HostChanges::describe() const {
  std::string out;
  for (const auto& line : mounts) out += "mount " + line + "\n";
  for (const auto& line : temp_entries) out += "temp entry " + line + "\n";
  for (const auto& line : host_files) out += "fake host file " + line + "\n";
  if (fd_growth != 0) out += "open fds changed by " + std::to_string(fd_growth) + "\n";
  return out;
}

std::vector<std::string> cgroups_named(const std::string& prefix) {
  std::vector<std::string> out;
  std::error_code ignored;
  for (const auto& hierarchy : fs::directory_iterator("/sys/fs/cgroup", ignored))
    for (const auto& entry : fs::directory_iterator(hierarchy.path(), ignored))
      if (entry.is_directory(ignored) && entry.path().filename().string().starts_with(prefix))
        out.push_back(entry.path().string());
  return out;
}

}  // namespace graft::e2e
