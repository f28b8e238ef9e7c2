// SPDX-License-Identifier: Apache-2.0
// What a host directory tree looks like, entry by entry: type, mode, owner,
// size, times, link value and a content checksum. Taken before a container
// runs and compared after it, it proves that nothing done inside the
// container (or by graft while starting it) changed a host file, node,
// socket or directory.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace graft::e2e {

class TreeSnapshot {
 public:
  // Records every entry under `root` except the relative paths in `ignored`
  // (an audit log the hook appends to, say).
  explicit TreeSnapshot(std::string root, std::set<std::string> ignored = {});

  // One line per difference from the recorded state ("new entry X",
  // "changed X: ...", "missing X"); empty when the tree is as recorded.
  std::vector<std::string> changes() const;
  // Records the tree as it is now.
  void rebaseline() { recorded_ = take(); }

 private:
  using Entries = std::map<std::string, std::string>;  // relative path -> facts
  Entries take() const;

  std::string root_;
  std::set<std::string> ignored_;
  Entries recorded_;
};

}  // namespace graft::e2e
