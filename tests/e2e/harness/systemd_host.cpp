// SPDX-License-Identifier: Apache-2.0
#include "systemd_host.hpp"

#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "run_command.hpp"

namespace graft::e2e {
namespace {

// Units that are not to run in the systemd host, masked on its command line
// (systemd reads /proc/1/cmdline in a container):
// - systemd-tmpfiles-setup runs `systemd-tmpfiles --create --remove --boot`,
//   and Debian's tmp.conf (`D /tmp`) empties /tmp at boot: the directories
//   the tests share live under /tmp (their $TMPDIR), bind-mounted there;
// - the container is privileged, so what these write is the machine's own
//   kernel state wherever the kernel does not keep it per namespace:
//   sysctls (kernel.pid_max is per pid namespace only since Linux 6.14),
//   kernel modules, binfmt_misc handlers.
const std::vector<std::string>& masked_units() {
  static const std::vector<std::string> masks = {
      "systemd.mask=systemd-tmpfiles-setup.service", "systemd.mask=systemd-sysctl.service",
      "systemd.mask=systemd-modules-load.service",   "systemd.mask=systemd-binfmt.service",
      "systemd.mask=proc-sys-fs-binfmt_misc.automount"};
  return masks;
}

// How long systemd may take to boot (about a second here, alone).
constexpr auto kBootDeadline = std::chrono::seconds(60);

std::string chomped(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// The cached root filesystem, or why there is none.
struct RootfsLookup {
  std::string path;
  std::string skip;   // the script could not build it here (exit 77)
  std::string error;  // the script failed otherwise
};

const RootfsLookup& cached_rootfs() {
  static const RootfsLookup lookup = [] {
    // The same arguments as the fixture test that builds it first
    // (tests/e2e/CMakeLists.txt): the cache is keyed by what they load.
    auto built = testing::run_command({"/bin/bash", GRAFT_E2E_SYSTEMD_ROOTFS_SCRIPT, GRAFT_BINARY,
                                       GRAFT_RUNTIME_BINARY, GRAFT_BUILD_PLUGIN_DIR});
    RootfsLookup result;
    if (built.exit_code == 0) {
      result.path = chomped(built.out);
    } else if (built.exit_code == 77) {
      std::string why = chomped(built.err);
      const std::string marker = "graft-test skipped: ";
      auto at = why.rfind(marker);
      result.skip = at == std::string::npos ? why : why.substr(at + marker.size());
    } else {
      result.error = "tests/scripts/systemd-host-rootfs.sh failed (exit " + std::to_string(built.exit_code) +
                     "): " + chomped(built.err);
    }
    return result;
  }();
  return lookup;
}

bool host_is_unified() {
  struct statfs fs {};
  return ::statfs("/sys/fs/cgroup", &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC;
}

bool kernel_has_cgroup2() {
  std::ifstream filesystems("/proc/filesystems");
  for (std::string line; std::getline(filesystems, line);)
    if (line.ends_with("\tcgroup2")) return true;
  return false;
}

// PID 1 of the container: systemd itself (v1), or a shell that swaps the
// cgroup layout and then becomes systemd (v2; see systemd_host.hpp).
std::vector<std::string> init_command(CgroupMode mode) {
  std::vector<std::string> command;
  if (mode == CgroupMode::v1) {
    command = {"/sbin/init"};
  } else {
    command = {"/bin/sh", "-c",
               "umount -R /sys/fs/cgroup && mount -t cgroup2 -o nsdelegate cgroup2 /sys/fs/cgroup && "
               "mount -t bpf bpf /sys/fs/bpf && exec /sbin/init \"$@\"",
               "graft-unified-init", "systemd.unified_cgroup_hierarchy=1"};
  }
  command.insert(command.end(), masked_units().begin(), masked_units().end());
  return command;
}

bool under(const std::string& path, const std::string& dir) {
  return path == dir || (path.starts_with(dir) && path[dir.size()] == '/');
}

}  // namespace

std::string systemd_host_skip_reason(CgroupMode mode) {
  if (std::string why = podman_skip_reason(); !why.empty()) return why;
  if (mode == CgroupMode::v1 && host_is_unified())
    return "this host is cgroup v2 only: podman gives a container the unified hierarchy, so systemd "
           "cannot run in cgroup v1 mode in one here";
  if (mode == CgroupMode::v2 && !kernel_has_cgroup2()) return "the kernel has no cgroup2 filesystem";
  const auto& rootfs = cached_rootfs();
  if (!rootfs.skip.empty()) return "no root filesystem for the systemd host: " + rootfs.skip;
  return "";
}

SystemdHost::SystemdHost(CgroupMode mode, const std::vector<std::string>& shared_dirs)
    : mode_(mode), name_(unique_container_id("systemd")) {
  start_error_ = boot(shared_dirs);
  if (start_error_.empty()) start_error_ = wait_until_running();
  if (start_error_.empty()) start_error_ = check_layout();
  if (!start_error_.empty()) {
    auto logs = podman_.invoke({"logs", name_});
    start_error_ += "\npodman logs " + name_ + ":\n" + logs.out + logs.err;
  }
}

SystemdHost::~SystemdHost() { (void)podman_.invoke({"rm", "--force", "--time", "0", name_}); }

std::string SystemdHost::boot(const std::vector<std::string>& shared_dirs) {
  const auto& rootfs = cached_rootfs();
  if (!rootfs.error.empty()) return rootfs.error;
  // As podman runs here (podman.hpp): runc, cgroupfs, no network, bounded
  // ulimits. --cgroupns=private: systemd sees its own cgroup as the root,
  // as on a host, and so does runc under it (with the host's namespace,
  // runc looks for its scope at the hierarchy's root and fails). --timeout:
  // conmon kills a host whose test died before removing it (ctest's
  // timeout); no case runs that long.
  std::vector<std::string> args{"run", "--detach", "--name", name_, "--timeout", "600"};
  args.insert(args.end(), {"--systemd=always", "--privileged", "--cgroupns=private", "--network", "none"});
  args.insert(args.end(), {"--ulimit", "nofile=1024:1024", "--ulimit", "nproc=4096:4096"});
  args.insert(args.end(), {"--volume", std::string(GRAFT_SOURCE_DIR) + ":" + GRAFT_SOURCE_DIR + ":ro"});
  if (!under(GRAFT_E2E_BINARY_DIR, GRAFT_SOURCE_DIR))
    args.insert(args.end(), {"--volume", std::string(GRAFT_E2E_BINARY_DIR) + ":" + GRAFT_E2E_BINARY_DIR + ":ro"});
  for (const auto& dir : shared_dirs) args.insert(args.end(), {"--volume", dir + ":" + dir});
  // :O, an overlay: the container writes its own copy, never the cache.
  args.insert(args.end(), {"--rootfs", rootfs.path + ":O"});
  auto command = init_command(mode_);
  args.insert(args.end(), command.begin(), command.end());
  auto started = podman_.invoke(args);
  if (started.exit_code != 0)
    return "podman run of the systemd host failed (exit " + std::to_string(started.exit_code) +
           "): " + chomped(started.err);
  return "";
}

std::string SystemdHost::wait_until_running() {
  auto deadline = std::chrono::steady_clock::now() + kBootDeadline;
  testing::CommandResult state;
  while (std::chrono::steady_clock::now() < deadline) {
    // --wait: returns once boot has finished, but needs the bus, which comes
    // up a moment after PID 1 starts; until then systemctl says "offline"
    // (it cannot reach systemd), which under load can last a while.
    state = exec({"systemctl", "is-system-running", "--wait"});
    std::string said = chomped(state.out);
    if (said == "running") return "";
    if (!said.empty() && said != "starting" && said != "initializing" && said != "offline") {
      auto failed = exec({"systemctl", "--failed", "--no-legend", "--no-pager"});
      return "systemd booted " + said + "; failed units:\n" + failed.out;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return "systemd did not finish booting in " + std::to_string(kBootDeadline.count()) +
         " s: " + chomped(state.out) + chomped(state.err);
}

std::string SystemdHost::check_layout() {
  auto type = exec({"stat", "--file-system", "--format", "%T", "/sys/fs/cgroup"});
  std::string found = chomped(type.out);
  std::string expected = mode_ == CgroupMode::v1 ? "tmpfs" : "cgroup2fs";
  if (found == expected) return "";
  return "systemd's /sys/fs/cgroup is " + found + ", not the " + expected + " of " +
         std::string(mode_name(mode_)) + " mode";
}

testing::CommandResult SystemdHost::exec(const std::vector<std::string>& argv) {
  std::vector<std::string> args{"exec", name_};
  args.insert(args.end(), argv.begin(), argv.end());
  return podman_.invoke(args);
}

}  // namespace graft::e2e
