// SPDX-License-Identifier: Apache-2.0
// The real engines in front of graft-runtime (tests/e2e/runtime_shim_test.cpp):
// Debian's dockerd and containerd, each started by the test with its state
// in private temp dirs, and one busybox image both run, holding the probe
// script (plan_probe.hpp) for the standard GPU 1 request. A client that is
// missing or a daemon that cannot start here is a skip reason, never a pass.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine_daemon.hpp"
#include "oci_bundle.hpp"
#include "probed_container.hpp"

namespace graft::e2e {

// The environment of the standard request: GPU 1, compute and utility.
const std::vector<std::string>& gpu1_request_env();

// The image: a Debian-like busybox root (oci_bundle.hpp) with the probe
// script for `plan`, the plan `graft plan` prints for the standard request
// in it; `tarball` is that root as `docker import` takes it. Built once.
struct ShimImage {
  OciBundle bundle{BundleSpec{}};
  nlohmann::json plan;
  std::string tarball;
  std::string rootfs() const { return bundle.rootfs(); }
};
const ShimImage& shim_image();

// A fresh copy of the image's root for one containerd container (the hook
// writes into the root it is given).
std::string copy_image_root(const std::string& into);

// The graft-runtime built in this tree.
std::string graft_runtime_binary();

// How a test starts dockerd: the argv put before dockerd's own (a wrapper
// that ends by exec'ing it, so the daemon keeps its pid), and its daemon.json:
// `config` written for it, or the file `config_file` as it is.
struct DockerdLaunch {
  std::vector<std::string> wrapper;
  nlohmann::json config = nlohmann::json::object();
  std::string config_file;
};

// dockerd with its state in a private temp dir; the image imported.
class DockerEngine {
 public:
  // Why Docker cannot run here ("" when it can): not root, clients missing.
  static std::string unavailable();
  // With a daemon.json whose `graft` runtime is graft-runtime, given
  // --graft-policy `policy` through runtimeArgs.
  explicit DockerEngine(const std::string& policy);
  explicit DockerEngine(const DockerdLaunch& launch);
  ~DockerEngine();
  // "" once the daemon answers and the image is imported, else why not.
  const std::string& start_error() const { return start_error_; }
  // `docker -H unix://SOCKET args...`, with /usr/bin/docker.
  CommandResult docker(const std::vector<std::string>& args) const;
  const std::string& image() const { return image_; }
  // Stops the daemon; the mounts under its directories that it left.
  std::vector<std::string> stop();

 private:
  fixture::TempDir dir_{"graft-dockerd-"};
  std::unique_ptr<EngineDaemon> daemon_;
  std::string image_ = "graft-shim-test:1";
  std::string start_error_;
};

// `docker run --rm --network none` of the probe with `options` (--runtime,
// --gpus, -e ...), /proc/driver a tmpfs as this GPU-less machine lacks it
// (oci_bundle.cpp); its id from --cidfile, and the host mounts the run added.
ProbedContainer run_docker_probe(const DockerEngine& engine, const std::vector<std::string>& options,
                                 const std::string& tag);

// containerd with its own root, state and socket; containers are run with
// `ctr run --runc-binary WRAPPER`, WRAPPER passing --graft-policy `policy`.
class ContainerdEngine {
 public:
  static std::string unavailable();
  explicit ContainerdEngine(const std::string& policy);
  ~ContainerdEngine();
  const std::string& start_error() const { return start_error_; }
  // `ctr -a SOCKET run --rm --runc-binary WRAPPER --runc-root R ... --rootfs ROOT id cmd...`.
  CommandResult run(const std::string& id, const std::vector<std::string>& env,
                    const std::string& rootfs, const std::vector<std::string>& command) const;
  std::vector<std::string> stop();

 private:
  fixture::TempDir dir_{"graft-containerd-"};
  std::unique_ptr<EngineDaemon> daemon_;
  std::string start_error_;
};

// What a probe run printed, as the runc tests' checks take it.
ProbedContainer probed_result(const std::string& id, CommandResult run);

}  // namespace graft::e2e
