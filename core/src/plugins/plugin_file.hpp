// Finding and vetting a plugin file before anything of it runs: dlopen runs
// the plugin's constructors, so every check on the file has to happen first,
// on the very inode that is then loaded (opened O_PATH, loaded via
// /proc/self/fd/N, so a rename between check and load changes nothing).
#pragma once

#include <string>
#include <string_view>

#include "base/error.hpp"

namespace graft {

// An owned file descriptor, closed on destruction.
class UniqueFd {
 public:
  explicit UniqueFd(int fd = -1) : fd_(fd) {}
  ~UniqueFd();
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  int get() const { return fd_; }
  int release() { int fd = fd_; fd_ = -1; return fd; }

 private:
  int fd_;
};

// "devices" -> "libdevices.so": what CMake's MODULE libraries are called.
std::string plugin_file_name(std::string_view name);

// Whether `name` is a plain plugin name: no '/', not "." or "..", no "..",
// not empty, no NUL.
bool is_plain_plugin_name(std::string_view name);

// Opens dir/lib<name>.so O_PATH|O_NOFOLLOW after checking the name, the
// directory and the file: a regular file (not a symlink), owned by root or
// by us, neither it nor the directory group- or world-writable.
Result<UniqueFd> open_plugin_file(const std::string& dir, const std::string& name);

}  // namespace graft
