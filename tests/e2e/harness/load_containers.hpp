// SPDX-License-Identifier: Apache-2.0
// Many containers started at once: one thread per container builds its
// bundle (and, for the plan probe, its plan and check script), all threads
// wait for the last one, then each runs `runc run` in the foreground with
// graft as the prestart hook, so the hooks overlap as they do when a node
// starts a batch of pods. Nothing here asserts (Catch2 is not thread-safe):
// results come back for the test's thread to check.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "probed_container.hpp"

namespace graft::e2e {

// Container i of a load asks for GPU i % 8, by UUID for every odd i and by
// index otherwise, with the capability sets taking turns, so that
// neighbouring containers differ in GPU, spelling and capabilities.
struct LoadRequest {
  unsigned gpu = 0;
  bool by_uuid = false;
  std::string capabilities;
};
LoadRequest load_request(std::size_t i);

// What runs inside.
enum class LoadProbe {
  plan_script,  // the check script generated from the container's own `graft plan`
  gpu_listing,  // `ls /dev /proc/driver/nvidia/gpus` only: cheap, for many cycles
};

struct LoadedContainer {
  LoadRequest request;
  ProbedContainer probed;  // plan and report are empty for gpu_listing
  std::vector<std::string> runtime_state_left;  // entries in runc's --root once run returned
  std::string failure;  // what went wrong before runc could be run, if anything
};

// Starts `count` containers (requests 0..count-1) at once and waits for all.
std::vector<LoadedContainer> start_at_once(std::size_t count, LoadProbe probe);

// The id prefix of every container this process starts ("graft-e2e-load-<pid>-").
std::string load_id_prefix();

}  // namespace graft::e2e
