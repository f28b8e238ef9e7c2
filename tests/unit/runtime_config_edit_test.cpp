// SPDX-License-Identifier: Apache-2.0
// The edit graft-runtime makes to config.json in hook mode: graft's
// createRuntime hook, with an env of PATH alone, added once, after the hooks
// the engine put there, every other field kept as it was and where it was.
#include <catch2/catch.hpp>

#include "config_edit.hpp"

using graft::GraftHook;
using graft::runtime::add_graft_hook;
using graft::runtime::hook_entry;
using graft::runtime::graft_hook_command;
using graft::runtime::is_graft_hook;
using graft::runtime::ordered_json;

namespace {

const GraftHook kEditHook{"/usr/bin/graft", "/etc/graft/site.toml"};

ordered_json edited_config(const std::string& text) {
  auto config = ordered_json::parse(text);
  auto added = add_graft_hook(config, kEditHook);
  INFO((added ? std::string() : added.error().message));
  REQUIRE(added);
  CHECK(*added);
  return config;
}

}  // namespace

TEST_CASE("the inserted hook runs graft's createRuntime hook with the policy and only PATH",
          "[runtime]") {
  CHECK(hook_entry(graft_hook_command(kEditHook)).dump() ==
        R"({"path":"/usr/bin/graft","args":["graft","--policy","/etc/graft/site.toml","hook",)"
        R"("createRuntime"],"env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]})");
}

TEST_CASE("a config without hooks gets hooks.createRuntime with graft's hook, the rest kept in order",
          "[runtime]") {
  auto config = edited_config(R"({"ociVersion":"1.0.2","zzz":{"b":1,"a":2},"root":{"path":"rootfs"}})");
  CHECK(config.dump() ==
        R"({"ociVersion":"1.0.2","zzz":{"b":1,"a":2},"root":{"path":"rootfs"},"hooks":{"createRuntime":[)" +
            hook_entry(graft_hook_command(kEditHook)).dump() + "]}}");
}

TEST_CASE("hooks already in the config are kept, graft's comes after them", "[runtime]") {
  auto config = edited_config(
      R"({"hooks":{"prestart":[{"path":"/bin/net"}],"createRuntime":[{"path":"/bin/a","args":["a"]}],)"
      R"("poststop":[{"path":"/bin/b"}]}})");
  const auto& hooks = config.at("hooks");
  CHECK(hooks.at("prestart").dump() == R"([{"path":"/bin/net"}])");
  CHECK(hooks.at("poststop").dump() == R"([{"path":"/bin/b"}])");
  REQUIRE(hooks.at("createRuntime").size() == 2);
  CHECK(hooks.at("createRuntime")[0].dump() == R"({"path":"/bin/a","args":["a"]})");
  CHECK(hooks.at("createRuntime")[1] == hook_entry(graft_hook_command(kEditHook)));
}

TEST_CASE("graft's hook is inserted once: a second edit changes nothing", "[runtime]") {
  auto config = edited_config(R"({"root":{"path":"rootfs"}})");
  std::string once = config.dump();
  auto again = add_graft_hook(config, kEditHook);
  REQUIRE(again);
  CHECK_FALSE(*again);
  CHECK(config.dump() == once);
}

TEST_CASE("a graft hook or cdi-hook in any stage, however it got there, counts as graft's hook", "[runtime]") {
  CHECK(is_graft_hook(ordered_json::parse(R"({"path":"/usr/bin/graft","args":["graft","hook","prestart"]})")));
  CHECK(is_graft_hook(ordered_json::parse(
      R"({"path":"/usr/bin/graft","args":["graft","cdi-hook","createRuntime","--link","/a::b"]})")));
  CHECK(is_graft_hook(ordered_json::parse(
      R"({"path":"/opt/x/graft","args":["graft","--policy","/p","hook","createRuntime"]})")));
  CHECK_FALSE(is_graft_hook(ordered_json::parse(R"({"path":"/usr/bin/graft","args":["graft","plan"]})")));
  CHECK_FALSE(is_graft_hook(ordered_json::parse(R"({"path":"/usr/bin/hook","args":["hook","hook"]})")));
  CHECK_FALSE(is_graft_hook(ordered_json::parse(R"({"path":"/usr/bin/graft"})")));
  auto config = ordered_json::parse(R"({"hooks":{"prestart":[{"path":"/usr/bin/graft","args":["graft","hook"]}]}})");
  std::string before = config.dump();
  auto added = add_graft_hook(config, kEditHook);
  REQUIRE(added);
  CHECK_FALSE(*added);
  CHECK(config.dump() == before);
}

TEST_CASE("hooks of the wrong shape are an error, not overwritten", "[runtime]") {
  auto not_object = ordered_json::parse(R"({"hooks":[1]})");
  auto added = add_graft_hook(not_object, kEditHook);
  REQUIRE_FALSE(added);
  CHECK(added.error().message == "config.json: hooks: expected an object");
  auto not_array = ordered_json::parse(R"({"hooks":{"createRuntime":{}}})");
  added = add_graft_hook(not_array, kEditHook);
  REQUIRE_FALSE(added);
  CHECK(added.error().message == "config.json: hooks.createRuntime: expected an array");
}
