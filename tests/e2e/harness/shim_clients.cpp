// SPDX-License-Identifier: Apache-2.0
#include "shim_clients.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <stdexcept>

#include "fixture_files.hpp"
#include "gpu_host.hpp"
#include "host_mounts.hpp"
#include "run_command.hpp"

namespace graft::e2e {
namespace {

constexpr const char* kDocker = "/usr/bin/docker";  // not /usr/local/bin's client of another Docker
constexpr const char* kContainerd = "/usr/bin/containerd";
constexpr const char* kCtr = "/usr/bin/ctr";

bool executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

// A client call that hangs ends well inside ctest's limit, so the case
// still stops its daemon.
std::vector<std::string> bounded(std::vector<std::string> argv) {
  argv.insert(argv.begin(), {"/usr/bin/timeout", "-k", "5", "60"});
  return argv;
}

std::string dockerd_path() {
  for (const char* path : {"/usr/sbin/dockerd", "/usr/bin/dockerd"})
    if (executable(path)) return path;
  return "";
}

std::string common_unavailable() {
  if (::geteuid() != 0) return "needs root";
  if (std::string(GRAFT_E2E_BUSYBOX).empty() || std::string(GRAFT_E2E_LDCONFIG).empty())
    return "needs busybox-static and ldconfig";
  if (!executable("/usr/sbin/runc") && !executable("/usr/bin/runc")) return "needs runc";
  return "";
}

std::string first_line(const CommandResult& result) {
  std::string text = result.err.empty() ? result.out : result.err;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return "exit " + std::to_string(result.exit_code) + ": " + text;
}

}  // namespace

const std::vector<std::string>& gpu1_request_env() {
  static const std::vector<std::string> env = {"NVIDIA_VISIBLE_DEVICES=1",
                                               "NVIDIA_DRIVER_CAPABILITIES=compute,utility"};
  return env;
}

const ShimImage& shim_image() {
  static ShimImage image = [] {
    ShimImage built;
    std::vector<std::string> args{"--policy", gpu_host().policy, "plan", "--rootfs", built.rootfs(),
                                  "--format", "json"};
    for (const auto& entry : gpu1_request_env()) {
      args.push_back("--env");
      args.push_back(entry);
    }
    auto planned = testing::run_graft(args);
    if (planned.exit_code != 0) throw std::runtime_error("graft plan: " + planned.err);
    built.plan = nlohmann::json::parse(planned.out);
    built.bundle.write_in_rootfs(kProbeScript, probe_script(built.plan), 0755);
    built.tarball = built.bundle.path() + "/image.tar";
    auto tar = testing::run_command({"/bin/tar", "-C", built.rootfs(), "-cf", built.tarball, "."});
    if (tar.exit_code != 0) throw std::runtime_error("tar: " + tar.err);
    return built;
  }();
  return image;
}

std::string copy_image_root(const std::string& into) {
  auto copied = testing::run_command({"/bin/cp", "-a", shim_image().rootfs(), into});
  if (copied.exit_code != 0) throw std::runtime_error("cp: " + copied.err);
  return into;
}

std::string graft_runtime_binary() { return GRAFT_RUNTIME_BINARY; }

// --- Docker ---

std::string DockerEngine::unavailable() {
  if (auto why = common_unavailable(); !why.empty()) return why;
  if (!executable(kDocker)) return "Debian's docker.io client /usr/bin/docker is not installed";
  if (dockerd_path().empty()) return "Debian's dockerd (docker.io) is not installed";
  return "";
}

DockerEngine::DockerEngine(const std::string& policy)
    : DockerEngine(DockerdLaunch{.config = {{"runtimes",
                                             {{"graft",
                                               {{"path", graft_runtime_binary()},
                                                {"runtimeArgs", {"--graft-policy", policy}}}}}}}}) {}

DockerEngine::DockerEngine(const DockerdLaunch& launch) {
  const std::string& dir = dir_.path();
  std::string config_file = launch.config_file.empty() ? dir + "/daemon.json" : launch.config_file;
  if (launch.config_file.empty()) fixture::write_file(config_file, launch.config.dump(2) + "\n");
  std::vector<std::string> argv = launch.wrapper;
  argv.insert(argv.end(), {dockerd_path(), "--iptables=false", "--ip6tables=false", "--bridge=none",
                           "--storage-driver=vfs", "--data-root", dir + "/d", "--exec-root", dir + "/e",
                           "--host", "unix://" + dir + "/s", "--config-file", config_file,
                           "--pidfile", dir + "/p"});
  daemon_ = std::make_unique<EngineDaemon>(argv, dir + "/log");
  start_error_ = daemon_->wait_until([&] { return docker({"version"}).exit_code == 0; },
                                     std::chrono::seconds(60));
  if (!start_error_.empty()) return;
  auto imported = docker({"import", shim_image().tarball, image_});
  if (imported.exit_code != 0) start_error_ = "docker import: " + first_line(imported);
}

DockerEngine::~DockerEngine() { stop(); }

CommandResult DockerEngine::docker(const std::vector<std::string>& args) const {
  std::vector<std::string> argv{kDocker, "-H", "unix://" + dir_.path() + "/s"};
  argv.insert(argv.end(), args.begin(), args.end());
  return testing::run_command(bounded(argv));
}

std::vector<std::string> DockerEngine::stop() {
  if (daemon_) daemon_->stop(dir_.path() + "/e/containerd/containerd.pid");
  return mounts_under(dir_.path());
}

ProbedContainer run_docker_probe(const DockerEngine& engine, const std::vector<std::string>& options,
                                 const std::string& tag) {
  fixture::TempDir dir("graft-docker-cid-");
  std::string cidfile = dir.path() + "/cid";
  std::vector<std::string> args{"run", "--rm", "--network", "none", "--name", unique_container_id(tag),
                                "--cidfile", cidfile, "--tmpfs", "/proc/driver"};
  args.insert(args.end(), options.begin(), options.end());
  args.insert(args.end(), {engine.image(), "/bin/sh", kProbeScript});
  HostMounts mounts;
  auto run = engine.docker(args);
  auto container = probed_result(fixture::read_file(cidfile), std::move(run));
  container.leaked_mounts = mounts.added();
  container.mount_count_change = mounts.count_change();
  return container;
}

// --- containerd ---

std::string ContainerdEngine::unavailable() {
  if (auto why = common_unavailable(); !why.empty()) return why;
  if (!executable(kContainerd) || !executable(kCtr)) return "Debian's containerd and ctr are not installed";
  return "";
}

ContainerdEngine::ContainerdEngine(const std::string& policy) {
  const std::string& dir = dir_.path();
  // No CRI: ctr does not need it, and it would look for CNI.
  fixture::write_file(dir + "/config.toml",
                      "version = 2\nroot = \"" + dir + "/root\"\nstate = \"" + dir + "/state\"\n"
                      "disabled_plugins = [\"io.containerd.grpc.v1.cri\"]\n"
                      "[grpc]\n  address = \"" + dir + "/s\"\n[ttrpc]\n  address = \"" + dir + "/t\"\n");
  // containerd's runc options have no field for runtime arguments (runc.Options:
  // BinaryName, Root, SystemdCgroup, ...): --graft-policy comes from a wrapper,
  // as dockerd itself writes one for runtimeArgs (docs/runtimes.md).
  fixture::write_file(dir + "/graft-runtime",
                      "#!/bin/sh\nexec " + graft_runtime_binary() + " --graft-policy " + policy + " \"$@\"\n",
                      0755);
  daemon_ = std::make_unique<EngineDaemon>(
      std::vector<std::string>{kContainerd, "--config", dir + "/config.toml"}, dir + "/log");
  start_error_ = daemon_->wait_until(
      [&] { return testing::run_command({kCtr, "-a", dir + "/s", "version"}).exit_code == 0; },
      std::chrono::seconds(30));
}

ContainerdEngine::~ContainerdEngine() { stop(); }

CommandResult ContainerdEngine::run(const std::string& id, const std::vector<std::string>& env,
                                    const std::string& rootfs, const std::vector<std::string>& command) const {
  const std::string& dir = dir_.path();
  std::vector<std::string> argv{kCtr, "-a", dir + "/s", "run", "--rm", "--runc-binary", dir + "/graft-runtime",
                                "--runc-root", dir + "/runc", "--env", "PATH=/bin:/sbin:/usr/bin",
                                // The driver's /proc/driver stand-in, as in oci_bundle.cpp.
                                "--mount", "type=tmpfs,src=tmpfs,dst=/proc/driver,options=nosuid:nodev"};
  for (const auto& entry : env) {
    argv.push_back("--env");
    argv.push_back(entry);
  }
  argv.insert(argv.end(), {"--rootfs", rootfs, id});
  argv.insert(argv.end(), command.begin(), command.end());
  return testing::run_command(bounded(argv));
}

std::vector<std::string> ContainerdEngine::stop() {
  if (daemon_) daemon_->stop();
  return mounts_under(dir_.path());
}

ProbedContainer probed_result(const std::string& id, CommandResult run) {
  ProbedContainer container;
  container.id = id;
  container.plan = shim_image().plan;
  container.report = ProbeReport::parse(run.out);
  container.run = std::move(run);
  return container;
}

}  // namespace graft::e2e
