// SPDX-License-Identifier: Apache-2.0
// Plugin file vetting. The ownership/mode rules are the ones a dynamic loader
// for privileged code needs: whoever can write the file or replace it in its
// directory can run code as the hook (root).
#include "plugin_host/plugin_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace graft {

std::string plugin_file_name(std::string_view name) {
  return "lib" + std::string(name) + ".so";
}

bool is_plain_plugin_name(std::string_view name) {
  return !name.empty() && name.find('/') == std::string_view::npos &&
         name.find("..") == std::string_view::npos && name != "." &&
         name.find('\0') == std::string_view::npos;
}

Result<UniqueFd> open_plugin_file(TrustedDirs& dirs, const std::string& dir,
                                  const std::string& name) {
  std::string path = dir + "/" + plugin_file_name(name);
  if (!is_plain_plugin_name(name))
    return make_error("plugin '{}': not a plain name (no '/' or '..'); plugins load only from {}",
                      name, dir);
  auto dir_fd = dirs.open(dir, "plugin " + path);
  if (!dir_fd) return dir_fd.error();
  UniqueFd file_fd(::openat(*dir_fd, plugin_file_name(name).c_str(),
                            O_PATH | O_NOFOLLOW | O_CLOEXEC));
  if (file_fd.get() < 0) return make_sys_error(errno, "plugin {}", path);
  if (auto checked = check_trusted_file(file_fd.get(), "plugin " + path); !checked)
    return checked.error();
  return file_fd;
}

}  // namespace graft
