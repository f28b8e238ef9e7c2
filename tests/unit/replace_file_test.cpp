// SPDX-License-Identifier: Apache-2.0
// Replacing a file whole (graft/base/replace_file.hpp), as `graft cdi
// generate --output` (graft's own file) and graft-runtime's config.json
// edit (another's file, its owner kept) do.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "foreign_file.hpp"
#include "graft/base/replace_file.hpp"
#include "graft/base/unique_fd.hpp"
#include "graft/base/write_all.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"

using namespace graft;

namespace {

std::string contents(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// What the stand-in writes below saw: the mode of the file while it is written.
mode_t mode_while_written = 0;

ssize_t write_noting_mode(int fd, const void* data, size_t size) {
  struct stat st {};
  if (::fstat(fd, &st) == 0) mode_while_written = st.st_mode & 07777;
  return ::write(fd, data, size);
}

// A file that takes nothing: write(2) returning 0 for a non-empty buffer.
int empty_writes = 0;
ssize_t write_nothing(int, const void*, size_t size) {
  if (++empty_writes > 3) return static_cast<ssize_t>(size);  // a loop that retried would end here
  return 0;
}

std::size_t files_in(const std::string& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir), {}));
}

}  // namespace

TEST_CASE("an edited file holds the new text and keeps its mode and owner", "[replace-file]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/config.json";
  std::ofstream(path) << "old";
  REQUIRE(::chmod(path.c_str(), 0600) == 0);
  if (::geteuid() == 0) REQUIRE(::chown(path.c_str(), 1234, 5678) == 0);
  REQUIRE(replace_file_keeping_owner(path, "new text"));
  CHECK(contents(path) == "new text");
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0600);
  if (::geteuid() == 0) {
    CHECK(st.st_uid == 1234);
    CHECK(st.st_gid == 5678);
  }
  CHECK(files_in(dir.path()) == 1);
}

// Issue 42: a spec written over a 0666 file another user planted stayed
// that user's and world-writable, and a spec names hooks run as root.
TEST_CASE("graft's own file is graft's user's and 0644 whatever owner and mode the file it replaces had",
          "[replace-file]") {
  if (::geteuid() != 0) GRAFT_SKIP("needs root to plant a file owned by another user");
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  test::plant_foreign_file(path, "planted");
  REQUIRE(replace_file(path, "{}"));
  test::check_root_0644(path);
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK(st.st_gid == ::getegid());
  CHECK(contents(path) == "{}");
}

TEST_CASE("graft's own file is not written where a symlink stands: one line, the link and its target untouched",
          "[replace-file]") {
  fixture::TempDir dir, elsewhere;
  std::string target = elsewhere.path() + "/target", path = dir.path() + "/graft.json";
  test::plant_link(path, target, "keep");
  auto status = replace_file(path, "{}");
  REQUIRE_FALSE(status);
  CHECK(status.error().message == test::symlink_refusal(path));
  test::check_link_untouched(path, target, "keep");
  CHECK(files_in(dir.path()) == 1);
}

TEST_CASE("a new file is 0644", "[replace-file]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  REQUIRE(replace_file(path, "{}"));
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0644);
  CHECK(contents(path) == "{}");
}

TEST_CASE("an owner given replaces the old file's, and a symlink at the name is replaced, not followed",
          "[replace-file]") {
  fixture::TempDir dir, elsewhere;
  std::ofstream(elsewhere.path() + "/target") << "keep";
  std::filesystem::create_symlink(elsewhere.path() + "/target", dir.path() + "/ld.so.cache");
  UniqueFd dir_fd(::open(dir.path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(dir_fd.valid());
  uid_t uid = ::geteuid() == 0 ? 4321 : ::geteuid();
  gid_t gid = ::geteuid() == 0 ? 8765 : ::getegid();
  REQUIRE(replace_file_at(dir_fd.get(), "ld.so.cache", "cache", FileOwner{0640, uid, gid}, "ld.so.cache"));
  struct stat st {};
  REQUIRE(::lstat((dir.path() + "/ld.so.cache").c_str(), &st) == 0);
  CHECK(S_ISREG(st.st_mode));
  CHECK((st.st_mode & 07777) == 0640);
  CHECK(st.st_uid == uid);
  CHECK(st.st_gid == gid);
  CHECK(contents(elsewhere.path() + "/target") == "keep");
}

TEST_CASE("a replacement that cannot be made is an error naming the path and leaves the old file alone",
          "[replace-file]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/spec";
  std::filesystem::create_directory(path);  // rename cannot put a file over a directory
  auto status = replace_file(path, "text");
  REQUIRE_FALSE(status);
  CHECK_THAT(status.error().message, Catch::Contains(path + ": cannot replace"));
  CHECK(std::filesystem::is_directory(path));
  CHECK(files_in(dir.path()) == 1);  // no temporary left beside it
}

TEST_CASE("a path in a missing directory is an error and creates nothing", "[replace-file]") {
  fixture::TempDir dir;
  auto status = replace_file(dir.path() + "/missing/graft.json", "text");
  REQUIRE_FALSE(status);
  CHECK_THAT(status.error().message, Catch::Contains("cannot create"));
  CHECK(files_in(dir.path()) == 0);
}

TEST_CASE("the new file is 0600 while it is written, and only then gets the old file's mode", "[replace-file]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/config.json";
  std::ofstream(path) << "old";
  REQUIRE(::chmod(path.c_str(), 0640) == 0);
  UniqueFd dir_fd(::open(dir.path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(dir_fd.valid());
  mode_while_written = 0;
  REQUIRE(replace_file_at(dir_fd.get(), "config.json", "new", std::nullopt, path, write_noting_mode));
  CHECK(mode_while_written == 0600);
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);
  CHECK(contents(path) == "new");
}

TEST_CASE("a write that takes nothing is an error, not progress", "[replace-file]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/out";
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
  REQUIRE(fd.valid());
  empty_writes = 0;
  auto status = write_all(fd.get(), "text", path, write_nothing);
  REQUIRE_FALSE(status);
  CHECK(status.error().message == path + ": write: Input/output error (no byte written)");
  CHECK(empty_writes == 1);
}

TEST_CASE("a replacement whose write takes nothing fails and leaves the old file alone", "[replace-file]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/config.json";
  std::ofstream(path) << "old";
  UniqueFd dir_fd(::open(dir.path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(dir_fd.valid());
  empty_writes = 0;
  auto status = replace_file_at(dir_fd.get(), "config.json", "new", std::nullopt, path, write_nothing);
  REQUIRE_FALSE(status);
  CHECK_THAT(status.error().message, Catch::Contains("no byte written"));
  CHECK(contents(path) == "old");
  CHECK(files_in(dir.path()) == 1);
}
