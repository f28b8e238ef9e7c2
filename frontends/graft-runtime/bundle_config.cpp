// SPDX-License-Identifier: Apache-2.0
#include "bundle_config.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>

#include "graft/base/bounded_read.hpp"
#include "graft/base/replace_file.hpp"

namespace graft::runtime {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kConfigLimit = 64u << 20;  // as request_from_bundle reads it
constexpr std::string_view kConfigName = "config.json";

bool same_directory(const std::string& a, const std::string& b) {
  struct stat first {}, second {};
  return ::stat(a.c_str(), &first) == 0 && ::stat(b.c_str(), &second) == 0 && S_ISDIR(first.st_mode) &&
         first.st_dev == second.st_dev && first.st_ino == second.st_ino;
}

// crun's rule (run_create.c): a --config other than "config.json" that is
// relative is made absolute against the current directory before crun
// changes into the bundle. Not normalized: "link/../x" is the kernel's to
// resolve, as realpath resolves it.
Result<std::string> config_path(const std::string& bundle, const std::string& config) {
  if (config.empty() || config == kConfigName) return bundle + "/" + std::string(kConfigName);
  if (config.starts_with('/')) return config;
  std::error_code error;
  auto cwd = fs::current_path(error);
  if (error) return make_error("--config {}: {}", config, error.message());
  return cwd.string() + "/" + config;
}

}  // namespace

Result<BundleFiles> bundle_files(const std::string& bundle, const std::string& config) {
  std::error_code error;
  auto resolved = fs::canonical(bundle.empty() ? "." : bundle, error);
  if (error) return make_error("bundle {}: {}", bundle.empty() ? "." : bundle, error.message());
  BundleFiles files{resolved.string(), "", true};
  auto path = config_path(files.bundle, config);
  if (!path) return path.error();
  files.config = std::move(*path);
  fs::path given(files.config);
  files.config_in_bundle = given.filename() == kConfigName &&
                           same_directory(given.parent_path().string(), files.bundle);
  return files;
}

Result<std::string> read_bundle_config(const BundleFiles& files) {
  return read_file(files.config, kConfigLimit, O_NOFOLLOW);
}

// The runtime's file, edited for it: it keeps its mode (a config.json of
// 0600 keeps its env to root) and owner. It was read O_NOFOLLOW, so a
// symlink there never got this far.
Status replace_bundle_config(const BundleFiles& files, const std::string& text) {
  return replace_file_keeping_owner(files.config, text);
}

}  // namespace graft::runtime
