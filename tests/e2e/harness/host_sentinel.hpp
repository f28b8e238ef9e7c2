// SPDX-License-Identifier: Apache-2.0
// A host directory tree that a hostile image's symlinks point at. Every
// entry's type, mode, owner, size, mtime, link value and content checksum is
// recorded; changes() lists what differs now (a file written, created,
// removed, chmodded, a directory touched), so a test can prove that nothing
// graft did while starting a container reached the host through the image.
#pragma once

#include <string>
#include <vector>

#include "temp_dir.hpp"
#include "tree_snapshot.hpp"

namespace graft::e2e {

class HostSentinel {
 public:
  // Builds the tree (files named like what graft writes: libcuda.so.1,
  // ld.so.cache, nvidia-smi, ..., and directories such as lib/, etc/, dev/)
  // and records it.
  HostSentinel() = default;

  const std::string& path() const { return dir_.path(); }
  // A file of the tree (for symlinks that point at a file, not the directory).
  std::string file() const { return path() + "/libcuda.so.1"; }

  // One line per difference from the recorded state ("new entry X",
  // "changed X: ...", "missing X"); empty when the tree is byte-for-byte as
  // recorded.
  std::vector<std::string> changes() const { return recorded_.changes(); }
  // Records the tree as it is now, so that one case's damage is reported by
  // that case only.
  void rebaseline() { recorded_.rebaseline(); }

 private:
  // Makes the tree under `root` and returns `root`.
  static std::string build(const std::string& root);

  fixture::TempDir dir_{"graft-e2e-sentinel-"};
  TreeSnapshot recorded_{build(dir_.path())};
};

}  // namespace graft::e2e
