// SPDX-License-Identifier: Apache-2.0
// one_line: text quoted into an error, a refusal or a log stays one line.
#include <catch2/catch.hpp>

#include "graft/base/one_line.hpp"

using graft::one_line;

TEST_CASE("one_line leaves text without control characters as it is", "[one_line]") {
  CHECK(one_line("container c9: plugin /p/libx.so: bind /usr/lib/é: apply") ==
        "container c9: plugin /p/libx.so: bind /usr/lib/é: apply");
  CHECK(one_line("") == "");
}

TEST_CASE("one_line escapes newlines, carriage returns and other control bytes wherever they are",
          "[one_line]") {
  CHECK(one_line("\nid") == "\\nid");
  CHECK(one_line("c9\nforged: line\r") == "c9\\nforged: line\\r");
  CHECK(one_line(std::string("a\tb\x7f", 4) + std::string(1, '\0')) == "a\\x09b\\x7f\\x00");
}
