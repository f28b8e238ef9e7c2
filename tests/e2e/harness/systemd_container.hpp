// SPDX-License-Identifier: Apache-2.0
// A GPU container on the systemd test host (systemd_host.hpp), started by
// one of the routes graft documents, with runc's systemd cgroup driver
// (cgroupsPath "system.slice:runc:<id>", so systemd owns its scope
// runc-<id>.scope): graft hook in config.json, graft-runtime in either
// mode, or a CDI spec from `graft cdi generate`. The container runs
// `sleep` from a busybox bundle asking for the fake host's GPU 1, privileged
// or not, and is deleted when the SystemdContainer goes away.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "oci_bundle.hpp"
#include "run_command.hpp"
#include "systemd_host.hpp"
#include "temp_dir.hpp"

namespace graft::e2e {

// The ways graft documents to run a GPU container (docs/runtimes.md, docs/cdi.md).
enum class Route {
  hook,                 // `graft hook prestart` in config.json, runc
  hook_systemd_off,     // the same, [plugins.config.cgroup] systemd = "off": nothing tells systemd
  runtime_hook,         // graft-runtime, [runtime] mode = "hook"
  runtime_declarative,  // graft-runtime, [runtime] mode = "declarative"
  cdi,                  // graft cdi generate's spec applied to config.json (cdi_edits.hpp), runc
};

// What the container's spec allows besides what graft adds.
enum class DeviceSpec {
  gpu_only,      // runc spec's default: every device denied, the cgroup opens what graft allows
  // privileged, as `docker run --privileged` writes it: CAP_SYS_ADMIN,
  // `a *:* rwm`, and host devices among its nodes, here /dev/fuse (c 10:229)
  every_device,
};

// One case's world: a directory the systemd host shares (the bundles and
// the CDI spec go there), the fake GPU host (gpu_host.hpp), and the systemd
// host itself. Members go in reverse: the host (and every container in it)
// first, then the directory.
class SystemdScene {
 public:
  explicit SystemdScene(CgroupMode mode);

  SystemdHost& host() { return host_; }
  // For BundleSpec::tmp_subdir: a bundle made in the shared directory.
  std::string bundle_subdir() const;
  std::string file(const std::string& name) const { return scratch_.path() + "/" + name; }

 private:
  fixture::TempDir scratch_;
  SystemdHost host_;
};

class SystemdContainer {
 public:
  SystemdContainer(SystemdScene& scene, Route route, DeviceSpec devices = DeviceSpec::gpu_only);
  ~SystemdContainer();  // `runc delete --force` in the systemd host
  SystemdContainer(const SystemdContainer&) = delete;
  SystemdContainer& operator=(const SystemdContainer&) = delete;

  // How the start went: the runtime's (or graft's) exit code and words.
  const testing::CommandResult& started() const { return started_; }
  // `runc exec ID argv...` in the systemd host.
  testing::CommandResult exec(const std::vector<std::string>& argv);
  // What opening `node` inside says (device_access.hpp).
  std::string open(const std::string& node);
  const std::string& id() const { return id_; }
  // `graft verify ID` in the systemd host, with the policy the route used.
  testing::CommandResult verify();

 private:
  BundleSpec spec_for(Route route) const;
  void apply_cdi_spec();

  SystemdScene& scene_;
  std::string id_;
  std::string policy_;  // the policy graft (or graft-runtime) read for this route
  DeviceSpec devices_;
  std::unique_ptr<OciBundle> bundle_;  // runc reads it while the container lives
  testing::CommandResult started_;
};

}  // namespace graft::e2e
