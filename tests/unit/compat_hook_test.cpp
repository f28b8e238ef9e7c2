// SPDX-License-Identifier: Apache-2.0
// nvidia-container-runtime-hook (hooks/compat/): graft under the hook name
// Docker's --gpus runs. Each case runs a copy of the built program beside a
// stand-in `graft` that prints what it was given, so what the entry point
// runs, with which arguments and input, is seen directly; the real graft
// behind it is tested with a real dockerd (tests/e2e/docker_gpus_test.cpp).
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>

#include <string>
#include <vector>

#include "fixture_files.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"

using graft::testing::CommandResult;
using graft::testing::run_command;

namespace {

// A stand-in graft: its arguments on one line, then its stdin; it leaves
// `ran` beside itself, so a case can tell it never ran.
std::string stand_in_graft(const std::string& label) {
  return "#!/bin/sh\necho \"" + label + ": $*\"\ncat\n: > \"$(dirname \"$0\")/ran\"\n";
}

// <dir>/bin: a copy of the built hook and a stand-in graft beside it.
struct InstalledHook {
  graft::fixture::TempDir dir{"graft-compat-hook-"};
  std::string bin = dir.path() + "/bin";
  std::string hook = bin + "/nvidia-container-runtime-hook";
  explicit InstalledHook(bool with_graft = true) {
    graft::fixture::copy_file(GRAFT_COMPAT_HOOK_BINARY, hook, 0755);
    if (with_graft) graft::fixture::write_file(bin + "/graft", stand_in_graft("beside"), 0755);
  }
  bool graft_ran() const {
    struct stat st {};
    return ::stat((bin + "/ran").c_str(), &st) == 0;
  }
};

// The hook as dockerd runs it: argv[0] its name, `args` after it, and a
// PATH whose first directory holds another graft that must not run.
CommandResult run_hook(const InstalledHook& installed, const std::string& path_to_hook,
                       const std::vector<std::string>& args, const std::string& input = "") {
  std::string decoy = installed.dir.path() + "/decoy";
  graft::fixture::write_file(decoy + "/graft", stand_in_graft("from PATH"), 0755);
  std::vector<std::string> argv{"/usr/bin/env", "PATH=" + decoy + ":/usr/bin:/bin", path_to_hook};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv, input);
}

const std::string kState = R"({"ociVersion":"1.0.2","id":"c1","pid":1,"bundle":"/b"})";

}  // namespace

TEST_CASE("nvidia-container-runtime-hook prestart runs the graft beside it as `graft hook prestart` with the "
          "OCI state on stdin, not a graft from PATH", "[compat-hook]") {
  InstalledHook installed;
  auto result = run_hook(installed, installed.hook, {"prestart"}, kState);
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "beside: hook prestart\n" + kState);
}

