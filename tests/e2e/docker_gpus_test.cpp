// SPDX-License-Identifier: Apache-2.0
// Docker's own `--gpus`, with nothing configured for graft: Debian's dockerd
// 20.10 with no `runtimes` entry and an empty daemon.json, started with the
// compat entry point nvidia-container-runtime-hook on its PATH (a symlink to
// the one built here, as a package or a site's link would put it there).
// dockerd then adds that program as a prestart hook of every --gpus
// container, with its own environment and no policy argument, so graft
// reads the site policy, /etc/graft/graft.toml: dockerd runs in a private
// mount namespace where the fake host's etc/graft is mounted on /etc/graft,
// and the host's own /etc/graft is never written (a host without one gets
// an empty mount point while the cases run). Each case starts its own
// daemon and stops it by its pid.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <set>

#include "fixture_files.hpp"
#include "harness/container_checks.hpp"
#include "harness/gpu_host.hpp"
#include "harness/shim_clients.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"

using namespace graft::e2e;

namespace {

constexpr const char* kSiteDir = "/etc/graft";
// Shared by the cases of every test process that uses kSiteDir as a mount
// point; kMadeMark says the tests made it, and so may remove it.
constexpr const char* kSiteDirLock = "/tmp/graft-e2e-etc-graft.lock";
constexpr const char* kMadeMark = "/tmp/graft-e2e-etc-graft.made";

// The mount point of the site policy directory inside dockerd's namespace:
// made here when the host has none, and removed (empty, as it was made) by
// the last case that used it. Each case holds a shared lock while its dockerd
// runs: removing the directory would unmount it in that daemon's namespace.
class SiteDirMountPoint {
 public:
  SiteDirMountPoint() {
    lock_ = ::open(kSiteDirLock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_ < 0 || ::flock(lock_, LOCK_SH) != 0) {
      why_not_ = std::string("cannot lock ") + kSiteDirLock + ": " + std::strerror(errno);
      return;
    }
    struct stat st {};
    if (::stat(kSiteDir, &st) == 0) return;  // cases beside this one go on at once
    ::flock(lock_, LOCK_EX);
    if (::mkdir(kSiteDir, 0755) == 0) graft::fixture::write_file(kMadeMark, "");
    else if (errno != EEXIST) why_not_ = std::string("cannot make ") + kSiteDir + ": " + std::strerror(errno);
    ::flock(lock_, LOCK_SH);
  }
  ~SiteDirMountPoint() {
    if (lock_ < 0) return;
    ::flock(lock_, LOCK_UN);
    if (::flock(lock_, LOCK_EX | LOCK_NB) == 0 && ::unlink(kMadeMark) == 0) ::rmdir(kSiteDir);
    ::close(lock_);
  }
  SiteDirMountPoint(const SiteDirMountPoint&) = delete;
  SiteDirMountPoint& operator=(const SiteDirMountPoint&) = delete;
  const std::string& why_not() const { return why_not_; }

 private:
  int lock_ = -1;
  std::string why_not_;
};

enum class CompatHook { on_path, absent };

// dockerd as a site that installed the compat entry point runs it: the
// program on its PATH at start-up (unless `hook` says absent: a site that
// did not opt in), the site policy in /etc/graft, and no word of graft in
// its configuration.
struct GpusDocker {
  SiteDirMountPoint mount_point;
  graft::fixture::TempDir bin{"graft-dockerd-path-"};
  std::unique_ptr<DockerEngine> engine;

