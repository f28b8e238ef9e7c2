// SPDX-License-Identifier: Apache-2.0
// The podman runner itself (harness/podman.hpp): what the hooks.d and CDI cases
// build on must run a container, report its id, and leave nothing behind.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include "harness/host_mounts.hpp"
#include "harness/oci_bundle.hpp"
#include "harness/podman.hpp"
#include "skip.hpp"

namespace graft::e2e {

TEST_CASE("podman runs a busybox root directory in private storage and leaves no mount and no storage behind",
          "[podman]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  OciBundle bundle(BundleSpec{});
  HostMounts mounts;
  std::string storage;
  PodmanRun run;
  {
    Podman podman;
    run = podman.run({"--env", "GRAFT_PODMAN_PROBE=seen"}, bundle.rootfs(),
                     {"/bin/sh", "-c", "echo \"$GRAFT_PODMAN_PROBE\""});
    auto info = podman.invoke({"info", "--format", "{{.Store.GraphRoot}}"});
    REQUIRE(info.exit_code == 0);
    storage = info.out.substr(0, info.out.find('\n'));
  }
  INFO("podman: " << run.result.err);
  REQUIRE(run.result.exit_code == 0);
  CHECK(run.result.out == "seen\n");
  CHECK(run.id.size() == 64);
  CHECK(run.name.starts_with("graft-e2e-podman-"));
  CHECK(storage.find("/graft-e2e-state-podman-") != std::string::npos);
  struct stat st {};
  CHECK(::stat(storage.c_str(), &st) != 0);  // the private store is gone
  CHECK(mounts.added().empty());
}

}  // namespace graft::e2e
