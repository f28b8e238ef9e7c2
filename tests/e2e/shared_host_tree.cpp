#include "shared_host_tree.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace graft::e2e {
namespace {

void check(int rc, const std::string& what) {
  if (rc != 0) throw std::runtime_error(what + ": " + std::strerror(errno));
}

}  // namespace

SharedHostTree::SharedHostTree(const std::string& tree, CgroupMode mode) : tree_(tree) {
  home_namespace_ = ::open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
  home_cwd_ = ::open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  try {
    check(home_namespace_ < 0 || home_cwd_ < 0 ? -1 : 0,
          "open /proc/self/ns/mnt and the working directory");
    check(::unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)");
    // Cut from the machine first; then the tree becomes its own shared peer group.
    check(::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr), "make / rprivate");
    check(::mount(tree_.c_str(), tree_.c_str(), nullptr, MS_BIND | MS_REC, nullptr),
          "bind " + tree_ + " onto itself");
    check(::mount(nullptr, tree_.c_str(), nullptr, MS_SHARED, nullptr), "make " + tree_ + " shared");
    if (mode == CgroupMode::v2) {
      check(::mount("none", "/sys/fs/cgroup", "cgroup2", 0, nullptr), "mount cgroup2 on /sys/fs/cgroup");
      check(::mount("bpf", "/sys/fs/bpf", "bpf", 0, nullptr), "mount bpf on /sys/fs/bpf");
    }
  } catch (...) {
    leave();
    throw;
  }
}

SharedHostTree::~SharedHostTree() { leave(); }

// The namespace and every mount in it go away once no process is left in it.
void SharedHostTree::leave() noexcept {
  if (home_namespace_ >= 0) {
    (void)::setns(home_namespace_, CLONE_NEWNS);
    ::close(home_namespace_);
    home_namespace_ = -1;
  }
  if (home_cwd_ >= 0) {
    (void)::fchdir(home_cwd_);
    ::close(home_cwd_);
    home_cwd_ = -1;
  }
}

std::string SharedHostTree::mountinfo_line() const {
  std::ifstream in("/proc/self/mountinfo");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, parent, device, root, point;
    fields >> id >> parent >> device >> root >> point;
    if (point == tree_) return line;
  }
  return "";
}

}  // namespace graft::e2e
