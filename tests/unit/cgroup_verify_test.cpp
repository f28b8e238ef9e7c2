// SPDX-License-Identifier: Apache-2.0
// The cgroup plugin's verify (`graft verify`) against real device cgroups:
// after the plugin granted its rules to a child process, verify finds
// nothing; once the cgroup loses a rule (v1: devices.deny; v2: a program
// attached beside graft's that denies), verify names what is left. On v2 it
// reads back graft's own wrapper, follows its tail call into the pinned
// program array, and interprets the runtime's program there. Needs root.
#include <catch2/catch.hpp>

#include <linux/capability.h>
#include <sys/syscall.h>

#include "cgroup_support.hpp"

using namespace graft;
using namespace graft::cgroup_test;

namespace {

std::vector<PluginFinding> verify_rule(LoadedPlugin& plugin, const Action& action, int pid) {
  auto findings = plugin.verify(action, 0, ApplyTarget{.pid = pid});
  INFO((findings.ok() ? std::string() : findings.error().message));
  REQUIRE(findings.ok());
  return *findings;
}

}  // namespace

TEST_CASE("the cgroup plugin verifies its rules", "[plugins][cgroup][verify]") {
  auto plugin = load_cgroup_plugin("{}");
  CHECK(plugin->verifies());
}

TEST_CASE("On cgroup v1 verify finds the granted rules, then the rule devices.deny took away",
          "[plugins][cgroup][verify]") {
  const std::string devices = devices_v1_or_skip("cgroups");
  if (devices.empty()) return;
  const std::string root = fs::path(devices).parent_path().string();
  ChildCgroup cgroup(devices);
  REQUIRE(write_text(cgroup.path / "devices.deny", "a"));
  REQUIRE(write_text(cgroup.path / "devices.allow", "c 1:3 rwm"));
  Probe probe;
  cgroup.add(probe.pid());
  auto plugin = load_cgroup_plugin(R"({"cgroup_root": ")" + root + R"("})");
  const std::vector<Action> rules{allow(195, 1), allow(195, 3, "r")};
  REQUIRE(run_phases(*plugin, rules, probe.pid()).ok());
  for (const Action& rule : rules) CHECK(verify_rule(*plugin, rule, probe.pid()).empty());

  REQUIRE(write_text(cgroup.path / "devices.deny", "c 195:1 w"));
  auto verifier = load_cgroup_plugin(R"({"cgroup_root": ")" + root + R"("})");  // reads afresh
  auto findings = verify_rule(*verifier, rules[0], probe.pid());
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::drift);
  CHECK(findings[0].expected == "rw allowed");
  CHECK(findings[0].found == "only r allowed");
  CHECK(verify_rule(*verifier, rules[1], probe.pid()).empty());
}

TEST_CASE("On cgroup v2 verify reads graft's wrapper and the runtime's program behind its tail call",
          "[plugins][cgroup][verify]") {
  auto container = v2_container_or_skip(RuntimeProgram::multi);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  auto plugin = load_cgroup_plugin(v2->config());
  const std::vector<Action> rules{allow(195, 1), allow(195, 3, "r")};
  REQUIRE(run_phases(*plugin, rules, probe.pid()).ok());
  for (const Action& rule : rules) CHECK(verify_rule(*plugin, rule, probe.pid()).empty());
  // The runtime's own rule is still answered through the tail call.
  CHECK(verify_rule(*plugin, allow(1, 3, "rwm"), probe.pid()).empty());
  auto not_granted = verify_rule(*plugin, allow(195, 2), probe.pid());
  REQUIRE(not_granted.size() == 1);
  CHECK(not_granted[0].found == "nothing allowed");
}

TEST_CASE("On cgroup v2 verify reports rules a second, denying program took away",
          "[plugins][cgroup][verify]") {
  auto container = v2_container_or_skip(RuntimeProgram::multi);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  auto plugin = load_cgroup_plugin(v2->config());
  REQUIRE(run_phases(*plugin, {allow(195, 1)}, probe.pid()).ok());
  REQUIRE(probe.open_errno(nodes.n1) == ENXIO);
  // Another program beside graft's, as a cgroup manager re-applying its
  // own record would leave: every program must allow.
  int deny_all = load_device_program({insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
                                      insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)});
  REQUIRE(deny_all >= 0);
  attach_multi(cgroup.path, deny_all);
  ::close(deny_all);
  REQUIRE(probe.open_errno(nodes.n1) == EPERM);
  auto verifier = load_cgroup_plugin(v2->config());
  auto findings = verify_rule(*verifier, allow(195, 1), probe.pid());
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::drift);
  CHECK(findings[0].found == "nothing allowed");
}

TEST_CASE("On cgroup v2 with no device program attached verify finds every device allowed",
          "[plugins][cgroup][verify]") {
  auto container = v2_container_or_skip(RuntimeProgram::none);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  auto plugin = load_cgroup_plugin(v2->config());
  CHECK(verify_rule(*plugin, allow(195, 1), probe.pid()).empty());
}

TEST_CASE("On cgroup v2 a program graft cannot interpret is reported as unknown, not a pass",
          "[plugins][cgroup][verify]") {
  auto container = v2_container_or_skip(RuntimeProgram::none);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  // Writes to the stack before allowing: outside the interpreted subset.
  int stack_user = load_device_program({insn(BPF_ST | BPF_W | BPF_MEM, 10, 0, -4, 7),
                                        insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 1),
                                        insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)});
  REQUIRE(stack_user >= 0);
  attach_multi(cgroup.path, stack_user);
  ::close(stack_user);
  auto plugin = load_cgroup_plugin(v2->config());
  auto findings = verify_rule(*plugin, allow(195, 1), probe.pid());
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::unknown);
  CHECK_THAT(findings[0].found, Catch::Contains("instruction 0") && Catch::Contains("stores to memory"));
}

namespace {

// capset(2) without libcap: this process keeps every capability but `drop`.
bool drop_capability(int drop) {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  if (::syscall(SYS_capget, &header, data) != 0) return false;
  data[drop / 32].effective &= ~(1u << (drop % 32));
  data[drop / 32].permitted &= ~(1u << (drop % 32));
  return ::syscall(SYS_capset, &header, data) == 0;
}

}  // namespace

TEST_CASE("On cgroup v2 without CAP_SYS_ADMIN verify says it cannot read the device programs, not a pass",
          "[plugins][cgroup][verify]") {
  auto container = v2_container_or_skip(RuntimeProgram::multi);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  auto plugin = load_cgroup_plugin(v2->config());
  int report[2];
  REQUIRE(::pipe(report) == 0);
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {  // verify without the capability, the finding back through the pipe
    std::string line = "capset failed";
    if (drop_capability(CAP_SYS_ADMIN)) {
      auto findings = plugin->verify(allow(195, 1), 0, ApplyTarget{.pid = probe.pid()});
      line = !findings.ok()          ? "error: " + findings.error().message
             : findings->size() != 1 ? "findings: " + std::to_string(findings->size())
             : ((*findings)[0].kind == FindingKind::unknown ? "unknown: " : "other: ") +
                   (*findings)[0].found;
    }
    (void)!::write(report[1], line.data(), line.size());
    ::_exit(0);
  }
  ::close(report[1]);
  std::string line(4096, '\0');
  ssize_t got = ::read(report[0], line.data(), line.size());
  ::close(report[0]);
  ::waitpid(child, nullptr, 0);
  line.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  CHECK_THAT(line, Catch::StartsWith("unknown: ") && Catch::Contains("reading its device programs") &&
                       Catch::Contains("Operation not permitted"));
}
