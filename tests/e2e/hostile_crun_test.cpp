// SPDX-License-Identifier: Apache-2.0
// Hostile images under crun: the same hostile targets with
// crun as the runtime that runs graft's hook. Debian 12's crun 1.8.1 refuses
// this CI machine's hybrid cgroup v1 layout; a container without a hook
// tells whether crun runs here in a mode, and when it does not the case is
// skipped with crun's own words (crun_refusal, harness/probed_container.hpp).
#include <catch2/catch.hpp>

#include "harness/hostile_families.hpp"
#include "skip.hpp"

using namespace graft::e2e;

namespace {

// Skips (returns false) with crun's words when crun cannot run here in `mode`.
bool crun_runs(CgroupMode mode) {
  if (auto why = skip_reason(Runtime::crun, mode); !why.empty()) {
    ::graft::test::note_skip(why);
    return false;
  }
  if (auto why = crun_refusal(mode); !why.empty()) {
    ::graft::test::note_skip(why);
    return false;
  }
  return true;
}

void run_under_crun(Family family, const std::string& target, CgroupMode mode) {
  family = only_targets(std::move(family), {target});
  family.how.runtime = Runtime::crun;
  family.how.mode = mode;
  run_family(family);
}

}  // namespace

TEST_CASE("crun in either cgroup mode: hostile library, device and ld.so.cache targets never lead graft out of the root",
          "[e2e][hostile][crun][v1][v2]") {
  const CgroupMode mode = GENERATE(CgroupMode::v1, CgroupMode::v2);
  INFO(mode_name(mode));
  if (!crun_runs(mode)) return;
  run_under_crun(library_dir_family(), "/usr/lib/x86_64-linux-gnu", mode);
  run_under_crun(devices_family(), "/dev/nvidia1", mode);
  run_under_crun(ldcache_family(), "/etc/ld.so.cache", mode);
}
