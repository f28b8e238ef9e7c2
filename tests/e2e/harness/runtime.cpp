// SPDX-License-Identifier: Apache-2.0
#include "runtime.hpp"

#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <atomic>
#include <fstream>

#include <nlohmann/json.hpp>

namespace graft::e2e {
namespace {

constexpr const char* kUnshare = "/usr/bin/unshare";

std::string find_program(std::string_view name) {
  for (const char* dir : {"/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/sbin", "/usr/local/bin"}) {
    std::string path = std::string(dir) + "/" + std::string(name);
    if (::access(path.c_str(), X_OK) == 0) return path;
  }
  return "";
}

// This process already sees a v2-only host (a namespace set up by
// SharedHostTree, or a unified-mode machine).
bool unified_here() {
  struct statfs fs {};
  return ::statfs("/sys/fs/cgroup", &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC;
}

}  // namespace

std::string_view runtime_name(Runtime runtime) { return runtime == Runtime::runc ? "runc" : "crun"; }
std::string_view mode_name(CgroupMode mode) { return mode == CgroupMode::v1 ? "cgroup v1" : "cgroup v2"; }

std::string runtime_path(Runtime runtime) { return find_program(runtime_name(runtime)); }

std::string skip_reason(Runtime runtime, CgroupMode mode) {
  if (::geteuid() != 0) return "end-to-end containers need root (uid " + std::to_string(::geteuid()) + ")";
  if (runtime_path(runtime).empty())
    return std::string(runtime_name(runtime)) + " is not installed (tests/scripts/install-deps.sh)";
  if (std::string(GRAFT_E2E_BUSYBOX).empty() || ::access(GRAFT_E2E_BUSYBOX, X_OK) != 0)
    return "busybox is not installed (busybox-static)";
  if (std::string(GRAFT_E2E_LDCONFIG).empty() || ::access(GRAFT_E2E_LDCONFIG, X_OK) != 0)
    return "no ldconfig to copy into the container";
  if (mode == CgroupMode::v2 && ::access(kUnshare, X_OK) != 0)
    return "cgroup v2 mode needs unshare (util-linux)";
  return "";
}

bool has_memory_controller(CgroupMode mode) {
  if (mode == CgroupMode::v1) return !unified_here() && ::access("/sys/fs/cgroup/memory", F_OK) == 0;
  std::ifstream controllers(unified_here() ? "/sys/fs/cgroup/cgroup.controllers"
                                           : "/sys/fs/cgroup/unified/cgroup.controllers");
  for (std::string name; controllers >> name;)
    if (name == "memory") return true;
  return false;
}

std::string unique_container_id(std::string_view tag) {
  static std::atomic<unsigned> counter{0};
  return "graft-e2e-" + std::string(tag) + "-" + std::to_string(::getpid()) + "-" +
         std::to_string(counter++);
}

Container::Container(Runtime runtime, CgroupMode mode, std::string id, std::vector<std::string> front)
    : runtime_(runtime), mode_(mode), id_(std::move(id)), front_(std::move(front)) {}

Container::~Container() {
  (void)remove();
  if (!bpf_dir_.empty()) ::umount2(bpf_dir_.c_str(), MNT_DETACH);
}

// The container's bpf filesystem, mounted once in its state directory (in
// the host's namespace, as runc's own state is) and bound on /sys/fs/bpf by
// every runtime call: the cgroup plugin pins there the prog array that keeps
// the runtime's device program reachable (plugins/cgroup/device_filter_v2.cpp),
// and a prog array's entries are cleared when its last pin goes. A fresh
// bpffs per call lost the pin with the call's namespace, and a later `runc
// exec` found every device but graft's refused (mknod of GPU 0 included). A
// unified host's /sys/fs/bpf lives as long as the host.
const std::string& Container::bpf_dir() {
  if (bpf_dir_.empty()) {
    std::string dir = state_dir_.path() + "/bpf";
    if (::mkdir(dir.c_str(), 0700) == 0 && ::mount("bpf", dir.c_str(), "bpf", 0, "mode=0700") == 0) bpf_dir_ = dir;
  }
  return bpf_dir_;
}

CommandResult Container::invoke(const std::vector<std::string>& args) {
  std::vector<std::string> argv;
  if (mode_ == CgroupMode::v2 && !unified_here()) {
    // A private mount namespace set up like a systemd host in unified mode:
    // the cgroup2 hierarchy on /sys/fs/cgroup and the container's bpf
    // filesystem on /sys/fs/bpf (bpf_dir()). The runtime and the hook it
    // starts see a v2-only host. rprivate first, so neither mount reaches
    // the host; both go away with the namespace when the runtime exits.
    argv = {kUnshare, "--mount", "/bin/sh", "-c",
            "mount --make-rprivate / && mount -t cgroup2 none /sys/fs/cgroup && "
            "mount --bind \"$0\" /sys/fs/bpf && exec \"$@\"",
            bpf_dir()};
  }
  if (front_.empty())
    argv.push_back(runtime_path(runtime_));
  else
    argv.insert(argv.end(), front_.begin(), front_.end());
  argv.insert(argv.end(), {"--root", state_dir_.path()});
  argv.insert(argv.end(), args.begin(), args.end());
  return testing::run_command(argv);
}

CommandResult Container::run(const std::string& bundle) {
  return invoke({"run", "--bundle", bundle, id_});
}

CommandResult Container::run_detached(const std::string& bundle) {
  return invoke({"run", "--detach", "--bundle", bundle, id_});
}

CommandResult Container::exec(const std::vector<std::string>& args) {
  std::vector<std::string> full{"exec", id_};
  full.insert(full.end(), args.begin(), args.end());
  return invoke(full);
}

CommandResult Container::update(const std::vector<std::string>& options) {
  std::vector<std::string> full{"update"};
  full.insert(full.end(), options.begin(), options.end());
  full.push_back(id_);
  return invoke(full);
}

int Container::pid() {
  auto state = invoke({"state", id_});
  if (state.exit_code != 0) return 0;
  auto json = nlohmann::json::parse(state.out, nullptr, false);
  if (json.is_discarded() || !json.contains("pid") || !json["pid"].is_number_integer()) return 0;
  return json["pid"].get<int>();
}

CommandResult Container::remove() { return invoke({"delete", "--force", id_}); }

}  // namespace graft::e2e
