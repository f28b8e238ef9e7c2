// SPDX-License-Identifier: Apache-2.0
// image_versioned_files: the versions an untrusted image's file names claim,
// read with the directory opened inside the root and its entries only
// lstat'ed (forward compatibility reads /usr/local/cuda/compat this way).
#include <catch2/catch.hpp>

#include "image/image_versions.hpp"
#include "fixture_files.hpp"
#include "temp_dir.hpp"

using namespace graft;

TEST_CASE("a dotted version is digits separated by dots, nothing else", "[paths][forward-compat]") {
  CHECK(parse_dotted_version("575.57.08") == std::vector<unsigned long>{575, 57, 8});
  CHECK(parse_dotted_version("1") == std::vector<unsigned long>{1});
  for (const char* bad : {"", ".", "1.", ".1", "1..2", "1.x", "-1", "1 2", "99999999999999999999999", "1.2.3.4.5.6.7.8.9"})
    CHECK(parse_dotted_version(bad).empty());
}

TEST_CASE("versioned files are listed highest version first, other names ignored", "[paths][forward-compat]") {
  fixture::TempDir root("graft-image-versions-");
  std::string dir = root.path() + "/compat";
  for (const char* name : {"libvendor.so.9.1", "libvendor.so.10.0", "libvendor.so.575.57.08", "libvendor.so",
                           "libvendor.so.1.x", "libvendorx.so.999", "other.so.1000"})
    fixture::write_file(dir + "/" + name, "");
  auto files = image_versioned_files(root.path(), "/compat", "libvendor.so");
  REQUIRE(files);
  REQUIRE(files->size() == 3);
  CHECK(files->at(0).name == "libvendor.so.575.57.08");
  CHECK(files->at(1).name == "libvendor.so.10.0");
  CHECK(files->at(2).name == "libvendor.so.9.1");
}

TEST_CASE("a missing directory, or a file where it should be, has no versioned files", "[paths][forward-compat]") {
  fixture::TempDir root("graft-image-versions-");
  fixture::write_file(root.path() + "/compat", "a file\n");
  auto file = image_versioned_files(root.path(), "/compat", "libvendor.so");
  REQUIRE(file);
  CHECK(file->empty());
  auto missing = image_versioned_files(root.path(), "/nowhere/compat", "libvendor.so");
  REQUIRE(missing);
  CHECK(missing->empty());
}

TEST_CASE("only the first entries up to the bound are looked at", "[paths][forward-compat][hostile]") {
  fixture::TempDir root("graft-image-versions-");
  std::string dir = root.path() + "/compat";
  for (std::size_t i = 0; i < kMaxImageDirEntries + 500; ++i)
    fixture::write_file(dir + "/libvendor.so." + std::to_string(i + 1), "");
  auto files = image_versioned_files(root.path(), "/compat", "libvendor.so");
  REQUIRE(files);
  CHECK(files->size() <= kMaxImageDirEntries);
  CHECK(files->size() >= kMaxImageDirEntries - 2);  // "." and ".." count as entries
}
