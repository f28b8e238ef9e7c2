// NVIDIA env contract, request channels and trust: devices asked for by env,
// volume mounts under /var/run/nvidia-container-devices and cdi.k8s.io/*
// annotations, which channel wins, and how an untrusted channel is ignored with a note.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "env_support.hpp"

using namespace graft;
using namespace graft::env_test;

// ---------------------------------------------------------------------------
// Request channels and trust

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

TEST_CASE("untrusted volume mounts are ignored with a note and env decides", "[env]") {
  Policy policy = cautious_policy();
  policy.trusted_unprivileged = {"env"};
  Request req = make_request({{"NVIDIA_VISIBLE_DEVICES", "5"}}, false);
  req.mounts = {device_mount("all")};
  auto intent = evaluate(req, policy);
  CHECK(devices(intent) == std::vector<std::string>{"5"});
  CHECK(has_note(intent, "ignored devices requested by volume mounts in an unprivileged container"));
}

TEST_CASE("an unknown device in a volume mount is refused naming the mount", "[env]") {
  Request req = make_request({}, false);
  req.mounts = {device_mount("12")};
  CHECK(refusal(evaluate(req, cautious_policy())) ==
        std::string("unknown device '12' in volume mount ") + kPrefix + "/12 (the host has 8 GPUs)");
}

TEST_CASE("annotations win over env", "[env]") {
  Request req = make_request({{"NVIDIA_VISIBLE_DEVICES", "0"}}, true);
  req.annotations = {{"cdi.k8s.io/gpus", "nvidia.com/gpu=all"}};
  auto intent = evaluate(req, cautious_policy());
  CHECK(devices(intent) == kAllGpus);
  CHECK(intent.devices[0].reason.text == "annotation cdi.k8s.io/gpus=nvidia.com/gpu=all");
  CHECK(has_note(intent, "devices from annotations cdi.k8s.io/* (trusted)"));
}

TEST_CASE("annotations list several CDI names across keys", "[env]") {
  Request req = make_request({}, false);
  req.annotations = {{"cdi.k8s.io/b", "nvidia.com/gpu=6"},
                     {"cdi.k8s.io/a", "vendor.example/nic=eth0, nvidia.com/gpu=" + kUuids[2]}};
  CHECK(devices(evaluate(req, cautious_policy())) == std::vector<std::string>{"2", "6"});
}

TEST_CASE("annotations naming only other vendors' devices are not GPU requests", "[env]") {
  Request req = make_request({{"NVIDIA_VISIBLE_DEVICES", "1"}}, true);
  req.annotations = {{"cdi.k8s.io/nic", "vendor.example/nic=eth0"}};
  CHECK(devices(evaluate(req, cautious_policy())) == std::vector<std::string>{"1"});
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

TEST_CASE("an unknown device in an annotation is refused naming the annotation", "[env]") {
  Request req = make_request({}, false);
  req.annotations = {{"cdi.k8s.io/gpus", "nvidia.com/gpu=GPU-nope"}};
  CHECK(refusal(evaluate(req, cautious_policy())) ==
        "unknown device 'GPU-nope' in annotation cdi.k8s.io/gpus");
}