  explicit GpusDocker(CompatHook hook = CompatHook::on_path) {
    if (!mount_point.why_not().empty()) return;
    if (hook == CompatHook::on_path)
      graft::fixture::make_symlink(GRAFT_COMPAT_HOOK_BINARY, bin.path() + "/nvidia-container-runtime-hook");
    // The wrapper ends by exec'ing dockerd, which keeps its pid.
    const char* script =
        "mount --bind \"$1\" /etc/graft || exit 1; PATH=\"$2:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
        "/usr/bin:/sbin:/bin\"; export PATH; shift 2; exec \"$@\"";
    engine = std::make_unique<DockerEngine>(DockerdLaunch{
        .wrapper = {"/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                    gpu_host().host.path(kSiteDir), bin.path()}});
  }
  std::string why_not() const {
    if (!mount_point.why_not().empty()) return mount_point.why_not();
    return engine->start_error().empty() ? "" : "dockerd cannot run here: " + engine->start_error();
  }
};

// Declares `docker`, a started GpusDocker(args), or skips the case.
#define GRAFT_START_GPUS_DOCKER(docker, ...)          \
  GRAFT_SKIP_IF(DockerEngine::unavailable());         \
  GpusDocker docker{__VA_ARGS__};                     \
  GRAFT_SKIP_IF(docker.why_not())

// `docker run --gpus SPEC` of a command that opens every fake GPU node and
// says how each open ended, as the probe script prints it.
ProbedContainer open_every_gpu(const DockerEngine& engine, const std::string& gpus) {
  std::string loop = "for i in";
  for (unsigned gpu = 0; gpu < kFakeGpus; ++gpu) loop += " " + std::to_string(gpu);
  loop += "; do msg=$(cat /dev/nvidia$i 2>&1 >/dev/null </dev/null); "
          "echo \"open|/dev/nvidia$i|$?|${msg##*: }\"; done";
  graft::fixture::TempDir dir("graft-docker-cid-");
  std::string cidfile = dir.path() + "/cid";
  auto run = engine.docker({"run", "--rm", "--network", "none", "--name", unique_container_id("gpus-open"),
                            "--cidfile", cidfile, "--tmpfs", "/proc/driver", "--gpus", gpus, engine.image(),
                            "/bin/sh", "-c", loop});
  return probed_result(graft::fixture::read_file(cidfile), std::move(run));
}

void check_daemon_stopped(DockerEngine& engine) {
  // Its mounts were made in its own namespace, gone with it.
  CHECK(engine.stop().empty());
}

}  // namespace

TEST_CASE("Docker's --gpus '\"device=1\"', with the compat hook on dockerd's PATH and no Docker configuration, "
          "gives exactly GPU 1, its libraries, nvidia-smi and procfs",
          "[e2e][docker-gpus]") {
  GRAFT_START_GPUS_DOCKER(docker);
  auto container = run_docker_probe(*docker.engine, {"--gpus", "\"device=1\""}, "gpus-1");
  REQUIRE(!container.id.empty());
  require_ran_cleanly(container);
  check_gpu1_devices(container);
  check_planned_libraries(container);
  check_gpu1_procfs(container);
  check_exactly_the_plan(container);
  check_daemon_stopped(*docker.engine);
}

TEST_CASE("Docker's --gpus all, with the compat hook on dockerd's PATH, gives every GPU", "[e2e][docker-gpus]") {
  GRAFT_START_GPUS_DOCKER(docker);
  auto container = open_every_gpu(*docker.engine, "all");
  INFO("docker: " << container.run.out << container.run.err);
  REQUIRE(container.run.exit_code == 0);
  for (unsigned gpu = 0; gpu < kFakeGpus; ++gpu) {
    std::string node = "/dev/nvidia" + std::to_string(gpu);
    INFO(node);
    CHECK(container.report.open_result(node) == kENXIO);
  }
  CHECK(audit_records(container.id, "applied").size() == 1);
  check_daemon_stopped(*docker.engine);
}

TEST_CASE("Docker's --gpus 2, with the compat hook on dockerd's PATH, gives GPUs 0 and 1 alone",
          "[e2e][docker-gpus]") {
  GRAFT_START_GPUS_DOCKER(docker);
  auto container = open_every_gpu(*docker.engine, "2");
  INFO("docker: " << container.run.out << container.run.err);
  REQUIRE(container.run.exit_code == 0);
  for (unsigned gpu = 0; gpu < kFakeGpus; ++gpu) {
    std::string node = "/dev/nvidia" + std::to_string(gpu);
    INFO(node);
    CHECK(container.report.open_result(node) == (gpu < 2 ? kENXIO : "No such file or directory"));
  }
  check_daemon_stopped(*docker.engine);
}

namespace {

// The capability names graft granted container `id`, from its audit record.
std::set<std::string> granted_capabilities(const std::string& id) {
  std::set<std::string> names;
  auto records = audit_records(id, "applied");
  if (records.size() == 1)
    for (const auto& capability : records[0].at("decisions").at("granted").at("capabilities"))
      names.insert(capability.at("name").get<std::string>());
  return names;
}

// The planned target of the standard plan's bind mount whose path ends with `suffix`.
std::string planned_bind_ending(const nlohmann::json& plan, const std::string& suffix) {
  for (const auto& target : planned_targets(plan, "bind_mount"))
    if (target.size() >= suffix.size() && target.compare(target.size() - suffix.size(), suffix.size(), suffix) == 0)
      return target;
  return "";
}

}  // namespace

TEST_CASE("Docker's --gpus with capabilities=utility, with the compat hook on dockerd's PATH, gives GPU 1 with "
          "nvidia-smi and without libcuda",
          "[e2e][docker-gpus]") {
  GRAFT_START_GPUS_DOCKER(docker);
  auto container = run_docker_probe(*docker.engine, {"--gpus", "device=1,\"capabilities=utility\""}, "gpus-util");
  INFO("docker: " << container.run.out << container.run.err);
  REQUIRE(container.run.exit_code == 0);
  REQUIRE(container.report.finished());
  CHECK(container.report.open_result("/dev/nvidia1") == kENXIO);
  CHECK(granted_capabilities(container.id).count("utility") == 1);
  CHECK(granted_capabilities(container.id).count("compute") == 0);
  std::string smi = planned_bind_ending(container.plan, "/nvidia-smi");
  std::string cuda = planned_bind_ending(container.plan, "/libcuda.so." + std::string(graft::fixture::fake_driver_version()));
  REQUIRE(!smi.empty());
  REQUIRE(!cuda.empty());
  CHECK(container.report.find("exists", smi)->at(0) == "1");
  CHECK(container.report.find("exists", cuda)->at(0) == "0");
  check_daemon_stopped(*docker.engine);
}

TEST_CASE("without the compat hook on dockerd's PATH, Docker refuses --gpus and graft never runs",
          "[e2e][docker-gpus]") {
  GRAFT_START_GPUS_DOCKER(docker, CompatHook::absent);
  auto container = run_docker_probe(*docker.engine, {"--gpus", "all"}, "gpus-no-hook");
  INFO("docker: " << container.run.out << container.run.err);
  CHECK(container.run.exit_code != 0);
  CHECK_THAT(container.run.err, Catch::Contains("could not select device driver"));
  CHECK_FALSE(container.report.finished());
  if (!container.id.empty()) CHECK(audit_records(container.id, "applied").empty());
  check_daemon_stopped(*docker.engine);
}

TEST_CASE("a plain docker run, with the compat hook on dockerd's PATH, gets no GPU and no graft",
          "[e2e][docker-gpus]") {
  GRAFT_START_GPUS_DOCKER(docker);
  auto container = run_docker_probe(*docker.engine, {}, "gpus-none");
  REQUIRE(!container.id.empty());
  check_given_nothing(container);
  check_daemon_stopped(*docker.engine);
}
