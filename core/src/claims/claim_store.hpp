// SPDX-License-Identifier: Apache-2.0
// The claims of [exclusive] gpus on disk: one file per claimed GPU or
// partition in the policy's state directory (/run/graft/claims), made by
// rename so a reader sees a whole claim or none, all under one flock so two
// hooks never both win a GPU. Nothing releases a claim: a claim whose
// holder is no longer alive (the container stopped, or its start failed
// after a hook crashed) is stale, and the next claim replaces it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "claims/claim.hpp"
#include "graft/base/error.hpp"

namespace graft {

struct ClaimConflict {
  ClaimKey wanted;
  Holder holder;  // alive, and another container
};

using HolderAlive = std::function<bool(const Holder&)>;

// Claims every key for `me`, or none of them: the first key a live holder
// of another container stands in the way of is the conflict, and nothing
// is written. A claim of `me`'s own container (a second hook, `graft
// apply`) is renewed. The directory is made (0700) when missing and must
// be a directory of graft's own user that nobody else can write.
Result<std::optional<ClaimConflict>> claim_devices(const std::string& state_dir,
                                                   const std::vector<ClaimKey>& keys, const Holder& me,
                                                   const HolderAlive& alive);

// The start time of process `pid` (/proc/<pid>/stat field 22,
// claim.hpp's stat_start_time); an error when there is no such process.
Result<std::uint64_t> process_start_time(int pid);

// Whether `holder`'s process still runs and is the one that claimed.
bool holder_alive(const Holder& holder);

}  // namespace graft
