// Replacing a file whole (graft/base/replace_file.hpp), as `graft cdi
// generate --output` and graft-runtime's config.json edit do.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "graft/base/replace_file.hpp"
#include "temp_dir.hpp"

using namespace graft;

namespace {

std::string contents(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t files_in(const std::string& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir), {}));
}

}  // namespace

TEST_CASE("a replaced file holds the new text and keeps its mode and owner", "[replace-file]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/config.json";
  std::ofstream(path) << "old";
  REQUIRE(::chmod(path.c_str(), 0600) == 0);
  if (::geteuid() == 0) REQUIRE(::chown(path.c_str(), 1234, 5678) == 0);
  REQUIRE(replace_file(path, "new text"));
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

TEST_CASE("a new file gets the mode asked for", "[replace-file]") {
  fixture::TempDir dir;
  std::string path = dir.path() + "/graft.json";
  REQUIRE(replace_file(path, "{}", 0644));
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0644);
  CHECK(contents(path) == "{}");
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
