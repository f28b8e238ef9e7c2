// SPDX-License-Identifier: Apache-2.0
// The plugin loader: loading and calling a good plugin, and refusing each bad
// one with a line naming the file. Plugins are copied from the build tree into
// a private 0700 temp dir first, so the permission checks see known modes.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "graft/base/open_in_root.hpp"
#include "plugin_host/host_services.hpp"
#include "plugin_host/plugin_loader.hpp"
#include "policy/policy.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using namespace graft;

namespace {

struct LoaderDir {
  fixture::TempDir temp{"graft-plugins-"};  // mkdtemp: mode 0700
  fs::path dir = temp.path();
  // Copies lib<name>.so from the build tree with mode 0755.
  std::string add(const std::string& name) {
    fs::path to = dir / ("lib" + name + ".so");
    fs::copy_file(fs::path(GRAFT_TEST_PLUGIN_DIR) / ("lib" + name + ".so"), to);
    fs::permissions(to, fs::perms(0755));
    return to.string();
  }
};

Action bind(std::string target) {
  Action action{.kind = ActionKind::bind_mount, .plugin = "good", .source = "/usr/lib/libx.so",
                .target = std::move(target), .options = {"ro", "nosuid"}};
  action.content = std::string("abc\0d", 5);
  action.provenance.reason = "compute";
  return action;
}

std::string refusal(const std::string& name) {
  LoaderDir plugins;
  plugins.add(name);
  auto loaded = load_plugin(plugins.dir.string(), name);
  REQUIRE_FALSE(loaded.ok());
  CHECK_THAT(loaded.error().message,
             Catch::Contains(plugins.dir.string() + "/lib" + name + ".so"));
  return loaded.error().message;
}

}  // namespace

TEST_CASE("A good plugin loads and its apply receives every field of the action", "[plugins]") {
  LoaderDir plugins;
  plugins.add("good");
  auto loaded = load_plugin(plugins.dir.string(), "good");
  REQUIRE(loaded.ok());
  LoadedPlugin& plugin = **loaded;
  CHECK(plugin.name() == "good");
  CHECK(plugin.claims(ActionKind::bind_mount));
  CHECK_FALSE(plugin.claims(ActionKind::device_node));
  ApplyTarget target{.container_id = "c1"};
  REQUIRE(plugin.apply(bind("/usr/lib/libx.so"), 0, target).ok());
  auto echoed = plugin.apply(bind("/echo"), 1, target);
  REQUIRE_FALSE(echoed.ok());
  CHECK(echoed.error().message ==
        "plugin " + plugins.dir.string() + "/libgood.so: bind_mount /echo: kind=3 "
        "source=/usr/lib/libx.so options=ro,nosuid content=5 reason=compute container=c1 "
        "applied=1");
}

TEST_CASE("A plugin's warnings are kept for the audit record, each naming the plugin, and handed over once",
          "[plugins][audit]") {
  LoaderDir plugins;
  plugins.add("good");
  auto loaded = load_plugin(plugins.dir.string(), "good");
  REQUIRE(loaded.ok());
  LoadedPlugin& plugin = **loaded;
  ApplyTarget target{.container_id = "c1"};
  REQUIRE(plugin.apply(bind("/usr/lib/libx.so"), 0, target).ok());
  CHECK(plugin.take_warnings().empty());  // debug lines are not kept
  REQUIRE(plugin.apply(bind("/warn/a"), 1, target).ok());
  REQUIRE(plugin.apply(bind("/warn/b"), 2, target).ok());
  CHECK(plugin.take_warnings() == std::vector<std::string>{"plugin good: /warn/a is given, but may not last",
                                                           "plugin good: /warn/b is given, but may not last"});
  CHECK(plugin.take_warnings().empty());
}

TEST_CASE("A plugin built for another ABI major is refused naming both versions", "[plugins]") {
  CHECK_THAT(refusal("abi2"), Catch::EndsWith("ABI 2.0, this graft speaks 1.x"));
}

TEST_CASE("A plugin built for a newer ABI minor is refused naming the versions this graft speaks",
          "[plugins]") {
  std::string newer = std::to_string(GRAFT_PLUGIN_ABI_MAJOR) + "." +
                      std::to_string(GRAFT_PLUGIN_ABI_MINOR + 1);
  std::string speaks = std::to_string(GRAFT_PLUGIN_ABI_MAJOR) + ".0 to " +
                       std::to_string(GRAFT_PLUGIN_ABI_MAJOR) + "." +
                       std::to_string(GRAFT_PLUGIN_ABI_MINOR);
  CHECK_THAT(refusal("abinext"), Catch::EndsWith("ABI " + newer + ", this graft speaks " + speaks));
}

TEST_CASE("A plugin that sets the reserved member (once expand) is refused", "[plugins]") {
  CHECK_THAT(refusal("reserved"),
             Catch::EndsWith("sets the reserved member after last_error (was expand, never "
                             "called); it must be NULL"));
}

TEST_CASE("A plugin without the entry symbol is refused", "[plugins]") {
  CHECK_THAT(refusal("nosymbol"), Catch::EndsWith("no graft_plugin_entry symbol"));
}

TEST_CASE("A plugin that claims a kind without an apply function is refused", "[plugins]") {
  CHECK_THAT(refusal("noapply"), Catch::EndsWith("claims device_node but has no apply function"));
}

TEST_CASE("A plugin whose init fails is refused with the plugin's message", "[plugins]") {
  CHECK_THAT(refusal("initfail"), Catch::EndsWith("init failed: no device directory configured"));
}

