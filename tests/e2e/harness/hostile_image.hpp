// SPDX-License-Identifier: Apache-2.0
// Hostile images: the machinery every hostile-image case shares.
// A Target is a container path graft writes or mounts at; a Trick is what
// the image plants there (a symlink to the host sentinel, a ../ chain, a
// loop, a dangling link, a FIFO, a device node, the wrong type). run_hostile
// starts one container with graft as its prestart hook and asserts the
// invariants: the host sentinel is unchanged, no mount reached the host, and
// the outcome is a correct injection or a clean refusal naming the path.
// Each case prints "hostile-outcome|family|target|trick|outcome|message".
#pragma once

#include <string>
#include <vector>

#include "host_sentinel.hpp"
#include "probed_container.hpp"

namespace graft::e2e {

// The host tree the image's symlinks point at; one per test process.
HostSentinel& sentinel();

// What graft expects at a target.
enum class Shape { directory, file };

enum class Trick { absolute_symlink, relative_chain, loop, dangling, fifo, device_node, wrong_type };

inline constexpr Trick kTricks[] = {Trick::absolute_symlink, Trick::relative_chain, Trick::loop,
                                    Trick::dangling,         Trick::fifo,           Trick::device_node,
                                    Trick::wrong_type};

// "is an absolute symlink to the host sentinel", for section names.
std::string trick_sentence(Trick trick, Shape shape);
// "absolute symlink", for the outcome lines.
std::string trick_short(Trick trick, Shape shape);

struct Target {
  std::string planted;  // where the entry goes
  std::string shown;    // the container path graft names
  Shape shape;
};

// The entry `trick` plants at `target` (symlinks lead into the sentinel).
PlantedEntry plant_for(Trick trick, const Target& target);

// How one hostile container is started and probed.
struct HostileRun {
  Runtime runtime = Runtime::runc;
  CgroupMode mode = CgroupMode::v1;
  // true: the plan probe (/graft-check.sh) runs after the wrapper's own
  // lines; false: the image's ldconfig or PATH must not be touched, so a
  // few probes of the wrapper's own run instead.
  bool full_probe = true;
  std::vector<std::string> markers;  // paths whose existence the wrapper reports
  // Files whose type and size ("file|PATH|regular file 12"), text
  // ("text|PATH|first line") and writability ("filewrite|PATH|rc|error")
  // the wrapper reports.
  std::vector<std::string> inspected;
};

struct CaseOutcome {
  std::string outcome;  // "injected", "refused by graft", "refused by runc"
  std::string message;  // graft's (or the runtime's) error line for a refusal
  ProbedContainer container;
};

// graft's one error line out of the runtime's stderr, "" when there is none.
std::string graft_error_line(const std::string& err);

// Starts the hostile image and asserts the invariants. `named` is what a
// refusal's error line must contain.
CaseOutcome run_hostile(BundleSpec spec, const std::string& named, const HostileRun& how = {});
// The same with the wrapper's own probes (full_probe false) and markers.
CaseOutcome run_hostile(BundleSpec spec, const std::string& named, bool full_probe,
                        const std::vector<std::string>& markers = {});

// Prints the case's "hostile-outcome|..." line.
void record(const std::string& family, const std::string& target, const std::string& trick,
            const CaseOutcome& result);

// What a family of targets shares: the request, the run, and what an
// injected container must also show for that family.
struct Family {
  std::string name;  // "library dir", for the outcome lines
  std::vector<Target> targets;
  BundleSpec spec = gpu1_compute_utility();
  HostileRun how;
  void (*check_injected)(const ProbedContainer&) = nullptr;  // e.g. check_planned_libraries
};

// Every trick at every target, each a DYNAMIC_SECTION of the calling TEST_CASE.
void run_family(const Family& family);
// The family's request in an image that plants nothing: the control that
// shows the request reaches the targets and that the family's injection
// checks hold (they never run where every trick is refused).
void run_unplanted(const Family& family);

}  // namespace graft::e2e
