// SPDX-License-Identifier: Apache-2.0
#include "load_containers.hpp"

#include <unistd.h>

#include <exception>
#include <filesystem>
#include <latch>
#include <thread>

#include "fake_host.hpp"
#include "gpu_host.hpp"
#include "load_audit.hpp"

namespace graft::e2e {
namespace {

// Three sets (coprime with 8): over 24 containers every GPU meets every set.
constexpr const char* kCapabilitySets[] = {"compute,utility", "utility", "all"};

BundleSpec bundle_spec(const LoadRequest& request, LoadProbe probe) {
  BundleSpec spec;
  std::string device = request.by_uuid ? fixture::fake_gpu(request.gpu).uuid : std::to_string(request.gpu);
  spec.env = {"NVIDIA_VISIBLE_DEVICES=" + device, "NVIDIA_DRIVER_CAPABILITIES=" + request.capabilities};
  if (probe == LoadProbe::gpu_listing) spec.args = {"/bin/ls", "/dev", "/proc/driver/nvidia/gpus"};
  spec.hook_policy = load_policies().hook;
  return spec;
}

std::vector<std::string> entries_of(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ignored))
    out.push_back(entry.path().filename().string());
  return out;
}

// The bundle (and plan and script) before the start line, the run after it.
// Every path arrives at `start`, so one failure cannot strand the others.
void start_one(LoadedContainer& slot, LoadProbe probe, std::latch& start) {
  std::unique_ptr<OciBundle> bundle;
  try {
    BundleSpec spec = bundle_spec(slot.request, probe);
    spec.cgroups_path = "/" + slot.probed.id;
    bundle = std::make_unique<OciBundle>(spec);
    if (probe == LoadProbe::plan_script) {
      auto planned = testing::run_graft({"--policy", load_policies().plan, "plan", "--bundle", bundle->path(),
                                         "--id", slot.probed.id, "--format", "json"});
      if (planned.exit_code != 0)
        throw std::runtime_error("graft plan exited " + std::to_string(planned.exit_code) + ": " + planned.err);
      slot.probed.plan = nlohmann::json::parse(planned.out);
      bundle->write_in_rootfs(kProbeScript, probe_script(slot.probed.plan), 0755);
    }
  } catch (const std::exception& error) {
    slot.failure = error.what();
  }
  start.arrive_and_wait();
  if (!slot.failure.empty()) return;
  try {
    Container container(Runtime::runc, CgroupMode::v1, slot.probed.id);
    slot.probed.run = container.run(bundle->path());
    slot.probed.report = ProbeReport::parse(slot.probed.run.out);
    slot.runtime_state_left = entries_of(container.state_dir());
  } catch (const std::exception& error) {
    slot.failure = error.what();
  }
}

}  // namespace

LoadRequest load_request(std::size_t i) {
  return LoadRequest{.gpu = static_cast<unsigned>(i % kFakeGpus),
                     .by_uuid = (i / kFakeGpus) % 2 == 1,
                     .capabilities = kCapabilitySets[i % std::size(kCapabilitySets)]};
}

std::string load_id_prefix() { return "graft-e2e-load-" + std::to_string(::getpid()) + "-"; }

std::vector<LoadedContainer> start_at_once(std::size_t count, LoadProbe probe) {
  load_policies();  // written here, before any thread needs them
  std::vector<LoadedContainer> slots(count);
  for (std::size_t i = 0; i < count; ++i) {
    slots[i].request = load_request(i);
    slots[i].probed.id = unique_container_id("load");
  }
  std::latch start(static_cast<std::ptrdiff_t>(count));
  std::vector<std::thread> threads;
  threads.reserve(count);
  for (auto& slot : slots) threads.emplace_back(start_one, std::ref(slot), probe, std::ref(start));
  for (auto& thread : threads) thread.join();
  return slots;
}

}  // namespace graft::e2e
