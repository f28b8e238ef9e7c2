// Plugin file vetting. The ownership/mode rules are the ones a dynamic loader
// for privileged code needs: whoever can write the file or replace it in its
// directory can run code as the hook (root).
#include "plugins/plugin_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace graft {

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) ::close(fd_);
}

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

std::string plugin_file_name(std::string_view name) {
  return "lib" + std::string(name) + ".so";
}

bool is_plain_plugin_name(std::string_view name) {
  return !name.empty() && name.find('/') == std::string_view::npos &&
         name.find("..") == std::string_view::npos && name != "." &&
         name.find('\0') == std::string_view::npos;
}

namespace {

// Refuses what someone other than root or us could have written.
Status check_owner_and_mode(const std::string& path, const struct stat& st) {
  if (st.st_uid != 0 && st.st_uid != ::geteuid())
    return make_error("plugin {}: owned by uid {}, neither root nor us", path, st.st_uid);
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return make_error("plugin {}: {} is group- or world-writable (mode {:o})", path,
                      S_ISDIR(st.st_mode) ? "its directory" : "the file", st.st_mode & 07777);
  return ok_status();
}

}  // namespace

Result<UniqueFd> open_plugin_file(const std::string& dir, const std::string& name) {
  std::string path = dir + "/" + plugin_file_name(name);
  if (!is_plain_plugin_name(name))
    return make_error("plugin '{}': not a plain name (no '/' or '..'); plugins load only from {}",
                      name, dir);
  UniqueFd dir_fd(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (dir_fd.get() < 0) return make_error("plugin {}: directory: {}", path, std::strerror(errno));
  struct stat st {};
  if (::fstat(dir_fd.get(), &st) != 0)
    return make_error("plugin {}: directory: {}", path, std::strerror(errno));
  if (auto checked = check_owner_and_mode(path, st); !checked) return checked.error();

  UniqueFd file_fd(::openat(dir_fd.get(), plugin_file_name(name).c_str(),
                            O_PATH | O_NOFOLLOW | O_CLOEXEC));
  if (file_fd.get() < 0) return make_error("plugin {}: {}", path, std::strerror(errno));
  if (::fstat(file_fd.get(), &st) != 0)
    return make_error("plugin {}: {}", path, std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return make_error("plugin {}: not a regular file (symlinks are refused)", path);
  if (auto checked = check_owner_and_mode(path, st); !checked) return checked.error();
  return file_fd;
}

}  // namespace graft
