#include "bundle_config.hpp"

#include <fcntl.h>

#include <filesystem>

#include "graft/base/bounded_read.hpp"
#include "graft/base/replace_file.hpp"

namespace graft::runtime {
namespace {

constexpr std::size_t kConfigLimit = 64u << 20;  // as request_from_bundle reads it

std::string config_path(const std::string& bundle) { return bundle + "/config.json"; }

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
  return replace_file(config_path(bundle), text);
}

}  // namespace graft::runtime
