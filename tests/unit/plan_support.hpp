// Shared helpers for whole-pipeline tests: a fake host with a site policy,
// evaluation of a request against it, and queries over the resulting plan.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "engine/container_plan.hpp"
#include "fake_host.hpp"
#include "site_policy.hpp"

namespace graft::testing {

using Env = std::map<std::string, std::string>;

struct PlannedHost {
  fixture::FakeHost host;
  Policy policy;

  static PlannedHost make(unsigned gpus, bool mig = false, const std::string& extra_toml = "");

  // Evaluates an audit request (no rootfs: Debian layout) and returns the plan.
  Result<ContainerPlan> evaluate(const Env& env, bool privileged = false) const;
  Plan plan(const Env& env, bool privileged = false) const;
};

// Targets of every action of `kind` in the plan, in plan order.
std::vector<std::string> targets(const Plan& plan, ActionKind kind);
bool has_target(const Plan& plan, ActionKind kind, const std::string& target);
const Action* find_action(const Plan& plan, ActionKind kind, const std::string& target);
// True when any bind mount target ends in `/<file>` (e.g. "libcuda.so.560.35.03").
bool mounts_file(const Plan& plan, const std::string& file);

// Device-node tests need mknod; elsewhere they pass vacuously with a warning.
bool nodes_available(const PlannedHost& host);

}  // namespace graft::testing
