// Debian's podman 4.3.1 as a real CDI consumer: `graft cdi generate` writes
// the spec for the e2e fake host into /etc/cdi, and `podman run --device
// KIND=1 --device KIND=capability-compute --device KIND=capability-utility`
// injects it, graft's own hooks (`graft cdi-hook createRuntime`) included.
// No graft hook is configured: what the container gets comes from the spec
// alone, and the check script generated from `graft plan` for GPU 1 with
// compute,utility proves it is that plan, as the hook tests prove theirs.
// Each spec has a kind of its own and a unique file name, removed at the
// end even when the case fails, so parallel tests never see each other's.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "container_checks.hpp"
#include "fixture_files.hpp"
#include "gpu_host.hpp"
#include "podman.hpp"
#include "probed_container.hpp"
#include "run_command.hpp"

namespace graft::e2e {
namespace {

using nlohmann::json;

constexpr const char* kCdiDir = "/etc/cdi";

// A kind of this test process's own ("graft-e2e-<pid>-<n>.test/gpu").
std::string unique_kind() {
  static std::atomic<int> counter{0};
  return "graft-e2e-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) + ".test/gpu";
}

// A generated spec in /etc/cdi for as long as this lives.
class InstalledSpec {
 public:
  InstalledSpec(const std::string& policy, const std::string& kind) {
    std::filesystem::create_directories(kCdiDir);
    path_ = std::string(kCdiDir) + "/" + kind.substr(0, kind.find('/')) + ".json";
    result_ = testing::run_graft({"--policy", policy, "cdi", "generate", "--kind", kind, "--output", path_});
  }
  ~InstalledSpec() { std::filesystem::remove(path_); }
  InstalledSpec(const InstalledSpec&) = delete;
  InstalledSpec& operator=(const InstalledSpec&) = delete;

  const testing::CommandResult& result() const { return result_; }
  json document() const { return json::parse(fixture::read_file(path_)); }

 private:
  std::string path_;
  testing::CommandResult result_;
};

// `spec`'s root run by podman with the CDI devices `devices` (names within
// `kind`) and nothing of `spec`'s env: the spec alone gives the container
// its GPU; the env only makes `graft plan` print the plan to check.
ProbedContainer run_podman_cdi(const std::string& kind, const std::vector<std::string>& devices,
                               const BundleSpec& spec) {
  std::vector<std::string> args;
  for (const auto& device : devices) args.insert(args.end(), {"--device", kind + "=" + device});
  return run_podman_probed(args, spec);
}

}  // namespace

TEST_CASE("podman 4.3.1 runs a container with GPU 1, compute and utility from graft's CDI spec, "
          "and it gets exactly what graft plan prints for that request",
          "[podman][cdi]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  std::string kind = unique_kind();
  InstalledSpec installed(gpu_host().policy, kind);
  INFO(installed.result().err);
  REQUIRE(installed.result().exit_code == 0);
  CHECK(installed.document()["cdiVersion"] == "0.5.0");
  auto container = run_podman_cdi(kind, {"1", "capability-compute", "capability-utility"},
                                  gpu1_compute_utility());
  require_ran_cleanly(container);
  check_gpu1_devices(container);
  check_planned_libraries(container);
  check_gpu1_procfs(container);
  check_exactly_the_planned_targets(container);
  // graft's hooks ran, one per CDI edits that has one: the spec-level one
  // (procfs mask, GPU 1's procfs directory) and compute's and utility's
  // (links, ld cache); each wrote its record.
  CHECK(audit_records(container.id, "applied").size() == 3);
}

TEST_CASE("podman refuses a CDI device the spec does not name, and runs nothing", "[podman][cdi]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  std::string kind = unique_kind();
  InstalledSpec installed(gpu_host().policy, kind);
  REQUIRE(installed.result().exit_code == 0);
  auto container = run_podman_cdi(kind, {"no-such-gpu"}, gpu1_compute_utility());
  CHECK(container.run.exit_code != 0);
  CHECK_THAT(container.run.err, Catch::Contains(kind + "=no-such-gpu"));
  CHECK(audit_records(container.id, "applied").empty());
}

}  // namespace graft::e2e
