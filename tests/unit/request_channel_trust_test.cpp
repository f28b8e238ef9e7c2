// SPDX-License-Identifier: Apache-2.0
// Request channel trust under hardened site policies: [requests] lists the
// channels core trusts per privilege (rules/request_view.cpp gives the rules
// req.trusted), and visible_devices.lua honours the first present, trusted
// channel and notes the untrusted ones it ignored. These cases need
// [requests] other than the default site policy's, which the shipped policy
// test suite (policies/nvidia/tests, one site policy for every case) runs
// under; the cases that hold under the default policy are there.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "env_support.hpp"

using namespace graft;
using namespace graft::env_test;

TEST_CASE("env devices are ignored in an unprivileged container when env is not trusted", "[env]") {
  auto intent = evaluate(make_request({{"NVIDIA_VISIBLE_DEVICES", "all"}}, false), cautious_policy());
  CHECK_FALSE(intent.inject);
  CHECK(intent.devices.empty());
  CHECK_FALSE(intent.refusal);
  CHECK(has_note(intent, "ignored devices requested by environment in an unprivileged container"));
}

TEST_CASE("env devices are honoured in a privileged container under the same policy", "[env]") {
  auto intent = evaluate(make_request({{"NVIDIA_VISIBLE_DEVICES", "2"}}, true), cautious_policy());
  CHECK(devices(intent) == std::vector<std::string>{"2"});
  CHECK(has_note(intent, "devices from env NVIDIA_VISIBLE_DEVICES=2 (trusted)"));
}

TEST_CASE("an untrusted legacy CUDA image does not get every GPU", "[env]") {
  auto intent = evaluate(make_request({{"CUDA_VERSION", "11.8.0"}}, false), cautious_policy());
  CHECK_FALSE(intent.inject);
  CHECK(has_note(intent, "ignored devices requested by environment"));
}

TEST_CASE("volume mounts select devices when trusted", "[env]") {
  Request req = make_request({}, false);
  req.mounts = {device_mount("0"), device_mount(kUuids[4])};
  auto intent = evaluate(req, cautious_policy());
  CHECK(intent.inject);
  REQUIRE(devices(intent) == std::vector<std::string>{"0", "4"});
  CHECK(intent.devices[0].reason.text == std::string("volume mount ") + kPrefix + "/0");
  CHECK(has_note(intent, "devices from volume mounts (trusted)"));
}

TEST_CASE("a volume mount for all grants every GPU", "[env]") {
  Request req = make_request({}, false);
  req.mounts = {device_mount("all")};
  CHECK(devices(evaluate(req, cautious_policy())) == kAllGpus);
}

TEST_CASE("CDI-style volume mount names select devices", "[env]") {
  Request req = make_request({}, false);
  req.mounts = {device_mount("cdi/nvidia.com/gpu/1"), device_mount("cdi/nvidia.com/gpu=7:2")};
  CHECK(devices(evaluate(req, cautious_policy())) == std::vector<std::string>{"1", "7:2"});
}

TEST_CASE("volume mounts win over env", "[env]") {
  Request req = make_request({{"NVIDIA_VISIBLE_DEVICES", "all"}}, true);
  req.mounts = {device_mount("3")};
  CHECK(devices(evaluate(req, cautious_policy())) == std::vector<std::string>{"3"});
}

TEST_CASE("mounts under the prefix that are not from /dev/null are not requests", "[env]") {
  Request req = make_request({}, false);
  req.mounts = {device_mount("3", "/tmp/x")};
  auto intent = evaluate(req, cautious_policy());
  CHECK_FALSE(intent.inject);
}

TEST_CASE("an unknown device in a volume mount is refused naming the mount", "[env]") {
  Request req = make_request({}, false);
  req.mounts = {device_mount("12")};
  CHECK(refusal(evaluate(req, cautious_policy())) ==
        std::string("unknown device '12' in volume mount ") + kPrefix + "/12 (the host has 8 GPUs)");
}

TEST_CASE("untrusted annotations are ignored with a note and env decides", "[env]") {
  Policy policy = cautious_policy();
  policy.trusted_privileged = {"env"};
  Request req = make_request({{"NVIDIA_VISIBLE_DEVICES", "1"}}, true);
  req.annotations = {{"cdi.k8s.io/gpus", "nvidia.com/gpu=all"}};
  auto intent = evaluate(req, policy);
  CHECK(devices(intent) == std::vector<std::string>{"1"});
  CHECK(has_note(intent, "ignored devices requested by annotations cdi.k8s.io/* (not a trusted "
                         "request channel for privileged containers)"));
}
