// SPDX-License-Identifier: Apache-2.0
// The one rule for where injected libraries go in an image, used by every
// route that has the image (the hook, graft-runtime, `graft plan --rootfs`
// or `--bundle`): the directory the image's own loader already searches.
//   1. its multiarch directory (/usr/lib/<triplet>, else /lib/<triplet>),
//      when that is a directory;
//   2. the multiarch directory anyway when /etc/debian_version exists: a
//      Debian-built loader searches it without being told;
//   3. its /usr/lib64, when that is a directory: a lib64 loader's own
//      default directory (Fedora, RHEL, SUSE), whatever ld.so.conf adds;
//   4. the directory its /etc/ld.so.cache finds the native libc.so.6 in;
//   5. the first existing directory its /etc/ld.so.conf (or a file that
//      includes) names: a site's own loader layout;
//   6. /usr/lib64.
// ld.so.conf comes last of the image's files because it names the extra
// directories (an RPM's /usr/lib64/mysql), not the loader's own.
// 32-bit copies go beside a multiarch directory, else to the image's 32-bit
// multiarch directory when it has one, else to /usr/lib32. Everything here
// is read from a hostile image: inside its root, typed and bounded
// (image_file.hpp, ld_so_conf.hpp, graft_base's ld cache parser).
#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "image/image_file.hpp"
#include "image/ld_so_conf.hpp"
#include "paths/paths.hpp"
#include "graft/base/ldcache.hpp"
#include "graft/base/unique_fd.hpp"
#include "request/request.hpp"

namespace graft {
namespace {

#if defined(__x86_64__)
constexpr const char* multiarch = "x86_64-linux-gnu";
constexpr const char* multiarch32 = "i386-linux-gnu";
#elif defined(__aarch64__)
constexpr const char* multiarch = "aarch64-linux-gnu";
constexpr const char* multiarch32 = "arm-linux-gnueabihf";
#else
#error "unsupported architecture: add its multiarch names"
#endif

const std::string usr_multiarch = std::string("/usr/lib/") + multiarch;
const std::string usr_multiarch32 = std::string("/usr/lib/") + multiarch32;

// Where a directory named by the image's own files may not be: the kernel's
// and the runtime's mounts, and the root itself.
bool plausible_library_dir(const std::string& dir) {
  for (const char* mount : {"/proc", "/sys", "/dev"})
    if (dir == mount || dir.starts_with(std::string(mount) + "/")) return false;
  return dir != "/";
}

std::optional<LibraryDir> multiarch_dir(int root_fd, const char* triplet, const char* reason) {
  for (const char* prefix : {"/usr/lib/", "/lib/"}) {
    std::string dir = prefix + std::string(triplet);
    if (is_image_dir(root_fd, dir)) return LibraryDir{dir, reason};
  }
  return std::nullopt;
}

std::optional<LibraryDir> ld_so_conf_dir(int root_fd) {
  auto found = first_ld_so_conf_dir(root_fd, [root_fd](const std::string& dir) {
    return plausible_library_dir(dir) && is_image_dir(root_fd, dir);
  });
  if (!found) return std::nullopt;
  return LibraryDir{found->dir, "the first existing directory the image's " + found->file + " names"};
}

// A cache that cannot be read (absent, not a file, malformed) names nothing.
std::optional<LibraryDir> ld_cache_dir(int root_fd) {
  UniqueFd fd(open_image_file(root_fd, "/etc/ld.so.cache", kMaxLdCacheBytes));
  if (!fd.valid()) return std::nullopt;
  auto entries = read_ldcache_fd(fd.get(), "/etc/ld.so.cache",
                                 [](std::string_view key) { return key == "libc.so.6"; });
  if (!entries) return std::nullopt;
  for (const auto& entry : *entries) {
    if (ldcache_abi(entry.flags) != LdCacheAbi::native || !entry.value.starts_with('/')) continue;
    std::string dir = dirname_of(normalize_path(entry.value));
    if (plausible_library_dir(dir) && is_image_dir(root_fd, dir))
      return LibraryDir{dir, "where the image's /etc/ld.so.cache finds libc.so.6"};
  }
  return std::nullopt;
}

LibraryDir native_lib_dir(int root_fd) {
  if (auto dir = multiarch_dir(root_fd, multiarch, "the image's multiarch directory")) return *dir;
  if (exists_in_image(root_fd, "/etc/debian_version"))
    return {usr_multiarch,
            "no multiarch directory in the image, but /etc/debian_version: a Debian loader searches it"};
  if (is_image_dir(root_fd, "/usr/lib64"))
    return {"/usr/lib64", "no multiarch directory in the image; its /usr/lib64, a lib64 loader's default directory"};
  if (auto dir = ld_cache_dir(root_fd)) return *dir;
  if (auto dir = ld_so_conf_dir(root_fd)) return *dir;
  return {"/usr/lib64", "no multiarch directory in the image, and its ld.so.cache and ld.so.conf name none"};
}

LibraryDir lib32_dir(int root_fd, const LibraryDir& native) {
  if (native.path.ends_with(std::string("/") + multiarch)) {
    std::string dir = dirname_of(native.path) + "/" + multiarch32;
    return {dir, "the 32-bit multiarch directory beside " + native.path};
  }
  if (auto dir = multiarch_dir(root_fd, multiarch32, "the image's 32-bit multiarch directory")) return *dir;
  return {"/usr/lib32", "no 32-bit multiarch directory in the image"};
}

}  // namespace

ImageLayout read_image_layout(const std::string& rootfs) {
  ImageLayout layout{.known = true};
  UniqueFd root(::open(rootfs.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!root.valid()) {
    // Nothing of the image can be read: say so rather than blame its layout.
    std::string why = "the rootfs " + rootfs + " cannot be opened (" + std::strerror(errno) + ")";
    layout.lib_dir = {"/usr/lib64", why};
    layout.lib32_dir = {"/usr/lib32", why};
    return layout;
  }
  layout.lib_dir = native_lib_dir(root.get());
  layout.lib32_dir = lib32_dir(root.get(), layout.lib_dir);
  return layout;
}

ImageLayout assumed_image_layout() {
  return {.known = false,
          .lib_dir = {usr_multiarch, "no rootfs given: assumed the multiarch directory; the image decides"},
          .lib32_dir = {usr_multiarch32, "no rootfs given: assumed the 32-bit multiarch directory"}};
}

}  // namespace graft
