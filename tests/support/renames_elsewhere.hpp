// SPDX-License-Identifier: Apache-2.0
// Renames going on elsewhere on the host while a test runs: a thread renames
// a file back and forth in its own temp directory until the object is gone.
// openat2(RESOLVE_IN_ROOT) answers EAGAIN when such a rename races one of a
// lookup's ".." steps, which is what the tests using this provoke.
#pragma once

#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#include "temp_dir.hpp"

namespace graft::test {

class RenamesElsewhere {
 public:
  RenamesElsewhere() {
    std::ofstream(a_) << "a";
    renamer_ = std::thread([this] {
      while (!stop_) {
        std::rename(a_.c_str(), b_.c_str());
        std::rename(b_.c_str(), a_.c_str());
      }
    });
  }
  ~RenamesElsewhere() {
    stop_ = true;
    renamer_.join();
  }
  RenamesElsewhere(const RenamesElsewhere&) = delete;
  RenamesElsewhere& operator=(const RenamesElsewhere&) = delete;

 private:
  fixture::TempDir dir_{"graft-renames-elsewhere-"};
  const std::string a_ = dir_.path() + "/a";
  const std::string b_ = dir_.path() + "/b";
  std::atomic<bool> stop_{false};
  std::thread renamer_;
};

}  // namespace graft::test
