// SPDX-License-Identifier: Apache-2.0
// name_open_file_limit (apply/open_file_limit.hpp) decides from the error's
// errno that preparing ran out of file descriptors, not from how many graft
// holds when it looks.
#include <catch2/catch.hpp>

#include <dirent.h>
#include <sys/resource.h>

#include <cerrno>
#include <string>

#include "apply/open_file_limit.hpp"

using namespace graft;

namespace {

// The soft RLIMIT_NOFILE set to just above the files this process holds,
// for one scope.
class SoftLimitAtOpenFiles {
 public:
  SoftLimitAtOpenFiles() {
    REQUIRE(::getrlimit(RLIMIT_NOFILE, &saved_) == 0);
    rlimit lowered = saved_;
    lowered.rlim_cur = open_files() + 1;
    REQUIRE(::setrlimit(RLIMIT_NOFILE, &lowered) == 0);
  }
  ~SoftLimitAtOpenFiles() { ::setrlimit(RLIMIT_NOFILE, &saved_); }

 private:
  static rlim_t open_files() {
    DIR* listing = ::opendir("/proc/self/fd");
    REQUIRE(listing != nullptr);
    rlim_t count = 0;
    while (const dirent* entry = ::readdir(listing))
      if (entry->d_name[0] != '.') ++count;
    ::closedir(listing);
    return count;
  }
  rlimit saved_{};
};

}  // namespace

TEST_CASE("An EMFILE from preparing names graft's open-file limit, however few files it holds now",
          "[apply][limits]") {
  Error error = name_open_file_limit(make_sys_error(EMFILE, "open source /dev/gpu0"));
  CHECK_THAT(error.message, Catch::StartsWith("open source /dev/gpu0: Too many open files (graft holds ") &&
                                Catch::Contains(" its limit of ") &&
                                Catch::EndsWith("the hard RLIMIT_NOFILE it was started with: raise the runtime's)"));
  CHECK(error.code == EMFILE);
}

TEST_CASE("An error of another errno is left as it is, even with graft at its open-file limit",
          "[apply][limits]") {
  Error original = make_sys_error(ENOENT, "open source /dev/gpu0");
  std::string message;
  {
    SoftLimitAtOpenFiles at_limit;
    message = name_open_file_limit(original).message;
  }
  CHECK(message == original.message);
}
