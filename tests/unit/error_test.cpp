// SPDX-License-Identifier: Apache-2.0
// graft::Error beside its message: the errno of a failed system call, the
// step that failed and a kind, which callers branch on instead of the words
// (graft/base/error.hpp).
#include <catch2/catch.hpp>

#include <cerrno>
#include <cstring>
#include <string>

#include "graft/base/error.hpp"

using namespace graft;

TEST_CASE("An error made from a message alone has no errno, no step and no kind", "[error]") {
  Error error = make_error("{}: unknown key '{}'", "policy.toml:3:1", "foo");
  CHECK(error.message == "policy.toml:3:1: unknown key 'foo'");
  CHECK(error.code == 0);
  CHECK(error.step.empty());
  CHECK(error.kind == ErrorKind::unspecified);
}

TEST_CASE("A system error is worded as '<what>: <strerror>' and keeps the errno", "[error]") {
  Error error = make_sys_error(ENOENT, "{}: cannot open", "/etc/ld.so.cache");
  CHECK(error.message == std::string("/etc/ld.so.cache: cannot open: ") + std::strerror(ENOENT));
  CHECK(error.code == ENOENT);
  CHECK(error.step.empty());
}

TEST_CASE("Context prefixes the message and keeps the errno, the step and the kind", "[error]") {
  Error inner = make_sys_error(EMFILE, "open_tree /usr/lib/libx.so");
  inner.step = "open_tree";
  inner.kind = ErrorKind::rules_not_loaded;
  Error outer = inner.context("plugin /p/libx.so").context("container c1");
  CHECK(outer.message == "container c1: plugin /p/libx.so: " + inner.message);
  CHECK(outer.code == EMFILE);
  CHECK(outer.step == StepName("open_tree"));
  CHECK(outer.step.text() == "open_tree");
  CHECK(outer.kind == ErrorKind::rules_not_loaded);
}

TEST_CASE("A result that failed hands back the error with its errno", "[error]") {
  Result<int> failed = make_sys_error(EACCES, "{}", "/run/graft");
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().code == EACCES);
}
