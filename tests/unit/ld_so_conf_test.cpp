// SPDX-License-Identifier: Apache-2.0
// An image's ld.so.conf lines as glibc's ldconfig reads them
// (core/src/image/ld_so_conf.cpp): directories, include patterns, comments.
// Pure: text in, lines out.
#include <catch2/catch.hpp>

#include "image/ld_so_conf.hpp"

using namespace graft;

namespace {

std::vector<std::string> ld_so_conf_values(std::string_view text, bool include) {
  std::vector<std::string> values;
  for (const auto& line : parse_ld_so_conf(text))
    if (line.include == include) values.push_back(line.value);
  return values;
}

}  // namespace

TEST_CASE("ld.so.conf lines are directories, with comments, blanks and hwcap lines left out",
          "[ld_so_conf]") {
  auto dirs =
      ld_so_conf_values("# site\n\n  /opt/a/  \n/opt/b # why\nhwcap 1 nosegneg\n/opt/c=libc6\r\n", false);
  CHECK(dirs == std::vector<std::string>{"/opt/a", "/opt/b", "/opt/c"});
}

TEST_CASE("an ld.so.conf include line may name several patterns", "[ld_so_conf]") {
  auto includes = ld_so_conf_values("include ld.so.conf.d/*.conf\t/etc/more/*.conf\ninclude\n", true);
  CHECK(includes == std::vector<std::string>{"ld.so.conf.d/*.conf", "/etc/more/*.conf"});
  // "include" alone, or glued to a word, is not an include line.
  CHECK(ld_so_conf_values("includeme\n", true).empty());
}

TEST_CASE("an ld.so.conf of one line without a newline still names its directory", "[ld_so_conf]") {
  CHECK(ld_so_conf_values("/usr/lib64", false) == std::vector<std::string>{"/usr/lib64"});
}
