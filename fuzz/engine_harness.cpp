// SPDX-License-Identifier: Apache-2.0
// Fake host and shipped policy for the engine fuzz targets, built on first use,
// kept for the life of the process and removed at exit (the fuzz input never touches them).
#include "engine_harness.hpp"

#include <cstdio>
#include <cstdlib>
#include <set>

#include <spdlog/spdlog.h>

#include "fake_host.hpp"
#include "inventory/inventory.hpp"
#include "plan/planner.hpp"
#include "rules/evaluate_rules.hpp"
#include "site_policy.hpp"

namespace graft::fuzz {
namespace {

struct Setup {
  fixture::FakeHost host;
  Policy trusting;   // env trusted for every container
  Policy cautious;   // env trusted for privileged containers only
  Inventory inventory;
};

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "fuzz harness: %s\n", why.c_str());
  std::abort();
}

Setup make_setup() {
  spdlog::set_level(spdlog::level::off);  // discovery warnings on every run
  auto host = fixture::FakeHost::build(fixture::FakeHostSpec::with_gpus(8, /*mig=*/true));
  std::string path = fixture::write_site_policy(host);
  auto policy = load_policy(path, PolicySearch{{fixture::source_policy_dir()}});
  if (!policy) die("loading the site policy: " + policy.error().message);
  const std::set<std::string> all = {"env", "volume-mounts", "annotations"};
  Policy trusting = *policy;
  trusting.trusted_privileged = all;
  trusting.trusted_unprivileged = all;
  Policy cautious = *policy;
  cautious.trusted_privileged = all;
  cautious.trusted_unprivileged = {"volume-mounts", "annotations"};
  auto inventory = discover_inventory(*policy);
  if (!inventory) die("discovering the fake host: " + inventory.error().message);
  return Setup{std::move(host), std::move(trusting), std::move(cautious), std::move(*inventory)};
}

const Setup& setup() {
  static const Setup instance = make_setup();  // removed at exit
  return instance;
}

}  // namespace

EngineInput split_engine_input(const std::uint8_t* data, std::size_t size) {
  EngineInput input;
  if (size == 0) return input;
  input.privileged = (data[0] & 1) != 0;
  input.trust_unprivileged = (data[0] & 2) != 0;
  std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::size_t start = 0;
  for (;;) {
    std::size_t end = rest.find('\n', start);
    input.values.push_back(rest.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return input;
}

const std::string* value_at(const EngineInput& input, std::size_t index) {
  return index < input.values.size() ? &input.values[index] : nullptr;
}

Request engine_request(const EngineInput& input) {
  Request request;
  request.container_id = "fuzz";
  request.privileged = input.privileged;
  return request;
}

// plan_container's rules and plan phases; its first phase, discovery, is
// the same for every input and runs once in setup() (it costs most of a run).
void evaluate_on_fake_host(const Request& request, bool trust_unprivileged) {
  const Setup& s = setup();
  const Policy& policy = trust_unprivileged ? s.trusting : s.cautious;
  auto intent = evaluate_rules(request, s.inventory, policy);
  if (!intent) {
    if (intent.error().message.empty()) die("a rules error without a message");
    return;
  }
  auto plan = make_plan(request, s.inventory, policy, *intent);
  if (!plan && plan.error().message.empty()) die("a plan error without a message");
}

}  // namespace graft::fuzz
