// SPDX-License-Identifier: Apache-2.0
// RootLinks (core/src/paths/root_links.hpp): a host root's paths resolved as
// follow_links_in_root resolves them, each directory resolved once.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "paths/paths.hpp"
#include "paths/root_links.hpp"
#include "temp_dir.hpp"

using namespace graft;
namespace fs = std::filesystem;

namespace {

// A driver root: /usr/lib/x holds libfoo.so.1.2 and libfoo.so.1 -> it;
// /lib -> usr/lib; /abs -> /usr/lib/x (absolute: inside the root);
// /up -> usr/lib/x/../../.. ; /loop -> loop.
struct DriverRoot {
  fixture::TempDir dir{"graft-root-links-"};
  std::string root = dir.path();
  DriverRoot() {
    fs::create_directories(root + "/usr/lib/x");
    std::ofstream(root + "/usr/lib/x/libfoo.so.1.2") << "elf";
    fs::create_symlink("libfoo.so.1.2", root + "/usr/lib/x/libfoo.so.1");
    fs::create_symlink("usr/lib", root + "/lib");
    fs::create_symlink("/usr/lib/x", root + "/abs");
    fs::create_symlink("usr/lib/x/../../..", root + "/up");
    fs::create_symlink("loop", root + "/loop");
  }
};

}  // namespace

TEST_CASE("RootLinks resolves every path as follow_links_in_root does", "[paths]") {
  DriverRoot host;
  RootLinks links(host.root);
  for (const char* path : {"/usr/lib/x/libfoo.so.1", "/lib/x/libfoo.so.1", "/abs/libfoo.so.1",
                           "/up/usr/lib/x/libfoo.so.1.2", "/lib/x/../x/libfoo.so.1", "/missing/file",
                           "/lib/x/missing", "/usr", "/"}) {
    INFO(path);
    auto alone = follow_links_in_root(host.root, path);
    auto remembered = links.follow(path);
    REQUIRE(alone.ok());
    REQUIRE(remembered.ok());
    CHECK(*remembered == *alone);
  }
  CHECK(*links.follow("/lib/x/libfoo.so.1") == "/usr/lib/x/libfoo.so.1.2");
}

TEST_CASE("RootLinks fails on a symlink loop as follow_links_in_root does", "[paths]") {
  DriverRoot host;
  RootLinks links(host.root);
  CHECK_FALSE(follow_links_in_root(host.root, "/loop/file").ok());
  CHECK_FALSE(links.follow("/loop/file").ok());
  CHECK_FALSE(links.follow("/loop").ok());
}

TEST_CASE("RootLinks stats the real file inside the root and nothing outside it", "[paths]") {
  DriverRoot host;
  RootLinks links(host.root);
  struct stat st {};
  auto real = links.stat("/abs/libfoo.so.1", st);
  REQUIRE(real);
  CHECK(*real == "/usr/lib/x/libfoo.so.1.2");
  CHECK(S_ISREG(st.st_mode));
  CHECK(st.st_size == 3);
  CHECK_FALSE(links.stat("/up/etc/passwd", st));  // "/etc/passwd" of the root: none there
  CHECK_FALSE(links.stat("/lib/x/missing", st));
}
