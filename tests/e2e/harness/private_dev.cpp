// SPDX-License-Identifier: Apache-2.0
#include "private_dev.hpp"

#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "private_namespace.hpp"

namespace graft::e2e {
namespace {

namespace fs = std::filesystem;

// Binds the machine's /dev entry `name` (now under `old_dev`) at /dev/name.
void bind_from_machine(const std::string& old_dev, const std::string& name) {
  std::string source = old_dev + "/" + name, target = "/dev/" + name;
  struct stat st {};
  if (::lstat(source.c_str(), &st) != 0) return;  // this machine has none
  if (S_ISDIR(st.st_mode))
    check_call(::mkdir(target.c_str(), 0755), ("mkdir " + target).c_str());
  else
    check_call(::mknod(target.c_str(), S_IFREG | 0644, 0), ("create " + target).c_str());
  check_call(::mount(source.c_str(), target.c_str(), nullptr, MS_BIND | MS_REC, nullptr),
             ("bind " + target).c_str());
}

// Every character device below `fake_dev`, made at its path below /dev.
void make_fake_nodes(const std::string& fake_dev) {
  for (const auto& entry : fs::recursive_directory_iterator(fake_dev)) {
    struct stat st {};
    if (::lstat(entry.path().c_str(), &st) != 0 || !S_ISCHR(st.st_mode)) continue;
    fs::path target = fs::path("/dev") / fs::relative(entry.path(), fake_dev);
    fs::create_directories(target.parent_path());
    check_call(::mknod(target.c_str(), S_IFCHR | 0666, st.st_rdev), ("mknod " + target.string()).c_str());
  }
}

// The tmpfs /dev with the machine's entries bound in from `old_dev` and the
// fake host's nodes made.
void populate_dev(const std::string& old_dev, const std::string& fake_dev) {
  check_call(::mount("graft-e2e-dev", "/dev", "tmpfs", MS_NOSUID, "mode=755,size=1m"), "tmpfs on /dev");
  for (const char* name : {"null", "zero", "full", "random", "urandom", "tty", "pts", "shm", "mqueue"})
    bind_from_machine(old_dev, name);
  check_call(::symlink("pts/ptmx", "/dev/ptmx"), "link /dev/ptmx");
  for (const auto& [link, value] : {std::pair{"/dev/fd", "/proc/self/fd"}, {"/dev/stdin", "/proc/self/fd/0"},
                                    {"/dev/stdout", "/proc/self/fd/1"}, {"/dev/stderr", "/proc/self/fd/2"}})
    check_call(::symlink(value, link), link);
  make_fake_nodes(fake_dev);
}

}  // namespace

PrivateDev::PrivateDev(const std::string& fake_dev) {
  std::string pattern = (fs::temp_directory_path() / "graft-e2e-dev-XXXXXX").string();
  check_call(::mkdtemp(pattern.data()) == nullptr ? -1 : 0, "mkdtemp for the machine's /dev");
  staging_ = pattern;
  const std::string& old_dev = staging_;
  check_call(::mount("/dev", old_dev.c_str(), nullptr, MS_BIND | MS_REC, nullptr), "bind the machine's /dev");
  // Detached whatever happens; the staging directory is only ever rmdir'ed.
  try {
    populate_dev(old_dev, fake_dev);
  } catch (...) {
    ::umount2(old_dev.c_str(), MNT_DETACH);
    ::rmdir(old_dev.c_str());
    throw;
  }
  check_call(::umount2(old_dev.c_str(), MNT_DETACH), "detach the machine's /dev from the staging directory");
}

PrivateDev::~PrivateDev() { ::rmdir(staging_.c_str()); }

}  // namespace graft::e2e
