#include "bundle_config.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "graft/base/bounded_read.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft::runtime {
namespace {

constexpr std::size_t kConfigLimit = 64u << 20;  // as request_from_bundle reads it

std::string config_path(const std::string& bundle) { return bundle + "/config.json"; }

Status write_all(int fd, const std::string& text, const std::string& name) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error("{}: write: {}", name, std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  return ok_status();
}

// The new file, complete, with the old one's mode and owner.
Status fill_temporary(int fd, const std::string& name, const std::string& text, const struct stat& old) {
  if (auto status = write_all(fd, text, name); !status) return status;
  if (::fchmod(fd, old.st_mode & 07777) != 0) return make_error("{}: chmod: {}", name, std::strerror(errno));
  if (::fchown(fd, old.st_uid, old.st_gid) != 0) return make_error("{}: chown: {}", name, std::strerror(errno));
  return ok_status();
}

}  // namespace

Result<std::string> absolute_bundle(const std::string& bundle) {
  std::error_code error;
  auto absolute = std::filesystem::absolute(bundle.empty() ? "." : bundle, error);
  if (error) return make_error("bundle {}: {}", bundle, error.message());
  return absolute.lexically_normal().string();
}

Result<std::string> read_bundle_config(const std::string& bundle) {
  return read_file(config_path(bundle), kConfigLimit, O_NOFOLLOW);
}

Status replace_bundle_config(const std::string& bundle, const std::string& text) {
  std::string path = config_path(bundle);
  struct stat old {};
  if (::lstat(path.c_str(), &old) != 0) return make_error("{}: {}", path, std::strerror(errno));
  std::string temporary = bundle + "/.config.json.graft-XXXXXX";
  UniqueFd fd(::mkostemp(temporary.data(), O_CLOEXEC));
  if (!fd.valid()) return make_error("{}: cannot create: {}", temporary, std::strerror(errno));
  Status filled = fill_temporary(fd.get(), temporary, text, old);
  if (filled && ::close(fd.release()) != 0) filled = make_error("{}: close: {}", temporary, std::strerror(errno));
  if (filled && ::rename(temporary.c_str(), path.c_str()) != 0)
    filled = make_error("{}: cannot replace: {}", path, std::strerror(errno));
  if (!filled) ::unlink(temporary.c_str());
  return filled;
}

}  // namespace graft::runtime
