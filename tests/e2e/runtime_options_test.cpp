// SPDX-License-Identifier: Apache-2.0
// graft-runtime reads its command line as the real runtime will: crun's
// --config, attached and grouped letters and abbreviations, runc's options
// after the container id, restore, runc 1.2's --pidfd-socket, and no
// runtime found through a relative PATH entry. The real runtime here is a
// stand-in named runc or crun (graft-runtime picks the grammar by that
// name) that records whether it ran; the forms themselves were checked
// against Debian 12's runc 1.1.5 and crun 1.8.1 (runtime_command_test.cpp).
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>

#include "fixture_files.hpp"
#include "hook_harness.hpp"
#include "run_command.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using graft::fixture::read_file;
using graft::fixture::TempDir;
using graft::fixture::write_file;
using graft::testing::CommandResult;

// A real runtime that only writes down its arguments, one a line.
class RecordingRuntime {
 public:
  explicit RecordingRuntime(const std::string& name) : path_(dir_.path() + "/" + name) {
    write_file(path_, "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + record() + "'\n");
    ::chmod(path_.c_str(), 0755);
  }
  const std::string& path() const { return path_; }
  bool ran() const { return fs::exists(record()); }
  std::string args() const { return ran() ? read_file(record()) : ""; }

 private:
  std::string record() const { return dir_.path() + "/ran"; }
  TempDir dir_{"graft-e2e-fake-runtime-"};
  std::string path_;
};

// A site policy for the harness's fake host whose [runtime] path is `runtime`.
std::string policy_naming(const RecordingRuntime& runtime, const std::string& name) {
  return graft::harness::write_policy(name, "", "[runtime]\npath = \"" + runtime.path() + "\"\n");
}

// graft-runtime run in `cwd` (as engines run it in the bundle, or anywhere).
CommandResult graft_runtime_in(const std::string& cwd, const std::string& policy,
                               const std::vector<std::string>& args) {
  std::vector<std::string> argv{"/usr/bin/env", "-C", cwd, GRAFT_RUNTIME_BINARY, "--graft-policy", policy};
  argv.insert(argv.end(), args.begin(), args.end());
  return graft::testing::run_command(argv);
}

std::string plain_bundle(const std::string& dir) { return graft::harness::write_bundle(dir, {R"("A=1")"}); }

bool has_graft_hook(const std::string& bundle) {
  return read_file(bundle + "/config.json").find("\"createRuntime\"") != std::string::npos;
}

// A bundle that asks for GPU 1, one that asks for nothing, and a current
// directory whose config.json asks for nothing: the spec read by mistake.
struct Bundles {
  TempDir dir{"graft-e2e-options-"};
  std::string gpu = graft::harness::gpu1_bundle(dir.path() + "/gpu");
  std::string plain = plain_bundle(dir.path() + "/plain");
  std::string cwd = plain_bundle(dir.path() + "/cwd");
};

#define GRAFT_SKIP_WITHOUT_FAKE_HOST() \
  GRAFT_SKIP_IF(graft::harness::hook_can_run() ? "" : "needs root and the fake host's device nodes")

}  // namespace

TEST_CASE("graft-runtime in front of crun, a GPU spec that -f names outside the bundle is refused and crun never runs",
          "[e2e][shim][options]") {
  GRAFT_SKIP_WITHOUT_FAKE_HOST();
  Bundles bundles;
  RecordingRuntime crun("crun");
  std::string before = read_file(bundles.plain + "/config.json");
  auto result = graft_runtime_in(bundles.cwd, policy_naming(crun, "options-crun-config"),
                                 {"create", "-b", bundles.plain, "-f", bundles.gpu + "/config.json", "c1"});
  INFO(result.err);
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::StartsWith("graft-runtime: container c1 refused: it asks for GPUs"));
  CHECK_FALSE(crun.ran());
  CHECK(read_file(bundles.plain + "/config.json") == before);
}

TEST_CASE("graft-runtime in front of crun, a relative -f is relative to the current directory, not the bundle",
          "[e2e][shim][options]") {
  GRAFT_SKIP_WITHOUT_FAKE_HOST();
  Bundles bundles;
  RecordingRuntime crun("crun");
  fs::copy_file(bundles.plain + "/config.json", bundles.plain + "/spec.json");
  fs::copy_file(bundles.gpu + "/config.json", bundles.cwd + "/spec.json");  // what crun runs
  auto result = graft_runtime_in(bundles.cwd, policy_naming(crun, "options-crun-relative"),
                                 {"create", "-f", "spec.json", "-b", bundles.plain, "c2"});
  INFO(result.err);
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("its spec is " + bundles.cwd + "/spec.json"));
  CHECK_FALSE(crun.ran());
}

