// Load: the hook's whole path (policy, evaluation, plugin loading,
// prepare/enter/apply/finish, audit line) run 500 times (100 under ASan) in
// one process against a stand-in container, a process in a mount namespace
// and a devices cgroup of its own. A hook is a short-lived process, but `graft
// apply` and anyone embedding the core run it again and again: an fd, a
// mount or heap that survives one container must show here as growth.
#include <catch2/catch.hpp>

#include <sched.h>
#include <sys/mount.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <spdlog/spdlog.h>

#include "apply/apply_plan.hpp"
#include "apply/mount_namespace.hpp"
#include "audit/audit_log.hpp"
#include "cgroup_support.hpp"
#include "engine/container_plan.hpp"
#include "hook_harness.hpp"
#include "mount_support.hpp"
#include "plugin_host/plugin_loader.hpp"
#include "process_usage.hpp"

using namespace graft;

namespace {

#if defined(__SANITIZE_ADDRESS__)
// A run costs about 0.22 s of CPU under ASan (five times Release), so 100
// runs keep the case near 20 s. ASan's allocator counts live bytes exactly
// and the count is flat from the 10th run on (measured).
constexpr int kRuns = 100;
constexpr int kWarmUp = 20;
constexpr long kHeapToleranceBytes = 512;  // 80 measured runs: caught from 7 bytes a run
#else
constexpr int kRuns = 500;
// The first runs fill glibc's per-thread caches and free lists, which count
// as in use, and the figure climbs for about 100 runs; from then on it is the
// same to the byte after every run (measured), so the runs after this count.
constexpr int kWarmUp = 150;
// Not zero, so allocator bookkeeping may move a little; a leak of 12 bytes
// per container over the 350 measured runs is already above it.
constexpr long kHeapToleranceBytes = 4096;
#endif

// The stand-in container: the hostile tests' process in its own mount
// namespace, moved into a fresh devices cgroup that denies everything, as
// runc leaves one before its hooks run.
struct StandIn {
  cgroup_test::ChildCgroup cgroup;
  harness::Container process;
  explicit StandIn(const std::string& devices_mount) : cgroup(devices_mount) {
    cgroup.add(process.pid());
    REQUIRE(cgroup_test::write_text(cgroup.path / "devices.deny", "a"));
  }
};

// This process's own private mount namespace (ctest runs each case in a
// process of its own), so that its mount count moves only with this test.
void enter_private_namespace() {
  REQUIRE(::unshare(CLONE_NEWNS) == 0);
  REQUIRE(::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0);
}

// Runs `step` inside the stand-in's mount namespace.
template <typename Step>
void in_namespace(int pid, Step step) {
  auto process = ContainerProcess::open(pid);
  REQUIRE(process.ok());
  MountNamespaceVisit visit;
  auto entered = visit.enter(*process, ApplyCaller::hook);
  REQUIRE(entered.ok());
  step();
  REQUIRE(visit.leave().ok());
}

// What the hook does for one container, from the policy file to the audit
// line (cli/apply_command.cpp), minus argument parsing and the exit code.
Status hook_path(const std::string& policy_path, Request request) {
  auto policy = load_policy(policy_path, PolicySearch{});
  if (!policy) return policy.error();
  auto log = open_audit_log(policy->audit_log);
  if (!log) return log.error();
  struct Close {
    int fd;
    ~Close() { if (fd >= 0) ::close(fd); }
  } close_log{*log};
  auto evaluation = plan_container(request, *policy);
  if (!evaluation) return evaluation.error();
  auto plugins = load_plugins(*policy);
  if (!plugins) return plugins.error();
  auto process = ContainerProcess::open(request.pid);
  if (!process) return process.error();
  ApplySite site{.container_id = request.container_id, .process = &*process,
                 .caller = ApplyCaller::hook, .rootfs = request.rootfs};
  auto report = apply_plan(evaluation->plan, *plugins, site);
  if (!report) return report.error();
  AuditRecord record{request, &*evaluation, "applied", "", policy->audit_env, &*report};
  return append_audit_record(*log, policy->audit_log, record);
}

struct Usage {
  std::size_t fds = 0;
  std::size_t host_mounts = 0;       // this process's (private) namespace: graft's side
  std::size_t container_mounts = 0;  // the stand-in's, once the test detached its root
  long heap = 0;
};

Usage usage_now(int container_pid) {
  return Usage{.fds = test::open_fd_count(),
               .host_mounts = test::mount_count("/proc/self/mountinfo"),
               .container_mounts = test::mount_count("/proc/" + std::to_string(container_pid) + "/mountinfo"),
               .heap = test::heap_in_use()};
}

}  // namespace

TEST_CASE("The hook's path from policy to audit line run 500 times (100 under ASan) in one process "
          "leaves fds, mounts and heap where warm-up left them",
          "[load][mount][plugins]") {
  GRAFT_REQUIRE_MOUNTS();
  spdlog::set_level(spdlog::level::warn);  // as graft runs; evaluation notes are info
  std::string devices = cgroup_test::devices_v1_or_skip("cgroups for the stand-in container");
  if (devices.empty()) return;
  enter_private_namespace();
  fixture::TempDir work("graft-apply-leak-");
  std::string audit = work.path() + "/audit.jsonl";
  std::string policy = harness::write_policy("apply-leak", GRAFT_BUILD_PLUGIN_DIR, "", audit);
  std::string rootfs = work.path() + "/rootfs";
  std::filesystem::create_directory(rootfs);
  StandIn container(devices);

  Usage warm;
  for (int run = 0; run < kRuns; ++run) {
    if (run == kWarmUp) warm = usage_now(container.process.pid());
    in_namespace(container.process.pid(), [&] {
      REQUIRE(::mount("graft-leak-root", rootfs.c_str(), "tmpfs", 0, "mode=0755") == 0);
    });
    auto request = request_from_flags({"NVIDIA_VISIBLE_DEVICES=1", "NVIDIA_DRIVER_CAPABILITIES=all"},
                                      {}, false, rootfs);
    REQUIRE(request.ok());
    request->container_id = "leak-" + std::to_string(run);
    request->pid = container.process.pid();
    auto applied = hook_path(policy, *request);
    INFO("run " << run << ": " << (applied.ok() ? "" : applied.error().message));
    REQUIRE(applied.ok());
    // As MountSandbox does: detach the root and everything graft mounted in it.
    in_namespace(container.process.pid(), [&] { REQUIRE(::umount2(rootfs.c_str(), MNT_DETACH) == 0); });
  }
  Usage last = usage_now(container.process.pid());

  INFO(kRuns << " runs; after warm-up (" << kWarmUp << "): fds " << warm.fds << ", host mounts "
              << warm.host_mounts << ", container mounts " << warm.container_mounts << ", heap "
              << warm.heap << "; at the end: " << last.fds << ", " << last.host_mounts << ", "
              << last.container_mounts << ", " << last.heap);
  CHECK(last.fds == warm.fds);
  CHECK(last.host_mounts == warm.host_mounts);
  CHECK(last.container_mounts == warm.container_mounts);
  CHECK(last.heap - warm.heap <= kHeapToleranceBytes);
  std::ifstream log(audit);
  CHECK(std::count(std::istreambuf_iterator<char>(log), {}, '\n') == kRuns);
}
