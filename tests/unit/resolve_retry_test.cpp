// SPDX-License-Identifier: Apache-2.0
// A path lookup that openat2 answers with EAGAIN. The kernel does that for a
// RESOLVE_IN_ROOT lookup when a rename or mount anywhere on the host happened
// during one of its ".." steps: it cannot prove the walk stayed in the root,
// so it opens nothing. An image racing its own directories gets it
// (tests/e2e/race_test.cpp), and so does a harmless image with a "../"
// symlink on a busy host. The one retry rule is graft_base's
// retry_on_eagain, inside open_in_root, which both the host service given to
// plugins and core's driver-root lookups use. Tested here: the rule itself
// with scripted lookups, the host service under real renames, and the real
// libraries plugin, driven through the C ABI, refusing with the path named
// when the host gives up.
#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

#include "graft/base/open_in_root.hpp"
#include "graft/base/unique_fd.hpp"
#include "graft/plugin.h"
#include "library_host.hpp"
#include "plugin_host/host_services.hpp"
#include "renames_elsewhere.hpp"
#include "temp_dir.hpp"

using graft::testing::kLibDir;
namespace {

const std::string kLink = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
const std::string kValue = "libcuda.so.560.35.03";

// A lookup that answers -EAGAIN `eagain_first` times, then `answer`.
struct ScriptedLookup {
  int eagain_first = 0;
  int answer = 0;
  int calls = 0;
  int operator()() { return calls++ < eagain_first ? -EAGAIN : answer; }
};

// Host services that answer every lookup with EAGAIN, as graft's own does
// once its retries are spent.
struct GivingUpHost {
  int lookups = 0;
};

int giving_up_resolve(void* host, int, const char*, int) {
  ++static_cast<GivingUpHost*>(host)->lookups;
  return -EAGAIN;
}

void no_log(void*, int, const char*) {}

// liblibraries.so from the build tree, initialised with the scripted host,
// applying one soname link into a temp root.
class LinkInRoot {
 public:
  explicit LinkInRoot(GivingUpHost& host) {
    services_.struct_size = sizeof services_;
    services_.host = &host;
    services_.log = no_log;
    services_.resolve_in_root = giving_up_resolve;
    std::filesystem::create_directories(root_.path() + kLibDir);
    handle_ = ::dlopen(GRAFT_BUILD_PLUGIN_DIR "/liblibraries.so", RTLD_NOW | RTLD_LOCAL);
    REQUIRE(handle_ != nullptr);
    auto entry = reinterpret_cast<const graft_plugin* (*)()>(::dlsym(handle_, GRAFT_PLUGIN_ENTRY_SYMBOL));
    REQUIRE(entry != nullptr);
    plugin_ = entry();
    const char* error = nullptr;
    REQUIRE(plugin_->init(&services_, "{}", &state_, &error) == GRAFT_OK);
    root_fd_ = ::open(root_.path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    REQUIRE(root_fd_ >= 0);
  }
  ~LinkInRoot() {
    if (root_fd_ >= 0) ::close(root_fd_);
    if (plugin_ != nullptr) plugin_->destroy(state_);
    if (handle_ != nullptr) ::dlclose(handle_);
  }
  LinkInRoot(const LinkInRoot&) = delete;
  LinkInRoot& operator=(const LinkInRoot&) = delete;

  // GRAFT_OK or the plugin's message.
  std::string apply() {
    const char* none[] = {nullptr};
    graft_action action{};
    action.struct_size = sizeof action;
    action.kind = GRAFT_ACTION_SYMLINK;
    action.plugin = "libraries";
    action.source = kValue.c_str();
    action.target = kLink.c_str();
    action.options = action.paths = action.rewrites = none;
    action.access = action.content = action.capability = action.reason = action.origin = "";
    graft_apply_context context{};
    context.struct_size = sizeof context;
    context.container_id = "resolve-retry";
    context.rootfs_fd = root_fd_;
    context.rootfs_path = root_.path().c_str();
    context.container_uid = static_cast<int>(::getuid());
    context.container_gid = static_cast<int>(::getgid());
    if (plugin_->apply(state_, &action, &context) == GRAFT_OK) return "GRAFT_OK";
    const char* message = plugin_->last_error(state_);
    return message == nullptr ? "(no message)" : message;
  }

  std::string link_value() const {
    std::error_code error;
    return std::filesystem::read_symlink(root_.path() + kLink, error).string();
  }

 private:
  graft::fixture::TempDir root_{"graft-resolve-retry-"};
  graft_host_services services_{};
  void* handle_ = nullptr;
  const graft_plugin* plugin_ = nullptr;
  void* state_ = nullptr;
  int root_fd_ = -1;
};

}  // namespace

TEST_CASE("A lookup answered with EAGAIN a few times is made again until it answers",
          "[base][race]") {
  ScriptedLookup lookup{.eagain_first = 3, .answer = 42};
  CHECK(graft::retry_on_eagain(lookup) == 42);
  CHECK(lookup.calls == 4);
}

TEST_CASE("A lookup that keeps answering EAGAIN is given up after a bounded number of tries",
          "[base][race]") {
  ScriptedLookup lookup{.eagain_first = 1000, .answer = 42};
  CHECK(graft::retry_on_eagain(lookup) == -EAGAIN);
  CHECK(lookup.calls == graft::kResolveAttempts);
}

TEST_CASE("A lookup that fails with another error is not made again", "[base][race]") {
  ScriptedLookup lookup{.eagain_first = 0, .answer = -ENOENT};
  CHECK(graft::retry_on_eagain(lookup) == -ENOENT);
  CHECK(lookup.calls == 1);
}

TEST_CASE("Renames elsewhere on the host never fail a lookup through the host's resolve_in_root",
          "[plugins][race]") {
  // A container file reached through "usr/../real-etc" while a thread
  // renames a file in another directory without pause: without the retry,
  // a few in a thousand of these lookups answer EAGAIN.
  graft::fixture::TempDir root("graft-resolve-root-");
  std::filesystem::create_directories(root.path() + "/usr");
  std::filesystem::create_directories(root.path() + "/real-etc");
  std::ofstream(root.path() + "/real-etc/marker") << "inside\n";
  std::filesystem::create_directory_symlink("usr/../real-etc", root.path() + "/etc");
  graft::UniqueFd root_fd(::open(root.path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(root_fd.valid());
  graft::HostServices host("resolve-retry");
  const graft_host_services* services = host.get();
  int failed = 0;
  {
    graft::test::RenamesElsewhere renames;
    for (int i = 0; i < 20000; ++i) {
      graft::UniqueFd fd(
          services->resolve_in_root(services->host, root_fd.get(), "/etc/marker", O_RDONLY));
      failed += fd.valid() ? 0 : 1;
    }
  }
  CHECK(failed == 0);
}

TEST_CASE("A lookup the host gives up on with EAGAIN is refused by the plugin, naming the path",
          "[plugins][libraries][race]") {
  GivingUpHost host;
  LinkInRoot plugin(host);
  std::string message = plugin.apply();
  CHECK_THAT(message, Catch::Contains(kLibDir) && Catch::Contains("Resource temporarily unavailable"));
  CHECK(plugin.link_value().empty());
  CHECK(host.lookups >= 1);
}
