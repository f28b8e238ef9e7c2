// SPDX-License-Identifier: Apache-2.0
#include "env_support.hpp"

#include <algorithm>
#include <set>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "rules/evaluate_rules.hpp"

namespace graft::env_test {

namespace {

const std::vector<unsigned> kBuses = {0x19, 0x1a, 0x3b, 0x3c, 0x9a, 0x9b, 0xbc, 0xbd};

const std::set<std::string> kAllChannels = {"env", "volume-mounts", "annotations"};

std::vector<std::string> sorted_names(const std::vector<NamedGrant>& grants) {
  std::vector<std::string> out;
  for (const auto& g : grants) out.push_back(g.name);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

Inventory make_inventory() {
  Inventory inv;
  inv.driver_version = "560.35.03";
  inv.driver_versions["nvidia"] = inv.driver_version;
  for (unsigned i = 0; i < 8; ++i) {
    Gpu gpu;
    gpu.index = i;
    gpu.vendor = "nvidia";  // the shipped policy's [vendor.nvidia], as discovery would say
    gpu.vendor_index = i;
    gpu.minor = i;
    gpu.uuid = kUuids[i];
    gpu.bus_id = fmt::format("0000:{:02x}:00.0", kBuses[i]);
    gpu.model = "NVIDIA H100";
    inv.gpus.push_back(gpu);
  }
  for (unsigned p = 0; p < 3; ++p) {
    Partition part;
    part.index = p;
    part.gi = p + 1;
    part.ci = 0;
    inv.gpus[7].partitions.push_back(part);
  }
  return inv;
}

const Policy& shipped_policy() {
  static const Policy policy = [] {
    auto loaded = load_policy(GRAFT_SOURCE_DIR "/policies/nvidia/nvidia.toml", PolicySearch{});
    if (!loaded) FAIL("loading the shipped policy: " << loaded.error().message);
    return loaded.value();
  }();
  return policy;
}

Policy trusting_policy() {
  Policy p = shipped_policy();
  p.trusted_privileged = kAllChannels;
  p.trusted_unprivileged = kAllChannels;
  return p;
}

Policy cautious_policy() {
  Policy p = shipped_policy();
  p.trusted_privileged = kAllChannels;
  p.trusted_unprivileged = {"volume-mounts", "annotations"};
  return p;
}

Request make_request(const Env& env, bool privileged) {
  Request req;
  req.container_id = "test";
  req.env = env;
  req.privileged = privileged;
  return req;
}

Intent evaluate(const Request& req, const Policy& policy, const Inventory& inv) {
  auto intent = evaluate_rules(req, inv, policy);
  if (!intent) FAIL("evaluate_rules: " << intent.error().message);
  return intent.value();
}

Intent evaluate_env(const Env& env, bool privileged) {
  return evaluate(make_request(env, privileged));
}

std::vector<std::string> devices(const Intent& intent) {
  std::vector<std::string> out;
  for (const auto& d : intent.devices) {
    out.push_back(d.partition ? fmt::format("{}:{}", d.gpu, *d.partition)
                              : fmt::format("{}", d.gpu));
  }
  return out;
}

std::vector<std::string> capabilities(const Intent& intent) {
  return sorted_names(intent.capabilities);
}

std::vector<std::string> extras(const Intent& intent) { return sorted_names(intent.extras); }

std::vector<std::string> supported_capabilities() {
  std::vector<std::string> out;
  for (const auto& name : shipped_policy().data.at("supported_capabilities")) {
    out.push_back(name.get<std::string>());
  }
  return sorted(out);
}

std::vector<std::string> default_capabilities() {
  std::vector<std::string> out;
  for (const auto& name : shipped_policy().default_capabilities) out.push_back(name.value);
  return sorted(out);
}

std::string refusal(const Intent& intent) { return intent.refusal ? intent.refusal->text : ""; }

bool has_note(const Intent& intent, const std::string& text) {
  return std::any_of(intent.request_notes.begin(), intent.request_notes.end(),
                     [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

RequestMount device_mount(const std::string& what, const std::string& source) {
  return RequestMount{std::string(kPrefix) + "/" + what, source, "bind", {"ro", "rbind"}};
}

}  // namespace graft::env_test
