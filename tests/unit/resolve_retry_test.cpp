// A container path lookup that openat2 answers with EAGAIN. The kernel does
// that for a RESOLVE_IN_ROOT lookup when a rename or mount anywhere on the
// host happened during one of its ".." steps: it cannot prove the walk stayed
// in the root, so it opens nothing. An image racing its own directories gets
// it (tests/e2e/race_test.cpp), and so does a harmless image with a "../"
// symlink on a busy host. The real libraries plugin is driven through the C
// ABI with host services that answer EAGAIN on cue: it tries again a bounded
// number of times, then refuses with the path named.
#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <filesystem>
#include <string>

#include "graft/plugin.h"
#include "plugin_host/host_services.hpp"
#include "temp_dir.hpp"

namespace {

const std::string kLibDir = "/usr/lib/x86_64-linux-gnu";
const std::string kLink = kLibDir + "/libcuda.so.1";
const std::string kValue = "libcuda.so.560.35.03";

// Host services whose first `eagain_first` lookups fail with EAGAIN; later
// ones resolve for real (graft's own service).
struct ScriptedHost {
  int eagain_first = 0;
  int lookups = 0;
};

int scripted_resolve(void* host, int root_fd, const char* path, int flags) {
  auto* scripted = static_cast<ScriptedHost*>(host);
  if (scripted->lookups++ < scripted->eagain_first) return -EAGAIN;
  return graft::open_in_root(root_fd, path, flags);
}

void no_log(void*, int, const char*) {}

// liblibraries.so from the build tree, initialised with the scripted host,
// applying one soname link into a temp root.
class LinkInRoot {
 public:
  explicit LinkInRoot(ScriptedHost& host) {
    services_.struct_size = sizeof services_;
    services_.host = &host;
    services_.log = no_log;
    services_.resolve_in_root = scripted_resolve;
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

TEST_CASE("A lookup that openat2 answers with EAGAIN a few times is tried again and the link is made",
          "[plugins][libraries][race]") {
  ScriptedHost host{.eagain_first = 3};
  LinkInRoot plugin(host);
  CHECK(plugin.apply() == "GRAFT_OK");
  CHECK(plugin.link_value() == kValue);
  CHECK(host.lookups > 3);
}

TEST_CASE("A lookup that keeps answering EAGAIN is given up after a bounded number of tries, naming the path",
          "[plugins][libraries][race]") {
  ScriptedHost host{.eagain_first = INT_MAX};
  LinkInRoot plugin(host);
  std::string message = plugin.apply();
  CHECK_THAT(message, Catch::Contains(kLibDir) && Catch::Contains("Resource temporarily unavailable"));
  CHECK(plugin.link_value().empty());
  CHECK(host.lookups > 1);
  CHECK(host.lookups <= 64);
}
