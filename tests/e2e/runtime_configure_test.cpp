// SPDX-License-Identifier: Apache-2.0
// `graft runtime configure` against the real engines of the suite: the file
// it writes is the one the engine is started with. Docker: `docker run
// --runtime graft` then gives the probe exactly its planned GPU 1.
// containerd: the daemon starts with graft's CRI runtime in config.toml,
// its CRI plugin loads, and `containerd config dump` shows graft's runtime
// beside the site's own CRI settings. No CRI client runs here (Debian 12
// has no crictl), so no pod is run through that entry. And why graft edits
// config.toml rather than writing a conf.d drop-in: containerd 1.6 lets an
// imported file's CRI table replace the main file's whole. podman: the
// drop-in, read as podman's containers.conf, resolves `--runtime graft`.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <fmt/format.h>

#include "fixture_files.hpp"
#include "harness/container_checks.hpp"
#include "harness/engine_daemon.hpp"
#include "harness/gpu_host.hpp"
#include "harness/podman.hpp"
#include "harness/shim_clients.hpp"
#include "run_command.hpp"
#include "skip.hpp"

using namespace graft::e2e;
using graft::testing::run_command;
using graft::testing::run_graft;

namespace {

// `graft --policy POLICY runtime configure --runtime ENGINE --config FILE`,
// naming the graft-runtime beside the built graft (its default).
void configure_for_test(const std::string& engine, const std::string& file) {
  auto configured =
      run_graft({"--policy", gpu_host().policy, "runtime", "configure", "--runtime", engine, "--config", file});
  INFO(configured.err);
  REQUIRE(configured.exit_code == 0);
}

std::string containerd_site_config(const std::string& dir) {
  return "# a site's containerd, with its own CRI settings\nversion = 2\n"
         "root = \"" + dir + "/root\"\nstate = \"" + dir + "/state\"\n"
         "[grpc]\n  address = \"" + dir + "/s\"\n[ttrpc]\n  address = \"" + dir + "/t\"\n"
         "[plugins]\n  [plugins.\"io.containerd.grpc.v1.cri\"]\n"
         "    sandbox_image = \"example.org/site/pause:1\"\n"
         "    [plugins.\"io.containerd.grpc.v1.cri\".cni]\n      bin_dir = \"" + dir + "/cni\"\n";
}

}  // namespace

TEST_CASE("a daemon.json set up by graft runtime configure gives docker run --runtime graft its planned GPU 1",
          "[e2e][shim][docker][runtime-configure]") {
  GRAFT_SKIP_IF(DockerEngine::unavailable());
  graft::fixture::TempDir dir("graft-e2e-rtcfg-docker-");
  std::string daemon_json = dir.path() + "/daemon.json";
  graft::fixture::write_file(daemon_json, "{\n  \"log-level\": \"warn\",\n  \"default-ulimits\": {}\n}\n");
  configure_for_test("docker", daemon_json);
  DockerEngine engine(DockerdLaunch{.config_file = daemon_json});
  GRAFT_SKIP_IF(engine.start_error().empty() ? std::string() : "dockerd cannot run here: " + engine.start_error());
  std::vector<std::string> options{"--runtime", "graft"};
  for (const auto& entry : gpu1_request_env()) options.insert(options.end(), {"-e", entry});
  auto container = run_docker_probe(engine, options, "rtcfg-docker");
  REQUIRE(!container.id.empty());
  require_ran_cleanly(container);
  check_gpu1_devices(container);
  check_planned_libraries(container);
  check_gpu1_procfs(container);
  check_exactly_the_plan(container);
  auto left = engine.stop();
  INFO(fmt::format("{}", fmt::join(left, "\n")));
  CHECK(left.empty());
}

