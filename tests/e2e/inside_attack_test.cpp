// SPDX-License-Identifier: Apache-2.0
// Nothing graft gives a container may reach back to the host. The
// host's driver tree sits on a shared mount, as /, /dev, /run and /proc do on
// a systemd host (tests/e2e/harness/shared_host_tree.hpp). A root container holding
// CAP_SYS_ADMIN, CAP_CHOWN and CAP_FOWNER gets GPU 1 with compute and
// utility from graft, then attacks every object graft bound in from that
// tree (tests/e2e/harness/inside_attack.hpp). Afterwards the host tree (types, modes,
// owners, times, checksums) and the host's mount table must be as before.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "harness/gpu_host.hpp"
#include "harness/host_mounts.hpp"
#include "harness/inside_attack.hpp"
#include "harness/oci_bundle.hpp"
#include "harness/probed_container.hpp"
#include "harness/shared_host_tree.hpp"
#include "harness/tree_snapshot.hpp"
#include "run_command.hpp"

using namespace graft::e2e;

namespace {

struct AttackedHost {
  nlohmann::json plan;
  CommandResult run;
  std::vector<Attack> attacks;
  std::vector<std::string> tree_changes;   // host files, nodes, sockets, directories
  std::vector<std::string> mounts_added;   // host mountinfo lines
  std::string tree_mount;                  // the shared tree's mountinfo line
};

AttackedHost attack_from_inside(CgroupMode mode) {
  auto& host = gpu_host();
  // The hook appends to the audit log in the tree; made now, its directory stays as recorded.
  std::ofstream(host.audit_log, std::ios::app).flush();
  SharedHostTree shared(host.host.root(), mode);
  TreeSnapshot tree(host.host.root(), {"audit.jsonl"});
  HostMounts mounts;
  AttackedHost result;
  result.tree_mount = shared.mountinfo_line();

  BundleSpec spec = gpu1_compute_utility();
  spec.privileged = true;  // CAP_SYS_ADMIN
  spec.extra_capabilities = {"CAP_CHOWN", "CAP_FOWNER"};
  spec.args = {"/bin/sh", kAttackScript};
  spec.hook_policy = host.policy;
  std::string id = unique_container_id(mode == CgroupMode::v1 ? "attack-v1" : "attack-v2");
  spec.cgroups_path = "/" + id;
  {
    OciBundle bundle(spec);
    auto planned = graft::testing::run_graft({"--policy", spec.hook_policy, "plan", "--bundle",
                                              bundle.path(), "--id", id, "--format", "json"});
    INFO("graft plan: " << planned.err);
    REQUIRE(planned.exit_code == 0);
    result.plan = nlohmann::json::parse(planned.out);
    bundle.write_in_rootfs(kAttackScript, attack_script(result.plan), 0755);
    Container container(Runtime::runc, mode, id);
    result.run = container.run(bundle.path());
  }
  result.attacks = parse_attacks(result.run.out);
  result.tree_changes = tree.changes();
  result.mounts_added = mounts.added();
  return result;
}

void require_ran(const AttackedHost& host) {
  INFO("runc: exit " << host.run.exit_code << "\n" << host.run.out << host.run.err);
  REQUIRE(host.run.exit_code == 0);
  REQUIRE(host.run.out.find("end|ok") != std::string::npos);
}

// Every bound object was covered from inside (the attack really happened),
// and none of those mounts shows on the host.
void check_covers_stay_inside(const AttackedHost& host) {
  require_ran(host);
  INFO("the host tree's mount: " << host.tree_mount);
  std::size_t covers = 0;
  for (const auto& attack : host.attacks) {
    if (attack.verb != "mount") continue;
    INFO("mount over " << attack.target << " from inside: " << attack.error);
    CHECK(attack.rc == 0);
    ++covers;
  }
  // Libraries, binaries, nodes, sockets, the MPS directory and GPU 1's procfs directory.
  CHECK(covers >= bound_targets(host.plan).size() + 1);
  for (const auto& line : host.mounts_added) FAIL_CHECK("a container's mount reached the host: " << line);
  for (const auto& change : host.tree_changes) FAIL_CHECK("host tree changed: " << change);
}

// chmod and chown fail on every read-only object graft bound in, so the
// host's inodes keep their modes and owners.
void check_owners_stay(const AttackedHost& host) {
  require_ran(host);
  std::size_t refused = 0;
  for (const auto& attack : host.attacks) {
    if (attack.verb != "chmod" && attack.verb != "chown") continue;
    INFO(attack.verb << " " << attack.target << " from inside");
    CHECK(attack.rc != 0);
    CHECK(attack.error == "Read-only file system");
    ++refused;
  }
  CHECK(refused >= 2 * 4);  // at least GPU 1's node, nvidiactl, a socket and a library
  for (const auto& change : host.tree_changes) FAIL_CHECK("host tree changed: " << change);
}

}  // namespace

TEST_CASE("runc in either cgroup mode: a container with CAP_SYS_ADMIN mounts over every library, node, socket and GPU directory graft gave it, and no mount reaches the host",
          "[e2e][runc][v1][v2][inside]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  check_covers_stay_inside(attack_from_inside(mode));
}

TEST_CASE("runc in either cgroup mode: a container with CAP_CHOWN and CAP_FOWNER cannot chmod or chown a node, socket, library or GPU directory graft gave it",
          "[e2e][runc][v1][v2][inside]") {
  GRAFT_E2E_EACH_CGROUP_MODE(Runtime::runc, mode);
  check_owners_stay(attack_from_inside(mode));
}