TEST_CASE("graft-runtime in front of crun, -f config.json is the bundle's own, which gets graft's hook",
          "[e2e][shim][options]") {
  GRAFT_SKIP_WITHOUT_FAKE_HOST();
  Bundles bundles;
  RecordingRuntime crun("crun");
  std::string cwd_before = read_file(bundles.cwd + "/config.json");
  auto result = graft_runtime_in(bundles.cwd, policy_naming(crun, "options-crun-own"),
                                 {"create", "-f", "config.json", "-b", bundles.gpu, "c3"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(crun.args() == "create\n-f\nconfig.json\n-b\n" + bundles.gpu + "\nc3\n");
  CHECK(has_graft_hook(bundles.gpu));
  CHECK(read_file(bundles.cwd + "/config.json") == cwd_before);
}

TEST_CASE("graft-runtime in front of crun, an attached -bDIR is the bundle, as crun reads it",
          "[e2e][shim][options]") {
  GRAFT_SKIP_WITHOUT_FAKE_HOST();
  Bundles bundles;
  RecordingRuntime crun("crun");
  auto result = graft_runtime_in(bundles.cwd, policy_naming(crun, "options-crun-attached"),
                                 {"create", "-b" + bundles.gpu, "c4"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(crun.ran());
  CHECK(has_graft_hook(bundles.gpu));
  CHECK_FALSE(has_graft_hook(bundles.cwd));
}

TEST_CASE("graft-runtime in front of crun, an abbreviated --bund is refused and crun never runs",
          "[e2e][shim][options]") {
  GRAFT_SKIP_WITHOUT_FAKE_HOST();
  Bundles bundles;
  RecordingRuntime crun("crun");
  auto result = graft_runtime_in(bundles.cwd, policy_naming(crun, "options-crun-abbreviated"),
                                 {"create", "--bund=" + bundles.gpu, "c5"});
  INFO(result.err);
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::StartsWith("graft-runtime: create: '--bund="));
  CHECK_FALSE(crun.ran());
  CHECK_FALSE(has_graft_hook(bundles.gpu));
}

TEST_CASE("graft-runtime in front of crun, an abbreviated global option before create is refused and crun never runs",
          "[e2e][shim][options]") {
  GRAFT_SKIP_WITHOUT_FAKE_HOST();
  Bundles bundles;
  RecordingRuntime crun("crun");
  // crun reads --ro as --root: the command is create, not the directory.
  auto result = graft_runtime_in(bundles.cwd, policy_naming(crun, "options-crun-global"),
                                 {"--ro", bundles.dir.path(), "create", "-b", bundles.gpu, "c6"});
  INFO(result.err);
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("which may be 'create'"));
  CHECK_FALSE(crun.ran());
}

TEST_CASE("graft-runtime in front of runc, an option after the container id is refused, since runc moves it before",
          "[e2e][shim][options]") {
  GRAFT_SKIP_WITHOUT_FAKE_HOST();
  Bundles bundles;
  RecordingRuntime runc("runc");
  auto result = graft_runtime_in(bundles.cwd, policy_naming(runc, "options-runc-after-id"),
                                 {"create", "c7", "--bundle", bundles.gpu});
  INFO(result.err);
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("'--bundle' after the container id c7"));
  CHECK_FALSE(runc.ran());
}

TEST_CASE("graft-runtime in front of runc, restore prepares its bundle as create does",
          "[e2e][shim][options]") {
  GRAFT_SKIP_WITHOUT_FAKE_HOST();
  Bundles bundles;
  RecordingRuntime runc("runc");
  auto result = graft_runtime_in(bundles.cwd, policy_naming(runc, "options-runc-restore"),
                                 {"restore", "--image-path", bundles.dir.path(), "-b", bundles.gpu, "c8"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(runc.ran());
  CHECK(has_graft_hook(bundles.gpu));
}

TEST_CASE("graft-runtime in front of runc, --pidfd-socket's value is not taken for the container id",
          "[e2e][shim][options]") {
  GRAFT_SKIP_WITHOUT_FAKE_HOST();
  Bundles bundles;
  RecordingRuntime runc("runc");
  auto result = graft_runtime_in(bundles.cwd, policy_naming(runc, "options-runc-pidfd"),
                                 {"create", "--pidfd-socket", bundles.dir.path() + "/pidfd.sock", "--bundle",
                                  bundles.gpu, "c9"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(runc.ran());
  CHECK(has_graft_hook(bundles.gpu));
}

TEST_CASE("a create that asks for help goes to the real runtime unread", "[e2e][shim][options]") {
  GRAFT_SKIP_WITHOUT_FAKE_HOST();
  TempDir empty("graft-e2e-options-empty-");  // no config.json to read
  RecordingRuntime runc("runc");
  auto result = graft_runtime_in(empty.path(), policy_naming(runc, "options-runc-help"), {"create", "--help"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(runc.args() == "create\n--help\n");
}

TEST_CASE("graft-runtime does not run a runc that only '.' on PATH finds", "[e2e][shim][options]") {
  TempDir cwd("graft-e2e-options-path-");
  RecordingRuntime planted("runc");
  fs::copy_file(planted.path(), cwd.path() + "/runc");
  std::string policy = cwd.path() + "/graft.toml";
  write_file(policy, "[runtime]\npath = \"runc\"\n");
  auto result = graft::testing::run_command({"/usr/bin/env", "-C", cwd.path(), "PATH=.", GRAFT_RUNTIME_BINARY,
                                             "--graft-policy", policy, "state", "c10"});
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("runtime runc is not on PATH (.)"));
  CHECK_FALSE(planted.ran());
}
