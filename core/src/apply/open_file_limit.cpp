// SPDX-License-Identifier: Apache-2.0
// The soft open-file limit raised for applying a plan (open_file_limit.hpp).
#include "apply/open_file_limit.hpp"

#include <dirent.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

namespace graft {

void raise_open_file_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  // Refused only where the hard limit is above fs.nr_open (set before nr_open
  // was lowered); the soft limit stays, and an EMFILE names what failed.
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);
}

namespace {

// Files this process holds open, counted in /proc/self/fd (less the listing's
// own); nothing when it cannot be listed.
std::optional<std::size_t> open_file_count() {
  std::unique_ptr<DIR, int (*)(DIR*)> listing(::opendir("/proc/self/fd"), ::closedir);
  if (!listing) return std::nullopt;
  std::size_t count = 0;
  while (const dirent* entry = ::readdir(listing.get()))
    if (entry->d_name[0] != '.') ++count;
  return count - 1;
}

}  // namespace

Error name_open_file_limit(Error error) {
  if (error.code != EMFILE) return error;
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return error;
  // Counted for the message only: the failing plugin may have closed some
  // of what it held by now, so "near" rather than "at".
  auto count = open_file_count();
  std::string held = count ? fmt::format("{} open files, near", *count) : "as many open files as";
  error.message += fmt::format(" (graft holds {} its limit of {}, the hard RLIMIT_NOFILE it was "
                               "started with: raise the runtime's)",
                               held, limit.rlim_cur);
  return error;
}

}  // namespace graft
