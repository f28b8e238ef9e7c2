// SPDX-License-Identifier: Apache-2.0
#include "graft/engine/install_dirs.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>

#include "graft/build_config.hpp"

namespace graft {
namespace {

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string executable_dir() {
  char buffer[PATH_MAX];
  ssize_t length = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  if (length <= 0) return "";
  std::string path(buffer, static_cast<std::size_t>(length));
  return path.substr(0, path.rfind('/'));
}

std::string site_policy_path() { return std::string(build::sysconf_dir) + "/graft.toml"; }

std::string node_allow_path() { return build::node_allow_file; }

std::string doc_page(const char* page) { return std::string(build::doc_dir) + "/" + page; }

std::string installed_dir(const std::string& exe_dir, const std::string& relative,
                          const std::string& configured, bool (*exists)(const std::string&)) {
  if (exe_dir.empty() || relative.empty()) return configured;
  std::string candidate = exe_dir + "/" + relative;
  return exists(candidate) ? candidate : configured;
}

const InstallDirs& install_dirs() {
  static const InstallDirs dirs = [] {
    std::string from = executable_dir();
    return InstallDirs{installed_dir(from, build::policy_reldir, build::policy_dir, is_directory),
                       installed_dir(from, build::plugin_reldir, build::plugin_dir, is_directory)};
  }();
  return dirs;
}

}  // namespace graft