TEST_CASE("nvidia-container-runtime-hook runs graft with an environment of PATH alone, not dockerd's",
          "[compat-hook]") {
  InstalledHook installed;
  graft::fixture::write_file(installed.bin + "/graft", "#!/bin/sh\nenv | grep -v '^PWD='\n", 0755);
  auto result = run_command({"/usr/bin/env", "LD_LIBRARY_PATH=/nonexistent", "GRAFT_TEST_FROM_DOCKERD=1",
                             installed.hook, "prestart"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n");
}

TEST_CASE("nvidia-container-runtime-hook reached through a symlink on PATH runs the graft beside its own file",
          "[compat-hook]") {
  InstalledHook installed;
  std::string link = installed.dir.path() + "/path-dir/nvidia-container-runtime-hook";
  graft::fixture::make_symlink(installed.hook, link);
  graft::fixture::write_file(installed.dir.path() + "/path-dir/graft", stand_in_graft("beside the link"), 0755);
  auto result = run_hook(installed, link, {"prestart"}, kState);
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "beside: hook prestart\n" + kState);
}

TEST_CASE("nvidia-container-runtime-hook accepts the toolkit hook's -config and -debug and ignores them",
          "[compat-hook]") {
  InstalledHook installed;
  for (const auto& args : std::vector<std::vector<std::string>>{{"-config", "/etc/nvidia-container-runtime/x.toml",
                                                                 "-debug", "prestart"},
                                                                {"--config=/x.toml", "-debug=false", "prestart"},
                                                                {"-debug", "--", "prestart"}}) {
    INFO(args.front());
    auto result = run_hook(installed, installed.hook, args, kState);
    INFO(result.err);
    CHECK(result.exit_code == 0);
    CHECK(result.out == "beside: hook prestart\n" + kState);
  }
}

TEST_CASE("nvidia-container-runtime-hook poststart and poststop succeed without running graft", "[compat-hook]") {
  InstalledHook installed;
  for (const char* stage : {"poststart", "poststop"}) {
    INFO(stage);
    auto result = run_hook(installed, installed.hook, {stage}, kState);
    CHECK(result.exit_code == 0);
    CHECK(result.out.empty());
    CHECK(result.err.empty());
  }
  CHECK_FALSE(installed.graft_ran());
}

TEST_CASE("nvidia-container-runtime-hook refuses an unknown command or flag with exit 2, as the toolkit's hook, "
          "and runs nothing", "[compat-hook]") {
  InstalledHook installed;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{}, "no command: expected prestart, poststart or poststop"},
      {{"createRuntime"}, "unknown command: createRuntime"},
      {{"-runtime", "prestart"}, "flag provided but not defined: -runtime"},
      {{"-debug=maybe", "prestart"}, "invalid boolean flag value: -debug=maybe"},
      {{"-config"}, "flag needs an argument: -config"},
  };
  for (const auto& [args, message] : cases) {
    INFO(message);
    auto result = run_hook(installed, installed.hook, args, kState);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::StartsWith("nvidia-container-runtime-hook: " + message + "\n"));
  }
  CHECK_FALSE(installed.graft_ran());
}

TEST_CASE("nvidia-container-runtime-hook as installed, in libexec/graft and linked onto PATH, runs the graft in "
          "the install's bin directory", "[compat-hook]") {
  graft::fixture::TempDir prefix{"graft-compat-install-"};
  std::string hook = prefix.path() + "/" GRAFT_TEST_LIBEXECDIR "/graft/nvidia-container-runtime-hook";
  graft::fixture::copy_file(GRAFT_COMPAT_HOOK_BINARY, hook, 0755);
  graft::fixture::write_file(prefix.path() + "/" GRAFT_TEST_BINDIR "/graft", stand_in_graft("installed"), 0755);
  InstalledHook path_dir(false);
  std::string link = path_dir.dir.path() + "/path-dir/nvidia-container-runtime-hook";
  graft::fixture::make_symlink(hook, link);
  auto result = run_hook(path_dir, link, {"prestart"}, kState);
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "installed: hook prestart\n" + kState);
}

TEST_CASE("nvidia-container-runtime-hook with no graft installed with it fails in one line naming where it looked",
          "[compat-hook]") {
  InstalledHook installed(false);
  auto result = run_hook(installed, installed.hook, {"prestart"}, kState);
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK_THAT(result.err, Catch::StartsWith("nvidia-container-runtime-hook: cannot run " + installed.bin + "/"));
  CHECK_THAT(result.err, Catch::EndsWith("/graft: No such file or directory\n"));
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
}

TEST_CASE("nvidia-container-runtime-hook --version and --help answer without a command", "[compat-hook]") {
  InstalledHook installed;
  auto version = run_hook(installed, installed.hook, {"--version"});
  CHECK(version.exit_code == 0);
  CHECK_THAT(version.out, Catch::StartsWith("nvidia-container-runtime-hook (graft "));
  auto help = run_hook(installed, installed.hook, {"-help"});
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("Usage: nvidia-container-runtime-hook [-config FILE] [-debug] COMMAND"));
  CHECK_FALSE(installed.graft_ran());
}
