// SPDX-License-Identifier: Apache-2.0
// `graft runtime configure --runtime containerd`: graft's CRI runtime in a
// marked block at the end of config.toml, the rest of the file (comments,
// the node's runc entry, NVIDIA's runtime) byte for byte as it was.
#include <catch2/catch.hpp>

#include "runtime_config/containerd_config.hpp"

using graft::runtime_config::containerd_configured;
using graft::runtime_config::containerd_removed;
using graft::runtime_config::RuntimeEntry;

namespace {

const std::string kNodeConfigToml = R"(# containerd on a GPU node (managed by hand)
version = 2

[plugins]
  [plugins."io.containerd.grpc.v1.cri"]
    sandbox_image = "registry.k8s.io/pause:3.9"
    [plugins."io.containerd.grpc.v1.cri".containerd]
      default_runtime_name = "runc"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
        runtime_type = "io.containerd.runc.v2"
        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
          SystemdCgroup = true   # the node's cgroup driver
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia]
        runtime_type = "io.containerd.runc.v2"
        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia.options]
          BinaryName = "/usr/bin/nvidia-container-runtime"
)";

const std::string kGraftBlock = R"(
# BEGIN graft runtime configure: graft's runtime for the CRI plugin (`graft runtime configure --remove` takes this block out)
[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.graft]
  runtime_type = "io.containerd.runc.v2"
  [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.graft.options]
    BinaryName = "/usr/bin/graft-runtime"
    SystemdCgroup = true
# END graft runtime configure
)";

RuntimeEntry containerd_entry() {
  RuntimeEntry entry;
  entry.binary = "/usr/bin/graft-runtime";
  return entry;
}

std::string configured_config_toml(const std::optional<std::string>& before) {
  auto after = containerd_configured(before, containerd_entry());
  INFO((after ? std::string() : after.error().message));
  REQUIRE(after);
  return *after;
}

}  // namespace

TEST_CASE("containerd: graft's CRI runtime is appended as a marked block, with the runc entry's SystemdCgroup",
          "[runtime-configure]") {
  CHECK(configured_config_toml(kNodeConfigToml) == kNodeConfigToml + kGraftBlock);
}

TEST_CASE("containerd: without a runc SystemdCgroup the block sets none", "[runtime-configure]") {
  auto after = configured_config_toml(std::string("version = 2\n"));
  CHECK_THAT(after, !Catch::Contains("SystemdCgroup"));
  CHECK_THAT(after, Catch::StartsWith("version = 2\n\n# BEGIN graft runtime configure"));
}

TEST_CASE("containerd: a file that names no runc entry gets containerd's default one in graft's block, so the "
          "CRI plugin keeps its default runtime", "[runtime-configure]") {
  std::string debian = "version = 2\n\n[plugins]\n  [plugins.\"io.containerd.grpc.v1.cri\"]\n"
                       "    [plugins.\"io.containerd.grpc.v1.cri\".cni]\n      bin_dir = \"/usr/lib/cni\"\n";
  auto after = configured_config_toml(debian);
  CHECK_THAT(after, Catch::Contains("[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.runc]\n"
                                    "  runtime_type = \"io.containerd.runc.v2\"\n"));
  CHECK(containerd_removed(after)->value_or("") == debian);
  // A file whose default runtime is another, or that names runc, gets no runc entry from graft.
  CHECK_THAT(configured_config_toml(kNodeConfigToml), !Catch::Contains("default runc entry"));
  std::string other_default = debian + "    [plugins.\"io.containerd.grpc.v1.cri\".containerd]\n"
                                       "      default_runtime_name = \"crun\"\n";
  CHECK_THAT(configured_config_toml(other_default), !Catch::Contains("runtimes.runc]"));
}

TEST_CASE("containerd: a missing config.toml is created as version 2 and removed whole", "[runtime-configure]") {
  auto after = configured_config_toml(std::nullopt);
  CHECK_THAT(after, Catch::StartsWith("# BEGIN graft runtime configure") && Catch::Contains("version = 2\n"));
  auto removed = containerd_removed(after);
  REQUIRE(removed);
  CHECK_FALSE(*removed);
}

TEST_CASE("containerd: the plugin's table name follows the config version", "[runtime-configure]") {
  CHECK_THAT(configured_config_toml(std::string("version = 3\n")),
             Catch::Contains("[plugins.\"io.containerd.cri.v1.runtime\".containerd.runtimes.graft]"));
  CHECK_THAT(configured_config_toml(std::string("root = \"/var/lib/containerd\"\n")),
             Catch::Contains("[plugins.cri.containerd.runtimes.graft]"));
  auto unknown = containerd_configured(std::string("version = 9\n"), containerd_entry());
  REQUIRE_FALSE(unknown);
  CHECK_THAT(unknown.error().message, Catch::Contains("version 9"));
}

TEST_CASE("containerd: a second run returns the file byte for byte", "[runtime-configure]") {
  auto once = configured_config_toml(kNodeConfigToml);
  CHECK(configured_config_toml(once) == once);
}

TEST_CASE("containerd: a new runtime path replaces graft's block, not adds a second", "[runtime-configure]") {
  auto entry = containerd_entry();
  entry.binary = "/opt/graft/bin/graft-runtime";
  auto moved = containerd_configured(configured_config_toml(kNodeConfigToml), entry);
  REQUIRE(moved);
  CHECK_THAT(*moved, Catch::Contains("BinaryName = \"/opt/graft/bin/graft-runtime\""));
  CHECK_THAT(*moved, !Catch::Contains("BinaryName = \"/usr/bin/graft-runtime\""));
}

TEST_CASE("containerd: --remove after configure restores the file byte for byte", "[runtime-configure]") {
  CHECK(containerd_removed(configured_config_toml(kNodeConfigToml))->value_or("") == kNodeConfigToml);
  CHECK(containerd_removed(kNodeConfigToml)->value_or("") == kNodeConfigToml);
}

TEST_CASE("containerd: malformed TOML is an error with its line, nothing written", "[runtime-configure]") {
  auto broken = containerd_configured(std::string("version = 2\n[plugins\n"), containerd_entry());
  REQUIRE_FALSE(broken);
  CHECK_THAT(broken.error().message, Catch::Contains("line 2") && Catch::Contains("nothing was changed"));
}

TEST_CASE("containerd: a graft runtime the admin defined by hand is an error, not a second table",
          "[runtime-configure]") {
  std::string by_hand = "version = 2\n[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.graft]\n"
                        "  runtime_type = \"io.containerd.runc.v2\"\n";
  auto refused = containerd_configured(by_hand, containerd_entry());
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("cannot be added") && Catch::Contains("nothing was changed"));
}

TEST_CASE("containerd: a block whose END line was deleted is an error for configure and --remove",
          "[runtime-configure]") {
  auto configured = configured_config_toml(kNodeConfigToml);
  std::string broken = configured.substr(0, configured.find("# END graft runtime configure"));
  auto again = containerd_configured(broken, containerd_entry());
  REQUIRE_FALSE(again);
  CHECK_THAT(again.error().message, Catch::Contains("no END line"));
  auto removed = containerd_removed(broken);
  REQUIRE_FALSE(removed);
  CHECK_THAT(removed.error().message, Catch::Contains("no END line"));
}
