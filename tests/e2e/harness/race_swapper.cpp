// SPDX-License-Identifier: Apache-2.0
#include "race_swapper.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace graft::e2e {
namespace {

// How many exchanges between two looks at whether graft is done: the look is
// a syscall too, and the point is to flip as often as possible.
constexpr int kFlipsPerLook = 8;

std::string errno_text(const std::string& what) { return what + ": " + std::strerror(errno); }

}  // namespace

RaceSignals RaceSignals::make_in(const std::string& dir) {
  RaceSignals signals{dir + "/hook-started", dir + "/hook-done", dir + "/swapper-done"};
  for (const auto& fifo : {signals.hook_started, signals.swapper_done})
    if (::mkfifo(fifo.c_str(), 0600) != 0) throw std::runtime_error(errno_text("mkfifo " + fifo));
  return signals;
}

DirectorySwapper::DirectorySwapper(std::string parent, std::string real_name,
                                   std::string link_name, RaceSignals signals)
    : parent_(std::move(parent)),
      real_name_(std::move(real_name)),
      link_name_(std::move(link_name)),
      signals_(std::move(signals)) {
  // CLOEXEC everywhere: the test forks runc while this thread holds fds.
  parent_fd_ = ::open(parent_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (parent_fd_ < 0) throw std::runtime_error(errno_text("open " + parent_));
  thread_ = std::thread([this] { run(); });
}

DirectorySwapper::~DirectorySwapper() {
  if (thread_.joinable()) (void)finish();
  if (parent_fd_ >= 0) ::close(parent_fd_);
}

SwapTally DirectorySwapper::finish() {
  cancelled_ = true;
  if (thread_.joinable()) thread_.join();
  return tally_;
}

bool DirectorySwapper::exchange() {
  if (::renameat2(parent_fd_, real_name_.c_str(), parent_fd_, link_name_.c_str(),
                  RENAME_EXCHANGE) == 0)
    return true;
  tally_.failure = errno_text("renameat2 " + parent_ + "/{" + real_name_ + "," + link_name_ + "}");
  return false;
}

bool DirectorySwapper::signal(const std::string& fifo) {
  // Non-blocking open: ENXIO until the hook has the FIFO open for reading,
  // so a hook that never comes cannot hang the test; finish() ends the wait.
  while (!cancelled_) {
    int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
      bool written = ::write(fd, "go\n", 3) == 3;
      ::close(fd);
      if (!written) tally_.failure = errno_text("write " + fifo);
      return written;
    }
    if (errno != ENXIO) {
      tally_.failure = errno_text("open " + fifo);
      return false;
    }
    ::usleep(100);
  }
  return false;
}

void DirectorySwapper::run() {
  // A hook that went away leaves a FIFO without a reader: EPIPE, not death.
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, nullptr);

  // Two flips before the hook starts prove the exchange works on this rootfs.
  long flips = 0;
  for (; flips < 2 && exchange(); ++flips) {
  }
  // The hook is let go even when the exchange failed: the test then fails on
  // the tally, not on a hook the runtime had to time out.
  if (signal(signals_.hook_started) && flips == 2) {
    bool graft_done = false;
    while (tally_.failure.empty() && !graft_done) {
      for (int i = 0; i < kFlipsPerLook && exchange(); ++i) ++tally_.swaps;
      graft_done = cancelled_ || ::access(signals_.hook_done.c_str(), F_OK) == 0;
    }
    tally_.raced = tally_.swaps > 0;
    flips += tally_.swaps;
  }
  if (flips % 2 != 0 && exchange()) ++flips;
  tally_.restored = flips % 2 == 0;
  (void)signal(signals_.swapper_done);
}

}  // namespace graft::e2e
