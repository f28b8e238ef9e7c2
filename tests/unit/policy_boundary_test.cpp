// SPDX-License-Identifier: Apache-2.0
// The policy boundary, before any host is read: a site policy (a ConfigMap)
// decides what GPU containers get, never a host path beyond the places the
// shipped vendor policies declare. One case per way found to reach past
// them, each refused with the line that named the path; the node's allow
// file is the one thing that widens them.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "boundary/boundary.hpp"
#include "boundary/node_allow.hpp"
#include "boundary/policy_places.hpp"
#include "graft/engine/install_dirs.hpp"
#include "policy/policy.hpp"
#include "policy_support.hpp"
#include "site_policy.hpp"

using namespace graft;
using namespace graft::policy_test;

namespace {

// The site file `text` over the shipped NVIDIA policy, loaded as a node loads it.
Policy site_policy(const PolicyFiles& files, const std::string& text) {
  auto path = files.write("graft.toml", "include = [\"nvidia\"]\n" + text);
  auto policy = load_policy(path, PolicySearch{{graft::fixture::source_policy_dir()}});
  if (!policy) FAIL(policy.error().message);
  return std::move(*policy);
}

std::vector<std::string> outside(const Policy& policy) {
  std::vector<std::string> lines;
  for (const auto& finding : policy_paths_outside(policy, Boundary(policy))) lines.push_back(to_line(finding));
  return lines;
}

// The one finding of `policy`, with the site file's directory as "F".
std::string only_finding(const PolicyFiles& files, const Policy& policy) {
  auto lines = outside(policy);
  REQUIRE(lines.size() == 1);
  std::string line = lines.front();
  std::string dir = files.path("");
  if (line.starts_with(dir)) line = "F/" + line.substr(dir.size());
  return line;
}

}  // namespace

TEST_CASE("the shipped NVIDIA policy names no host path outside its own places", "[boundary]") {
  PolicyFiles files;
  CHECK(outside(site_policy(files, "")).empty());
}

TEST_CASE("a benign site change, its request channels, stays inside the boundary", "[boundary]") {
  PolicyFiles files;
  CHECK(outside(site_policy(files, "[requests]\nunprivileged = [\"volume-mounts\"]\nprivileged = [\"env\"]\n")).empty());
}

TEST_CASE("a site set binding the host's /etc read-write is refused at its line", "[boundary]") {
  PolicyFiles files;
  auto policy = site_policy(files, "[capability.x]\nalways = true\nipc = [\"/etc\"]\n");
  CHECK(only_finding(files, policy) ==
        "F/graft.toml:4:8: capability.x.ipc: /etc is a socket or IPC directory outside the policy boundary: " +
            std::string(kOutsideBoundary) + " (" + doc_page("security.md") + ", \"The policy boundary\")");
}

TEST_CASE("a site set giving containers the runtime's socket is refused", "[boundary]") {
  PolicyFiles files;
  auto policy = site_policy(files, "[capability.x]\nalways = true\nipc = [\"/run/containerd/containerd.sock\"]\n");
  CHECK_THAT(only_finding(files, policy),
             Catch::StartsWith("F/graft.toml:4:8: capability.x.ipc: /run/containerd/containerd.sock is a socket"));
}

TEST_CASE("a host disk named as a device class is refused, whatever set holds it", "[boundary]") {
  PolicyFiles files;
  auto policy = site_policy(files, "[device.disk]\npath = \"/dev/vda\"\n[capability.x]\nalways = true\n"
                                   "devices = [\"disk\"]\n");
  CHECK_THAT(only_finding(files, policy), Catch::StartsWith("F/graft.toml:2:1: device.disk.path: /dev/vda is a device node"));
}

TEST_CASE("the host's password hashes named as a configuration file are refused", "[boundary]") {
  PolicyFiles files;
  auto policy = site_policy(files, "[capability.compute]\nconfig_files = [\"/etc/shadow\"]\n");
  CHECK_THAT(only_finding(files, policy),
             Catch::StartsWith("F/graft.toml:3:17: capability.compute.config_files: /etc/shadow is a configuration file"));
}

TEST_CASE("a claims directory in sudoers.d is refused: graft writes there as root", "[boundary]") {
  PolicyFiles files;
  auto policy = site_policy(files, "[exclusive]\ngpus = true\nstate_dir = \"/etc/sudoers.d\"\n");
  CHECK_THAT(only_finding(files, policy),
             Catch::StartsWith("F/graft.toml:4:13: exclusive.state_dir: /etc/sudoers.d is a directory graft writes "
                               "claims into outside the policy boundary"));
}

TEST_CASE("an audit log in cron.d is refused, one under /var/log/graft is not", "[boundary]") {
  PolicyFiles files;
  CHECK_THAT(only_finding(files, site_policy(files, "[audit]\nlog = \"/etc/cron.d/graft\"\n")),
             Catch::Contains("audit.log: /etc/cron.d/graft is a file graft appends its audit records to"));
  CHECK(outside(site_policy(files, "[audit]\nlog = \"/var/log/graft/audit.jsonl\"\n")).empty());
}