TEST_CASE("containerd starts with the config.toml graft runtime configure wrote, graft's CRI runtime beside the "
          "site's CRI settings", "[e2e][shim][containerd][runtime-configure]") {
  GRAFT_SKIP_IF(ContainerdEngine::unavailable());
  graft::fixture::TempDir dir("graft-e2e-rtcfg-ctd-");
  std::string config = dir.path() + "/config.toml";
  graft::fixture::write_file(config, containerd_site_config(dir.path()));
  configure_for_test("containerd", config);
  EngineDaemon daemon({"/usr/bin/containerd", "--config", config}, dir.path() + "/log");
  std::string socket = dir.path() + "/s";
  auto started = daemon.wait_until(
      [&] { return run_command({"/usr/bin/ctr", "-a", socket, "version"}).exit_code == 0; },
      std::chrono::seconds(30));
  GRAFT_SKIP_IF(started.empty() ? std::string() : "containerd cannot run here: " + started);
  auto plugins = run_command({"/usr/bin/ctr", "-a", socket, "plugins", "ls"});
  INFO(plugins.out << plugins.err << daemon.log_tail());
  CHECK_THAT(plugins.out, Catch::Matches(R"((.|\n)*io\.containerd\.grpc\.v1\s+cri\s+[^\n]*\bok\b(.|\n)*)"));
  auto dump = run_command({"/usr/bin/containerd", "--config", config, "config", "dump"});
  INFO(dump.out << dump.err);
  REQUIRE(dump.exit_code == 0);
  CHECK_THAT(dump.out, Catch::Contains("[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.graft]"));
  CHECK_THAT(dump.out, Catch::Contains("BinaryName = \"" + graft_runtime_binary() + "\""));
  CHECK_THAT(dump.out, Catch::Contains("sandbox_image = \"example.org/site/pause:1\""));
  daemon.stop();
  CHECK(mounts_under(dir.path()).empty());
}

TEST_CASE("containerd 1.6 lets a conf.d drop-in's CRI table replace the main file's CRI settings, which is why "
          "graft runtime configure edits config.toml", "[e2e][containerd][runtime-configure]") {
  GRAFT_SKIP_IF(ContainerdEngine::unavailable());
  graft::fixture::TempDir dir("graft-e2e-rtcfg-import-");
  std::string config = dir.path() + "/config.toml";
  graft::fixture::write_file(config, "imports = [\"" + dir.path() + "/conf.d/*.toml\"]\n" +
                                         containerd_site_config(dir.path()));
  graft::fixture::write_file(dir.path() + "/conf.d/99-graft.toml",
                             "version = 2\n[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.graft]\n"
                             "  runtime_type = \"io.containerd.runc.v2\"\n");
  auto dump = run_command({"/usr/bin/containerd", "--config", config, "config", "dump"});
  INFO(dump.out << dump.err);
  REQUIRE(dump.exit_code == 0);
  CHECK_THAT(dump.out, Catch::Contains("containerd.runtimes.graft]"));
  // The site's sandbox image is gone: the drop-in's CRI table replaced the main file's.
  CHECK_THAT(dump.out, !Catch::Contains("example.org/site/pause:1"));
}

TEST_CASE("podman reads graft's containers.conf drop-in and resolves --runtime graft to graft-runtime",
          "[e2e][podman][runtime-configure]") {
  GRAFT_SKIP_IF(::geteuid() != 0 ? std::string("needs root") : std::string());
  GRAFT_SKIP_IF(podman_path().empty() ? std::string("podman is not installed") : std::string());
  graft::fixture::TempDir dir("graft-e2e-state-rtcfg-podman-");
  configure_for_test("podman", dir.path() + "/containers.conf.d/");
  // The drop-in alone as podman's configuration: what podman makes of its keys.
  auto info = run_command({"/usr/bin/env", "CONTAINERS_CONF=" + dir.path() + "/containers.conf.d/99-graft.conf",
                           podman_path(), "--root", dir.path() + "/root", "--runroot", dir.path() + "/run",
                           "--tmpdir", dir.path() + "/tmp", "--runtime", "graft", "info", "--format",
                           "{{.Host.OCIRuntime.Name}} {{.Host.OCIRuntime.Path}}"});
  INFO(info.err);
  REQUIRE(info.exit_code == 0);
  CHECK(info.out == "graft " + graft_runtime_binary() + "\n");
}
