// SPDX-License-Identifier: Apache-2.0
#include "graft/engine/deadline.hpp"

#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <ctime>
#include <string_view>

#include "watchdog/iovec_piece.hpp"
#include "watchdog/running_note.hpp"

namespace graft {

struct Deadline::AuditTarget {
  int fd;
  LateRecord record;
};

namespace {

// What the handler reads; published only once complete. One armed Deadline
// at a time (a process runs one command).
std::atomic<const std::string*> g_ending{nullptr};
std::atomic<const Deadline::AuditTarget*> g_audit{nullptr};

constexpr int kExitError = 1;  // graft's exit status for an error (docs/cli.md)

// "<seconds>.<microseconds>" of the wall clock into `out`, without stdio.
std::size_t format_now(char (&out)[32]) {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  char digits[32];
  std::size_t count = 0;
  auto seconds = static_cast<unsigned long long>(now.tv_sec);
  do digits[count++] = static_cast<char>('0' + seconds % 10); while ((seconds /= 10) != 0);
  std::size_t length = 0;
  while (count > 0) out[length++] = digits[--count];
  out[length++] = '.';
  auto micros = static_cast<unsigned long>(now.tv_nsec / 1000);
  for (unsigned long scale = 100000; scale > 0; scale /= 10)
    out[length++] = static_cast<char>('0' + micros / scale % 10);
  return length;
}

// One writev: a partial write is not retried, since a second write would no
// longer be one atomic append among other hooks' lines.
void append_record(const Deadline::AuditTarget& audit, const std::string& ending) {
  const RunningNote* note = RunningNote::current();
  char time[32];
  std::size_t time_length = format_now(time);
  std::string_view error = note ? std::string_view(note->json()) : "command";
  iovec parts[] = {iovec_piece(audit.record.head), iovec_piece(error),          iovec_piece(ending),
                   iovec_piece(audit.record.middle), {time, time_length}, iovec_piece(audit.record.tail)};
  (void)!::writev(audit.fd, parts, 6);
}

extern "C" void on_deadline(int) {
  const std::string* ending = g_ending.load();
  if (ending == nullptr) return;  // disarmed as it fired
  RunningNote::write_current_line(*ending);
  if (const auto* audit = g_audit.load()) append_record(*audit, *ending);
  ::_exit(kExitError);
}

void set_timer(std::uint64_t micros) {
  itimerval timer{};
  timer.it_value.tv_sec = static_cast<time_t>(micros / 1000000);
  timer.it_value.tv_usec = static_cast<suseconds_t>(micros % 1000000);
  ::setitimer(ITIMER_REAL, &timer, nullptr);
}

}  // namespace

Deadline::Deadline(std::uint64_t limit_ms)
    : limit_ms_(limit_ms), ending_(" did not finish within " + std::to_string(limit_ms) + " ms") {
  g_ending.store(&ending_);
  struct sigaction action {};
  action.sa_handler = on_deadline;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGALRM, &action, &previous_);
  // The runtime's signal mask is inherited across exec; SIGALRM must get through.
  sigset_t alarm;
  sigemptyset(&alarm);
  sigaddset(&alarm, SIGALRM);
  ::sigprocmask(SIG_UNBLOCK, &alarm, &previous_mask_);
  set_timer(limit_ms * 1000);
}

void Deadline::limit_to(std::uint64_t limit_ms) {
  // The timer stops first: the handler never sees ending_ half rewritten.
  itimerval off{};
  ::setitimer(ITIMER_REAL, &off, nullptr);
  limit_ms_ = limit_ms;
  ending_ = " did not finish within " + std::to_string(limit_ms) + " ms";
  g_ending.store(&ending_);
  auto spent = std::chrono::duration_cast<std::chrono::microseconds>(
                   std::chrono::steady_clock::now() - armed_).count();
  std::uint64_t limit_us = limit_ms * 1000;
  set_timer(static_cast<std::uint64_t>(spent) >= limit_us
                ? 1
                : limit_us - static_cast<std::uint64_t>(spent));
}

Deadline::~Deadline() {
  disarm();
  g_audit.store(nullptr);
  ::sigaction(SIGALRM, &previous_, nullptr);
  ::sigprocmask(SIG_SETMASK, &previous_mask_, nullptr);
}

void Deadline::disarm() {
  itimerval off{};
  ::setitimer(ITIMER_REAL, &off, nullptr);
  g_ending.store(nullptr);
}

void Deadline::also_record(int fd, LateRecord record) {
  if (fd < 0) return;
  auto next = std::make_unique<const AuditTarget>(AuditTarget{fd, std::move(record)});
  g_audit.store(next.get());
  audit_ = std::move(next);  // the one replaced is freed only after the switch
}

}  // namespace graft
