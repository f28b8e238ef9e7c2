// SPDX-License-Identifier: Apache-2.0
// One raced container start: a busybox image whose directory `target` is
// flipped with a symlink to the host sentinel (race_swapper.hpp) for as long
// as graft's prestart hook runs under `runc run` (cgroup v1). After the run
// it asserts, as Catch2 checks, what must hold whatever the race did:
//
// - nothing reached the host: the sentinel tree is byte-for-byte unchanged
//   with no new entry, the host's /proc/self/mountinfo has no added or
//   changed line (propagation fields included), and no mount in the
//   container's own namespace, as graft left it, lies outside the rootfs;
// - the outcome is an injection (the container ran, saw the real directory,
//   every probe file, a bind graft made, reads, and so does libcuda in the
//   one library directory graft chose; one audit record "applied")
//   or a refusal (the container's process never ran, graft printed one error
//   line naming the raced path, one audit record "error").
//
// An injection is complete when libcuda.so.1 also reads and `ldconfig -p`
// lists it. ldconfig scans the library directory by path, so when that
// directory (or its parent) is the one raced, the cache can miss it, and
// ldconfig's own link update (unlink, then symlink) can remove the soname
// link graft made (docs/security.md, "Races"). Such a run is one of the two
// outcomes below, accepted only for those targets.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "race_swapper.hpp"
#include "runtime.hpp"

namespace graft::e2e {

// What the image's symlink holds.
enum class LinkForm { absolute, relative_chain };

// "absolute" / "../ chain", for the outcome lines.
std::string link_form_name(LinkForm form);

struct RaceTarget {
  std::string path;    // the container directory that is flipped
  std::string mirror;  // the sentinel directory the symlink leads to ("/usr/lib")
  // Files graft binds at or below `path`: an injected container reads them.
  std::vector<std::string> probes;
};

struct RaceRun {
  std::string id;          // the container's
  CommandResult runtime;   // runc's exit status and output (the container's lines)
  std::string outcome;     // "injected" or "refused"
  std::string message;     // graft's error line for a refusal
  std::string library_dir; // where an injected container found libcuda
  SwapTally tally;
  std::size_t container_mounts = 0;  // lines of the container's mount table copy
  // One line per thing that reached outside the rootfs (a sentinel change,
  // a host mount, a container mount outside the root); empty when none did.
  std::vector<std::string> escapes;
};

// One raced start, with the checks above.
RaceRun run_raced_container(const RaceTarget& target, LinkForm form);

// The start alone: what happened, no checks (outcome and message unset).
// `after_graft` is shell the hook runs right after graft (race_hook.hpp).
RaceRun start_raced_container(const RaceTarget& target, LinkForm form,
                              const std::string& after_graft = "");

}  // namespace graft::e2e
