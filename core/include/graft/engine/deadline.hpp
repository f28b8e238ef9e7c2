// SPDX-License-Identifier: Apache-2.0
// A wall-clock limit on one graft command ([limits] deadline_ms). runc
// waits for a hook without a limit of its own unless one is configured, so a
// plugin or a rule that never returns would block the container's start
// forever. When the deadline passes, a SIGALRM handler writes one line,
// "graft: <running note> did not finish within N ms" (running_note.hpp),
// optionally one audit record, and _exit(1)s: the runtime refuses the start.
//
// A signal and not a watchdog thread: setns(CLONE_NEWNS), which applying a
// plan needs, fails in a multi-threaded process. ITIMER_REAL is not
// inherited across fork, so a child graft starts (the ldcache plugin's
// ldconfig) never gets our SIGALRM; it dies with graft through its
// PR_SET_PDEATHSIG. Code that blocks or takes over SIGALRM, or sleeps
// uninterruptibly in the kernel, is not bounded by this.
#pragma once

#include <chrono>
#include <csignal>
#include <cstdint>
#include <memory>
#include <string>

namespace graft {

// An audit record prepared before anyone knows whether it will be needed:
// head + <error text, JSON-escaped> + middle + <Unix time> + tail, tail
// ending in the newline. The handler fills the two holes and appends it with
// one writev(2), so it is one line among concurrent hooks' lines.
struct LateRecord {
  std::string head, middle, tail;
};

class Deadline {
 public:
  // Arms the timer (`limit_ms` > 0) and takes SIGALRM (unblocked) until it goes.
  explicit Deadline(std::uint64_t limit_ms);
  // Disarms and gives SIGALRM back as it was.
  ~Deadline();
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;

  // Sets the limit to `limit_ms` counted from when the deadline was armed
  // (the policy's own, once it is read; already past: it fires at once).
  void limit_to(std::uint64_t limit_ms);

  // Stops the clock: what follows (the command's own audit record) is not
  // cut short and never doubled by the handler's.
  void disarm();

  // From now on the handler also appends `record` to `fd` (an audit log
  // opened O_APPEND) with the note's text as error; replaces an earlier one.
  void also_record(int fd, LateRecord record);

  std::uint64_t limit_ms() const { return limit_ms_; }

  struct AuditTarget;  // opaque: the record and the fd it goes to

 private:

  std::uint64_t limit_ms_;
  std::chrono::steady_clock::time_point armed_ = std::chrono::steady_clock::now();
  std::string ending_;  // " did not finish within N ms"
  std::unique_ptr<const AuditTarget> audit_;
  struct sigaction previous_ {};
  sigset_t previous_mask_{};
};

}  // namespace graft
