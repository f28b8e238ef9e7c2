#include "graft/base/replace_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "graft/base/unique_fd.hpp"

namespace graft {
namespace {

Status write_all(int fd, std::string_view text, const std::string& name) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error("{}: write: {}", name, std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  return ok_status();
}

// The temporary, complete, with the mode and owner the file will have.
Status fill(int fd, const std::string& name, std::string_view text, const std::string& path, mode_t new_mode) {
  if (auto status = write_all(fd, text, name); !status) return status;
  struct stat old {};
  if (::lstat(path.c_str(), &old) != 0) {
    if (errno != ENOENT) return make_error("{}: {}", path, std::strerror(errno));
    if (::fchmod(fd, new_mode) != 0) return make_error("{}: chmod: {}", name, std::strerror(errno));
    return ok_status();
  }
  if (::fchmod(fd, old.st_mode & 07777) != 0) return make_error("{}: chmod: {}", name, std::strerror(errno));
  if (::fchown(fd, old.st_uid, old.st_gid) != 0) return make_error("{}: chown: {}", name, std::strerror(errno));
  return ok_status();
}

std::string temporary_beside(const std::string& path) {
  auto slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return (dir == "/" ? "" : dir) + "/." + base + ".graft-XXXXXX";
}

}  // namespace

Status replace_file(const std::string& path, std::string_view text, mode_t new_mode) {
  std::string temporary = temporary_beside(path);
  UniqueFd fd(::mkostemp(temporary.data(), O_CLOEXEC));
  if (!fd.valid()) return make_error("{}: cannot create: {}", temporary, std::strerror(errno));
  Status done = fill(fd.get(), temporary, text, path, new_mode);
  if (done && ::close(fd.release()) != 0) done = make_error("{}: close: {}", temporary, std::strerror(errno));
  if (done && ::rename(temporary.c_str(), path.c_str()) != 0)
    done = make_error("{}: cannot replace: {}", path, std::strerror(errno));
  if (!done) ::unlink(temporary.c_str());
  return done;
}

}  // namespace graft