TEST_CASE("a path that climbs out of a declared place with '..' is judged where it lands", "[boundary]") {
  PolicyFiles files;
  auto policy = site_policy(files, "[capability.x]\nipc = [\"/run/nvidia-persistenced/../../etc\"]\n");
  CHECK_THAT(only_finding(files, policy), Catch::Contains("capability.x.ipc: /etc is a socket or IPC directory"));
}

TEST_CASE("a drop-in adding a host path is refused at the drop-in's own line", "[boundary]") {
  PolicyFiles files;
  files.write("graft.toml.d/50-x.toml", "[capability.utility]\nipc = [\"/run/docker.sock\"]\n");
  auto policy = site_policy(files, "drop_ins = [\"graft.toml.d\"]\n");
  CHECK_THAT(only_finding(files, policy),
             Catch::StartsWith("F/graft.toml.d/50-x.toml:2:8: capability.utility.ipc: /run/docker.sock"));
}

TEST_CASE("a device class wider than the declared paths is refused", "[boundary]") {
  PolicyFiles files;
  auto policy = site_policy(files, "[device.gds]\npath = \"/dev/*\"\n");
  CHECK_THAT(only_finding(files, policy), Catch::Contains("device.gds.path: /dev/* is a device node"));
}

TEST_CASE("a class whose nodes graft makes from another driver's major is refused", "[boundary]") {
  PolicyFiles files;
  // misc's minors cover tun and kvm: a MIG capability class of major misc
  // would allow them for every partition minor the driver lists.
  auto policy = site_policy(files, "[device.partition-cap]\nmajor_name = \"misc\"\n");
  CHECK_THAT(only_finding(files, policy),
             Catch::Contains("device.partition-cap.major_name: misc is a driver whose nodes graft makes"));
}

TEST_CASE("MIG management binding the whole of /dev is refused", "[boundary]") {
  PolicyFiles files;
  auto policy = site_policy(files, "[extra.mig-config]\nbind_dev = [\"/dev\"]\n");
  CHECK_THAT(only_finding(files, policy), Catch::Contains("extra.mig-config.bind_dev: /dev is a device directory"));
}

TEST_CASE("a site file declaring places widens nothing and is named", "[boundary]") {
  PolicyFiles files;
  auto policy = site_policy(files, "[vendor.nvidia.places]\nsockets = [\"/run/containerd/containerd.sock\"]\n"
                                   "[capability.x]\nipc = [\"/run/containerd/containerd.sock\"]\n");
  CHECK_THAT(only_finding(files, policy), Catch::Contains("/run/containerd/containerd.sock is a socket"));
  auto declared = site_declared_places(policy);
  REQUIRE(declared.size() == 1);
  CHECK_THAT(to_line(declared.front()), Catch::Contains("vendor.nvidia.places: ignored: only a shipped vendor policy"));
}

TEST_CASE("the node's allow file widens the boundary by exactly the path it lists", "[boundary]") {
  PolicyFiles files;
  auto policy = site_policy(files, "[capability.x]\nipc = [\"/run/acme/agent.sock\", \"/run/acme/other.sock\"]\n");
  auto node = parse_node_allow("# acme's agent\nplaces.sockets = \"/run/acme/agent.sock\"  # this node runs it\n"
                               "runtime.path = \"/usr/bin/crun\"\n",
                               "/etc/graft-node/allow.conf");
  REQUIRE(node);
  policy.node_places = *node;
  CHECK_THAT(only_finding(files, policy), Catch::Contains("/run/acme/other.sock is a socket"));
}

TEST_CASE("the node's allow file refuses an unknown kind of place and a value that is no JSON string", "[boundary]") {
  auto kind = parse_node_allow("places.socket = \"/run/x\"\n", "allow.conf");
  REQUIRE_FALSE(kind);
  CHECK_THAT(kind.error().message, Catch::StartsWith("allow.conf:1:1: places.socket: not a kind of place"));
  auto value = parse_node_allow("\nplaces.sockets = /run/x\n", "allow.conf");
  REQUIRE_FALSE(value);
  CHECK(value.error().message == "allow.conf:2:1: places.sockets: expected a JSON string, got /run/x");
  auto relative = parse_node_allow("places.files = \"etc/x\"\n", "allow.conf");
  REQUIRE_FALSE(relative);
  CHECK_THAT(relative.error().message, Catch::EndsWith("'etc/x' is not an absolute path"));
}

TEST_CASE("a node without an allow file allows nothing more", "[boundary]") {
  auto places = read_node_allow("/nonexistent/graft-node/allow.conf");
  REQUIRE(places);
  CHECK(places->empty());
}

TEST_CASE("every host path of the two-vendor example stays inside both vendors' places", "[boundary]") {
  auto policy = load_policy(graft::fixture::source_policy_dir() + "/examples/two-vendor-site.toml",
                            PolicySearch{{graft::fixture::source_policy_dir()}});
  REQUIRE(policy);
  CHECK(outside(*policy).empty());
}
