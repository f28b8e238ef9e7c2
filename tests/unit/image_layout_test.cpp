// SPDX-License-Identifier: Apache-2.0
// The one rule for where libraries go in an image (core/src/request/
// image_layout.cpp), on small rootfs trees built in code: the image's
// multiarch directory, else the multiarch directory of a Debian image, else
// what its ld.so.conf or ld.so.cache names, else /usr/lib64. The image is
// hostile: its files are read inside the root, typed and bounded. Each case
// plans one container with the planner's small policy and reads the plan's
// library directories.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <chrono>

#include "fixture_files.hpp"
#include "graft/base/ldcache_write.hpp"
#include "planning_inputs.hpp"
#include "request/request.hpp"
#include "temp_dir.hpp"

using namespace graft;
using namespace graft::test;

namespace {

#if defined(__x86_64__)
const std::string kLayoutMultiarch = "/usr/lib/x86_64-linux-gnu";
const std::string kLayoutMultiarch32 = "/usr/lib/i386-linux-gnu";
const std::string kLayoutTriplet = "x86_64-linux-gnu";
#elif defined(__aarch64__)
const std::string kLayoutMultiarch = "/usr/lib/aarch64-linux-gnu";
const std::string kLayoutMultiarch32 = "/usr/lib/arm-linux-gnueabihf";
const std::string kLayoutTriplet = "aarch64-linux-gnu";
#endif

// A rootfs in a temporary directory, with /etc and nothing else to start.
struct LayoutImage {
  fixture::TempDir dir{"graft-image-layout-"};
  LayoutImage() { fixture::make_dirs(root() + "/etc"); }
  std::string root() const { return dir.path() + "/rootfs"; }
  void directory(const std::string& path) const { fixture::make_dirs(root() + path); }
  void file(const std::string& path, std::string_view text) const {
    fixture::write_file(root() + path, text);
  }
};

// The plan for one GPU with compute and 32-bit copies in this image.
Plan layout_plan(const LayoutImage& image) {
  Request request = audit_request();
  request.rootfs = image.root();
  request.layout = read_image_layout(image.root());
  return planned(planning_host().build(), granting({0}, {"compute", "compat32"}), planning_policy(), request);
}

// An ld.so.cache listing the native libc.so.6 at `path`.
std::string layout_cache_naming(const std::string& path) {
  LdCacheEntry libc{.flags = ldcache_flags_for(LdCacheAbi::native), .key = "libc.so.6", .value = path};
  return render_ldcache({libc}, "graft test");
}

}  // namespace

TEST_CASE("an image's multiarch directory receives the libraries without /etc/debian_version",
          "[image_layout]") {
  LayoutImage image;  // busybox: an empty multiarch directory, no debian_version
  image.directory(kLayoutMultiarch);
  Plan plan = layout_plan(image);
  CHECK(plan.lib_dir == kLayoutMultiarch);
  CHECK(plan.lib32_dir == kLayoutMultiarch32);
}

TEST_CASE("an image with its multiarch directory under /lib only gets that directory", "[image_layout]") {
  LayoutImage image;  // /lib a directory of its own, not a link to usr/lib
  image.directory("/lib/" + kLayoutTriplet);
  image.directory("/usr/lib");
  CHECK(layout_plan(image).lib_dir == "/lib/" + kLayoutTriplet);
}

TEST_CASE("an image with /etc/debian_version but no multiarch directory gets the multiarch directory",
          "[image_layout]") {
  LayoutImage image;
  image.file("/etc/debian_version", "12.7\n");
  image.directory("/usr/lib64");
  CHECK(layout_plan(image).lib_dir == kLayoutMultiarch);
}

TEST_CASE("an image with /usr/lib64 gets it, even when its ld.so.conf names another directory first",
          "[image_layout]") {
  LayoutImage image;
  image.file("/etc/ld.so.conf", "include ld.so.conf.d/*.conf\n");
  image.file("/etc/ld.so.conf.d/mysql-x86_64.conf", "/usr/lib64/mysql\n");
  image.directory("/usr/lib64/mysql");
  Plan plan = layout_plan(image);
  CHECK(plan.lib_dir == "/usr/lib64");
  CHECK_THAT(plan.lib_dir_reason, Catch::Contains("a lib64 loader's default directory"));
}

TEST_CASE("an image without a multiarch directory or /usr/lib64 gets the first existing directory its "
          "ld.so.conf names",
          "[image_layout]") {
  LayoutImage image;
  image.file("/etc/ld.so.conf",
             "# the site's libraries\n/opt/missing/lib\n  /opt/site/lib/  # trailing\n/usr/lib64\n");
  image.directory("/opt/site/lib");
  Plan plan = layout_plan(image);
  CHECK(plan.lib_dir == "/opt/site/lib");
  CHECK(plan.lib32_dir == "/usr/lib32");
}

TEST_CASE("where the image's ld.so.cache finds libc.so.6 wins over a directory its ld.so.conf adds",
          "[image_layout]") {
  LayoutImage image;
  image.file("/etc/ld.so.conf", "/opt/extra\n");
  image.file("/etc/ld.so.cache", layout_cache_naming("/opt/libc/libc.so.6"));
  image.directory("/opt/extra");
  image.directory("/opt/libc");
  CHECK(layout_plan(image).lib_dir == "/opt/libc");
}

TEST_CASE("an image whose ld.so.conf names /usr/lib64 gets /usr/lib64", "[image_layout]") {
  LayoutImage image;
  image.file("/etc/ld.so.conf", "/usr/lib64\n");
  image.directory("/usr/lib64");
  CHECK(layout_plan(image).lib_dir == "/usr/lib64");
}