TEST_CASE("A missing plugin file is refused naming the file", "[plugins]") {
  LoaderDir plugins;
  auto loaded = load_plugin(plugins.dir.string(), "absent");
  REQUIRE_FALSE(loaded.ok());
  CHECK_THAT(loaded.error().message, Catch::Contains(plugins.dir.string() + "/libabsent.so"));
}

TEST_CASE("A world-writable plugin file is refused before it is loaded", "[plugins]") {
  LoaderDir plugins;
  fs::permissions(plugins.add("good"), fs::perms(0757));
  auto loaded = load_plugin(plugins.dir.string(), "good");
  REQUIRE_FALSE(loaded.ok());
  CHECK_THAT(loaded.error().message, Catch::Contains("libgood.so: the file is group- or world-writable"));
}

TEST_CASE("A plugin in a group-writable directory is refused", "[plugins]") {
  LoaderDir plugins;
  plugins.add("good");
  fs::permissions(plugins.dir, fs::perms(0770));
  auto loaded = load_plugin(plugins.dir.string(), "good");
  REQUIRE_FALSE(loaded.ok());
  CHECK_THAT(loaded.error().message,
             Catch::Contains("its directory " + plugins.dir.string() + " is group- or world-writable"));
}

TEST_CASE("A plugin name with a slash or dot-dot is refused", "[plugins]") {
  LoaderDir plugins;
  for (const char* name : {"../good", "sub/good", "..", ""}) {
    auto loaded = load_plugin(plugins.dir.string(), name);
    REQUIRE_FALSE(loaded.ok());
    CHECK_THAT(loaded.error().message, Catch::Contains("not a plain name"));
  }
}

TEST_CASE("check_plan_executable reports an action whose plugin is missing", "[plugins]") {
  LoaderDir plugins;
  plugins.add("good");
  Policy policy;
  policy.plugin_dir = plugins.dir.string();
  auto set = load_plugins(policy);  // empty list: every plugin in the directory
  REQUIRE(set.ok());
  REQUIRE(set->plugins().size() == 1);
  Plan plan;
  plan.actions.push_back(bind("/usr/lib/libx.so"));
  CHECK(check_plan_executable(plan, *set).ok());
  Action node{.kind = ActionKind::device_node, .plugin = "devices", .target = "/dev/gpu0"};
  plan.actions.push_back(node);
  Action unclaimed{.kind = ActionKind::env, .plugin = "good", .target = "X"};
  plan.actions.push_back(unclaimed);
  auto checked = check_plan_executable(plan, *set);
  REQUIRE_FALSE(checked.ok());
  CHECK(checked.error().message ==
        "plan action 2 (device_node /dev/gpu0): plugin 'devices' is not loaded (and 1 more)");
}

TEST_CASE("An action a loaded plugin does not claim is reported with the plugin's file", "[plugins]") {
  LoaderDir plugins;
  plugins.add("good");
  Policy policy;
  policy.plugin_dir = plugins.dir.string();
  policy.plugins = {"good"};
  auto set = load_plugins(policy);
  REQUIRE(set.ok());
  Plan plan;
  plan.actions.push_back(Action{.kind = ActionKind::env, .plugin = "good", .target = "X"});
  auto checked = check_plan_executable(plan, *set);
  REQUIRE_FALSE(checked.ok());
  CHECK_THAT(checked.error().message, Catch::EndsWith("libgood.so) does not execute env"));
}

TEST_CASE("resolve_in_root keeps an escaping symlink inside the root", "[plugins]") {
  LoaderDir root;
  fs::create_directories(root.dir / "etc");
  { std::ofstream(root.dir / "etc" / "marker") << "inside"; }
  fs::create_directory_symlink("/etc", root.dir / "escape");
  int root_fd = ::open(root.dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(root_fd >= 0);
  int fd = open_in_root(root_fd, "/escape/marker", O_RDONLY);
  CHECK(fd >= 0);  // /escape -> /etc resolved as <root>/etc
  if (fd >= 0) ::close(fd);
  CHECK(open_in_root(root_fd, "../../etc/passwd", O_RDONLY) == -ENOENT);
  CHECK(open_in_root(root_fd, "x", O_WRONLY | O_CREAT) == -EINVAL);
  ::close(root_fd);
}

TEST_CASE("A built plugin exports exactly one dynamic symbol, the entry point", "[plugins]") {
  if (!fs::exists("/usr/bin/nm")) {
    GRAFT_SKIP("/usr/bin/nm (binutils) is not installed");
  }
  auto result = testing::run_command({"/usr/bin/nm", "-D", "--defined-only", std::string(GRAFT_TEST_PLUGIN_DIR) + "/libgood.so"});
  REQUIRE(result.exit_code == 0);
  std::istringstream lines(result.out);
  std::vector<std::string> ours;
  for (std::string line; std::getline(lines, line);) {
    std::string symbol = line.substr(line.rfind(' ') + 1);
    if (!symbol.starts_with("_")) ours.push_back(symbol);
  }
  CHECK(ours == std::vector<std::string>{"graft_plugin_entry"});
}

TEST_CASE("A plugin built for ABI 1.0 loads and applies without prepare or finish being read",
          "[plugins]") {
  LoaderDir plugins;
  plugins.add("abi10");
  auto loaded = load_plugin(plugins.dir.string(), "abi10");
  REQUIRE(loaded.ok());
  LoadedPlugin& plugin = **loaded;
  Action link{.kind = ActionKind::symlink, .plugin = "abi10", .source = "libx.so.1",
              .target = "/usr/lib/libx.so"};
  ApplyTarget target{.container_id = "c1"};
  CHECK(plugin.prepare(link, 0, target).ok());
  CHECK(plugin.apply(link, 0, target).ok());
  CHECK(plugin.finish(target).ok());
}
