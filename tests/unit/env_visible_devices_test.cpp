// NVIDIA env contract, NVIDIA_VISIBLE_DEVICES: which values make a GPU
// container, all and none, whole GPUs by index, UUID or PCI bus id, and the
// refusal of tokens that name no GPU. MIG partitions are in env_mig_test.cpp.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "env_support.hpp"

using namespace graft;
using namespace graft::env_test;

// ---------------------------------------------------------------------------
// NVIDIA_VISIBLE_DEVICES: not a GPU container

TEST_CASE("NVIDIA_VISIBLE_DEVICES unset is not a GPU container", "[env]") {
  auto intent = evaluate_env({});
  CHECK_FALSE(intent.inject);
  CHECK(intent.devices.empty());
  CHECK(intent.capabilities.empty());
  CHECK_FALSE(intent.refusal);
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES empty is not a GPU container", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", ""}});
  CHECK_FALSE(intent.inject);
  CHECK(intent.devices.empty());
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES=void is not a GPU container", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "void"}});
  CHECK_FALSE(intent.inject);
  CHECK(intent.devices.empty());
  CHECK(intent.inject_reason.text == "NVIDIA_VISIBLE_DEVICES=void");
}

TEST_CASE("void anywhere in the list wins over the other devices", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0, void,1"}});
  CHECK_FALSE(intent.inject);
  CHECK(intent.devices.empty());
}

// ---------------------------------------------------------------------------
// NVIDIA_VISIBLE_DEVICES: all and none

TEST_CASE("NVIDIA_VISIBLE_DEVICES=all grants every GPU", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "all"}});
  CHECK(intent.inject);
  CHECK(devices(intent) == kAllGpus);
  CHECK(intent.devices[3].reason.text == "NVIDIA_VISIBLE_DEVICES=all");
  CHECK(has_note(intent, "devices from env NVIDIA_VISIBLE_DEVICES=all (trusted)"));
}

TEST_CASE("all anywhere in a list grants every GPU", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0,all"}});
  CHECK(devices(intent) == kAllGpus);
}

TEST_CASE("the first of all and none in a list wins", "[env]") {
  CHECK(evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "none,all"}}).devices.empty());
  CHECK(devices(evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "2,all,none"}})) == kAllGpus);
}

TEST_CASE("fully qualified nvidia.com/gpu CDI names in NVIDIA_VISIBLE_DEVICES mean their id", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "nvidia.com/gpu=3,nvidia.com/gpu=7:2"}});
  REQUIRE(devices(intent) == std::vector<std::string>{"3", "7:2"});
  CHECK(intent.devices[0].reason.text == "NVIDIA_VISIBLE_DEVICES=nvidia.com/gpu=3");
  CHECK(devices(evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "nvidia.com/gpu=all"}})) == kAllGpus);
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES=none injects the driver without GPUs", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "none"}});
  CHECK(intent.inject);
  CHECK(intent.devices.empty());
  CHECK(capabilities(intent) == default_capabilities());
  CHECK_FALSE(intent.refusal);
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES=all on a host without GPUs injects the driver only", "[env]") {
  Inventory inv = make_inventory();
  inv.gpus.clear();
  auto intent = evaluate(make_request({{"NVIDIA_VISIBLE_DEVICES", "all"}}), trusting_policy(), inv);
  CHECK(intent.inject);
  CHECK(intent.devices.empty());
  CHECK(has_note(intent, "no GPUs found on this host"));
}

// ---------------------------------------------------------------------------
// NVIDIA_VISIBLE_DEVICES: indices, UUIDs, bus ids

TEST_CASE("a single index grants that GPU with the variable as its reason", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "1"}});
  CHECK(intent.inject);
  REQUIRE(devices(intent) == std::vector<std::string>{"1"});
  CHECK(intent.devices[0].reason.text == "NVIDIA_VISIBLE_DEVICES=1");
  CHECK(intent.devices[0].reason.origin.file.find("visible_devices.lua") != std::string::npos);
  CHECK(intent.devices[0].reason.origin.line > 0);
  CHECK(has_note(intent, "devices from env NVIDIA_VISIBLE_DEVICES=1 (trusted)"));
}

TEST_CASE("a comma list of indices is whitespace-trimmed", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", " 0 , 2,5 "}});
  CHECK(devices(intent) == std::vector<std::string>{"0", "2", "5"});
}

TEST_CASE("duplicate devices are granted once", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "1,1," + kUuids[1] + ",0000:1a:00.0"}});
  CHECK(devices(intent) == std::vector<std::string>{"1"});
  CHECK_FALSE(intent.refusal);
}

TEST_CASE("a full GPU UUID grants that GPU", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", kUuids[5]}});
  CHECK(devices(intent) == std::vector<std::string>{"5"});
}

TEST_CASE("a unique GPU UUID prefix grants that GPU", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "GPU-fef8089b"}});
  CHECK(devices(intent) == std::vector<std::string>{"3"});
}

TEST_CASE("an ambiguous GPU UUID prefix is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "GPU-1a2b"}});
  CHECK(refusal(intent) ==
        "ambiguous device 'GPU-1a2b' in NVIDIA_VISIBLE_DEVICES (matches GPU 0, GPU 1)");
  CHECK(intent.devices.empty());
}

TEST_CASE("an unknown GPU UUID is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "GPU-deadbeef-0000-0000-0000-000000000000"}});
  CHECK(refusal(intent) ==
        "unknown device 'GPU-deadbeef-0000-0000-0000-000000000000' in NVIDIA_VISIBLE_DEVICES");
}

TEST_CASE("a PCI bus id with a 4-digit domain grants that GPU", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0000:3b:00.0"}});
  CHECK(devices(intent) == std::vector<std::string>{"2"});
}

TEST_CASE("a PCI bus id with an 8-digit domain and upper-case hex grants that GPU", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "00000000:9A:00.0"}});
  CHECK(devices(intent) == std::vector<std::string>{"4"});
}

TEST_CASE("an unknown PCI bus id is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0000:42:00.0"}});
  CHECK(refusal(intent) == "unknown device '0000:42:00.0' in NVIDIA_VISIBLE_DEVICES");
}

TEST_CASE("indices, UUIDs and bus ids mix in one list", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "6," + kUuids[0] + ",0000:bc:00.0"}});
  CHECK(devices(intent) == std::vector<std::string>{"6", "0"});
}

// ---------------------------------------------------------------------------
// NVIDIA_VISIBLE_DEVICES: refusals

TEST_CASE("an unknown token is refused with one clear message", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "gpu0"}});
  CHECK(refusal(intent) == "unknown device 'gpu0' in NVIDIA_VISIBLE_DEVICES");
  CHECK(intent.devices.empty());
}

TEST_CASE("an index out of range is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "8"}});
  CHECK(refusal(intent) == "unknown device '8' in NVIDIA_VISIBLE_DEVICES (the host has 8 GPUs)");
}

TEST_CASE("a negative index is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "-1"}});
  CHECK(refusal(intent) == "unknown device '-1' in NVIDIA_VISIBLE_DEVICES");
}

TEST_CASE("one bad token in a list refuses the whole request and grants nothing", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0,1,bogus"}});
  CHECK(refusal(intent) == "unknown device 'bogus' in NVIDIA_VISIBLE_DEVICES");
  CHECK(intent.devices.empty());
  CHECK(intent.capabilities.empty());
}
