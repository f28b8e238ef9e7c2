// SPDX-License-Identifier: Apache-2.0
// Shared helpers for whole-pipeline tests: a fake host with a site policy,
// evaluation of a request against it, and queries over the resulting plan.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "evaluation/container_plan.hpp"
#include "fake_host.hpp"
#include "plan_queries.hpp"
#include "site_policy.hpp"

namespace graft::testing {

using namespace graft::test;  // the plan queries

using Env = std::map<std::string, std::string>;

struct PlannedHost {
  fixture::FakeHost host;
  Policy policy;

  static PlannedHost make(unsigned gpus, bool mig = false, const std::string& extra_toml = "");
  static PlannedHost make(const fixture::FakeHostSpec& spec, const std::string& extra_toml = "");

  // Evaluates an audit request (no rootfs: Debian layout) and returns the plan.
  Result<ContainerPlan> evaluate(const Env& env, bool privileged = false) const;
  Plan plan(const Env& env, bool privileged = false) const;
};

// Device-node tests need mknod; elsewhere they pass vacuously with a warning.
bool nodes_available(const PlannedHost& host);

}  // namespace graft::testing