TEST_CASE("ld.so.conf include patterns are read relative to the including file, in sorted order",
          "[image_layout]") {
  LayoutImage image;
  image.file("/etc/ld.so.conf", "include ld.so.conf.d/*.conf\n");
  image.file("/etc/ld.so.conf.d/b.conf", "/opt/b\n");
  image.file("/etc/ld.so.conf.d/a.conf", "/opt/a\n");
  image.file("/etc/ld.so.conf.d/.hidden.conf", "/opt/hidden\n");
  for (const char* dir : {"/opt/a", "/opt/b", "/opt/hidden"}) image.directory(dir);
  CHECK(layout_plan(image).lib_dir == "/opt/a");
}

TEST_CASE("an image whose ld.so.conf names nothing gets where its ld.so.cache finds libc.so.6",
          "[image_layout]") {
  LayoutImage image;
  image.file("/etc/ld.so.conf", "include ld.so.conf.d/*.conf\n");
  image.file("/etc/ld.so.cache", layout_cache_naming("/opt/libc/libc.so.6"));
  image.directory("/opt/libc");
  CHECK(layout_plan(image).lib_dir == "/opt/libc");
}

TEST_CASE("an image that names no library directory gets /usr/lib64 and /usr/lib32", "[image_layout]") {
  LayoutImage image;
  Plan plan = layout_plan(image);
  CHECK(plan.lib_dir == "/usr/lib64");
  CHECK(plan.lib32_dir == "/usr/lib32");
}

TEST_CASE("32-bit copies go to the image's 32-bit multiarch directory when it has one", "[image_layout]") {
  LayoutImage image;
  image.directory(kLayoutMultiarch32);
  image.directory("/usr/lib64");
  Plan plan = layout_plan(image);
  CHECK(plan.lib_dir == "/usr/lib64");
  CHECK(plan.lib32_dir == kLayoutMultiarch32);
}

TEST_CASE("an ld.so.conf that is a symlink out of the root is read inside the root", "[image_layout]") {
  LayoutImage image;
  // Outside the root the link's target names /opt/outside; inside the root
  // the same path names /opt/inside. Only the second may be read.
  fixture::write_file(image.dir.path() + "/host.conf", "/opt/outside\n");
  image.file(image.dir.path() + "/host.conf", "/opt/inside\n");
  fixture::make_symlink(image.dir.path() + "/host.conf", image.root() + "/etc/ld.so.conf");
  image.directory("/opt/outside");
  image.directory("/opt/inside");
  CHECK(layout_plan(image).lib_dir == "/opt/inside");
}

TEST_CASE("an included FIFO or device node is skipped unopened, and the next file is read",
          "[image_layout]") {
  LayoutImage image;
  image.file("/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
  image.directory("/etc/ld.so.conf.d");
  REQUIRE(::mkfifo((image.root() + "/etc/ld.so.conf.d/a.conf").c_str(), 0644) == 0);
  // /dev/zero's numbers: read, it would never end (only root may make one).
  (void)::mknod((image.root() + "/etc/ld.so.conf.d/b.conf").c_str(), S_IFCHR | 0644, makedev(1, 5));
  image.file("/etc/ld.so.conf.d/c.conf", "/opt/c\n");
  image.directory("/opt/c");
  auto start = std::chrono::steady_clock::now();
  CHECK(layout_plan(image).lib_dir == "/opt/c");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("an ld.so.conf that is a FIFO is not opened, and the ld.so.cache decides", "[image_layout]") {
  LayoutImage image;
  REQUIRE(::mkfifo((image.root() + "/etc/ld.so.conf").c_str(), 0644) == 0);
  image.file("/etc/ld.so.cache", layout_cache_naming("/opt/libc/libc.so.6"));
  image.directory("/opt/libc");
  auto start = std::chrono::steady_clock::now();
  CHECK(layout_plan(image).lib_dir == "/opt/libc");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("a malformed ld.so.cache names nothing, and the image gets /usr/lib64", "[image_layout]") {
  LayoutImage image;
  std::string cache = layout_cache_naming("/opt/libc/libc.so.6");
  image.file("/etc/ld.so.cache", cache.substr(0, cache.size() / 2));  // cut short
  image.directory("/opt/libc");
  CHECK(layout_plan(image).lib_dir == "/usr/lib64");
}

TEST_CASE("an ld.so.conf larger than 64 KiB is not read", "[image_layout]") {
  LayoutImage image;
  image.file("/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
  image.file("/etc/ld.so.conf.d/a.conf", "/opt/huge\n" + std::string(65 * 1024, '#') + "\n");
  image.file("/etc/ld.so.conf.d/b.conf", "/opt/b\n");
  image.directory("/opt/huge");
  image.directory("/opt/b");
  CHECK(layout_plan(image).lib_dir == "/opt/b");
}

TEST_CASE("an ld.so.conf that includes itself is read to a bounded depth, then its next line counts",
          "[image_layout]") {
  LayoutImage image;
  image.file("/etc/ld.so.conf", "include /etc/ld.so.conf /etc/*.conf\n/opt/after\n");
  image.file("/etc/loop.conf", "include /etc/*.conf\n");
  image.directory("/opt/after");
  auto start = std::chrono::steady_clock::now();
  CHECK(layout_plan(image).lib_dir == "/opt/after");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("directories under /proc, /sys or /dev, or the root itself, are never library directories",
          "[image_layout]") {
  LayoutImage image;
  image.file("/etc/ld.so.conf", "/proc/self\n/sys\n/dev/shm\n/\n/usr/../opt/ok\n");
  for (const char* dir : {"/proc/self", "/sys", "/dev/shm", "/opt/ok"}) image.directory(dir);
  CHECK(layout_plan(image).lib_dir == "/opt/ok");
}
