// SPDX-License-Identifier: Apache-2.0
// The hostile image's half of a check-then-mount race (CVE-2024-0132,
// CVE-2025-23359): a thread that, while graft's prestart hook runs, flips a
// real directory of the rootfs with a symlink beside it, with
// renameat2(RENAME_EXCHANGE), as fast as it can. The exchange is atomic, so
// at every instant the container path is either the real directory or a
// symlink that leads to the host sentinel.
//
// It follows the hook through a handshake (race_hook.hpp): it flips twice to
// prove the exchange works, lets the waiting hook start graft, flips until
// the hook says graft is done, puts the real directory back, and only then
// lets the hook return, so the container itself never sees the swapped state.
#pragma once

#include <atomic>
#include <string>
#include <thread>

namespace graft::e2e {

// The handshake files of one run, in a directory of the test's own.
struct RaceSignals {
  std::string hook_started;  // FIFO: the hook waits here for the swapper
  std::string hook_done;     // file: graft has exited
  std::string swapper_done;  // FIFO: the hook waits here for the restore
  // Makes the two FIFOs in `dir`.
  static RaceSignals make_in(const std::string& dir);
};

struct SwapTally {
  long swaps = 0;          // exchanges made while graft ran (handshake and restore left out)
  bool raced = false;      // the hook started and the swapper flipped during it
  bool restored = false;   // the real directory is back at its path
  std::string failure;     // why the swapper stopped early ("" when it did not)
};

class DirectorySwapper {
 public:
  // Exchanges `parent`/`real_name` with `parent`/`link_name` (host paths of
  // the test's own rootfs; both must exist).
  DirectorySwapper(std::string parent, std::string real_name, std::string link_name,
                   RaceSignals signals);
  ~DirectorySwapper();
  DirectorySwapper(const DirectorySwapper&) = delete;
  DirectorySwapper& operator=(const DirectorySwapper&) = delete;

  // Stops waiting for a hook that never came (the runtime failed before it)
  // and returns what the swapper did. Call once the runtime has returned.
  SwapTally finish();

 private:
  void run();
  bool exchange();
  bool signal(const std::string& fifo);  // writes one line once the hook listens

  std::string parent_;
  std::string real_name_;
  std::string link_name_;
  RaceSignals signals_;
  int parent_fd_ = -1;
  std::atomic<bool> cancelled_{false};
  SwapTally tally_;
  std::thread thread_;
};

}  // namespace graft::e2e
