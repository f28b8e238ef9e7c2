// SPDX-License-Identifier: Apache-2.0
#include "real_runtime.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "graft/engine/trusted_path.hpp"

namespace graft::runtime {
namespace {

bool same_file(const std::string& a, const std::string& b) {
  struct stat first {}, second {};
  return ::stat(a.c_str(), &first) == 0 && ::stat(b.c_str(), &second) == 0 &&
         first.st_dev == second.st_dev && first.st_ino == second.st_ino;
}

}  // namespace

Result<std::string> find_real_runtime(const std::string& name) {
  auto path = find_on_path(name, std::getenv("PATH"));
  if (!path) return path.error();
  if (same_file(*path, "/proc/self/exe"))
    return make_error("runtime {} is graft-runtime itself; [runtime] path must name the real runtime", *path);
  // It runs as root for every container the engine starts: whoever could
  // write it, or swap it in a directory on its way, would run code as root,
  // so it is held to a plugin's rules (graft/engine/trusted_path.hpp). execv then
  // takes the same name: only root (or this user) can change what it leads
  // to, and that is what was checked.
  if (auto trusted = check_trusted_path(*path); !trusted)
    return trusted.error().context("[runtime] path");
  return path;
}

Error exec_real_runtime(const std::string& path, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  ::execv(path.c_str(), argv.data());
  return make_sys_error(errno, "cannot run {}", path);
}

}  // namespace graft::runtime
