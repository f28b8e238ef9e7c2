// SPDX-License-Identifier: Apache-2.0
// What the load tests assert about one container among many and about the
// host after a batch: each container got what its own request asked for and
// nothing a neighbour asked for, the audit log has one whole line per hook,
// and the host is as it was. Catch2 checks, run on the test's thread.
#pragma once

#include <string>
#include <vector>

#include "load_audit.hpp"
#include "load_containers.hpp"
#include "load_host.hpp"
#include "skip.hpp"

namespace graft::e2e {

// GRAFT_E2E_REQUIRE for the load cases, plus the private host (load_host.hpp).
#define GRAFT_LOAD_REQUIRE()                                                         \
  do {                                                                               \
    GRAFT_E2E_REQUIRE(::graft::e2e::Runtime::runc, ::graft::e2e::CgroupMode::v1);    \
    GRAFT_SKIP_IF(::graft::e2e::enter_private_host());                               \
  } while (0)

// The private host's fake GPU host, built after the private /tmp is in place.
const std::string& load_host_root();

// runc ran the container to its end and kept no state for it.
void check_started_and_gone(const LoadedContainer& container);

// plan_script: the container has exactly its plan, the plan grants exactly
// the requested GPU, that GPU's node and procfs entry are the only ones
// inside, and every planned library is mounted read-only.
void check_own_plan(const LoadedContainer& container);

// gpu_listing: /dev has the requested GPU's node and no other GPU node, and
// /proc/driver/nvidia/gpus lists only its bus id.
void check_own_listing(const LoadedContainer& container);

// `expected_lines` lines in all, none torn, and one "applied" record per
// container of `batch`, granting its own GPU for its own request. Returns
// the batch's max_rss_kb values.
std::vector<long> check_audit_lines(const AuditLines& lines, std::size_t expected_lines,
                                    const std::vector<LoadedContainer>& batch);

// No change in mounts, temp entries, fake host files or fds, and no cgroup
// of a load container left.
void check_host_unchanged(const HostChanges& changes);

// The figures line the load cases print (docs/security.md).
std::string load_outcome_line(std::size_t containers, std::size_t rounds, const AuditLines& audit,
                              const HostChanges& changes, long max_rss_first, long max_rss_last);

}  // namespace graft::e2e
