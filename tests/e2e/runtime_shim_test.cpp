// SPDX-License-Identifier: Apache-2.0
// graft-runtime behind the real engines, driven as users drive them:
// Debian's Docker 20.10 (`docker run --runtime graft`, the policy passed by
// daemon.json's runtimeArgs) and containerd 1.6 (`ctr run --runc-binary`).
// A GPU container gets exactly what `graft plan` printed (the same checks as
// the runc cases); a container that asks for nothing gets nothing and no
// audit record; a refused one does not start and says why. Each case starts
// its own daemon and stops it by its pid; nothing of it may stay mounted.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "fixture_files.hpp"
#include "harness/container_checks.hpp"
#include "harness/gpu_host.hpp"
#include "harness/host_mounts.hpp"
#include "harness/runtime.hpp"
#include "harness/shim_clients.hpp"
#include "skip.hpp"

using namespace graft::e2e;

namespace {

const char* kProbeCommand = "/graft-check.sh";

void check_daemon_left_no_mount(const std::vector<std::string>& mounts) {
  INFO("mounts left: " << fmt::format("{}", fmt::join(mounts, "\n")));
  CHECK(mounts.empty());
}

// A policy like the standard one whose site rule refuses every GPU container.
std::string refusing_policy() {
  std::string rule = gpu_host().host.path("/etc/graft/shim-deny.lua");
  graft::fixture::write_file(rule, "rule('closed', function(req, host, grant)\n"
                                   "  if grant:injecting() then grant:deny('GPUs are closed today') end\n"
                                   "end)\n");
  return write_policy("shim-deny", "rules = [\"" + rule + "\"]\n[plugins]\ndir = \"" GRAFT_BUILD_PLUGIN_DIR "\"\n");
}

// The standard policy in declarative mode ([runtime] mode).
std::string declarative_policy() {
  return write_policy("shim-declarative",
                      "[runtime]\nmode = \"declarative\"\n[plugins]\ndir = \"" GRAFT_BUILD_PLUGIN_DIR "\"\n");
}

// How many of the plan's actions config.json cannot carry: the cdi-hook's
// share (core/src/container_edits/container_edits.hpp).
std::size_t residual_action_count(const nlohmann::json& plan) {
  std::size_t count = 0;
  for (const auto& action : plan.at("actions")) {
    std::string kind = action.at("kind"), target = action.at("target");
    bool under_proc = target.rfind("/proc/", 0) == 0;
    if (kind == "symlink" || kind == "ldcache_update" || kind == "procfs_mask" || kind == "config_file" ||
        (kind == "bind_mount" && under_proc))
      ++count;
  }
  return count;
}

// Declarative mode: the runtime made the nodes, rules and binds from
// config.json, graft cdi-hook the rest, and its record counts only that rest.
void check_declarative_record(const ProbedContainer& container) {
  auto applied = audit_records(container.id, "applied");
  REQUIRE(applied.size() == 1);
  std::size_t residual = residual_action_count(container.plan);
  CHECK(residual > 0);
  CHECK(residual < container.plan.at("actions").size());
  CHECK(applied[0].at("actions") == residual);
  CHECK(applied[0].at("applied") == residual);
  auto planned = audit_records(container.id, "planned");
  REQUIRE(planned.size() == 1);
  CHECK(planned[0].at("actions") == container.plan.at("actions").size());
}

enum class ShimMode { hook, declarative };

std::string shim_policy(ShimMode mode) {
  return mode == ShimMode::hook ? gpu_host().policy : declarative_policy();
}

// What every GPU 1 container must show, whichever engine and mode.
void check_gpu1_as_planned(const ProbedContainer& container, ShimMode mode) {
  REQUIRE(!container.id.empty());
  require_ran_cleanly(container);
  check_gpu1_devices(container);
  check_planned_libraries(container);
  check_gpu1_procfs(container);
  if (mode == ShimMode::hook) {
    check_exactly_the_plan(container);
  } else {
    check_exactly_the_planned_targets(container);
    check_declarative_record(container);
  }
}

// Declares `engine`, an Engine started for `policy`, or skips the case.
#define GRAFT_START_ENGINE(Engine, engine, policy)                           \
  GRAFT_SKIP_IF(Engine::unavailable());                                      \
  Engine engine(policy);                                                     \
  GRAFT_SKIP_IF(engine.start_error().empty()                                 \
                    ? std::string()                                          \
                    : std::string(#Engine) + " cannot run here: " + engine.start_error())

// `docker run --runtime graft` of the probe with `env`.
ProbedContainer docker_probe(const DockerEngine& engine, const std::vector<std::string>& env,
                             const std::string& tag) {
  std::vector<std::string> options{"--runtime", "graft"};
  for (const auto& entry : env) options.insert(options.end(), {"-e", entry});
  return run_docker_probe(engine, options, tag);
}

// `ctr run --runc-binary` of the probe in a fresh copy of the image's root.
ProbedContainer containerd_probe(const ContainerdEngine& engine, const std::vector<std::string>& env,
                                 const std::string& tag) {
  graft::fixture::TempDir dir("graft-ctr-root-");
  std::string rootfs = copy_image_root(dir.path() + "/rootfs");
  std::string id = unique_container_id(tag);
  HostMounts mounts;
  auto container = probed_result(id, engine.run(id, env, rootfs, {"/bin/sh", kProbeCommand}));
  container.leaked_mounts = mounts.added();
  container.mount_count_change = mounts.count_change();
  return container;
}

}  // namespace

// --- Docker ---

TEST_CASE("Docker runs a graft-runtime GPU container with exactly the planned GPU 1, libraries and procfs",
          "[e2e][shim][docker]") {
  GRAFT_START_ENGINE(DockerEngine, engine, shim_policy(ShimMode::hook));
  check_gpu1_as_planned(docker_probe(engine, gpu1_request_env(), "docker-gpu"), ShimMode::hook);
  check_daemon_left_no_mount(engine.stop());
}

TEST_CASE("Docker runs a declarative graft-runtime GPU container with exactly the planned GPU 1, libraries "
          "and procfs", "[e2e][shim][docker]") {
  GRAFT_START_ENGINE(DockerEngine, engine, shim_policy(ShimMode::declarative));
  check_gpu1_as_planned(docker_probe(engine, gpu1_request_env(), "docker-decl"), ShimMode::declarative);
  check_daemon_left_no_mount(engine.stop());
}

TEST_CASE("Docker runs a graft-runtime container that asks for no GPU untouched", "[e2e][shim][docker]") {
  GRAFT_START_ENGINE(DockerEngine, engine, shim_policy(ShimMode::hook));
  auto container = docker_probe(engine, {}, "docker-plain");
  REQUIRE(!container.id.empty());
  check_given_nothing(container);
  check_daemon_left_no_mount(engine.stop());
}

TEST_CASE("Docker reports graft's refusal and the container does not start", "[e2e][shim][docker]") {
  GRAFT_START_ENGINE(DockerEngine, engine, refusing_policy());
  auto container = docker_probe(engine, gpu1_request_env(), "docker-refused");
  INFO("docker: " << container.run.err);
  CHECK(container.run.exit_code != 0);
  CHECK_THAT(container.run.err,
             Catch::Contains("graft-runtime: container " + container.id + " refused: GPUs are closed today"));
  CHECK_FALSE(container.report.finished());
  CHECK(audit_records(container.id, "refused").size() == 1);
  check_daemon_left_no_mount(engine.stop());
}

// --- containerd ---

TEST_CASE("containerd runs a graft-runtime GPU container with exactly the planned GPU 1, libraries and procfs",
          "[e2e][shim][containerd]") {
  GRAFT_START_ENGINE(ContainerdEngine, engine, shim_policy(ShimMode::hook));
  check_gpu1_as_planned(containerd_probe(engine, gpu1_request_env(), "ctr-gpu"), ShimMode::hook);
  check_daemon_left_no_mount(engine.stop());
}

TEST_CASE("containerd runs a declarative graft-runtime GPU container with exactly the planned GPU 1, "
          "libraries and procfs", "[e2e][shim][containerd]") {
  GRAFT_START_ENGINE(ContainerdEngine, engine, shim_policy(ShimMode::declarative));
  check_gpu1_as_planned(containerd_probe(engine, gpu1_request_env(), "ctr-decl"), ShimMode::declarative);
  check_daemon_left_no_mount(engine.stop());
}

TEST_CASE("containerd runs a graft-runtime container that asks for no GPU untouched", "[e2e][shim][containerd]") {
  GRAFT_START_ENGINE(ContainerdEngine, engine, shim_policy(ShimMode::hook));
  check_given_nothing(containerd_probe(engine, {}, "ctr-plain"));
  check_daemon_left_no_mount(engine.stop());
}

TEST_CASE("with a policy that does not load, graft-runtime refuses create but still hands state to runc",
          "[e2e][shim]") {
  GRAFT_SKIP_IF(runtime_path(Runtime::runc).empty() ? std::string("runc is not installed") : std::string());
  graft::fixture::TempDir state("graft-e2e-state-broken-policy-");
  const std::string broken = state.path() + "/no-such-policy.toml";
  auto managed = graft::testing::run_command(
      {GRAFT_RUNTIME_BINARY, "--graft-policy", broken, "--root", state.path(), "state", "no-such-container"});
  INFO(managed.err);
  CHECK(managed.exit_code != 0);
  CHECK_THAT(managed.err, Catch::Contains("passing 'state' to runc, the default runtime"));
  CHECK_THAT(managed.err, Catch::Contains("does not exist"));  // runc's own answer: it was called
  auto created = graft::testing::run_command(
      {GRAFT_RUNTIME_BINARY, "--graft-policy", broken, "--root", state.path(), "create", "--bundle", state.path(), "c1"});
  CHECK(created.exit_code == 1);
  CHECK_THAT(created.err, Catch::StartsWith("graft-runtime: " + broken));
  CHECK_THAT(created.err, !Catch::Contains("passing"));
}
