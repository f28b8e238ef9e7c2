// SPDX-License-Identifier: Apache-2.0
// The harness for tests that run the real `graft hook`/`graft apply` on bad
// inputs (hostile, broken and hung: tests/README.md) and on stand-in
// containers (hostile_*, broken_*, hung_*, apply_*_test.cpp): a
// fake GPU host, bundles written in code, the real `graft hook`/`graft apply`
// binary, a stand-in "container" (a process in its own mount namespace), and
// a copy of the built plugin directory with one mechanism swapped for the
// test plugin `crash`.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "fake_host.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"

namespace graft::harness {

// A 2-GPU fake host, shared by every test in the binary.
fixture::FakeHost& host();

// Writes <dir>/config.json with root.path "rootfs" and the given env entries
// (each already a JSON string, e.g. "\"A=1\""); `extra` is added as further
// top-level members (",\"annotations\":{...}"). Returns dir.
std::string write_bundle(const std::string& dir, const std::vector<std::string>& env,
                         const std::string& extra = "");

std::string state_json(const std::string& id, long pid, const std::string& bundle);

testing::CommandResult hook(const std::string& policy, const std::string& state,
                            const std::string& stage = "prestart");

std::size_t line_count(const std::string& text);

// Whether hooks can run here: root, and the fake host's device nodes.
bool hook_can_run();

// A bundle at `dir` whose container asks for GPU 1.
std::string gpu1_bundle(const std::string& dir);

// True when every line of the host's mount table is free of `path`.
bool host_has_no_mount_under(const std::string& path);

// A process sleeping in a private mount namespace of its own: what the hook
// enters, so plugins' mounts land there and vanish with it.
class Container {
 public:
  Container();
  ~Container();
  Container(const Container&) = delete;
  Container& operator=(const Container&) = delete;
  pid_t pid() const { return pid_; }
  // Mount points in its namespace (lines of /proc/<pid>/mountinfo).
  std::size_t mount_count() const;
  // Those whose mount point lies under `path`: unlike mount_count(), not
  // moved by other tests, whose removed mount points the kernel detaches
  // from every namespace, this one's private copy included.
  std::size_t mount_count_under(const std::string& path) const;

 private:
  pid_t pid_ = -1;
};

// The built mechanism plugins copied into a private dir; with `standin`, the
// test plugin `crash` takes that plugin's place (it names itself after its file).
class PluginDir {
 public:
  explicit PluginDir(const std::string& standin = "");
  const std::string& path() const { return dir_.path(); }

 private:
  fixture::TempDir dir_{"graft-hostile-plugins-"};
};

// A site policy for host() with [plugins] dir = `plugin_dir` (may be empty:
// no [plugins] section), an audit log at `audit`, and `extra` TOML after it.
std::string write_policy(const std::string& name, const std::string& plugin_dir,
                         const std::string& extra = "", const std::string& audit = "");

}  // namespace graft::harness
