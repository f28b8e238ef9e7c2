// SPDX-License-Identifier: Apache-2.0
// What "the container got exactly what graft plan printed" means, as Catch2
// checks over a ProbedContainer: one function per behaviour, shared by the
// runc (cgroup v1 and v2) and crun test cases.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "probed_container.hpp"

namespace graft::e2e {

// The runtime started the container, the script ran to its end, no mount leaked.
void require_ran_cleanly(const ProbedContainer& container);

// GPU 1's node opens as far as the (absent) driver (ENXIO), so do nvidiactl
// and nvidia-uvm; GPU 0 is absent, and the node made for it by hand is
// refused by the device cgroup (EPERM); /dev/null still works.
void check_gpu1_devices(const ProbedContainer& container);

// Each planned device node is a character device with the planned numbers.
void check_planned_node_numbers(const ProbedContainer& container);

// Every planned target exists inside: nodes, links to the planned source, files.
void check_planned_targets_exist(const ProbedContainer& container);

// The plan's targets of `kinds` ("bind_mount", "symlink") under `dir_prefix`.
std::set<std::string> targets_under(const nlohmann::json& plan, const std::vector<std::string>& kinds,
                                    const std::string& dir_prefix);

// Every library bind mount of the plan is there and read-only, every soname
// link leads to the planned file, and `ldconfig -p` lists libcuda.so.1.
void check_planned_libraries(const ProbedContainer& container);

// Every library bind mount of the plan is there and read-only and every
// planned link leads to the planned file; returns how many were mounted.
std::size_t check_planned_library_files(const ProbedContainer& container);

// `ldconfig -p` inside runs and lists `soname` in the plan's library dir
// (the probe keeps the lines naming a vendor's libraries: plan_probe.cpp).
void check_ldcache_lists(const ProbedContainer& container, const std::string& soname);

// /proc/driver/nvidia lists only GPU 1 and has ModifyDeviceFiles off.
void check_gpu1_procfs(const ProbedContainer& container);

// Every planned target exists inside, and the NVIDIA nodes in /dev and the
// files in the library directory are exactly the planned ones: for
// containers the plan reached by other means than one graft hook (a CDI
// spec and its hooks, graft-runtime's declarative edits).
void check_exactly_the_planned_targets(const ProbedContainer& container);

// check_exactly_the_planned_targets, and the hook's audit record applied as
// many actions as the plan has.
void check_exactly_the_plan(const ProbedContainer& container);

// The hook applied this very plan: `applied` (the container's "applied"
// audit records) is one record with as many actions as the plan has.
void check_applied_the_plan(const ProbedContainer& container, const std::vector<nlohmann::json>& applied);

// A container that asked for no GPU ran and got nothing: no NVIDIA node,
// none of the files of the plan it was probed with, nothing in its linker
// cache, no driver procfs, and no audit record. (The probe's write test
// creates empty files where it found none, so the library directory's
// listing says nothing here.)
void check_given_nothing(const ProbedContainer& container);

}  // namespace graft::e2e
