// SPDX-License-Identifier: Apache-2.0
#include "podman.hpp"

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "fixture_files.hpp"
#include "gpu_host.hpp"
#include "host_mounts.hpp"
#include "oci_bundle.hpp"
#include "runtime.hpp"

namespace graft::e2e {
namespace {

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

std::string trial_run() {
  BundleSpec spec;
  OciBundle bundle(spec);
  Podman podman;
  auto trial = podman.run({}, bundle.rootfs(), {"/bin/sh", "-c", ":"});
  if (trial.result.exit_code == 0) return "";
  return "podman cannot run a plain busybox container here (exit " + std::to_string(trial.result.exit_code) +
         "): " + trimmed(trial.result.err.empty() ? trial.result.out : trial.result.err);
}

// Whether a process's command line names `dir` (conmon, or the `podman
// container cleanup` conmon starts when a container exits).
bool process_uses(const std::string& dir) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    // read(2), not a stream: a process that exits while it is read makes
    // read fail with ESRCH, which libstdc++'s filebuf throws.
    int fd = ::open((entry.path() / "cmdline").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    std::string cmdline;
    char buffer[4096];
    for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;) cmdline.append(buffer, static_cast<std::size_t>(got));
    ::close(fd);
    if (cmdline.find(dir) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

std::string podman_path() {
  for (const char* path : {"/usr/bin/podman", "/usr/local/bin/podman", "/bin/podman"})
    if (::access(path, X_OK) == 0) return path;
  return "";
}

std::string podman_skip_reason() {
  if (std::string why = skip_reason(Runtime::runc, CgroupMode::v1); !why.empty()) return why;
  if (podman_path().empty()) return "podman is not installed (tests/scripts/install-deps.sh --tests)";
  static const std::string trial = trial_run();
  return trial;
}

Podman::Podman() {
  // File locks in --tmpdir instead of the host-wide shared memory segment
  // (/dev/shm/libpod_lock) every podman allocates its containers' locks
  // from: a test touches no podman state outside its directory, and a
  // podman killed mid-test cannot leave a slot allocated there. A file of
  // our own also keeps the host's containers.conf out of the tests.
  fixture::write_file(storage_.path() + "/containers.conf", "[engine]\nlock_type = \"file\"\n");
}

Podman::~Podman() {
  // A container removed with `rm --force` leaves its conmon to run `podman
  // container cleanup` on this storage a moment later, which made the
  // storage again once it was gone. It is waited for (a few seconds at most).
  for (int tries = 0; tries < 100 && process_uses(storage_.path()); ++tries)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  // podman unmounts a container's shm and root when it removes it, but a
  // podman that died half-way leaves them; none may outlive the test.
  auto mounts = mount_points_under(storage_.path());
  std::sort(mounts.begin(), mounts.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  for (const auto& mount_point : mounts) ::umount2(mount_point.c_str(), MNT_DETACH);
}

testing::CommandResult Podman::invoke(const std::vector<std::string>& args) {
  const std::string& dir = storage_.path();
  // vfs: no overlay mounts on the host; --events-backend none: no journal or
  // event file outside the private directories.
  std::vector<std::string> argv{"/usr/bin/env", "CONTAINERS_CONF=" + dir + "/containers.conf",
                                podman_path(),   "--root",           dir + "/root",
                                "--runroot",     dir + "/runroot",   "--tmpdir",
                                dir + "/tmp",    "--storage-driver", "vfs",
                                "--events-backend", "none",          "--runtime",
                                runtime_path(Runtime::runc), "--cgroup-manager", "cgroupfs"};
  argv.insert(argv.end(), args.begin(), args.end());
  return testing::run_command(argv);
}

PodmanRun Podman::run(const std::vector<std::string>& extra_args, const std::string& rootfs,
                      const std::vector<std::string>& command) {
  PodmanRun run;
  run.name = unique_container_id("podman");
  std::string cidfile = storage_.path() + "/" + run.name + ".cid";
  // The ulimits: as root, podman asks for RLIMIT_NOFILE 1048576, above
  // these machines' hard limit, and runc fails with "error setting rlimit
  // type 7: operation not permitted".
  std::vector<std::string> args{"run",      "--rm",          "--name",   run.name,
                                "--cidfile", cidfile,        "--ulimit", "nofile=1024:1024",
                                "--ulimit", "nproc=1024:1024", "--network", "none"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  args.insert(args.end(), {"--rootfs", rootfs});
  args.insert(args.end(), command.begin(), command.end());
  run.result = invoke(args);
  if (::access(cidfile.c_str(), R_OK) == 0) run.id = trimmed(fixture::read_file(cidfile));
  return run;
}

ProbedContainer run_podman_probed(const std::vector<std::string>& run_args, const BundleSpec& spec,
                                  const DeviceProbes& devices) {
  ProbedContainer result;
  HostMounts mounts;
  {
    OciBundle bundle(spec);
    const std::string& policy = spec.hook_policy.empty() ? gpu_host().policy : spec.hook_policy;
    result.plan = plan_with_probe(bundle, policy, unique_container_id("podman-plan"), GRAFT_BINARY, devices);
    // As the runc bundles have them (oci_bundle.cpp): CAP_MKNOD, which
    // podman 4 no longer grants by default, for the GPU 0 node the check
    // script makes by hand; and a tmpfs standing in for the /proc/driver
    // a GPU host's kernel has and this machine's lacks.
    std::vector<std::string> args{"--cap-add", "CAP_MKNOD", "--mount",
                                  "type=tmpfs,destination=/proc/driver,tmpfs-mode=755,tmpfs-size=1024k"};
    args.insert(args.end(), run_args.begin(), run_args.end());
    Podman podman;
    auto run = podman.run(args, bundle.rootfs(), spec.args);
    result.id = run.id;
    result.run = run.result;
    read_probe_output(result, "podman " + run.name);
  }
  result.leaked_mounts = mounts.added();
  result.mount_count_change = mounts.count_change();
  return result;
}

}  // namespace graft::e2e
