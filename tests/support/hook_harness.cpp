// SPDX-License-Identifier: Apache-2.0
#include "hook_harness.hpp"

#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "site_policy.hpp"

namespace fs = std::filesystem;

namespace graft::harness {

fixture::FakeHost& host() {
  static fixture::FakeHost shared = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(2));
  return shared;
}

std::string write_bundle(const std::string& dir, const std::vector<std::string>& env,
                         const std::string& extra) {
  fs::create_directories(dir + "/rootfs/etc");
  std::ofstream(dir + "/rootfs/etc/debian_version") << "12.7\n";
  std::ofstream out(dir + "/config.json");
  out << R"({"ociVersion":"1.0.2","root":{"path":"rootfs"},"process":{"env":[)";
  for (std::size_t i = 0; i < env.size(); ++i) out << (i ? "," : "") << env[i];
  out << R"(],"capabilities":{"bounding":["CAP_CHOWN"]}})" << extra << "}";
  return dir;
}

std::string state_json(const std::string& id, long pid, const std::string& bundle) {
  return nlohmann::json({{"ociVersion", "1.0.2"}, {"id", id}, {"status", "creating"},
                         {"pid", pid}, {"bundle", bundle}})
      .dump();
}

testing::CommandResult hook(const std::string& policy, const std::string& state,
                            const std::string& stage) {
  return testing::run_command({GRAFT_BINARY, "--node-allow", GRAFT_TEST_NODE_ALLOW, "--policy", policy, "hook", stage},
                              state);
}

bool hook_can_run() { return host().device_nodes_created() && ::geteuid() == 0; }

std::string gpu1_bundle(const std::string& dir) {
  return write_bundle(dir, {R"("NVIDIA_VISIBLE_DEVICES=1")"});
}

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

bool host_has_no_mount_under(const std::string& path) {
  std::ifstream in("/proc/self/mountinfo");
  for (std::string line; std::getline(in, line);)
    if (line.find(path) != std::string::npos) return false;
  return true;
}

Container::Container() {
  int ready[2];
  if (::pipe(ready) != 0) throw std::runtime_error("pipe");
  pid_ = ::fork();
  if (pid_ == 0) {
    ::close(ready[0]);
    if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
      ::_exit(1);
    (void)!::write(ready[1], "r", 1);
    ::close(ready[1]);
    for (;;) ::pause();
  }
  ::close(ready[1]);
  char byte = 0;
  bool ok = ::read(ready[0], &byte, 1) == 1;
  ::close(ready[0]);
  if (!ok) throw std::runtime_error("the container process could not make its mount namespace");
}

Container::~Container() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
}

std::size_t Container::mount_count() const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/mountinfo");
  std::size_t count = 0;
  for (std::string line; std::getline(in, line);) ++count;
  return count;
}

std::size_t Container::mount_count_under(const std::string& path) const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/mountinfo");
  std::size_t count = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, parent, device, root, point;
    fields >> id >> parent >> device >> root >> point;
    if (point == path || point.starts_with(path + "/")) ++count;
  }
  return count;
}

PluginDir::PluginDir(const std::string& standin) {
  for (const auto& entry : fs::directory_iterator(GRAFT_BUILD_PLUGIN_DIR)) {
    std::string name = entry.path().filename().string();
    if (!name.ends_with(".so")) continue;
    fs::path to = fs::path(dir_.path()) / name;
    bool swapped = !standin.empty() && name == "lib" + standin + ".so";
    fs::copy_file(swapped ? fs::path(GRAFT_TEST_PLUGIN_DIR) / "libcrash.so" : entry.path(), to);
    fs::permissions(to, fs::perms(0755));
  }
  fs::permissions(dir_.path(), fs::perms(0700));
}

std::string write_policy(const std::string& name, const std::string& plugin_dir,
                         const std::string& extra, const std::string& audit) {
  std::string root = host().path("/policies/" + name);
  std::string text;
  if (!plugin_dir.empty()) text += "[plugins]\ndir = \"" + plugin_dir + "\"\n";
  if (!audit.empty()) text += "[audit]\nlog = \"" + audit + "\"\n";
  text += extra;
  fs::create_directories(root);
  // write_site_policy_at puts the host roots in [host]; point them at host().
  std::string path = fixture::write_site_policy(host(), text);
  std::string moved = root + "/graft.toml";
  fs::rename(path, moved);
  return moved;
}

}  // namespace graft::harness
